"""``sparkeq check``: exit codes, exactly one JSON object with --json, located input errors without a
traceback, and a readable human report."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from schema_util import validate

from verifier.interfaces.cli import main

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = Path(sys.executable).parent / "sparkeq"


def sparkeq(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run the real console script; every ``--json`` output is validated against the schema."""
    command = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "sparkeq"]
    proc = subprocess.run([*command, *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    if "--json" in args and proc.stdout.strip():
        validate(json.loads(proc.stdout))
    return proc


def sl(tmp_path: Path, name: str, body: str, params: str = "R: Bag[Int]") -> str:
    path = tmp_path / name
    path.write_text(f"program P({params}) =\n{body}\n")
    return str(path)


def test_not_equivalent_json_exit_1(tmp_path: Path) -> None:
    left = sl(tmp_path, "l.sl", "union(R, R)")
    right = sl(tmp_path, "r.sl", "map(lambda x -> x)(R)")
    proc = sparkeq("check", left, right, "--json", "--no-replay")
    assert proc.returncode == 1, proc.stderr
    data = json.loads(proc.stdout)  # exactly one JSON object: json.loads rejects trailing data
    assert list(data) == ["schema_version", "verdict", "method", "reason", "counterexample", "warnings",
                          "assumptions", "seconds"]
    assert data["schema_version"] == 2 and data["assumptions"] == []
    assert data["verdict"] == "not_equivalent"
    assert data["method"]  # NoAgg once it handles union, else bounded
    cex = data["counterexample"]
    assert list(cex) == ["inputs", "partitions", "left", "right", "replayed_on_spark"]
    assert cex["replayed_on_spark"] is False
    assert len(cex["left"]) == 2 * len(cex["right"])
    assert "Traceback" not in proc.stderr


def test_input_error_is_one_located_line_exit_3(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sl"
    bad.write_text("program P(R: Bag[Int]) =\nmap(lambda x -> x +)(R)\n")
    proc = sparkeq("check", str(bad), sl(tmp_path, "r.sl", "R"), "--no-replay")
    assert proc.returncode == 3
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"{bad}:2:")
    assert "Traceback" not in proc.stderr


def test_input_error_with_json(tmp_path: Path) -> None:
    proc = sparkeq("check", str(tmp_path / "missing.py::f"), sl(tmp_path, "r.sl", "R"), "--json")
    assert proc.returncode == 3
    data = json.loads(proc.stdout)
    assert data["verdict"] == "error"
    assert "missing.py:1:1" in data["reason"]
    assert data["counterexample"] is None


def test_usage_error_is_exit_3_not_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "only-one-argument"]) == 3
    assert main(["frobnicate"]) == 3
    assert "Traceback" not in capsys.readouterr().err


def test_in_process_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    left = sl(tmp_path, "l.sl", "filter(lambda x -> x > 5)(R)")
    right = sl(tmp_path, "r.sl", "filter(lambda x -> x >= 5)(R)")
    assert main(["check", left, right, "--json", "--no-replay"]) == 1
    out = capsys.readouterr().out
    assert validate(json.loads(out))["counterexample"]["inputs"] == {"R": [5]}


def test_human_report_shows_counterexample_and_warning_source(tmp_path: Path) -> None:
    left = sl(tmp_path, "l.sl", "fold(0, lambda (a, x) -> a + 1)(R)")
    right = sl(tmp_path, "r.sl", "count(R)")
    proc = sparkeq("check", left, right, "--no-replay")
    assert proc.returncode == 1, proc.stderr
    out = proc.stdout
    assert "NOT EQUIVALENT" in out
    assert "Inputs" in out and "LEFT" in out and "RIGHT" in out
    assert "partition-dependent aggregation" in out
    assert "fold(0, lambda (a, x) -> a + 1)(R)" in out  # the source line is quoted


def test_unknown_exit_2_with_reason(tmp_path: Path) -> None:
    body = "fold(1, lambda (a, b) -> a + b)(R)"
    proc = sparkeq("check", sl(tmp_path, "l.sl", body), sl(tmp_path, "r.sl", body), "--json", "--no-replay",
                   "--timeout", "15")
    data = json.loads(proc.stdout)
    assert proc.returncode in (0, 2)
    if proc.returncode == 2:
        assert data["verdict"] == "unknown" and data["reason"]


def test_cold_start_is_lazy_about_spark(tmp_path: Path) -> None:
    # what makes a start slow is an import, so that is what is asserted (no wall-clock bound: issue 24,
    # no test depends on the machine's speed; bench/startup.py measures the times)
    left = sl(tmp_path, "l.sl", "map(lambda x -> x + 1)(R)")
    right = sl(tmp_path, "r.sl", "map(lambda x -> x + 2)(R)")
    code = textwrap.dedent(f"""
        import sys
        from verifier.interfaces.cli import main
        rc = main(["check", {left!r}, {right!r}, "--json", "--no-replay"])
        print("pyspark" in sys.modules, file=sys.stderr)
        sys.exit(rc)
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == "False"  # no pyspark import without replay


def test_importing_verifier_is_light() -> None:
    code = "import sys, verifier; print('z3' in sys.modules, 'pyspark' in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.stdout.split() == ["False", "False"]


@pytest.mark.spark
def test_cli_replays_on_spark(tmp_path: Path, spark_context) -> None:
    left = sl(tmp_path, "l.sl", "filter(lambda x -> x > 5)(R)")
    right = sl(tmp_path, "r.sl", "filter(lambda x -> x >= 5)(R)")
    # a budget no JVM start exceeds, however busy the machine (the default, 180 s, is for people)
    proc = sparkeq("check", left, right, "--json", "--replay-timeout", "3000")
    assert proc.returncode == 1, proc.stderr
    assert json.loads(proc.stdout)["counterexample"]["replayed_on_spark"] is True


def test_without_java_the_verdict_stands_with_a_warning(tmp_path: Path) -> None:
    import os

    left = sl(tmp_path, "l.sl", "filter(lambda x -> x > 5)(R)")
    right = sl(tmp_path, "r.sl", "filter(lambda x -> x >= 5)(R)")
    env = {k: v for k, v in os.environ.items() if k != "JAVA_HOME"}
    env["PATH"] = str(tmp_path)  # no java on PATH: replay cannot start Spark
    command = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "verifier.interfaces.cli"]
    proc = subprocess.run([*command, "check", left, right, "--json"], capture_output=True, text=True,
                          timeout=300, cwd=ROOT, env=env)
    assert proc.returncode == 1, proc.stderr
    data = json.loads(proc.stdout)
    assert data["counterexample"]["replayed_on_spark"] is False
    assert any("not replayed on Spark" in w and "Java" in w for w in data["warnings"])
