"""Command-line options shared by ``sparkeq check`` and ``sparkeq hook`` (one definition, one help text)."""

from __future__ import annotations

import argparse
import re
import sys

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


def add_run_options(parser: argparse.ArgumentParser, timeout_help: str,
                    replay_timeout_default: float) -> None:
    """``--format``/``--json``, ``--replay``/``--no-replay``, ``--replay-timeout``, ``--master`` and
    ``--timeout``: how a check runs and reports. Unset options (None) fall back to ``[tool.sparkeq]``
    (docs/config.md), then to the defaults named here."""
    parser.add_argument("--format", choices=FORMATS, default=None,
                        help="text (default), json (one JSON object on stdout: docs/json.md) or sarif "
                             "(a SARIF 2.1.0 log on stdout, for code-scanning annotations)")
    parser.add_argument("--json", action="store_true", help="the same as --format json")
    parser.add_argument("--replay", action=argparse.BooleanOptionalAction, default=None,
                        help="replay a counterexample on Spark (default: on; --no-replay when Java or the "
                             "time for a JVM start is missing)")
    parser.add_argument("--replay-timeout", type=seconds, default=None, metavar="SECONDS",
                        help=f"time budget of all replays on Spark, JVM start included (default "
                             f"{replay_timeout_default:g}); past it a verdict stays, 'not replayed: timed "
                             "out'")
    parser.add_argument("--master", default="local[2]", type=master_url,
                        help="Spark master for replay (default local[2])")
    parser.add_argument("--timeout", type=seconds, default=None, metavar="SECONDS", help=timeout_help)
    parser.add_argument("--config", default=None, metavar="PYPROJECT",
                        help="the pyproject.toml whose [tool.sparkeq] to read (default: found by walking up "
                             "from the checked files; docs/config.md)")
    parser.add_argument("--no-config", action="store_true", help="ignore [tool.sparkeq]")


FORMATS = ("text", "json", "sarif")
DEFAULT_REPLAY_TIMEOUT = 180.0
HOOK_REPLAY_TIMEOUT = 60.0


def seconds(text: str) -> float:
    """A positive, finite number of seconds (checked before anything heavy is imported)."""
    return _positive(text, "a number of seconds", "a positive number of seconds")


def effort_factor(text: str) -> float:
    """``--effort``: a positive, finite multiplier of the deterministic budgets (``check`` and ``hook``)."""
    return _positive(text, "a number", "a positive number")


def _positive(text: str, what: str, positive: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
    if not 0 < value < float("inf"):  # also rejects nan
        raise argparse.ArgumentTypeError(f"must be {positive}")
    return value


def output_format(args: argparse.Namespace) -> str:
    """The chosen output format; ``--json`` with another ``--format`` is a usage error (ValueError)."""
    if args.json:
        if args.format not in (None, "json"):
            raise ValueError(f"--json contradicts --format {args.format}")
        return "json"
    return args.format or "text"


def add_hook_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``hook`` subcommand's arguments (here, so building the CLI's parser does not import the hook)."""
    parser.add_argument("files", nargs="*", metavar="FILES",
                        help="files to check (default: the .py files changed against REV)")
    parser.add_argument("--rev", default=None,
                        help="the revision holding the old versions (default HEAD)")
    side = parser.add_mutually_exclusive_group()
    side.add_argument("--staged", action="store_true",
                      help="compare REV with the index (what is about to be committed)")
    side.add_argument("--working-tree", action="store_true",
                      help="compare REV with the working tree (the default)")
    parser.add_argument("--from-ref", default=None, metavar="A",
                        help="with --to-ref: check the branch A...B (old side: the merge base of A and B, "
                             "new side: B), as `pre-commit run --from-ref A --to-ref B` does; pre-commit's "
                             "PRE_COMMIT_FROM_REF/PRE_COMMIT_TO_REF are read too")
    parser.add_argument("--to-ref", default=None, metavar="B", help="the new side of --from-ref")
    parser.add_argument("--strict", action=argparse.BooleanOptionalAction, default=None,
                        help="block on unknown verdicts too (exit 2); default off")
    parser.add_argument("--unsupported", choices=("block", "allow"), default=None,
                        help="what an input error in the new version does (a construct sparkeq does not "
                             "support, a changed signature): block (default, exit 3) or allow (reported)")
    parser.add_argument("--schema", action="append", default=[], metavar="FILE.sql|NAME=DDL",
                        help="schemas of DataFrame parameters and SQL tables (repeatable), after those of "
                             "[tool.sparkeq]")
    parser.add_argument("--effort", type=effort_factor, default=None, metavar="N",
                        help="multiply each check's deterministic solver budget and counted searches by N "
                             "(default 1), as `sparkeq check --effort`")
    parser.add_argument("--explain", action="store_true",
                        help="say what the hook would check and what blocks a commit (the policy and "
                             "where each setting comes from), without checking anything")
    add_run_options(parser, "time limit of each function's check (default: check's, 60)",
                    HOOK_REPLAY_TIMEOUT)


def progress_line(text: str) -> None:
    """One replay step on stderr (a plain line: pre-commit and CI logs keep it, a spinner they would
    not)."""
    print(f"sparkeq: {text}", file=sys.stderr, flush=True)
