"""Partition independence: proofs for well-behaved aggregations, witnesses (checked by the interpreter)
for the ones whose Spark result depends on the partitioning."""

from __future__ import annotations

import pytest

from sparklite.parser import parse
from sparklite.values import outcomes_equal
from verifier.core.base import Options
from verifier.core.methods.partition_independence import check_program, find_witness
from verifier.core.validate import run_program

OPTS = Options(timeout_s=20.0)


def prog(body: str, params: str = "R: Bag[Int]") -> object:
    return parse(f"program P({params}) =\n{body}\n")


INDEPENDENT = [
    "fold(0, lambda (a, b) -> a + b)(R)",
    "aggregate(0, lambda (a, x) -> a + 1, lambda (a, b) -> a + b)(R)",
    "reduce(lambda (a, b) -> max(a, b))(R)",
    "fold(0, lambda (a, b) -> max(a, b))(R)",  # zero is an identity on reachable accumulators only
    "count(R)",
    "sum(map(lambda x -> x * 2)(R))",
    "aggregate((0, 0), lambda (a, x) -> (a[0] + x, a[1] + 1),"
    " lambda (a, b) -> (a[0] + b[0], a[1] + b[1]))(R)",
]

DEPENDENT = [
    "fold(1, lambda (a, b) -> a + b)(R)",
    "fold(0, lambda (a, x) -> a + 1)(R)",
    "reduce(lambda (a, b) -> a - b)(R)",
    "aggregate(0, lambda (a, x) -> a + x, lambda (a, b) -> a * 2 + b)(R)",
]


@pytest.mark.parametrize("body", INDEPENDENT)
def test_independent_aggregations_are_proved(body: str) -> None:
    checks = check_program(prog(body), OPTS)
    assert checks and all(c.independent for c in checks), checks


@pytest.mark.parametrize("body", DEPENDENT)
def test_dependent_aggregations_have_a_concrete_witness(body: str) -> None:
    program = prog(body)
    checks = check_program(program, OPTS)
    assert [c.independent for c in checks] == [False]
    assert checks[0].warning().startswith("partition-dependent aggregation at ")
    witness = find_witness(program, OPTS)
    assert witness is not None
    assert witness.first != witness.second
    # the interpreter, not the encoding, shows the two partitionings give different results
    out_a = run_program(program, witness.inputs, witness.first)
    out_b = run_program(program, witness.inputs, witness.second)
    assert not outcomes_equal(out_a, out_b)


def test_by_key_forms() -> None:
    pairs = "R: Bag[(Int, Int)]"
    good = check_program(prog("reduceByKey(lambda (a, b) -> a + b)(R)", pairs), OPTS)
    assert all(c.independent for c in good)
    good = check_program(prog("foldByKey(0, lambda (a, b) -> a + b)(R)", pairs), OPTS)
    assert all(c.independent for c in good)
    bad_prog = prog("foldByKey(1, lambda (a, b) -> a + b)(R)", pairs)
    bad = check_program(bad_prog, OPTS)
    assert not bad[0].independent
    witness = find_witness(bad_prog, OPTS)
    assert witness is not None
    assert not outcomes_equal(run_program(bad_prog, witness.inputs, witness.first),
                              run_program(bad_prog, witness.inputs, witness.second))


def test_warning_names_the_location_and_the_failed_condition() -> None:
    checks = check_program(parse("program P(R: Bag[Int]) =\nfold(1, lambda (a, b) -> a + b)(R)\n",
                                 file="f.sl"), OPTS)
    text = checks[0].warning()
    assert "f.sl:2:" in text
    assert "zero" in text


def test_closures_over_scalars_are_over_approximated() -> None:
    # op adds a program scalar: associative and commutative only if... it is not (a + b + t)
    checks = check_program(prog("fold(0, lambda (a, b) -> a + b + t)(R)", "R: Bag[Int], t: Int"), OPTS)
    assert not checks[0].independent


def test_failed_condition_without_witness_is_only_a_warning() -> None:
    # comb is not commutative, yet 0 - s1 - s2 - ... is -sum whatever the partitioning: no witness
    program = prog("aggregate(0, lambda (a, x) -> a + x, lambda (a, b) -> a - b)(R)")
    assert not check_program(program, OPTS)[0].independent
    assert find_witness(program, Options(timeout_s=5.0)) is None


def test_what_a_filter_guarantees_reaches_the_conditions() -> None:
    """``foldByKey(0, max)`` after ``filter(v >= 0)``: the zero is neutral on every value that reaches it."""
    body = ("foldByKey(0, lambda (a: Int, b: Int) -> max(a, b))"
            "(filter(lambda (kv: (Int, Int)) -> kv[1] >= 0)(R))")
    src = f"program p(R: Bag[(Int, Int)]) =\n  {body}\n"
    assert all(c.independent for c in check_program(parse(src), OPTS))
    unfiltered = "program p(R: Bag[(Int, Int)]) =\n  foldByKey(0, lambda (a: Int, b: Int) -> max(a, b))(R)\n"
    assert not any(c.independent for c in check_program(parse(unfiltered), OPTS))


def test_a_bag_read_twice_is_not_judged_by_its_diagonal() -> None:
    """The symbolic run holds one element per input, so ``cartesian(R, R)`` shows only its diagonal,
    where ``p[1] - p[0]`` is 0 and the zero of ``foldByKey(0, max)`` looks neutral. Off the diagonal
    the values can be negative, and the zero then depends on partitioning."""
    body = ("foldByKey(0, lambda (a: Int, b: Int) -> max(a, b))"
            "(map(lambda (p: (Int, Int)) -> (p[0], p[1] - p[0]))(cartesian(R, R)))")
    checks = check_program(parse(f"program p(R: Bag[Int]) =\n  {body}\n"), OPTS)
    assert not any(c.independent for c in checks)


def test_an_aggregation_result_inside_the_bag_keeps_the_general_conditions() -> None:
    """Found in review: in the one-element run ``count(S)`` is 1, so the filter ``x >= 1 - n`` looked
    like ``x >= 0`` and the non-neutral comb seemed harmless; the refinement must not apply there."""
    src = ("program P(R: Bag[Int], S: Bag[Int]) =\n  let n = count(S)\n"
           "  aggregate(0, lambda (a: Int, x: Int) -> a + x, lambda (a: Int, b: Int) -> a + abs(b))"
           "(filter(lambda (x: Int) -> x >= 1 - n)(R))\n")
    assert not next(c for c in check_program(parse(src), OPTS) if c.label == "aggregate").independent
