"""verifier.replay on a real local Spark: one test per kind of outcome and per replay path."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from sparklite.ast import Param, Program, Var
from sparklite.types import INT, BagType, TupleType, Type
from sparklite.values import Bag, ErrorOutcome
from verifier.methods.base import LoadedProgram
from verifier.replay import ReplayError, replay, run_on_spark

pytestmark = pytest.mark.spark

BAG = BagType(INT)
PAIRS = BagType(TupleType((INT, INT)))

SOURCE = textwrap.dedent('''
    from operator import add

    OFFSET = 2

    def shift(x):
        return x + OFFSET

    def fold_count(R):
        return R.fold(0, lambda a, x: a + 1)

    def count(R):
        return R.count()

    def fold_one(R):
        return R.fold(1, add)

    def sum_plus_two(R):
        return R.sum() + 2

    def divide(R, t: int):
        return R.map(lambda x: t // x)

    def total(R):
        return R.reduce(add)

    def shifted(R):
        return R.map(shift).filter(lambda x: x > OFFSET)

    def shifted_other(R):
        return R.map(lambda x: x + 2).filter(lambda x: x >= OFFSET)

    def split(R):
        return (R.filter(lambda x: x > 1), R.count())

    def by_key(P):
        return P.reduceByKey(add).mapValues(lambda v: (v, 1))
''')


def _loaded(path: Path, function: str, params: list[tuple[str, Type]]) -> LoadedProgram:
    program = Program(function, tuple(Param(n, t) for n, t in params), (), (), Var(params[0][0]))
    return LoadedProgram(program, "python", path=str(path), function=function, source=path.read_text())


@pytest.fixture(scope="module")
def pipelines(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("replay") / "pipelines.py"
    path.write_text(SOURCE)
    return path


def test_bag_outputs_with_helpers_shipped_to_workers(spark_context, pipelines: Path) -> None:
    # ``shift`` and ``OFFSET`` live in the user's module: workers can only get them by value.
    left = _loaded(pipelines, "shifted", [("R", BAG)])
    right = _loaded(pipelines, "shifted_other", [("R", BAG)])
    result = replay(left, right, {"R": [0, 1, 1, -2]}, {"R": ((0, 1), (1, -2))})
    assert result.left == Bag.of([3, 3])
    assert result.right == Bag.of([2, 3, 3])
    assert result.differs


def test_scalar_outputs_and_scalar_parameters(spark_context, pipelines: Path) -> None:
    out = run_on_spark(_loaded(pipelines, "divide", [("R", BAG), ("t", INT)]), {"R": [1, -2], "t": 7})
    assert out == Bag.of([7, -4])  # Python's floor division, computed by Spark's workers


def test_zero_division_in_a_worker_is_an_error_outcome(spark_context, pipelines: Path) -> None:
    out = run_on_spark(_loaded(pipelines, "divide", [("R", BAG), ("t", INT)]), {"R": [1, 0], "t": 3})
    assert out == ErrorOutcome("ZeroDivisionError")


def test_empty_reduce_is_a_value_error(spark_context, pipelines: Path) -> None:
    left = _loaded(pipelines, "total", [("R", BAG)])
    right = _loaded(pipelines, "sum_plus_two", [("R", BAG)])
    result = replay(left, right, {"R": []}, {"R": ((), ())})
    assert result.left == ErrorOutcome("ValueError")
    assert result.right == 2
    assert result.differs


def test_partition_dependence_needs_two_partitions(spark_context, pipelines: Path) -> None:
    left = _loaded(pipelines, "fold_one", [("R", BAG)])
    right = _loaded(pipelines, "sum_plus_two", [("R", BAG)])
    one = replay(left, right, {"R": [1, 2, 3, 4]}, None)
    assert (one.left, one.right, one.differs) == (12, 12, False)
    two = replay(left, right, {"R": [1, 2, 3, 4]}, {"R": ((1, 2), (3, 4))})
    assert (two.left, two.right, two.differs) == (13, 12, True)
    counts = replay(_loaded(pipelines, "fold_count", [("R", BAG)]), _loaded(pipelines, "count", [("R", BAG)]),
                    {"R": [5, 5, 6, 7]}, {"R": ((5, 5), (), (6, 7))})
    assert (counts.left, counts.right) == (3, 4)  # the driver step counts the three partitions


def test_tuple_outputs_collect_rdds_inside(spark_context, pipelines: Path) -> None:
    out = run_on_spark(_loaded(pipelines, "split", [("R", BAG)]), {"R": [3, 1, 2, 2]},
                       {"R": ((3,), (), (1, 2, 2))})
    assert out == (Bag.of([2, 2, 3]), 4)


def test_pair_inputs_from_json_lists(spark_context, pipelines: Path) -> None:
    # Counterexamples may come back from JSON with tuples as lists.
    out = run_on_spark(_loaded(pipelines, "by_key", [("P", PAIRS)]), {"P": [[1, 2], [1, 3], [2, 5]]},
                       {"P": [[[1, 2]], [[1, 3], [2, 5]]]})
    assert out == Bag.of([(1, (5, 1)), (2, (5, 1))])


def test_top_level_side_effects_never_run(spark_context, tmp_path: Path) -> None:
    marker = tmp_path / "created.txt"
    path = tmp_path / "noisy.py"
    path.write_text(textwrap.dedent(f'''
        from pyspark import SparkContext
        sc = SparkContext("local[1]", "the user's own")   # must not start a second Spark
        open({str(marker)!r}, "w").write("top level ran")
        LIMIT = 3

        def small(R):
            return R.filter(lambda x: x < LIMIT)

        raise SystemExit("top level ran")
    '''))
    out = run_on_spark(_loaded(path, "small", [("R", BAG)]), {"R": [1, 5, 2]})
    assert out == Bag.of([1, 2])
    assert not marker.exists()


def test_unloadable_code_is_a_replay_error(spark_context, tmp_path: Path) -> None:
    path = tmp_path / "broken.py"
    path.write_text("import no_such_module_for_sparkeq as m\n\ndef f(R):\n    return m.g(R)\n")
    with pytest.raises(ReplayError, match="cannot be loaded"):
        run_on_spark(_loaded(path, "f", [("R", BAG)]), {"R": [1]})


def test_sparklite_programs_replay_through_generated_pyspark(spark_context) -> None:
    from sparklite.ast import BinOp, Fold, IntLit, Lambda, SimpleAgg

    bag = (Param("R", BAG),)
    add = Lambda((Param("a"), Param("b")), BinOp("+", Var("a"), Var("b")))
    fold_one = Program("fold_one", bag, (), (), Fold(IntLit(1), add, Var("R")))
    sum_plus_two = Program("sum_plus_two", bag, (), (), BinOp("+", SimpleAgg("sum", Var("R")), IntLit(2)))
    result = replay(LoadedProgram(fold_one, "ast"), LoadedProgram(sum_plus_two, "ast"),
                    {"R": [1, 2, 3, 4]}, {"R": ((1,), (2, 3), (4,))})
    assert (result.left, result.right, result.differs) == (14, 12, True)


def test_ordered_and_dict_results_replay_exactly(spark_context) -> None:
    from sparklite.ast import CountByValue, IntLit, Lambda, Proj, SortBy, Take, TupleExpr
    from sparklite.interpreter import run
    from sparklite.types import FLOAT, STR
    from sparklite.values import DictValue, Sorted, outcomes_equal

    pairs = (Param("R", BagType(TupleType((STR, FLOAT)))),)
    by_value = SortBy(Lambda((Param("kv"),), Proj(Var("kv"), 1)), False, Var("R"))
    ranked = Program("ranked", pairs, (), (), TupleExpr((by_value, Take(IntLit(3), by_value),
                                                         CountByValue(Var("R")))))
    inputs = {"R": [("a", 1.0), ("b b", 2.5), ("\U0001d11e", 2.5), ("", -0.0), ("c", 1.0)]}
    parts = {"R": ((("a", 1.0), ("b b", 2.5)), (("\U0001d11e", 2.5), ("", -0.0), ("c", 1.0)))}
    expected = run(ranked, inputs, parts)
    # ties (2.5 twice, 1.0 twice) in input order, as Spark returns them (issue 26)
    assert expected[0] == Sorted(tuple(Bag((x,)) for x in (("b b", 2.5), ("\U0001d11e", 2.5), ("a", 1.0),
                                                           ("c", 1.0), ("", -0.0))))
    assert expected[1] == Sorted(tuple(Bag((x,)) for x in (("b b", 2.5), ("\U0001d11e", 2.5), ("a", 1.0))))
    assert isinstance(expected[2], DictValue)
    loaded = LoadedProgram(ranked, "ast")
    result = replay(loaded, loaded, inputs, parts, references=(expected, expected))
    assert outcomes_equal(result.left, expected) and outcomes_equal(result.right, expected)
    assert not result.differs
    # without the interpreter's outcomes the lists are bags
    alone = run_on_spark(loaded, inputs, parts)
    assert alone[0] == Bag.of(x for p in parts["R"] for x in p)
    assert alone[2] == expected[2]


NO_JAVA_SCRIPT = textwrap.dedent('''
    from sparklite.ast import Param, Program, Var
    from sparklite.types import INT, BagType
    from verifier.methods.base import LoadedProgram
    from verifier.replay import replay
    from verifier.spark import SparkUnavailable

    p = LoadedProgram(Program("f", (Param("R", BagType(INT)),), (), (), Var("R")), "python",
                      function="f", source="def f(R):\\n    return R\\n")
    try:
        replay(p, p, {"R": [1]}, None)
    except SparkUnavailable as exc:
        print("unavailable:", exc)
''')


def test_missing_java_is_spark_unavailable_and_the_demo_says_so() -> None:
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "JAVA_HOME"}
    env["PATH"] = "/nonexistent"
    out = subprocess.run([sys.executable, "-c", NO_JAVA_SCRIPT], capture_output=True, text=True, env=env,
                         timeout=120)
    assert "unavailable: Java was not found" in out.stdout, out.stderr
    demo = subprocess.run([sys.executable, "-m", "verifier.demo"], capture_output=True, text=True, env=env,
                          timeout=120)
    assert demo.returncode == 1
    assert "Java" in demo.stdout
