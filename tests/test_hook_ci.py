"""``sparkeq hook`` for CI and teams (issue 24): one policy (``decision``) behind the exit status and the
closing message, the ``SKIP=sparkeq`` hint on every blocked run, ``--explain``, a branch checked with
``--from-ref/--to-ref`` (and pre-commit's ``PRE_COMMIT_FROM_REF``/``PRE_COMMIT_TO_REF``), ``--schema``
and ``[tool.sparkeq]``. Real git repositories, real Z3, no Spark."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_hook import (
    EARLY_FILTER,
    EARLY_FILTER_WRONG,
    LATE_FILTER,
    commit,
    git,
    hook,
    hook_json,
    module,
    repo,
)

__all__ = ["repo"]  # the fixture

SCALE_OLD = "\ndef scale(R: RDD[int]) -> RDD[int]:\n    return R.map(lambda x: 100 // x)\n"
SCALE_NEW = "\ndef scale(R: RDD[int]) -> RDD[int]:\n    return R.map(lambda x: (200 // x) // 2)\n"
DF_OLD = """
from pyspark.sql import functions as F


def big(orders):
    return orders.filter(F.col("amount") > 10).select("id")
"""
DF_NEW = DF_OLD.replace('orders.filter(F.col("amount") > 10)',
                        'orders.select("id", "amount").filter(F.col("amount") > 10)')


def flat(text: str) -> str:
    return " ".join(text.split())


def test_blocked_run_says_blocked_once_with_the_skip_hint(repo: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    commit(repo, {"jobs.py": module(LATE_FILTER)})
    (repo / "jobs.py").write_text(module(EARLY_FILTER_WRONG))
    code, out, _ = hook(capsys)
    assert code == 1
    out = flat(out)
    assert "jobs.py::pipeline: NOT EQUIVALENT -- blocks the change" in out
    assert "is BLOCKED by 1 function(s): jobs.py::pipeline" in out and "SKIP=sparkeq" in out
    assert "allowed" not in out


def test_unsupported_construct_blocks_with_the_skip_hint_and_no_allowed(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's report: an unsupported construct printed Failed, then "the commit is allowed"."""
    commit(repo, {"jobs.py": module(LATE_FILTER)})
    (repo / "jobs.py").write_text(module(LATE_FILTER.replace("y > 3)", "y > 3).zipWithIndex()")))
    code, out, err = hook(capsys)
    assert code == 3
    assert "jobs.py:5:" in err
    out = flat(out)
    assert "INPUT ERROR in the new version" in out and "BLOCKED" in out and "SKIP=sparkeq" in out
    assert "allowed" not in out
    # the project may choose to let such changes through, visibly
    code, out, _ = hook(capsys, "--unsupported", "allow")
    assert code == 0
    assert "-- allowed (unsupported = allow)" in flat(out) and "BLOCKED" not in out


def test_unknown_is_allowed_visibly_and_strict_blocks_it(repo: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    commit(repo, {"jobs.py": module(SCALE_OLD)})
    (repo / "jobs.py").write_text(module(SCALE_NEW))
    code, out, _ = hook(capsys)
    assert code == 0
    out = flat(out)
    assert "jobs.py::scale: NOT PROVED (unknown) -- allowed" in out
    assert "the change is allowed, but 1 changed function(s) could not be proved" in out
    assert "SKIP=sparkeq" not in out
    code, out, _ = hook(capsys, "--strict")
    assert code == 2
    out = flat(out)
    assert "NOT PROVED (unknown) -- blocks the change" in out and "BLOCKED" in out and "SKIP=sparkeq" in out


def test_explain_states_the_policy_and_checks_nothing(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    commit(repo, {"jobs.py": module(LATE_FILTER, SCALE_OLD)})
    (repo / "jobs.py").write_text(module(EARLY_FILTER_WRONG, SCALE_OLD))
    code, out, _ = hook(capsys, "--explain", "--strict")
    assert code == 0
    out = flat(out)
    assert "not equivalent (a counterexample) -> BLOCKS (exit 1)" in out
    assert "-> BLOCKS (exit 2, --strict)" in out
    assert "jobs.py::pipeline: would be checked (its code changed)" in out
    assert "jobs.py::scale: unchanged, not checked" in out
    assert "replay of counterexamples on Spark: off" in out  # hook() passes --no-replay
    assert "NOT EQUIVALENT" not in out


def test_from_ref_to_ref_checks_a_branch(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    commit(repo, {"jobs.py": module(LATE_FILTER)})
    git(repo, "branch", "-M", "main")
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, {"jobs.py": module(EARLY_FILTER)})
    commit(repo, {"jobs.py": module(EARLY_FILTER_WRONG)})
    # nothing staged or modified: --staged alone sees nothing, the branch range sees the broken refactor
    code, data = hook_json(capsys, "--staged")
    assert code == 0 and data["results"] == []
    code, data = hook_json(capsys, "--from-ref", "main", "--to-ref", "HEAD")
    assert code == 1
    (entry,) = data["results"]
    assert entry["old"] == "jobs.py@main" and entry["new"] == "jobs.py@HEAD"
    assert data["rev"] == "main...HEAD" and data["against"] == "ref"
    assert entry["result"]["verdict"] == "not_equivalent"
    # the range is read from git, not from the working tree
    (repo / "jobs.py").write_text(module(LATE_FILTER))
    assert hook_json(capsys, "--from-ref", "main", "--to-ref", "HEAD")[0] == 1
    # HEAD~1 (the correct refactor) against main passes
    assert hook_json(capsys, "--from-ref", "main", "--to-ref", "HEAD~1")[0] == 0


def test_pre_commit_environment_selects_the_range(repo: Path, capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    commit(repo, {"jobs.py": module(LATE_FILTER)})
    base = git(repo, "rev-parse", "HEAD").strip()
    commit(repo, {"jobs.py": module(EARLY_FILTER_WRONG)})
    monkeypatch.setenv("PRE_COMMIT_FROM_REF", base)
    monkeypatch.setenv("PRE_COMMIT_TO_REF", "HEAD")
    code, out, _ = hook(capsys, "--staged", "jobs.py")  # the declared entry, as pre-commit calls it
    assert code == 1
    assert "jobs.py::pipeline: NOT EQUIVALENT" in out


def test_range_errors(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    commit(repo, {"jobs.py": module(LATE_FILTER)})
    code, _, err = hook(capsys, "--from-ref", "HEAD")
    assert code == 3 and "--from-ref and --to-ref go together" in err
    code, _, err = hook(capsys, "--from-ref", "nope", "--to-ref", "HEAD")
    assert code == 3 and "unknown revision 'nope'" in err


def test_schema_option_and_tool_sparkeq(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    commit(repo, {"etl.py": DF_OLD})
    (repo / "etl.py").write_text(DF_NEW)
    code, out, err = hook(capsys)
    # an un-annotated DataFrame parameter, in both versions: nothing to go on, so unknown (allowed)
    assert code == 0 and "etl.py::big: NOT PROVED (unknown)" in out and "has no schema" in flat(out)
    code, out, _ = hook(capsys, "--schema", "orders=id INT NOT NULL, amount INT")
    assert code == 0 and "etl.py::big: proved equivalent" in out
    (repo / "pyproject.toml").write_text(
        '[tool.sparkeq]\nstrict = true\n\n[tool.sparkeq.schemas]\norders = "id INT NOT NULL, amount INT"\n')
    code, out, _ = hook(capsys, "--explain")
    assert "pyproject.toml" in out and "BLOCKS (exit 2, --strict)" in flat(out)
    code, out, _ = hook(capsys)
    assert code == 0 and "etl.py::big: proved equivalent" in out


def test_exclude_skips_paths(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    commit(repo, {"jobs.py": module(LATE_FILTER),
                  "pyproject.toml": '[tool.sparkeq]\nexclude = ["jobs.py"]\n'})
    (repo / "jobs.py").write_text(module(EARLY_FILTER_WRONG))
    code, data = hook_json(capsys)
    assert code == 0 and data["results"] == []


def test_effort_reaches_the_hook_and_is_checked(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # issue 24: the deterministic budgets' --effort is an option of the hook as of check
    commit(repo, {"jobs.py": module(LATE_FILTER, SCALE_OLD)})
    (repo / "jobs.py").write_text(module(EARLY_FILTER_WRONG, SCALE_OLD))
    code, out, _ = hook(capsys, "--explain", "--effort", "4")
    assert code == 0 and "effort 4" in flat(out)
    code, out, err = hook(capsys, "--effort", "0")
    assert code == 3 and "argument --effort: must be a positive number" in flat(out + err)
