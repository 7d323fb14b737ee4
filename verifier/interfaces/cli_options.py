"""Command-line options shared by ``sparkeq check`` and ``sparkeq hook`` (one definition, one help text)."""

from __future__ import annotations

import argparse
import re

# Spark's master URL forms (spark-submit --master); anything else would end in a JVM stack trace.
_MASTER = re.compile(r"local(\[(\d+|\*)(,\s*\d+)?\])?|local-cluster\[\d+,\s*\d+,\s*\d+\]|yarn"
                     r"|(spark|mesos|k8s)://\S+")


def master_url(text: str) -> str:
    """``--master``'s type: a Spark master URL, checked before any JVM starts (a bad one is a clean
    usage error, exit 3)."""
    if not _MASTER.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a Spark master URL (expected local, local[N], local[*], spark://HOST:PORT, "
            "yarn, k8s://URL or mesos://URL)")
    return text.strip()


def add_run_options(parser: argparse.ArgumentParser, timeout_help: str) -> None:
    """``--json``, ``--no-replay``, ``--master`` and ``--timeout``: how a check runs and reports."""
    parser.add_argument("--json", action="store_true", help="print exactly one JSON object on stdout")
    parser.add_argument("--no-replay", action="store_true", help="do not replay counterexamples on Spark")
    parser.add_argument("--master", default="local[2]", type=master_url,
                        help="Spark master for replay (default local[2])")
    parser.add_argument("--timeout", type=float, default=None, metavar="SECONDS", help=timeout_help)


def add_hook_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``hook`` subcommand's arguments (here, so building the CLI's parser does not import the hook)."""
    parser.add_argument("files", nargs="*", metavar="FILES",
                        help="files to check (default: the .py files changed against REV)")
    parser.add_argument("--rev", default="HEAD", help="the revision holding the old versions (default HEAD)")
    side = parser.add_mutually_exclusive_group()
    side.add_argument("--staged", action="store_true",
                      help="compare REV with the index (what is about to be committed)")
    side.add_argument("--working-tree", action="store_true",
                      help="compare REV with the working tree (the default)")
    parser.add_argument("--strict", action="store_true", help="exit 2 if any verdict is unknown")
    add_run_options(parser, "time limit of each function's check (default: check's, 60)")
