"""verifier.difftest: random differential testing finds known differences, deterministically."""

from __future__ import annotations

import pytest

from sparklite.ast import (
    BinOp,
    Filter,
    Fold,
    IntLit,
    Lambda,
    Map,
    Param,
    Program,
    Reduce,
    SimpleAgg,
    Var,
)
from sparklite.types import INT, BagType
from sparklite.values import ErrorOutcome
from verifier.difftest import InputGenerator, diff_on_spark, program_constants, search
from verifier.methods.base import LoadedProgram

R = (Param("R", BagType(INT)),)


def lam(body, *names: str) -> Lambda:
    return Lambda(tuple(Param(n) for n in names), body)


def prog(body, name: str = "p") -> Program:
    return Program(name, R, (), (), body)


x, a, b = Var("x"), Var("a"), Var("b")
ADD = lam(BinOp("+", a, b), "a", "b")

GT_10 = prog(Filter(lam(BinOp(">", x, IntLit(10)), "x"), Var("R")))
GE_10 = prog(Filter(lam(BinOp(">=", x, IntLit(10)), "x"), Var("R")))
FOLD_COUNT = prog(Fold(IntLit(0), lam(BinOp("+", a, IntLit(1)), "a", "x"), Var("R")))
COUNT = prog(SimpleAgg("count", Var("R")))
REDUCE_SUM = prog(Reduce(ADD, Var("R")))
SUM = prog(SimpleAgg("sum", Var("R")))
FOLD_ONE = prog(Fold(IntLit(1), ADD, Var("R")))  # equals sum() + 2 on one partition only
SUM_PLUS_TWO = prog(BinOp("+", SimpleAgg("sum", Var("R")), IntLit(2)))
INC = lam(BinOp("+", x, IntLit(1)), "x")
MAP_THEN_FILTER = prog(Filter(lam(BinOp(">", x, IntLit(3)), "x"), Map(INC, Var("R"))))
FILTER_THEN_MAP = prog(Map(INC, Filter(lam(BinOp(">", x, IntLit(2)), "x"), Var("R"))))


def test_boundary_constant_is_found() -> None:
    result = search(GT_10, GE_10, budget_inputs=500, seed=1)
    assert result.found is not None
    assert 10 in result.found.inputs["R"]
    assert result.left != result.right


def test_empty_input_comes_first() -> None:
    result = search(REDUCE_SUM, SUM, budget_inputs=10)
    assert result.tried == 1
    assert result.found is not None and result.found.inputs == {"R": []}
    assert (result.left, result.right) == (ErrorOutcome("ValueError"), 0)


def test_partition_dependence_is_found_with_several_partitions() -> None:
    result = search(FOLD_ONE, SUM_PLUS_TWO, budget_inputs=500, seed=3)
    assert result.found is not None and result.found.partitions is not None
    # fold(1, +) differs from sum() + 2 under any partitioning but one partition: several, or none at
    # all (an empty RDD with no partition folds to the zero alone, docs/semantics-notes.md)
    assert len(result.found.partitions["R"]) != 1
    assert result.tried > 1


def test_equivalent_pair_finds_nothing_and_spends_the_budget() -> None:
    result = search(MAP_THEN_FILTER, FILTER_THEN_MAP, budget_inputs=300, seed=0)
    assert result.found is None and result.tried == 300


def test_deterministic_given_seed() -> None:
    gen = InputGenerator((GT_10,), seed=7)
    first = [gen.candidate(i) for i in range(50)]
    gen = InputGenerator((GT_10,), seed=7)
    assert [gen.candidate(i) for i in range(50)] == first
    one, two = search(FOLD_COUNT, COUNT, seed=5), search(FOLD_COUNT, COUNT, seed=5)
    assert (one.found, one.tried, one.left, one.right) == (two.found, two.tried, two.left, two.right)
    other = InputGenerator((GT_10,), seed=8)
    assert [other.candidate(i) for i in range(50)] != first


def test_generator_biases_toward_constants_and_duplicates() -> None:
    assert program_constants(GT_10, MAP_THEN_FILTER) == {10, 1, 3}
    gen = InputGenerator((GT_10,), seed=0, max_len=8)
    bags = [gen.candidate(i).inputs["R"] for i in range(1, 200)]
    values = [v for bag in bags for v in bag]
    assert {9, 10, 11} <= set(values)
    assert any(len(set(bag)) < len(bag) for bag in bags)


def test_partitions_are_consistent_with_inputs() -> None:
    gen = InputGenerator((FOLD_COUNT,), seed=2, max_parts=4)
    for i in range(100):
        cand = gen.candidate(i)
        if cand.partitions is not None:
            assert [v for part in cand.partitions["R"] for v in part] == cand.inputs["R"]
            parts = cand.partitions["R"]
            assert 1 <= len(parts) <= 4 or parts == () == tuple(cand.inputs["R"])  # () : no partition


def test_empty_bags_sometimes_have_no_partition() -> None:
    """An empty text file is an RDD with no partition (countByValue raises there): random inputs hold
    that layout for empty bags, without a random draw (the other inputs stay what they were)."""
    gen = InputGenerator((FOLD_COUNT,), seed=2, max_parts=4)
    cands = [gen.candidate(i) for i in range(200)]
    assert any(c.partitions == {"R": ()} for c in cands[2:])


@pytest.mark.spark
def test_diff_on_spark_finds_partition_dependence(spark_context, tmp_path) -> None:
    path = tmp_path / "counts.py"
    path.write_text("def a(R):\n    return R.fold(0, lambda acc, x: acc + 1)\n\n"
                    "def b(R):\n    return R.count()\n")
    left = LoadedProgram(FOLD_COUNT, "python", path=str(path), function="a", source=path.read_text())
    right = LoadedProgram(COUNT, "python", path=str(path), function="b", source=path.read_text())
    result = diff_on_spark(left, right, 30, seed=3)
    assert result.found is not None
    assert result.left != result.right


@pytest.mark.spark
def test_spark_fallback_turns_unknown_into_a_replayed_counterexample(spark_context, tmp_path) -> None:
    from verifier.difftest import spark_fallback
    from verifier.result import Result

    path = tmp_path / "sums.py"
    path.write_text("from operator import add\nfrom pyspark import RDD\n\n\n"
                    "def fold_one(R: RDD[int]) -> int:\n    return R.fold(1, add)\n\n\n"
                    "def sum_two(R: RDD[int]) -> int:\n    return R.sum() + 2\n")
    left, right = f"{path}::fold_one", f"{path}::sum_two"
    result = spark_fallback(Result("unknown", reason="no proof"), left, right, 30, seed=3)
    assert result.verdict == "not_equivalent" and result.exit_code == 1
    assert result.counterexample is not None and result.counterexample.replayed_on_spark
    assert len(result.counterexample.partitions["R"]) >= 2
    untouched = spark_fallback(Result("error", reason="bad input"), left, right, 30)
    assert untouched.verdict == "error"


@pytest.mark.spark
def test_cli_diff_on_spark_flag(spark_context, tmp_path, capsys) -> None:
    import json

    from verifier.cli import main

    path = tmp_path / "pair.py"
    path.write_text("from pyspark import RDD\n\n\ndef a(R: RDD[int]) -> RDD[int]:\n"
                    "    return R.map(lambda x: x + 1).filter(lambda x: x > 3)\n\n\n"
                    "def b(R: RDD[int]) -> RDD[int]:\n"
                    "    return R.filter(lambda x: x > 2).map(lambda x: x + 1)\n")
    code = main(["check", f"{path}::a", f"{path}::b", "--json", "--diff-on-spark", "3"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["verdict"] == "equivalent"
    assert any("no difference on 3 inputs" in w for w in data["warnings"])
