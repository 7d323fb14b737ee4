"""``sparkeq hook``: real git repositories under tmp_path, real Z3, no Spark (``--no-replay``).

Each test commits an old version of a module, edits it (in the working tree or the index) and runs the
hook in-process through ``verifier.interfaces.cli.main`` -- the same entry point as the console script --
except the end-to-end test, which installs the documented ``.git/hooks/pre-commit`` script and lets
``git commit`` run the real ``sparkeq`` executable.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from schema_util import validate

from verifier import check
from verifier.core.result import Result
from verifier.interfaces.cli import main

ROOT = Path(__file__).resolve().parent.parent
SPARKEQ = Path(sys.executable).parent / "sparkeq"

HEADER = "from pyspark import RDD\n\n"

LATE_FILTER = """
def pipeline(R: RDD[int]) -> RDD[int]:
    return R.map(lambda x: x + 1).filter(lambda y: y > 3)
"""
EARLY_FILTER = """
def pipeline(R: RDD[int]) -> RDD[int]:
    # filter pushed below the map: x + 1 > 3 iff x > 2
    return R.filter(lambda x: x > 2).map(lambda x: x + 1)
"""
EARLY_FILTER_WRONG = """
def pipeline(R: RDD[int]) -> RDD[int]:
    return R.filter(lambda x: x > 3).map(lambda x: x + 1)
"""
OTHER = """
def other(R: RDD[int]) -> RDD[int]:
    return R.map(lambda x: 2 * x)
"""


def module(*functions: str) -> str:
    return HEADER + "\n".join(textwrap.dedent(f) for f in functions)


def git(repo: Path, *args: str) -> str:
    proc = subprocess.run(["git", "-c", "user.name=sparkeq", "-c", "user.email=sparkeq@example.com",
                           "-c", "commit.gpgsign=false", *args],
                          cwd=repo, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty git repository as the current directory, isolated from the user's git config."""
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    path = tmp_path / "repo"
    path.mkdir()
    git(path, "init", "-q")
    monkeypatch.chdir(path)
    return path


def commit(repo: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "old version")


def hook(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["hook", "--no-replay", *args])
    out, err = capsys.readouterr()
    return code, out, err


def hook_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    code, out, err = hook(capsys, "--json", *args)
    data = validate(json.loads(out), "hook_report")  # one JSON object: json.loads rejects trailing data
    assert data["exit_status"] == code, err
    return code, data


def by_function(data: dict) -> dict[str | None, dict]:
    return {r["function"]: r for r in data["results"]}


# --- verdicts ----------------------------------------------------------------------------------------


def test_equivalent_refactor_passes(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    commit(repo, {"jobs.py": module(LATE_FILTER)})
    (repo / "jobs.py").write_text(module(EARLY_FILTER))
    code, out, err = hook(capsys)
    assert code == 0, out + err
    assert "jobs.py::pipeline: proved equivalent" in out
    assert "1 pipeline function(s) checked (1 equivalent)" in " ".join(out.split())


def test_staged_compares_head_with_the_index(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--staged checks what is about to be committed, not the working tree."""
    commit(repo, {"jobs.py": module(LATE_FILTER)})
    (repo / "jobs.py").write_text(module(EARLY_FILTER))
    git(repo, "add", "jobs.py")
    (repo / "jobs.py").write_text(module(EARLY_FILTER_WRONG))  # unstaged, must not be seen
    code, data = hook_json(capsys, "--staged")
    assert code == 0
    assert data["against"] == "index"
    assert by_function(data)["pipeline"]["result"]["verdict"] == "equivalent"
    code, data = hook_json(capsys, "--working-tree")
    assert code == 1
    assert by_function(data)["pipeline"]["result"]["verdict"] == "not_equivalent"


def test_broken_refactor_exits_1_with_counterexample(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    commit(repo, {"jobs.py": module(LATE_FILTER)})
    (repo / "jobs.py").write_text(module(EARLY_FILTER_WRONG))
    code, out, err = hook(capsys, "jobs.py")
    assert code == 1, out + err
    assert "jobs.py::pipeline: NOT EQUIVALENT" in out
    assert "jobs.py@HEAD::pipeline" in out  # render names both versions
    assert "Inputs" in out and "Outputs" in out
    # the only separating inputs contain 3: the old version keeps it (as 4), the new one drops it
    code, data = hook_json(capsys, "jobs.py")
    cex = by_function(data)["pipeline"]["result"]["counterexample"]
    assert 3 in cex["inputs"]["R"]
    assert 4 in cex["left"] and 4 not in cex["right"]
    assert cex["replayed_on_spark"] is False
    assert json.dumps(cex["inputs"]["R"]) in out  # the same (deterministic) counterexample, rendered


def test_changed_module_constant_rechecks_its_users(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A pipeline's text is the same, but the constant it reads changed: that is a change to check."""
    uses_limit = "\ndef pipeline(R: RDD[int]) -> RDD[int]:\n    return R.filter(lambda x: x > LIMIT)\n"
    commit(repo, {"jobs.py": HEADER + "LIMIT = 3\n\n" + uses_limit})
    (repo / "jobs.py").write_text(HEADER + "LIMIT = 4\n\n" + uses_limit)
    code, data = hook_json(capsys)
    assert code == 1
    entry = by_function(data)["pipeline"]
    assert entry["result"]["verdict"] == "not_equivalent"
    assert "'LIMIT'" in entry["note"]


def test_a_lambda_parameter_named_like_the_constant_does_not_hide_it(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Found in review: ``lambda k: k + 1`` made the hook think the pipeline never reads the constant
    ``k``, so changing ``k = 3`` to ``k = 4`` passed unchecked."""
    body = ("\ndef pipeline(R: RDD[int]) -> RDD[int]:\n"
            "    return R.map(lambda k: k + 1).filter(lambda x: x > k)\n")
    commit(repo, {"jobs.py": HEADER + "k = 3\n\n" + body})
    (repo / "jobs.py").write_text(HEADER + "k = 4\n\n" + body)
    code, data = hook_json(capsys)
    assert code == 1
    assert by_function(data)["pipeline"]["result"]["verdict"] == "not_equivalent"


# --- what is and is not checked ---------------------------------------------------------------------


def test_unchanged_functions_are_not_checked(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    commit(repo, {"jobs.py": module(LATE_FILTER, OTHER)})
    other_reformatted = OTHER.replace("return R.map(lambda x: 2 * x)",
                                      '"""Docstrings, comments and spacing do not count."""\n'
                                      "    return R.map(lambda x:   2 * x)  # doubled")
    (repo / "jobs.py").write_text(module(EARLY_FILTER, other_reformatted))
    code, data = hook_json(capsys)
    assert code == 0
    entries = by_function(data)
    assert entries["pipeline"]["status"] == "checked"
    assert entries["other"] == {**entries["other"], "status": "unchanged", "result": None}
    code, out, _ = hook(capsys)
    assert "other" not in out.replace("not checked", "")
    assert "1 unchanged" in out


def test_only_reformatted_checks_nothing(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    commit(repo, {"jobs.py": module(LATE_FILTER)})
    (repo / "jobs.py").write_text(module(LATE_FILTER.replace("x + 1", "x+1") + "# trailing comment\n"))
    code, data = hook_json(capsys)
    assert code == 0
    assert [r["status"] for r in data["results"]] == ["unchanged"]


def test_new_and_deleted_functions_are_skipped(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    commit(repo, {"jobs.py": module(LATE_FILTER, OTHER)})
    added = "\ndef added(R: RDD[int]) -> RDD[int]:\n    return R.filter(lambda x: x < 0)\n"
    (repo / "jobs.py").write_text(module(LATE_FILTER, added))  # `other` deleted, `added` is new
    code, data = hook_json(capsys)
    assert code == 0
    entries = by_function(data)
    assert entries["added"]["status"] == "new" and entries["added"]["result"] is None
    assert entries["other"]["status"] == "deleted" and entries["other"]["result"] is None
    assert entries["pipeline"]["status"] == "unchanged"
    code, out, _ = hook(capsys)
    assert "jobs.py::added: new function, nothing to compare (skipped)" in " ".join(out.split())


def test_new_file_and_first_commit(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without a HEAD (the first commit) every function is new; nothing fails."""
    (repo / "jobs.py").write_text(module(LATE_FILTER))
    git(repo, "add", "jobs.py")
    code, data = hook_json(capsys, "--staged")
    assert code == 0
    assert [(r["function"], r["status"]) for r in data["results"]] == [("pipeline", "new")]


def test_only_python_files_are_looked_at(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    commit(repo, {"jobs.py": module(LATE_FILTER), "notes.txt": "old\n"})
    (repo / "notes.txt").write_text("def broken(:\n")
    code, data = hook_json(capsys)
    assert code == 0 and data["results"] == []
    code, data = hook_json(capsys, "notes.txt")
    assert code == 0 and data["results"] == []


def test_files_in_subdirectories_and_relative_paths(repo: Path, capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    commit(repo, {"pkg/jobs.py": module(LATE_FILTER)})
    (repo / "pkg" / "jobs.py").write_text(module(EARLY_FILTER_WRONG))
    monkeypatch.chdir(repo / "pkg")
    code, data = hook_json(capsys, "jobs.py")
    assert code == 1
    entry = by_function(data)["pipeline"]
    assert (entry["file"], entry["old"]) == ("jobs.py", "jobs.py@HEAD")


# --- input errors and unknown ------------------------------------------------------------------------


def test_syntax_error_in_new_version_exits_3_located(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    commit(repo, {"jobs.py": module(LATE_FILTER)})
    (repo / "jobs.py").write_text(module(LATE_FILTER.replace("y > 3", "y >")))
    code, out, err = hook(capsys)
    assert code == 3
    line = err.strip().splitlines()[0]
    assert line.startswith("jobs.py:5:"), err  # file:line:col of the new version
    assert line.split(":")[2].isdigit()
    assert "syntax error" in line
    assert "Traceback" not in err


def test_untranslatable_new_version_exits_3_located(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    commit(repo, {"jobs.py": module(LATE_FILTER)})
    (repo / "jobs.py").write_text(module(LATE_FILTER.replace("y > 3", "y > UNDEFINED")))
    code, out, err = hook(capsys)
    assert code == 3
    assert err.strip().startswith("jobs.py:5:"), err
    assert "UNDEFINED" in err


def test_unanalysable_old_version_is_unknown(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The committed version is outside sparkeq's fragment: nothing to prove the new one equal to. That
    is unknown (2 under --strict), not an input error of the commit; unless the new one is broken too."""
    unsupported = LATE_FILTER.replace("    return", "    R.count()\n    print(1)\n    return")
    commit(repo, {"jobs.py": module(unsupported)})
    (repo / "jobs.py").write_text(module(EARLY_FILTER))
    code, data = hook_json(capsys)
    assert code == 0
    reason = by_function(data)["pipeline"]["result"]["reason"]
    assert "old version cannot be analysed" in reason and "jobs.py@HEAD:" in reason
    code, _, _ = hook(capsys, "--strict")
    assert code == 2
    (repo / "jobs.py").write_text(module(unsupported.replace("print(1)", "print(2)")))
    code, data = hook_json(capsys)
    assert code == 0
    assert "neither version" in by_function(data)["pipeline"]["result"]["reason"]


def test_counterexample_outranks_an_input_error(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    commit(repo, {"a.py": module(LATE_FILTER), "b.py": module(LATE_FILTER)})
    (repo / "a.py").write_text(module(EARLY_FILTER_WRONG))
    (repo / "b.py").write_text(module(LATE_FILTER.replace("y > 3", "y >")))
    code, _, _ = hook(capsys)
    assert code == 1


def test_strict_turns_unknown_into_2(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Parity of a sum of squares vs of the plain sum: true, but beyond the proof methods (nonlinear)."""
    old = "\ndef parity(R: RDD[int]) -> int:\n    return R.map(lambda x: x * x).sum() % 2\n"
    new = "\ndef parity(R: RDD[int]) -> int:\n    return R.sum() % 2\n"
    verdict = check((module(old), "parity"), (module(new), "parity"), replay=False, timeout=3).verdict
    if verdict != "unknown":
        pytest.skip(f"the verifier now decides this pair ({verdict}); pick another unknown pair")
    commit(repo, {"jobs.py": module(old)})
    (repo / "jobs.py").write_text(module(new))
    code, data = hook_json(capsys, "--timeout", "3")
    assert code == 0
    assert by_function(data)["parity"]["result"]["verdict"] == "unknown"
    code, out, _ = hook(capsys, "--timeout", "3", "--strict")
    assert code == 2
    assert "jobs.py::parity: NOT PROVED (unknown)" in out


def test_not_a_repository_or_bad_revision_exit_3(tmp_path: Path, repo: Path,
                                                 capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    commit(repo, {"jobs.py": module(LATE_FILTER)})
    code, data = hook_json(capsys, "--rev", "no-such-rev")
    assert code == 3 and "no-such-rev" in data["error"]
    outside = tmp_path / "outside"
    outside.mkdir()
    monkeypatch.chdir(outside)
    code, _, err = hook(capsys)
    assert code == 3 and "not inside a git repository" in err


def test_rev_selects_the_old_version(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    commit(repo, {"jobs.py": module(LATE_FILTER)})
    commit(repo, {"jobs.py": module(EARLY_FILTER_WRONG)})
    code, data = hook_json(capsys, "--rev", "HEAD~1")
    assert code == 1
    assert by_function(data)["pipeline"]["old"] == "jobs.py@HEAD~1"


# --- JSON --------------------------------------------------------------------------------------------


def test_json_is_one_object_with_result_to_json(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    commit(repo, {"jobs.py": module(LATE_FILTER, OTHER)})
    (repo / "jobs.py").write_text(module(EARLY_FILTER, OTHER.replace("2 * x", "x + x")))
    code, data = hook_json(capsys)
    assert code == 0
    assert list(data) == ["schema_version", "rev", "against", "exit_status", "error", "results"]
    assert data["rev"] == "HEAD" and data["against"] == "working-tree"
    keys = list(Result("equivalent").to_json())
    for entry in data["results"]:
        assert list(entry) == ["file", "function", "status", "old", "new", "note", "result"]
        assert list(entry["result"]) == keys
        assert entry["result"]["verdict"] == "equivalent"
    assert [e["function"] for e in data["results"]] == ["pipeline", "other"]


# --- packaging: the pre-commit declaration and a plain git hook -------------------------------------


def test_pre_commit_hooks_yaml_declares_the_hook() -> None:
    text = (ROOT / ".pre-commit-hooks.yaml").read_text()
    lines = {line.strip().lstrip("- ") for line in text.splitlines()}
    for expected in ("id: sparkeq", "language: python", "entry: sparkeq hook --staged", "types: [python]",
                     "pass_filenames: true"):
        assert expected in lines, expected


@pytest.mark.skipif(not SPARKEQ.exists(), reason="the sparkeq console script is not installed")
def test_plain_git_pre_commit_hook_blocks_a_broken_refactor(repo: Path) -> None:
    """The script of docs/hook.md, run by git itself with the real console script."""
    commit(repo, {"jobs.py": module(LATE_FILTER)})
    script = repo / ".git" / "hooks" / "pre-commit"
    script.write_text(f"#!/bin/sh\nexec '{SPARKEQ}' hook --staged --no-replay\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    (repo / "jobs.py").write_text(module(EARLY_FILTER_WRONG))
    git(repo, "add", "jobs.py")
    proc = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-m", "x"],
                          cwd=repo, capture_output=True, text=True, check=False)
    assert proc.returncode != 0
    assert "jobs.py::pipeline: NOT EQUIVALENT" in proc.stdout + proc.stderr
    (repo / "jobs.py").write_text(module(EARLY_FILTER))
    git(repo, "add", "jobs.py")
    git(repo, "commit", "-q", "-m", "a real refactor")


def test_a_crash_in_one_function_is_unknown_not_fatal(repo: Path, capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug while checking one function must not hide the other functions' verdicts."""
    from verifier.interfaces import hook as hook_module

    real = hook_module._check_function

    def crash_on_other(name: str, *args: object, **kwargs: object) -> Result:
        if name == "other":
            raise RuntimeError("boom")
        return real(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(hook_module, "_check_function", crash_on_other)
    commit(repo, {"jobs.py": module(LATE_FILTER, OTHER)})
    (repo / "jobs.py").write_text(module(EARLY_FILTER_WRONG, OTHER.replace("2 * x", "x + x")))
    code, data = hook_json(capsys)
    assert code == 1
    entries = by_function(data)
    assert entries["pipeline"]["result"]["verdict"] == "not_equivalent"
    assert entries["other"]["result"]["verdict"] == "unknown"
    assert "internal error" in entries["other"]["result"]["reason"]
