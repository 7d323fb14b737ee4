"""The user-facing interfaces of issue 13: plain reasons, rendering without jargon, the CLI's flags,
the ``sparkeq`` facade (``python -m sparkeq``), the pytest helpers and function objects as inputs.

Real checks throughout (Z3, the frontend, the interpreter); no Spark except where marked."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from schema_util import validate

import sparkeq
from sparkeq.testing import assert_equivalent, assert_not_equivalent
from verifier.interfaces.cli import main
from verifier.interfaces.render import render

ROOT = Path(__file__).resolve().parent.parent
FIX = Path(__file__).resolve().parent / "interface_fixtures"
CASES = ROOT / "cases"
STRICT_L = "cases/p1_p2_boundary_strict/left.py::p1"
STRICT_R = "cases/p1_p2_boundary_strict/right.py::p2"
REORDER_L = "cases/p1_p2_map_filter_reorder/left.py::p1"
REORDER_R = "cases/p1_p2_map_filter_reorder/right.py::p2"
DIV_L, DIV_R = f"{FIX}/div_old.py::scale", f"{FIX}/div_new.py::scale"


def run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sparkeq", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def text_of(result: sparkeq.Result, **kwargs: object) -> str:
    buffer = io.StringIO()
    render(result, Console(file=buffer, width=80, force_terminal=False), **kwargs)  # type: ignore[arg-type]
    return buffer.getvalue()


# --- reasons ----------------------------------------------------------------------------------------


def test_every_verdict_has_a_reason_and_valid_json() -> None:
    for left, right, verdict in ((REORDER_L, REORDER_R, "equivalent"), (STRICT_L, STRICT_R, "not_equivalent"),
                                 (DIV_L, DIV_R, "unknown"), ("nope.py::f", STRICT_R, "error")):
        result = sparkeq.check(str(ROOT / left), str(ROOT / right), timeout=30)  # ROOT / abs = abs
        assert result.verdict == verdict, result
        data = validate(result.to_json())
        assert data["reason"] and data["schema_version"] == 2


def test_unknown_reason_is_short_located_and_says_what_was_searched() -> None:
    result = sparkeq.check(DIV_L, DIV_R, timeout=30)
    assert result.verdict == "unknown"
    reason = result.reason or ""
    assert len(reason) < 400, reason
    assert reason.count("division") == 1  # said once, not once per method
    assert f"{FIX}/div_old.py:5:" in reason  # where in the user's code
    assert re.search(r"\b[\d,]+ random inputs", reason), reason  # what was searched (how many: load)
    assert "--explain" in reason
    # the per-method detail is still there for --explain
    assert sum("division by zero possible" in s for s in result.stats["methods"]) >= 2


def test_equivalent_and_not_equivalent_reasons_are_plain() -> None:
    proved = sparkeq.check(str(ROOT / REORDER_L), str(ROOT / REORDER_R))
    assert proved.reason.startswith("Proved for every input")
    assert "RepVarSet" not in proved.reason
    refuted = sparkeq.check(str(ROOT / STRICT_L), str(ROOT / STRICT_R))
    assert refuted.reason == "On the inputs shown, LEFT gives [100] but RIGHT gives []."


# --- rendering --------------------------------------------------------------------------------------


def test_default_output_has_no_jargon_and_explain_has_it() -> None:
    result = sparkeq.check(str(CASES / "groupbykey_sum_vs_reducebykey/left.py"),
                           str(CASES / "groupbykey_sum_vs_reducebykey/right.py"))
    assert result.verdict == "equivalent"
    plain = text_of(result)
    assert "bucket0" not in plain and "RepVarSet" not in plain and "K1" not in plain
    explained = text_of(result, explain=True)
    assert result.explanation and result.explanation.split()[0] in explained


def test_counterexample_table_title_fits_and_marks_differences_in_text() -> None:
    result = sparkeq.check(str(ROOT / STRICT_L), str(ROOT / STRICT_R))
    out = text_of(result)
    assert ">>100<<" in out  # highlighting is lost in a pipe: the mark stays
    assert "Outputs (>>marked<< elements appear on one side only)" in out  # one line, not wrapped
    for width in (80, 120):
        buffer = io.StringIO()
        render(result, Console(file=buffer, width=width, force_terminal=False))
        assert "Outputs (" in buffer.getvalue()


def test_hook_names_replace_left_and_right() -> None:
    result = sparkeq.check(str(ROOT / STRICT_L), str(ROOT / STRICT_R))
    out = text_of(result, left="jobs.py@HEAD::p", right="jobs.py::p", names=("HEAD", "staged"))
    assert "HEAD gives [100] but staged gives []" in " ".join(out.split())
    assert "LEFT" not in out and "RIGHT" not in out


def test_result_repr_is_short() -> None:
    result = sparkeq.check(DIV_L, DIV_R, timeout=30)
    text = repr(result)
    assert text.startswith("<Result unknown") and len(text) < 130


# --- CLI ----------------------------------------------------------------------------------------------


def test_python_m_sparkeq_version_usage_and_help() -> None:
    version = run("--version")
    assert version.returncode == 0 and version.stdout.strip() == f"sparkeq {sparkeq.__version__}"
    bare = run()
    assert bare.returncode == 3 and "usage: sparkeq" in bare.stderr and "exit status:" in bare.stderr
    helped = run("check", "--help")
    assert helped.returncode == 0
    for line in ("0  equivalent", "1  not equivalent", "2  unknown", "3  input error"):
        assert line in helped.stdout


def test_python_m_sparkeq_check_json(tmp_path: Path) -> None:
    proc = run("check", STRICT_L, STRICT_R, "--json", "--no-replay")
    assert proc.returncode == 1, proc.stderr
    data = validate(json.loads(proc.stdout))
    assert data["counterexample"]["inputs"] == {"R": [50]}


def test_bogus_master_is_a_clean_exit_3() -> None:
    proc = run("check", STRICT_L, STRICT_R, "--master", "bogus://x")
    assert proc.returncode == 3
    assert proc.stdout == "" and len(proc.stderr.strip().splitlines()) == 1
    assert "not a Spark master URL" in proc.stderr and "Exception" not in proc.stderr


def test_explain_flag(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", DIV_L, DIV_R, "--no-replay", "--explain", "--timeout", "30"]) == 2
    out = " ".join(capsys.readouterr().out.split())
    assert "steps:" in out and "NoAgg, AggOneSync" in out  # identical statements grouped


def test_library_does_not_start_spark_by_default() -> None:
    code = ("import sys, sparkeq; r = sparkeq.check(sys.argv[1], sys.argv[2]); "
            "print(r.verdict, r.counterexample.replayed_on_spark, 'pyspark' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code, STRICT_L, STRICT_R], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert proc.stdout.split() == ["not_equivalent", "False", "False"], proc.stderr


@pytest.mark.spark
def test_cli_prints_the_verdict_before_replay_and_no_jvm_noise(spark_context: object) -> None:
    proc = run("check", STRICT_L, STRICT_R, "--replay-timeout", "3000", timeout=3000)
    assert proc.returncode == 1, proc.stderr
    out = proc.stdout
    assert out.index("NOT EQUIVALENT") < out.index("Replayed on Spark: yes")
    assert "WARN" not in proc.stderr and "log4j" not in proc.stderr.lower() and "at org." not in proc.stderr
    # stderr holds the replay's progress (issue 24) and nothing else: no JVM output
    lines = proc.stderr.strip().splitlines()
    assert lines and all(line.startswith(("sparkeq: starting Spark", "sparkeq: running LEFT on Spark: ",
                                          "sparkeq: running RIGHT on Spark: ")) for line in lines), lines
    steps = [line.split(":")[1].strip() for line in lines]
    assert steps[-2:] == ["running LEFT on Spark", "running RIGHT on Spark"]


# --- the pytest helpers -----------------------------------------------------------------------------


def test_assert_equivalent_passes_on_a_refactor() -> None:
    result = assert_equivalent(str(ROOT / REORDER_L), str(ROOT / REORDER_R))
    assert result.method == "NoAgg"


def test_assert_equivalent_failure_message_shows_verdict_reason_and_table() -> None:
    with pytest.raises(AssertionError) as info:
        assert_equivalent(str(ROOT / STRICT_L), str(ROOT / STRICT_R))
    message = str(info.value)
    assert "expected the programs to be equivalent, got NOT EQUIVALENT" in message
    assert "old gives [100] but new gives []" in " ".join(message.split())
    assert "Inputs" in message and "[50]" in message and ">>100<<" in message
    assert "\x1b[" not in message  # no terminal colour codes in a test report


def test_assert_not_equivalent() -> None:
    result = assert_not_equivalent(str(ROOT / STRICT_L), str(ROOT / STRICT_R))
    assert result.counterexample is not None
    with pytest.raises(AssertionError, match="expected the programs to differ, got UNKNOWN"):
        assert_not_equivalent(DIV_L, DIV_R, timeout=30)


# --- function objects ---------------------------------------------------------------------------------


def test_closures_static_methods_and_named_lambdas_load() -> None:
    sys.path.insert(0, str(FIX))
    try:
        import objects
    finally:
        sys.path.remove(str(FIX))
    assert sparkeq.check(objects.above(3), objects.above(3)).verdict == "equivalent"
    differ = sparkeq.check(objects.above(3), objects.above(4))
    assert differ.verdict == "not_equivalent" and differ.counterexample.inputs == {"R": [4]}
    assert sparkeq.check(objects.Jobs.double_then_keep, objects.Jobs.keep_then_double).verdict == "equivalent"
    assert sparkeq.check(objects.late, objects.Jobs.keep_then_double).verdict == "equivalent"
    assert sparkeq.check(objects.late, objects.above(49)).verdict == "not_equivalent"


def test_function_objects_are_read_as_what_they_are() -> None:
    """Found in review: the loader analysed the wrong function (two lambdas on one line, a later def
    of the same name) or dropped a decorator, giving wrong verdicts."""
    import importlib
    import sys

    sys.path.insert(0, str(FIX))
    try:
        traps = importlib.import_module("objects_traps")
    finally:
        sys.path.remove(str(FIX))
    for fn in (traps.inc, traps.decorated):
        assert sparkeq.check(fn, traps.plain).verdict == "error"
    assert sparkeq.check(traps.first_dup, traps.plain).verdict == "equivalent"
    assert sparkeq.check(traps.dup, traps.plain).verdict == "not_equivalent"


def test_assert_helpers_hide_their_frame_and_label_sides_by_spec(tmp_path: Path) -> None:
    """A failing ``assert_equivalent`` points at the test's own line (``__tracebackhide__``) and names
    both sides by the specs the test gave."""
    import subprocess
    import sys

    left, right = str(ROOT / STRICT_L), str(ROOT / STRICT_R)
    (tmp_path / "test_refactor.py").write_text(
        "from sparkeq.testing import assert_equivalent\n\n\n"
        f"def test_refactor():\n    assert_equivalent({left!r}, {right!r})\n")
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_refactor.py"]
    proc = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    text = proc.stdout
    assert proc.returncode == 1 and "1 failed" in text, text
    assert f"old: {left}" in text and f"new: {right}" in text
    assert "sparkeq/testing.py" not in text  # the helper's own frame is hidden
    assert "assert_equivalent(" in text  # the test's line is shown
