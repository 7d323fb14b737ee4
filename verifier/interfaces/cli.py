"""``sparkeq check LEFT RIGHT [--json] [--no-replay] [--master URL] [--timeout SECONDS] [--explain]
[--diff-on-spark N]``, ``sparkeq hook ...``, ``sparkeq batch PAIRS.jsonl ...``.

Exit status (interfaces.md): 0 equivalent, 1 not equivalent, 2 unknown, 3 input error (one line
``file:line:col: message`` on stderr, never a traceback), 4 a bug in sparkeq (a short message). With
``--json`` exactly one JSON object goes to stdout. Heavy modules (Z3, rich, pyspark) are imported only
once the arguments are known to need them; pyspark only when a counterexample is replayed.

The verdict is printed before the counterexample is replayed on Spark (a JVM takes 15-25 s to start),
with a status line on stderr while Spark runs; the replay line (or a changed verdict) follows.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from verifier.interfaces import batch_cli
from verifier.interfaces.cli_options import (
    DEFAULT_REPLAY_TIMEOUT,
    add_hook_arguments,
    add_run_options,
    effort_factor,
    output_format,
    progress_line,
)

if TYPE_CHECKING:
    from verifier.core.result import Result

EXIT_INPUT_ERROR = 3
EXIT_BUG = 4

EXIT_CODES_HELP = """exit status:
  0  equivalent (proved)
  1  not equivalent (a counterexample is shown)
  2  unknown (no proof and no counterexample; the reason says why)
  3  input error (file:line:col: message), usage error
  4  a bug in sparkeq
(sparkeq hook and sparkeq batch: see their --help)"""


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse exits with 2 on a usage error, which would read as "unknown": report it as bad input."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="sparkeq", description="SMT-based equivalence checking of PySpark programs.",
                     epilog=EXIT_CODES_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action=_Version, nargs=0, help="show the version and exit")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    check = sub.add_parser("check", help="check two programs for equivalence", epilog=EXIT_CODES_HELP,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    check.add_argument("left", metavar="LEFT",
                       help="path/to/file.py::function, path/to/file.py (its single pipeline function, or "
                            "a whole script compared by what it prints and writes: docs/scripts.md), a "
                            ".sql file or a .sl file")
    check.add_argument("right", metavar="RIGHT", help="the program to compare LEFT with")
    add_run_options(check, "overall time limit of the check (default 60): a hard cap; the verdict "
                           "does not depend on it unless the check reaches it", DEFAULT_REPLAY_TIMEOUT)
    check.add_argument("--effort", type=effort_factor, default=None, metavar="N",
                       help="multiply the solver's deterministic resource budget and the counted "
                            "searches by N (default 1): raise it when a reason says the budget ran out")
    check.add_argument("--schema", action="append", default=[], metavar="FILE.sql|NAME=DDL",
                       help="schemas of DataFrame parameters and SQL tables: a file of CREATE TABLE "
                            "statements, or NAME='col TYPE [NOT NULL], ...'; an AWS Glue DynamicFrame "
                            "parameter NAME='DynamicFrame<col TYPE, ...>' (repeatable)")
    check.add_argument("--ignore-names", action="store_true",
                       help="compare DataFrame/SQL results by column position, not by column name")
    check.add_argument("--compare-diagnostics", action="store_true",
                       help="scripts: do not exclude diagnostic printouts (df.explain(), describe().show()) "
                            "from the comparison; they are refused, as they are not modelled")
    check.add_argument("--explain", action="store_true",
                       help="also show each method's own explanation (terms, formulas) and what every "
                            "step of the check said")
    check.add_argument("--diff-on-spark", type=int, default=0, metavar="N",
                       help="after the check, run N random inputs through both programs on Spark "
                            "(verifier.runtime.difftest.spark_fallback; a difference settles 'unknown')")
    add_hook_arguments(sub.add_parser("hook", help="check that changed pipeline functions are refactors "
                                      "(for pre-commit)"))
    batch_cli.add_arguments(sub.add_parser("batch", help="check many pairs (JSONL), in parallel or on a "
                                           "Spark cluster", epilog=batch_cli.EXIT_HELP,
                                           formatter_class=argparse.RawDescriptionHelpFormatter))
    return parser


class _Version(argparse.Action):
    """``--version``: the constant ``verifier.__version__`` (no heavy import, no package metadata)."""

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        from verifier import __version__

        print(f"sparkeq {__version__}")
        parser.exit()


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except _UsageError as exc:
        print(f"sparkeq: {exc}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    if args.command is None:  # bare `sparkeq`: how to use it
        parser.print_help(sys.stderr)
        return EXIT_INPUT_ERROR
    try:
        if args.command == "hook":
            from verifier.interfaces.hook import run as run_hook

            return run_hook(args)
        if args.command == "batch":
            return batch_cli.run(args)
        return _check(args)
    except KeyboardInterrupt:
        print("sparkeq: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - anything unexpected is a bug: say so briefly
        print(f"sparkeq: internal error (a bug in sparkeq): {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_BUG


def _check(args: argparse.Namespace) -> int:
    """Decide without Spark, show the verdict, then replay a counterexample (the slow part) with its
    steps on stderr, and show what Spark said."""
    try:
        fmt = output_format(args)
    except ValueError as exc:
        print(f"sparkeq: {exc}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    missing = fmt == "text" and (_missing_file(args.left) or _missing_file(args.right))
    if missing:  # before any heavy import: a typo answers at once (JSON/SARIF output a full result)
        print(missing, file=sys.stderr)
        return EXIT_INPUT_ERROR
    from verifier.interfaces.config import ConfigError, check_options, find, load

    try:
        config = _config(args, find, load)
        options = check_options(args.left, args.right, {
            "master": args.master, "timeout": args.timeout, "schema": tuple(args.schema) or None,
            "ignore_names": args.ignore_names, "effort": args.effort,
            "compare_diagnostics": args.compare_diagnostics, "config": config.path or False})
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return EXIT_INPUT_ERROR
    args.options = {**options, "config": False}
    args.replay_on = args.replay if args.replay is not None else config.replay is not False
    args.replay_budget = args.replay_timeout or config.replay_timeout or DEFAULT_REPLAY_TIMEOUT
    from verifier import check

    result = check(args.left, args.right, replay=False, **args.options)
    # a DataFrame/SQL difference resting on an error waits for Spark ("pending") before it is reported
    replay = args.replay_on and (result.verdict == "not_equivalent" or "pending" in result.stats)
    if args.diff_on_spark > 0:
        result = _diff_on_spark(result, args)
    if result.verdict == "error":
        if fmt != "text":
            _print_machine(result, args, fmt)
        print(result.reason, file=sys.stderr)
        return result.exit_code
    if fmt != "text":
        if replay:
            result = _replayed(result, args)
        _print_machine(result, args, fmt)
        return result.exit_code
    from verifier.interfaces.render import render, replay_line

    if replay and result.verdict != "not_equivalent":  # a pending difference: Spark decides the verdict
        result = _replayed(result, args)
        render(result, left=args.left, right=args.right, explain=args.explain)
        return result.exit_code
    render(result, left=args.left, right=args.right, explain=args.explain, replay_pending=replay)
    if replay:
        final = _replayed(result, args)
        _after_replay(result, final, args, replay_line)
        result = final
    return result.exit_code


def _config(args: argparse.Namespace, find: Any, load: Any) -> Any:
    """The ``[tool.sparkeq]`` for this check: ``--config``, none with ``--no-config``, else found from
    LEFT's file (or the current directory)."""
    from verifier.interfaces.config import NO_CONFIG, ConfigError, spec_path

    if args.no_config:
        return NO_CONFIG
    if args.config:
        if not os.path.isfile(args.config):
            raise ConfigError(f"{args.config}:1:1: no such file")
        return load(args.config) or NO_CONFIG
    return find(spec_path(args.left) or spec_path(args.right))


def _missing_file(spec: str) -> str | None:
    """``path:1:1: no such file`` for a spec naming a program file that does not exist (what the loader
    would say, without importing it)."""
    path = spec.partition("::")[0]
    if "\n" in spec or not path.endswith((".py", ".sql", ".sl", ".ipynb")) or os.path.exists(path):
        return None
    return f"{path}:1:1: no such file"


def _diff_on_spark(result: Result, args: argparse.Namespace) -> Result:
    from verifier.interfaces.reasons import summarise
    from verifier.runtime.difftest import spark_fallback

    with _status(f"running {args.diff_on_spark} random inputs on Spark ({args.master})"):
        return summarise(spark_fallback(result, args.left, args.right, args.diff_on_spark,
                                        master=args.master))


def _replayed(result: Result, args: argparse.Namespace) -> Result:
    """The counterexample replayed on Spark within ``--replay-timeout``, each step said on stderr."""
    from verifier import replay_counterexample

    return replay_counterexample(result, args.left, args.right, replay_timeout=args.replay_budget,
                                 progress=progress_line, **args.options)


def _after_replay(before: Result, final: Result, args: argparse.Namespace, replay_line: Any) -> None:
    """What Spark said: the replay line, new warnings, or the changed verdict in full."""
    from rich.console import Console

    console = Console()
    if final.verdict != "not_equivalent":
        from verifier.interfaces.render import render

        console.print("Spark did not reproduce the difference; the verdict changes to:")
        render(final, console, left=args.left, right=args.right, explain=args.explain)
        return
    assert final.counterexample is not None
    console.print(replay_line(final.counterexample.replayed_on_spark))
    for warning in final.warnings:
        if warning not in before.warnings:
            console.print(f"warning: {warning}", style="yellow", highlight=False)
    console.print(f"({final.seconds:.2f} s)", style="dim", highlight=False)


@contextlib.contextmanager
def _status(text: str) -> Iterator[None]:
    """A transient status line on stderr (only on a terminal: logs and pipes get no spinner noise).

    It writes to a duplicate of file descriptor 2, because starting the JVM points descriptor 2 at a
    log file for a while (``verifier.runtime.spark``) and the spinner must stay visible meanwhile."""
    if not os.isatty(2):
        yield
        return
    from rich.console import Console

    with os.fdopen(os.dup(2), "w") as stream, Console(file=stream).status(text + "\u2026"):
        yield


def _print_machine(result: Result, args: argparse.Namespace, fmt: str) -> None:
    """``--format json``: ``Result.to_json()``; ``--format sarif``: a SARIF log of this one pair."""
    if fmt == "json":
        sys.stdout.write(json.dumps(result.to_json()) + "\n")
    else:
        from verifier import __version__
        from verifier.interfaces.sarif import Finding, function_line, log

        file, line, function = function_line(args.right)
        finding = Finding(result, args.left, args.right, file, line, function)
        sys.stdout.write(json.dumps(log([finding], __version__), indent=2) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
