"""Validation keeps only candidates on which the interpreter shows a real difference."""

from __future__ import annotations

from sparklite.parser import parse
from verifier.core.base import Candidate
from verifier.core.validate import ValidationStats, validate


def prog(body: str, params: str = "R: Bag[Int]") -> object:
    return parse(f"program P({params}) =\n{body}\n")


def test_spurious_candidates_are_discarded_and_counted() -> None:
    left = prog("filter(lambda x -> x > 5)(R)")
    right = prog("filter(lambda x -> x >= 5)(R)")
    stats = ValidationStats()
    found = validate(left, right, [Candidate({"R": [1, 2]}), Candidate({"R": [7]})], stats=stats)
    assert found is None
    assert (stats.tried, stats.discarded) == (2, 2)


def test_real_difference_is_confirmed_with_outcomes() -> None:
    left = prog("filter(lambda x -> x > 5)(R)")
    right = prog("filter(lambda x -> x >= 5)(R)")
    stats = ValidationStats()
    found = validate(left, right, [Candidate({"R": [1]}), Candidate({"R": [5, 9]})], stats=stats)
    assert found is not None
    assert found.inputs == {"R": [5, 9]}
    assert (stats.tried, stats.discarded) == (2, 1)
    assert found.left != found.right


def test_scalars_and_errors() -> None:
    left = prog("reduce(lambda (a, b) -> a + b)(R)")
    right = prog("sum(R)")
    found = validate(left, right, [Candidate({"R": []})])
    assert found is not None
    assert type(found.left).__name__ == "ErrorOutcome"


def test_all_partitions_exposes_partition_dependence() -> None:
    left = prog("fold(0, lambda (a, x) -> a + 1)(R)")
    right = prog("min(1, count(R))")
    cand = Candidate({"R": [1, 2]})
    assert validate(left, right, [cand]) is None  # one partition: the driver's step gives 1
    found = validate(left, right, [cand], all_partitions=True)
    assert found is not None
    assert len(found.partitions["R"]) == 2


def test_two_errors_of_different_kinds_differ_only_where_one_task_holds_data() -> None:
    """A job whose tasks raise different exceptions fails with whichever task fails first (a race:
    issue 26 review saw OverflowError and ValueError on two Spark runs of one program), so different
    error kinds are a difference only when at most one input partition holds data."""
    from sparklite.values import ErrorOutcome, definitely_differ, tasks_with_data

    over, value = ErrorOutcome("OverflowError"), ErrorOutcome("ValueError")
    two = tasks_with_data({"r": [1.0], "s": [2.0]}, {"r": ((1.0,),), "s": ((), (2.0,))})
    one = tasks_with_data({"r": [1.0, 2.0], "s": []}, {"r": ((1.0, 2.0), ()), "s": ((),)})
    assert (two, one) == (2, 1)
    assert not definitely_differ(over, value, two)
    assert definitely_differ(over, value, one)
    assert definitely_differ(over, [1], two) and not definitely_differ(value, value, two)
    assert tasks_with_data({"r": [1], "s": [], "k": 3}, None) == 1
