"""``sparkeq check LEFT RIGHT [--json] [--no-replay] [--master URL] [--timeout SECONDS]
[--diff-on-spark N]``.

Exit status (interfaces.md): 0 equivalent, 1 not equivalent, 2 unknown, 3 input error (one line
``file:line:col: message`` on stderr, never a traceback), 4 a bug in sparkeq (a short message). With
``--json`` exactly one JSON object goes to stdout. Heavy modules (Z3, rich, pyspark) are imported only
once the arguments are known to need them; pyspark only when a counterexample is replayed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from verifier.cli_options import add_run_options

EXIT_INPUT_ERROR = 3
EXIT_BUG = 4


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse exits with 2 on a usage error, which would read as "unknown": report it as bad input."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="sparkeq", description="SMT-based equivalence checking of PySpark programs.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    check = sub.add_parser("check", help="check two programs for equivalence")
    check.add_argument("left", metavar="LEFT",
                       help="path/to/file.py::function, path/to/file.py or a .sl file")
    check.add_argument("right", metavar="RIGHT", help="the program to compare LEFT with")
    add_run_options(check, "overall time limit of the check (default 60)")
    check.add_argument("--diff-on-spark", type=int, default=0, metavar="N",
                       help="after the check, run N random inputs through both programs on Spark "
                            "(verifier.difftest.spark_fallback; a difference settles 'unknown')")
    from verifier import hook  # light: stdlib only until there is something to check

    hook.add_arguments(sub.add_parser("hook", help="check that changed pipeline functions are refactors "
                                      "(for pre-commit)"))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
    except _UsageError as exc:
        print(f"sparkeq: {exc}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    try:
        if args.command == "hook":
            from verifier.hook import run as run_hook

            return run_hook(args)
        return _check(args)
    except KeyboardInterrupt:
        print("sparkeq: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - anything unexpected is a bug: say so briefly
        print(f"sparkeq: internal error (a bug in sparkeq): {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_BUG


def _check(args: argparse.Namespace) -> int:
    from verifier.api import check

    if args.timeout is not None and args.timeout <= 0:
        print("sparkeq: --timeout must be positive", file=sys.stderr)
        return EXIT_INPUT_ERROR
    result = check(args.left, args.right, replay=not args.no_replay, master=args.master, timeout=args.timeout)
    if args.diff_on_spark > 0:
        from verifier.difftest import spark_fallback

        result = spark_fallback(result, args.left, args.right, args.diff_on_spark, master=args.master)
    if args.json:
        sys.stdout.write(json.dumps(result.to_json()) + "\n")
        sys.stdout.flush()
        if result.verdict == "error":
            print(result.reason, file=sys.stderr)
        return result.exit_code
    if result.verdict == "error":
        print(result.reason, file=sys.stderr)
        return result.exit_code
    from verifier.render import render

    render(result, left=args.left, right=args.right)
    return result.exit_code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
