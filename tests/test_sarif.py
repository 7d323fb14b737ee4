"""``--format sarif`` of ``check``, ``batch`` and ``hook``: a SARIF 2.1.0 log valid against the SARIF
schema (tests/data/sarif-schema-2.1.0.json, see tests/data/README.md), with one result per pair that is
not proved, located at the new side's function. No Spark (``--no-replay``)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from jsonschema import Draft4Validator

from verifier.interfaces.cli import main

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())
REFUTED = ("cases/p1_p2_boundary_strict/left.py::p1", "cases/p1_p2_boundary_strict/right.py::p2")
UNKNOWN = ("cases/sum_of_squares_parity/left.py::squares_parity",
           "cases/sum_of_squares_parity/right.py::sum_parity")


def valid(text: str) -> dict:
    log = json.loads(text)
    Draft4Validator.check_schema(SCHEMA)
    Draft4Validator(SCHEMA, format_checker=Draft4Validator.FORMAT_CHECKER).validate(log)
    assert log["version"] == "2.1.0"
    return log


def test_check_sarif_refuted_pair_is_one_located_error(capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    assert main(["check", *REFUTED, "--no-replay", "--format", "sarif"]) == 1
    log = valid(capsys.readouterr().out)
    (result,) = log["runs"][0]["results"]
    assert result["ruleId"] == "sparkeq/not-equivalent" and result["level"] == "error"
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "cases/p1_p2_boundary_strict/right.py"
    text = Path("cases/p1_p2_boundary_strict/right.py").read_text().splitlines()
    assert text[location["region"]["startLine"] - 1].startswith("def p2")
    assert "Counterexample" in result["message"]["text"]
    assert result["properties"]["sparkeq"]["verdict"] == "not_equivalent"
    assert log["runs"][0]["tool"]["driver"]["version"] == "0.2.0"


def test_check_sarif_proof_has_no_result(capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    code = main(["check", "cases/p3_p4_min_price/left.py::p3", "cases/p3_p4_min_price/right.py::p4",
                 "--no-replay", "--format", "sarif"])
    assert code == 0
    assert valid(capsys.readouterr().out)["runs"][0]["results"] == []


def test_json_and_sarif_together_are_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", *REFUTED, "--json", "--format", "sarif"]) == 3
    assert "--json contradicts --format sarif" in capsys.readouterr().err


def test_batch_sarif(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("\n".join(json.dumps({"id": i, "left": left, "right": right, "timeout": 5})
                               for i, (left, right) in enumerate((REFUTED, UNKNOWN))) + "\n")
    code = main(["batch", str(pairs), "--workers", "1", "--format", "sarif"])
    log = valid(capsys.readouterr().out)
    rules = sorted(r["ruleId"] for r in log["runs"][0]["results"])
    assert code == 1
    assert rules == ["sparkeq/not-equivalent", "sparkeq/unknown"]


def test_hook_sarif(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    repo = tmp_path / "repo"
    repo.mkdir()
    monkeypatch.chdir(repo)
    head = "from pyspark import RDD\n\n\n"
    old = head + "def f(R: RDD[int]) -> RDD[int]:\n    return R.filter(lambda x: x > 3)\n"
    (repo / "jobs.py").write_text(old)
    for args in (["init", "-q"], ["add", "-A"],
                 ["-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "o"]):
        subprocess.run(["git", *args], cwd=repo, check=True)
    (repo / "jobs.py").write_text(old.replace("x > 3", "x > 4"))
    assert main(["hook", "--no-replay", "--format", "sarif"]) == 1
    (result,) = valid(capsys.readouterr().out)["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "jobs.py"
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 4
    assert result["locations"][0]["logicalLocations"][0]["name"] == "f"
    # an input error points at its own line
    (repo / "jobs.py").write_text(old.replace("x > 3)", "x > 3).zipWithIndex()"))
    assert main(["hook", "--no-replay", "--format", "sarif"]) == 3
    (result,) = valid(capsys.readouterr().out)["runs"][0]["results"]
    assert result["ruleId"] == "sparkeq/input-error"
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 5
