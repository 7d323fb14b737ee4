"""The README's ``.pre-commit-config.yaml`` snippet works as written (issue 24): taken verbatim from the
README (only ``repo:`` pointed at a local clone of this repository carrying the tag ``rev:`` names), the
real ``pre-commit`` framework builds the hook's environment from the clone (``language: python``: it
pip-installs sparkeq, Z3, PySpark...), then a proved refactor commits and a changed behaviour is blocked
with the ``SKIP=sparkeq`` hint.

Slow (pre-commit installs PySpark into a fresh virtualenv: minutes, and it needs the package index or
pip's cache), so it is marked ``slow``: ``bash scripts/test_slow.sh`` runs it. The tag is made in the
scratch clone only."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
PRE_COMMIT = BIN / "pre-commit"

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not PRE_COMMIT.exists(), reason="needs pre-commit (.[dev] extras)")]


def readme_snippet() -> str:
    text = (ROOT / "README.md").read_text()
    section = text[text.index("**pre-commit.**"):]
    return re.search(r"```yaml\n(.*?)```", section, re.S).group(1)


def run(args: list[str], cwd: Path, env: dict[str, str], check: bool = True
        ) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=3000)
    assert not check or proc.returncode == 0, proc.stdout + proc.stderr
    return proc


def test_readme_snippet_verbatim(tmp_path: Path) -> None:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
           "PRE_COMMIT_HOME": str(tmp_path / "cache"), "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "TERM": "dumb"}
    snippet = readme_snippet()
    rev = re.search(r"rev: (\S+)", snippet).group(1)
    clone = tmp_path / "sparkeq"
    run(["git", "clone", "-q", str(ROOT), str(clone)], tmp_path, env)
    head = run(["git", "rev-parse", "HEAD"], ROOT, env).stdout.strip()
    run(["git", "checkout", "-q", head], clone, env)
    run(["git", "tag", rev], clone, env)  # the tag the lead creates on main; here in the clone only
    project = tmp_path / "project"
    project.mkdir()
    config = re.sub(r"repo: \S+", f"repo: {clone}", snippet, count=1)
    (project / ".pre-commit-config.yaml").write_text(config)
    (project / "jobs.py").write_text(textwrap.dedent("""
        from pyspark import RDD


        def pipeline(R: RDD[int]) -> RDD[int]:
            return R.map(lambda x: x + 1).filter(lambda y: y > 3)
        """))
    for args in (["git", "init", "-q"], [str(PRE_COMMIT), "install"], ["git", "add", "-A"]):
        run(args, project, env)
    first = run(["git", "commit", "-q", "-m", "old"], project, env, check=False)  # builds the environment
    assert first.returncode == 0, first.stdout + first.stderr
    text = (project / "jobs.py").read_text()
    (project / "jobs.py").write_text(text.replace("R.map(lambda x: x + 1).filter(lambda y: y > 3)",
                                                  "R.filter(lambda x: x > 2).map(lambda x: x + 1)"))
    run(["git", "add", "jobs.py"], project, env)
    proved = run(["git", "commit", "-m", "refactor"], project, env, check=False)
    out = " ".join((proved.stdout + proved.stderr).split())
    assert proved.returncode == 0, out
    assert "jobs.py::pipeline: proved equivalent" in out
    (project / "jobs.py").write_text((project / "jobs.py").read_text().replace("x > 2", "x > 3"))
    run(["git", "add", "jobs.py"], project, env)
    blocked = run(["git", "commit", "-m", "wrong"], project, env, check=False)
    out = " ".join((blocked.stdout + blocked.stderr).split())
    assert blocked.returncode != 0, out
    assert "jobs.py::pipeline: NOT EQUIVALENT" in out and "SKIP=sparkeq" in out
