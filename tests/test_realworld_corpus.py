"""Script mode over every file of the shared real-world corpus (issue 25): no internal error.

Why: the corpus (``../shared/corpora/realworld``, public PySpark code nobody on the team wrote) found
exceptions escaping the frontends (``KeyError: _StrV``, ``_FieldV``, ``_ArgV``; a ``MemoryError`` from
building ``range(10**9)`` before reading its length). Every file, compared with itself as
``sparkeq check F F --no-replay`` would, must end in a verdict or a located input error (exit 3), never
in an exception (exit 4). The check runs in process (no JVM, no replay) with a short per-file timeout,
so the scripts take about 15 s (CI); the module-level functions with parameters (``F::fn F::fn``,
149 of them, about 35 s) run in the slow suite.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "realworld"
FILES = sorted(CORPUS.rglob("*.py")) if CORPUS.is_dir() else []
PER_FILE_TIMEOUT = 5.0


@pytest.mark.skipif(not FILES, reason=f"the shared real-world corpus is not at {CORPUS}")
def test_no_internal_error_on_the_realworld_corpus() -> None:
    from verifier.api import check

    failures: list[str] = []
    verdicts: dict[str, int] = {}
    for path in FILES:
        try:
            result = check(str(path), str(path), timeout=PER_FILE_TIMEOUT, replay=False)
        except Exception as exc:  # noqa: BLE001 - exactly what this test looks for
            failures.append(f"{path.relative_to(CORPUS)}: {type(exc).__name__}: {exc}")
            continue
        verdicts[result.verdict] = verdicts.get(result.verdict, 0) + 1
        if result.verdict == "error" and not _located(result.reason or ""):
            failures.append(f"{path.relative_to(CORPUS)}: an input error without a location: {result.reason}")
        if result.verdict == "not_equivalent":  # a file differs from itself: a wrong verdict
            failures.append(f"{path.relative_to(CORPUS)}: not equivalent to itself")
    assert not failures, "\n".join(failures)
    assert sum(verdicts.values()) == len(FILES)


def _located(reason: str) -> bool:
    """``file:line:col: message``."""
    head = reason.split(": ", 1)[0].rsplit(":", 2)
    return len(head) == 3 and head[1].isdigit() and head[2].isdigit()


def _functions() -> list[tuple[Path, str]]:
    out = []
    for path in FILES:
        try:
            tree = ast.parse(path.read_text())
        except SyntaxError:
            continue
        out += [(path, s.name) for s in tree.body if isinstance(s, ast.FunctionDef) and s.args.args]
    return out


@pytest.mark.slow
@pytest.mark.skipif(not FILES, reason=f"the shared real-world corpus is not at {CORPUS}")
def test_no_internal_error_on_the_realworld_functions() -> None:
    from verifier.api import check

    failures: list[str] = []
    units = _functions()
    for path, name in units:
        spec = f"{path}::{name}"
        try:
            result = check(spec, spec, timeout=PER_FILE_TIMEOUT, replay=False)
        except Exception as exc:  # noqa: BLE001 - exactly what this test looks for
            failures.append(f"{path.relative_to(CORPUS)}::{name}: {type(exc).__name__}: {exc}")
            continue
        if result.verdict == "not_equivalent":
            failures.append(f"{path.relative_to(CORPUS)}::{name}: not equivalent to itself")
    assert not failures, "\n".join(failures)
    assert len(units) > 100
