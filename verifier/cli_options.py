"""Command-line options shared by ``sparkeq check`` and ``sparkeq hook`` (one definition, one help text)."""

from __future__ import annotations

import argparse


def add_run_options(parser: argparse.ArgumentParser, timeout_help: str) -> None:
    """``--json``, ``--no-replay``, ``--master`` and ``--timeout``: how a check runs and reports."""
    parser.add_argument("--json", action="store_true", help="print exactly one JSON object on stdout")
    parser.add_argument("--no-replay", action="store_true", help="do not replay counterexamples on Spark")
    parser.add_argument("--master", default="local[2]", help="Spark master for replay (default local[2])")
    parser.add_argument("--timeout", type=float, default=None, metavar="SECONDS", help=timeout_help)
