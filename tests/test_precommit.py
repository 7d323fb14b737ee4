"""The hook under the real ``pre-commit`` framework, in a scratch repository: ``pre-commit install``,
then ``git commit`` as a user would. Four outcomes: a proved refactor passes (and says so), a changed
behaviour is blocked with its counterexample, an unproved change passes *visibly*, an unsupported
construct is blocked with a located message; ``SKIP=sparkeq`` commits an intended change.

The hook is declared as a ``local`` hook built from this repository's ``.pre-commit-hooks.yaml`` (every
field as declared, so ``verbose: true`` is what is tested), with ``language: system`` and the installed
``sparkeq`` as entry: a ``language: python`` hook would make pre-commit build a virtualenv with pyspark
for every test run. No Spark (``--no-replay``)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
SPARKEQ = BIN / "sparkeq"
PRE_COMMIT = BIN / "pre-commit"

pytestmark = pytest.mark.skipif(not (SPARKEQ.exists() and PRE_COMMIT.exists()),
                                reason="needs the sparkeq and pre-commit executables (.[dev] extras)")

OLD = """
from pyspark import RDD


def pipeline(R: RDD[int]) -> RDD[int]:
    return R.map(lambda x: x + 1).filter(lambda y: y > 3)


def scale(R: RDD[int]) -> RDD[int]:
    return R.map(lambda x: 100 // x)
"""


def _config() -> str:
    """.pre-commit-config.yaml: the declared hook, run with this environment's sparkeq."""
    declared = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())[0]
    hook = {**declared, "language": "system", "entry": f"{SPARKEQ} {declared['entry'].split(' ', 1)[1]}",
            "args": ["--no-replay", "--timeout", "30"]}
    return yaml.safe_dump({"repos": [{"repo": "local", "hooks": [hook]}]})


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
           "PRE_COMMIT_HOME": str(tmp_path / "cache"), "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "TERM": "dumb"}
    env.pop("PRE_COMMIT_COLOR", None)
    path = tmp_path / "repo"
    path.mkdir()
    (path / ".pre-commit-config.yaml").write_text(_config())
    (path / "jobs.py").write_text(textwrap.dedent(OLD))
    for args in (["git", "init", "-q"], [str(PRE_COMMIT), "install"], ["git", "add", "-A"],
                 ["git", "commit", "-q", "-m", "old"]):
        proc = subprocess.run(args, cwd=path, env=env, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    return path, env


def commit(repo: tuple[Path, dict[str, str]], old: str, new: str,
           extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Edit jobs.py (``old`` -> ``new``), stage it and ``git commit`` (pre-commit runs the hook)."""
    path, env = repo
    text = (path / "jobs.py").read_text()
    assert old in text
    (path / "jobs.py").write_text(text.replace(old, new))
    subprocess.run(["git", "add", "jobs.py"], cwd=path, env=env, check=True)
    return subprocess.run(["git", "commit", "-m", "edit"], cwd=path, env={**env, **(extra_env or {})},
                          capture_output=True, text=True, timeout=600)


def output(proc: subprocess.CompletedProcess[str]) -> str:
    return " ".join((proc.stdout + proc.stderr).split())


def test_proved_refactor_passes_and_says_so(repo: tuple[Path, dict[str, str]]) -> None:
    proc = commit(repo, "R.map(lambda x: x + 1).filter(lambda y: y > 3)",
                  "R.filter(lambda x: x > 2).map(lambda x: x + 1)")
    assert proc.returncode == 0, output(proc)
    assert "Passed" in output(proc)
    assert "jobs.py::pipeline: proved equivalent" in output(proc)  # verbose: shown although it passed


def test_changed_behaviour_is_blocked_with_counterexample(repo: tuple[Path, dict[str, str]]) -> None:
    proc = commit(repo, "y > 3", "y > 4")
    assert proc.returncode != 0
    out = output(proc)
    assert "Failed" in out and "jobs.py::pipeline: NOT EQUIVALENT -- blocks the commit" in out
    assert "HEAD gives" in out and "staged gives" in out and "LEFT" not in out
    assert "SKIP=sparkeq" in out
    # the documented escape hatch for an intended change
    path, env = repo
    skipped = subprocess.run(["git", "commit", "-m", "intended"], cwd=path, env={**env, "SKIP": "sparkeq"},
                             capture_output=True, text=True, timeout=600)
    assert skipped.returncode == 0, output(skipped)
    assert "Skipped" in output(skipped)


def test_unproved_change_passes_visibly(repo: tuple[Path, dict[str, str]]) -> None:
    proc = commit(repo, "100 // x", "(200 // x) // 2")
    assert proc.returncode == 0, output(proc)
    out = output(proc)
    assert "Passed" in out
    assert "jobs.py::scale: NOT PROVED (unknown)" in out
    assert "may divide by zero" in out
    assert "could not be proved equivalent" in out and "--strict" in out


def test_unsupported_construct_is_blocked_with_location(repo: tuple[Path, dict[str, str]]) -> None:
    proc = commit(repo, "R.map(lambda x: 100 // x)", "R.map(lambda x: 100 // x).zipWithIndex()")
    assert proc.returncode != 0
    out = output(proc)
    assert "Failed" in out and "jobs.py:10:" in out
    assert "Traceback" not in out
    # one message, agreeing with the Failed (issue 24: it used to add "the commit is allowed")
    assert "the commit is BLOCKED" in out and "SKIP=sparkeq" in out and "allowed" not in out


# --- issue 24: CI ranges, [tool.sparkeq], replay progress -------------------------------------------


def _set_args(repo: tuple[Path, dict[str, str]], args: list[str]) -> None:
    """Rewrite the hook's ``args`` in .pre-commit-config.yaml and commit the change (no pipeline in it)."""
    path, env = repo
    config = yaml.safe_load((path / ".pre-commit-config.yaml").read_text())
    config["repos"][0]["hooks"][0]["args"] = args
    (path / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    subprocess.run(["git", "add", ".pre-commit-config.yaml"], cwd=path, env=env, check=True)
    subprocess.run(["git", "commit", "-q", "-m", "config"], cwd=path, env=env, check=True,
                   capture_output=True)


def test_pre_commit_run_from_ref_to_ref_checks_a_branch(repo: tuple[Path, dict[str, str]]) -> None:
    """CI: `pre-commit run --from-ref BASE --to-ref HEAD` checks the branch's commits, not the (empty)
    index: pre-commit passes the files and sets PRE_COMMIT_FROM_REF/TO_REF, the hook reads both sides
    from git."""
    path, env = repo
    base = subprocess.run(["git", "rev-parse", "HEAD"], cwd=path, env=env, capture_output=True,
                          text=True, check=True).stdout.strip()
    skipped = commit(repo, "y > 3", "y > 4", extra_env={"SKIP": "sparkeq"})  # lands unchecked
    assert skipped.returncode == 0, output(skipped)
    proc = subprocess.run([str(PRE_COMMIT), "run", "--from-ref", base, "--to-ref", "HEAD"], cwd=path,
                          env=env, capture_output=True, text=True, timeout=600)
    out = output(proc)
    assert proc.returncode != 0, out
    assert "jobs.py::pipeline: NOT EQUIVALENT" in out and f"{base}...HEAD" in out
    assert "BLOCKED" in out and "SKIP=sparkeq" in out


def test_schemas_from_tool_sparkeq(repo: tuple[Path, dict[str, str]]) -> None:
    """A DataFrame function without a DDL annotation, checked with the tables pyproject.toml declares."""
    path, env = repo
    (path / "pyproject.toml").write_text(
        '[tool.sparkeq]\n\n[tool.sparkeq.schemas]\norders = "id INT NOT NULL, amount INT"\n')
    (path / "etl.py").write_text(textwrap.dedent("""
        from pyspark.sql import functions as F


        def big(orders):
            return orders.filter(F.col("amount") > 10).select("id")
        """))
    subprocess.run(["git", "add", "-A"], cwd=path, env=env, check=True)
    first = subprocess.run(["git", "commit", "-m", "etl"], cwd=path, env=env, capture_output=True, text=True,
                           timeout=600)
    assert first.returncode == 0, output(first)
    (path / "etl.py").write_text((path / "etl.py").read_text().replace("> 10", ">= 10"))
    subprocess.run(["git", "add", "etl.py"], cwd=path, env=env, check=True)
    proc = subprocess.run(["git", "commit", "-m", "edit"], cwd=path, env=env, capture_output=True, text=True,
                          timeout=600)
    out = output(proc)
    assert proc.returncode != 0, out
    assert "etl.py::big: NOT EQUIVALENT" in out and "SKIP=sparkeq" in out


@pytest.mark.spark
def test_blocked_commit_replays_with_progress(repo: tuple[Path, dict[str, str]]) -> None:
    """The hook's default replays the counterexample on Spark within its budget, saying each step."""
    _set_args(repo, ["--timeout", "30"])  # the default replay budget (60 s) is what is tested
    proc = commit(repo, "y > 3", "y > 4")
    out = output(proc)
    assert proc.returncode != 0, out
    assert "sparkeq: replaying 1 counterexample(s) on Spark (at most 60 s" in out
    assert "sparkeq: starting Spark" in out
    assert "sparkeq: running LEFT on Spark: jobs.py@HEAD::pipeline" in out
    assert "sparkeq: running RIGHT on Spark: jobs.py::pipeline" in out
    assert "jobs.py::pipeline: NOT EQUIVALENT" in out and "SKIP=sparkeq" in out
    assert "Replayed on Spark: yes" in out or "not replayed on Spark: timed out" in out
