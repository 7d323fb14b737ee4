"""``sparkeq batch PAIRS.jsonl [--workers N | --master URL] [--junit-xml FILE] [--timeout SECONDS]``.

Reads one pair per line (``{"id": ..., "left": ..., "right": ..., "timeout": ...}``), checks them with
``verifier.interfaces.batch.check_many`` and writes one JSON line per pair to stdout (or ``--output``) in
input order: ``{"id", "left", "right", "result"}`` where ``result`` is ``Result.to_json()``. A rich progress
bar goes to stderr on a terminal; ``--junit-xml`` writes one test case per pair for CI systems.

Imported whenever the CLI builds its parser, so only the standard library is imported at module level.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from verifier.interfaces.cli_options import master_url

if TYPE_CHECKING:
    from verifier.core.result import Result
    from verifier.interfaces.batch import Pair

EXIT_INPUT_ERROR = 3
EXIT_HELP = """exit status:
  0  every pair proved equivalent
  1  some pair is not equivalent
  2  no pair is refuted, none has an input error, some are unknown
  3  some pair has an input error (and none is refuted), or PAIRS.jsonl itself is malformed"""


class BatchInputError(Exception):
    """A malformed line of PAIRS.jsonl, as ``file:line:col: message``."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("pairs", metavar="PAIRS.jsonl",
                        help='one JSON object per line: {"id": "...", "left": SPEC, "right": SPEC} '
                             "(optional per pair: timeout, function, left_function, right_function)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=None, metavar="N",
                       help="local worker processes (default: the number of CPUs; 1: in this process)")
    where.add_argument("--master", type=master_url, default=None, metavar="URL",
                       help="run each check as a Spark task on this master (e.g. local[2], "
                            "spark://host:7077); sparkeq is shipped to the executors with addPyFile")
    parser.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                        help="time limit of each check (default 60)")
    parser.add_argument("--output", "-o", default=None, metavar="FILE",
                        help="write the JSON lines here instead of stdout")
    parser.add_argument("--junit-xml", default=None, metavar="FILE",
                        help="also write a JUnit XML report (one test case per pair)")
    parser.add_argument("--format", choices=("jsonl", "sarif"), default="jsonl",
                        help="jsonl (default: one JSON line per pair) or sarif (one SARIF 2.1.0 log, a "
                             "result per pair that is not proved)")


def read_pairs(path: str) -> list[Pair]:
    """The pairs of a JSONL file (blank lines and lines starting with ``#`` are skipped)."""
    from verifier.interfaces.batch import Pair

    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except FileNotFoundError:
        raise BatchInputError(f"{path}:1:1: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BatchInputError(f"{path}:1:1: cannot read file: {exc}") from None
    pairs = []
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise BatchInputError(f"{path}:{number}:{exc.colno}: not a JSON object: {exc.msg}") from None
        try:
            pairs.append(Pair.of(item, len(pairs)))
        except ValueError as exc:
            raise BatchInputError(f"{path}:{number}:1: {exc}") from None
    return pairs


def exit_status(results: Sequence[Result]) -> int:
    verdicts = {r.verdict for r in results}
    for verdict, status in (("not_equivalent", 1), ("error", 3), ("unknown", 2)):
        if verdict in verdicts:
            return status
    return 0


def run(args: argparse.Namespace) -> int:
    """Run the batch for parsed CLI arguments and return the exit status."""
    if (args.timeout is not None and not 0 < args.timeout < float("inf")) \
            or (args.workers is not None and args.workers < 1):
        print("sparkeq batch: --timeout and --workers must be positive", file=sys.stderr)
        return EXIT_INPUT_ERROR
    try:
        pairs = read_pairs(args.pairs)
    except BatchInputError as exc:
        print(exc, file=sys.stderr)
        return EXIT_INPUT_ERROR
    from verifier.interfaces.batch import check_many

    with _Progress(len(pairs)) as progress:
        results = check_many(pairs, workers=args.workers, master=args.master, progress=progress.advance,
                             timeout=args.timeout)
    if args.format == "sarif":
        lines = [json.dumps(sarif_log(pairs, results), indent=2) + "\n"]
    else:
        lines = [json.dumps(record(p, r)) + "\n" for p, r in zip(pairs, results, strict=True)]
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.writelines(lines)
    else:
        sys.stdout.writelines(lines)
        sys.stdout.flush()
    if args.junit_xml:
        write_junit(args.junit_xml, pairs, results)
    for result in results:
        if result.verdict == "error":
            print(result.reason, file=sys.stderr)
    return exit_status(results)


def record(pair: Pair, result: Result) -> dict[str, Any]:
    """One output line: the pair as the user gave it and ``Result.to_json()``."""
    return {"id": pair.id, "left": pair.left.spec, "right": pair.right.spec, "result": result.to_json()}


def sarif_log(pairs: Sequence[Pair], results: Sequence[Result]) -> dict[str, Any]:
    """The batch as one SARIF log (``verifier.interfaces.sarif``): each pair at RIGHT's function."""
    from verifier import __version__
    from verifier.interfaces.sarif import Finding, function_line, log

    findings = []
    for pair, result in zip(pairs, results, strict=True):
        file, line, function = function_line(pair.right.spec)
        findings.append(Finding(result, pair.left.spec, pair.right.spec, file, line, function))
    return log(findings, __version__)


def write_junit(path: str, pairs: Sequence[Pair], results: Sequence[Result]) -> None:
    """JUnit XML: a failure per refuted pair, an error per input error, ``skipped`` for unknown (CI
    systems show it, and do not fail the build on it), one ``testcase`` per pair."""
    import xml.etree.ElementTree as ET

    suite = ET.Element("testsuite", name="sparkeq", tests=str(len(pairs)),
                       failures=str(sum(r.verdict == "not_equivalent" for r in results)),
                       errors=str(sum(r.verdict == "error" for r in results)),
                       skipped=str(sum(r.verdict == "unknown" for r in results)),
                       time=f"{sum(r.seconds for r in results):.3f}")
    for pair, result in zip(pairs, results, strict=True):
        case = ET.SubElement(suite, "testcase", classname="sparkeq", name=pair.id,
                             time=f"{result.seconds:.3f}")
        body = f"{pair.left.spec}\n{pair.right.spec}\n" + json.dumps(result.to_json(), indent=2)
        tag = {"not_equivalent": "failure", "error": "error", "unknown": "skipped"}.get(result.verdict)
        if tag is not None:
            element = ET.SubElement(case, tag, message=result.reason or result.verdict,
                                    type=result.verdict)
            element.text = body
        else:
            ET.SubElement(case, "system-out").text = body
    ET.ElementTree(suite).write(path, encoding="utf-8", xml_declaration=True)


class _Progress:
    """A rich progress bar on stderr when it is a terminal; silent otherwise (logs, CI, pipes)."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.bar: Any = None
        self.task: Any = None

    def __enter__(self) -> _Progress:
        from rich.console import Console

        console = Console(stderr=True)
        if console.is_terminal:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

            self.bar = Progress("checking pairs", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                                console=console, transient=True)
            self.bar.__enter__()
            self.task = self.bar.add_task("pairs", total=self.total)
        return self

    def advance(self, index: int, result: Result) -> None:
        if self.bar is not None:
            self.bar.advance(self.task)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
