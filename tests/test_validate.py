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
