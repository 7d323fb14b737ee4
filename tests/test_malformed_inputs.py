"""Bad input must end in exit status 3 with one located message, never a traceback.

Each file in ``cases/malformed/py`` starts with ``# expect-error: lines L1,L2: alt1|alt2``: the message
must be ``file:line:col: ...`` with ``line`` one of the listed lines (several are listed where two
places are both reasonable to blame, e.g. the loop itself or the ``map`` that uses the helper), and
must mention one of the alternatives (case-insensitive), so that it tells the user *what* is wrong.

The checks run the installed console script in a subprocess, exactly as a user would, because the
contract is about what the user sees (stdout, stderr, exit status), not about exception classes.
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "cases" / "malformed" / "py"
SPARKEQ = Path(sys.executable).parent / "sparkeq"
# A valid pipeline over one RDD[int], used as the other side of every check.
VALID_SPEC = "cases/map_fusion/right.py::fused"
HEADER = re.compile(r"#\s*expect-error:\s*lines?\s*([\d,\s]+):\s*(.*)$")
LOCATED = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): (?P<msg>.+)$")


@dataclass(frozen=True)
class Expectation:
    path: Path
    function: str | None
    lines: frozenset[int]
    alternatives: tuple[str, ...]


def _pipeline_function(text: str) -> str | None:
    """The last top-level ``def`` (the pipeline comes after its helpers in every corpus file)."""
    names = re.findall(r"^def (\w+)\(", text, flags=re.MULTILINE)
    return names[-1] if names else None


def corpus() -> list[Expectation]:
    found = []
    for path in sorted(CORPUS.glob("*.py")):
        text = path.read_text()
        match = HEADER.match(text.splitlines()[0]) if text else None
        if not match:
            continue  # helper files without an expectation (valid_pipeline.py)
        lines = frozenset(int(x) for x in re.split(r"[,\s]+", match.group(1).strip()) if x)
        alternatives = tuple(a.strip() for a in match.group(2).split("|") if a.strip())
        found.append(Expectation(path, _pipeline_function(text), lines, alternatives))
    return found


def run_check(*specs: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SPARKEQ), "check", *specs, "--no-replay", "--timeout", "20"],
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )


def one_located_message(proc: subprocess.CompletedProcess[str]) -> re.Match[str]:
    """Exit 3, no traceback, exactly one non-empty output line and it is ``file:line:col: message``."""
    output = proc.stdout + proc.stderr
    assert "Traceback" not in output, output
    assert proc.returncode == 3, f"exit {proc.returncode}, expected 3; output:\n{output}"
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one message line, got:\n{output}"
    match = LOCATED.match(lines[0].strip())
    assert match, f"not a located message (file:line:col: ...): {lines[0]!r}"
    return match


def _rel(path: Path) -> str:
    return str(path.relative_to(REPO))


def _same_file(reported: str, expected: Path) -> bool:
    return (REPO / reported).resolve() == expected.resolve() or Path(reported).resolve() == expected.resolve()


CORPUS_CASES = corpus()


def test_corpus_is_there() -> None:
    names = {e.path.stem for e in CORPUS_CASES}
    assert {"syntax_error", "undefined_name", "unsupported_method", "loop_in_udf", "string_ops",
            "float_division", "missing_annotation"} <= names


@pytest.mark.parametrize("exp", CORPUS_CASES, ids=lambda e: e.path.stem)
def test_malformed_left_is_located(exp: Expectation) -> None:
    spec = f"{_rel(exp.path)}::{exp.function}" if exp.function else _rel(exp.path)
    match = one_located_message(run_check(spec, VALID_SPEC))
    assert _same_file(match["file"], exp.path), match.group(0)
    line = int(match["line"])
    assert line in exp.lines, f"line {line} not in {sorted(exp.lines)}: {match.group(0)}"
    assert int(match["col"]) >= 1
    if exp.alternatives:
        msg = match["msg"].lower()
        assert any(a.lower() in msg for a in exp.alternatives), (
            f"message should mention one of {exp.alternatives}: {match.group(0)}")


@pytest.mark.parametrize("stem", ["unsupported_method", "float_division"])
def test_malformed_right_is_located(stem: str) -> None:
    """The right-hand side is checked as carefully as the left."""
    exp = next(e for e in CORPUS_CASES if e.path.stem == stem)
    match = one_located_message(run_check(VALID_SPEC, f"{_rel(exp.path)}::{exp.function}"))
    assert _same_file(match["file"], exp.path), match.group(0)
    assert int(match["line"]) in exp.lines


def test_missing_function_in_spec() -> None:
    path = CORPUS / "valid_pipeline.py"
    match = one_located_message(run_check(f"{_rel(path)}::no_such_pipeline", VALID_SPEC))
    assert _same_file(match["file"], path), match.group(0)
    assert "no_such_pipeline" in match["msg"]


def test_nonexistent_file() -> None:
    missing = "cases/malformed/py/this_file_does_not_exist.py"
    proc = run_check(f"{missing}::f", VALID_SPEC)
    output = proc.stdout + proc.stderr
    assert "Traceback" not in output, output
    assert proc.returncode == 3, output
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1, output
    assert "this_file_does_not_exist.py" in lines[0]


def test_malformed_json_mode_is_one_object() -> None:
    """With ``--json`` the error is still exit 3, and stdout is exactly one JSON object saying why."""
    import json

    exp = next(e for e in CORPUS_CASES if e.path.stem == "unsupported_method")
    proc = subprocess.run(
        [str(SPARKEQ), "check", f"{_rel(exp.path)}::{exp.function}", VALID_SPEC, "--json", "--no-replay"],
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )
    assert "Traceback" not in proc.stdout + proc.stderr
    assert proc.returncode == 3
    obj = json.loads(proc.stdout)
    assert obj["verdict"] == "error"
    assert obj["counterexample"] is None
    assert LOCATED.match(obj["reason"].strip()), obj["reason"]
