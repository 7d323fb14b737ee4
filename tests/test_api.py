"""``verifier.check`` end to end on small SparkLite and PySpark pairs (replay off unless marked spark)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from schema_util import validate

import verifier
from sparklite.parser import parse
from sparklite.values import outcomes_equal
from verifier.core.validate import full_partitions, normalise_inputs, run_program

JSON_KEYS = ["schema_version", "verdict", "method", "reason", "counterexample", "warnings", "assumptions",
             "seconds"]
CEX_KEYS = ["inputs", "partitions", "left", "right", "replayed_on_spark"]


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip())
    return str(path)


def sl(tmp_path: Path, name: str, body: str, params: str = "R: Bag[Int]") -> str:
    return write(tmp_path, name, f"program P({params}) =\n{body}\n")


def assert_real_counterexample(result: verifier.Result) -> None:
    """The counterexample's outputs are what the interpreter computes, and they differ."""
    assert result.verdict == "not_equivalent"
    cex = result.counterexample
    assert cex is not None
    assert not outcomes_equal(cex.left_outcome, cex.right_outcome)
    assert cex.left != cex.right
    data = result.to_json()
    assert list(data) == JSON_KEYS
    assert list(data["counterexample"]) == CEX_KEYS
    validate(json.loads(json.dumps(data)))


def test_equivalent_sparklite_pair(tmp_path: Path) -> None:
    left = sl(tmp_path, "l.sl", "map(lambda x -> x * 2)(filter(lambda x -> x >= 50)(R))")
    right = sl(tmp_path, "r.sl", "filter(lambda x -> x >= 100)(map(lambda x -> x * 2)(R))")
    result = verifier.check(left, right, replay=False)
    assert result.verdict == "equivalent", result
    assert result.method
    assert result.counterexample is None
    assert result.exit_code == 0
    assert result.to_json()["counterexample"] is None


def test_union_vs_map_is_refuted_with_validated_counterexample(tmp_path: Path) -> None:
    left = sl(tmp_path, "l.sl", "union(R, R)")
    right = sl(tmp_path, "r.sl", "map(lambda x -> x)(R)")
    result = verifier.check(left, right, replay=False)
    assert_real_counterexample(result)
    assert result.exit_code == 1
    assert result.counterexample.replayed_on_spark is False


def test_counterexample_outputs_are_the_interpreters(tmp_path: Path) -> None:
    left = parse("program P(R: Bag[Int]) =\nfilter(lambda x -> x > 50)(R)\n")
    right = parse("program P(R: Bag[Int]) =\nfilter(lambda x -> x >= 50)(R)\n")
    result = verifier.check(left, right, replay=False)
    assert_real_counterexample(result)
    inputs = normalise_inputs(left, result.stats["raw_inputs"])
    parts = full_partitions(left, inputs, None)
    assert outcomes_equal(run_program(left, inputs, parts), result.counterexample.left_outcome)
    assert outcomes_equal(run_program(right, inputs, parts), result.counterexample.right_outcome)


def test_partition_dependent_count_is_not_equivalent_to_count(tmp_path: Path) -> None:
    left = sl(tmp_path, "l.sl", "fold(0, lambda (a, x) -> a + 1)(R)")
    right = sl(tmp_path, "r.sl", "count(R)")
    result = verifier.check(left, right, replay=False)
    assert_real_counterexample(result)
    assert result.counterexample.partitions is not None
    assert any(w.startswith("partition-dependent aggregation at ") and "l.sl:2:" in w
               for w in result.warnings)


def test_identical_partition_dependent_programs_are_not_called_equivalent(tmp_path: Path) -> None:
    body = "fold(1, lambda (a, b) -> a + b)(R)"
    result = verifier.check(sl(tmp_path, "l.sl", body), sl(tmp_path, "r.sl", body), replay=False, timeout=20)
    assert result.verdict in ("unknown", "equivalent")
    assert any("partition-dependent" in w for w in result.warnings)
    if result.verdict == "unknown":
        assert result.reason


def test_error_outcomes_differ_from_values(tmp_path: Path) -> None:
    left = sl(tmp_path, "l.sl", "reduce(lambda (a, b) -> a + b)(R)")
    right = sl(tmp_path, "r.sl", "sum(R)")
    result = verifier.check(left, right, replay=False)
    assert_real_counterexample(result)
    assert {"error": "ValueError"} in (result.counterexample.left, result.counterexample.right)


def test_missing_file_is_a_located_input_error(tmp_path: Path) -> None:
    result = verifier.check(str(tmp_path / "nope.sl"), sl(tmp_path, "r.sl", "R"), replay=False)
    assert result.verdict == "error"
    assert result.exit_code == 3
    assert "nope.sl:1:1" in result.reason
    assert result.to_json()["counterexample"] is None


def test_syntax_error_is_located(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.sl", "program P(R: Bag[Int]) =\nmap(lambda x -> )(R)\n")
    result = verifier.check(bad, sl(tmp_path, "r.sl", "R"), replay=False)
    assert result.verdict == "error"
    assert "bad.sl:2:" in result.reason


def test_parameters_are_matched_by_position(tmp_path: Path) -> None:
    """A renamed parameter is a routine refactor; the counterexample uses LEFT's names."""
    left = sl(tmp_path, "l.sl", "R")
    right = sl(tmp_path, "r.sl", "S", params="S: Bag[Int]")
    assert verifier.check(left, right, replay=False).verdict == "equivalent"
    differs = sl(tmp_path, "d.sl", "filter(lambda (x: Int) -> x > 0)(S)", params="S: Bag[Int]")
    result = verifier.check(left, differs, replay=False)
    assert result.verdict == "not_equivalent"
    assert set(result.counterexample.inputs) == {"R"}


def test_renamed_python_parameters_are_matched_by_position() -> None:
    left = "def p(R: RDD[int]) -> int:\n    return R.map(lambda x: x + 1).count()\n"
    right = "def q(rows: RDD[int]) -> int:\n    return rows.count()\n"
    assert verifier.check((left, "p"), (right, "q"), replay=False).verdict == "equivalent"


def test_incomparable_parameters_are_an_input_error(tmp_path: Path) -> None:
    left = sl(tmp_path, "l.sl", "R")
    right = sl(tmp_path, "r.sl", "count(S)", params="S: Bag[Int], t: Int")
    result = verifier.check(left, right, replay=False)
    assert result.verdict == "error"
    assert "parameters differ" in result.reason
    assert "r.sl:1:" in result.reason


def test_incomparable_results_are_an_input_error(tmp_path: Path) -> None:
    result = verifier.check(sl(tmp_path, "l.sl", "R"), sl(tmp_path, "r.sl", "count(R)"), replay=False)
    assert result.verdict == "error"
    assert "results differ" in result.reason


def test_unknown_option_is_rejected() -> None:
    with pytest.raises(TypeError):
        verifier.check("a.sl", "b.sl", no_such_option=1)


PY_LEFT = """
from pyspark import RDD


def p1(R: RDD[int]) -> RDD[int]:
    return R.map(lambda x: x * 2).filter(lambda x: x >= 100)
"""

PY_RIGHT = """
from pyspark import RDD


def p2(R: RDD[int]) -> RDD[int]:
    return R.filter(lambda x: x > 50).map(lambda x: x * 2)
"""


def test_pyspark_files_with_function_names(tmp_path: Path) -> None:
    left = write(tmp_path, "left.py", PY_LEFT)
    right = write(tmp_path, "right.py", PY_RIGHT)
    result = verifier.check(f"{left}::p1", f"{right}::p2", replay=False)
    assert_real_counterexample(result)
    assert result.counterexample.inputs["R"] == [50]


def test_pyspark_source_strings_and_sparklite_ast(tmp_path: Path) -> None:
    right = parse("program p2(R: Bag[Int]) =\nmap(lambda x -> x * 2)(filter(lambda x -> x >= 50)(R))\n")
    result = verifier.check((PY_LEFT, "p1"), right, replay=False)
    assert result.verdict == "equivalent", result
    result = verifier.check(PY_LEFT, PY_RIGHT, left_function="p1", right_function="p2", replay=False)
    assert result.verdict == "not_equivalent"


def _double_then_keep(R):  # noqa: N803 - never executed: sparkeq only reads its source
    return R.map(lambda x: x * 2).filter(lambda x: x >= 100)


def _keep_then_double(R):  # noqa: N803
    return R.filter(lambda x: x >= 50).map(lambda x: x * 2)


def test_python_function_objects_are_read_not_run() -> None:
    result = verifier.check(_double_then_keep, _keep_then_double, replay=False)
    assert result.verdict in ("equivalent", "error"), result
    if result.verdict == "error":  # the element type needs an annotation: the error names the parameter
        assert "R" in result.reason


def test_seconds_and_warnings_are_reported(tmp_path: Path) -> None:
    result = verifier.check(sl(tmp_path, "l.sl", "R"), sl(tmp_path, "r.sl", "R"), replay=False)
    assert result.seconds >= 0
    assert isinstance(result.to_json()["warnings"], list)


@pytest.mark.spark
def test_counterexample_is_replayed_on_spark(tmp_path: Path, spark_context) -> None:
    left = write(tmp_path, "left.py", PY_LEFT)
    right = write(tmp_path, "right.py", PY_RIGHT)
    result = verifier.check(f"{left}::p1", f"{right}::p2", replay=True)
    assert result.verdict == "not_equivalent", result
    assert result.counterexample.replayed_on_spark is True
    assert result.stats["spark_left"] != result.stats["spark_right"]


@pytest.mark.spark
def test_partition_dependent_counterexample_replays_on_spark(tmp_path: Path, spark_context) -> None:
    left = write(tmp_path, "left.py", """
        from pyspark import RDD


        def wrong(R: RDD[int]) -> int:
            return R.fold(0, lambda a, x: a + 1)
        """)
    right = write(tmp_path, "right.py", """
        from pyspark import RDD


        def right(R: RDD[int]) -> int:
            return R.count()
        """)
    result = verifier.check(f"{left}::wrong", f"{right}::right", replay=True)
    assert result.verdict == "not_equivalent", result
    assert result.counterexample.replayed_on_spark is True


def test_loading_variants(tmp_path: Path) -> None:
    from sparklite.errors import InputError
    from verifier.core.loading import load

    single = write(tmp_path, "single.py", PY_LEFT)
    assert load(single).function == "p1"  # the file's single pipeline
    assert load(f"{single}::p1").program.name == "p1"
    assert load("program Q(R: Bag[Int]) =\ncount(R)\n").language == "sparklite"
    assert load(PY_RIGHT, function="p2").program.name == "p2"
    for bad in (f"{single}::", str(tmp_path / "x.txt"), f"{sl(tmp_path, 'a.sl', 'R')}::f"):
        with pytest.raises(InputError) as info:
            load(bad)
        assert info.value.loc is not None
    with pytest.raises(InputError):
        load(42)


def test_tuple_results_with_bags(tmp_path: Path) -> None:
    left = sl(tmp_path, "l.sl", "(filter(lambda x -> x > 0)(R), count(R))")
    right = sl(tmp_path, "r.sl", "(filter(lambda x -> x >= 0)(R), count(R))")
    result = verifier.check(left, right, replay=False)
    assert_real_counterexample(result)
    assert isinstance(result.counterexample.left, list) and len(result.counterexample.left) == 2


def test_distinct_difference_is_found(tmp_path: Path) -> None:
    left = sl(tmp_path, "l.sl", "distinct(map(lambda x -> x % 2)(R))")
    right = sl(tmp_path, "r.sl", "map(lambda x -> x % 2)(R)")
    result = verifier.check(left, right, replay=False)
    assert_real_counterexample(result)


def test_z3_watchdog_cancels_a_query_past_the_deadline():
    """Per-query timeouts are not always honoured by Z3; the watchdog behind --timeout cancels the
    running query itself (here an unbounded one: x^3 + y^3 = z^3 has no positive solution, and Z3
    cannot show it), and Z3 stays usable afterwards."""
    import time

    import z3

    from verifier.core.run import z3_watchdog as _z3_watchdog

    x, y, z = z3.Ints("wx wy wz")
    solver = z3.Solver()
    solver.add(x * x * x + y * y * y == z * z * z, x > 1, y > 1, z > 1)
    with _z3_watchdog(time.monotonic() + 0.5):
        try:
            answer = solver.check()
        except z3.Z3Exception:
            answer = z3.unknown
    assert answer == z3.unknown
    after = z3.Solver()
    after.add(x > 1)
    assert after.check() == z3.sat


def test_an_unproved_aggregation_is_not_called_partition_dependent_without_a_witness(tmp_path: Path) -> None:
    """``fold(m, +)`` with ``m = count(R) - count(R)``: the proof must allow any zero, but m is always 0,
    so no partitioning changes the result. The warning says what was not proved, never "dependent"."""
    body = "let m = count(R) - count(R)\n  fold(m, lambda (a: Int, b: Int) -> a + b)(R)"
    result = verifier.check(sl(tmp_path, "l.sl", body), sl(tmp_path, "r.sl", "sum(R)"), replay=False,
                            timeout=20)
    assert result.verdict != "not_equivalent"
    assert not any(w.startswith("partition-dependent") for w in result.warnings), result.warnings
    assert any("not proved partition-independent" in w and "l.sl:3:" in w for w in result.warnings)


STRICT_FAMILY = ["strict_projected_action", "strict_len_of_actions", "strict_captured_projection",
                 "strict_unused_action", "strict_unpacked_action", "strict_rdd_tuple_item"]


@pytest.mark.spark
@pytest.mark.parametrize("case", STRICT_FAMILY)
def test_an_action_that_raises_is_never_simplified_away(case: str, spark_context) -> None:
    """The family that once gave wrong 'equivalent' verdicts: Python runs every driver action, so an
    empty R raises in LEFT; the counterexample is replayed on real Spark with the users' code."""
    root = Path(__file__).resolve().parent.parent / "cases" / case
    result = verifier.check(str(root / "left.py"), str(root / "right.py"), replay=True)
    assert result.verdict == "not_equivalent", result
    assert result.counterexample.replayed_on_spark is True
    assert result.counterexample.inputs["R"] == []
    assert result.stats["spark_left"] == {"error": "ValueError"} != result.stats["spark_right"]
