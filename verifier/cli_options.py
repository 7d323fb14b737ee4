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
