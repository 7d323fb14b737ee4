"""Typing precision found with issue 26: constructs documented as supported that were input errors.

- ``groupByKey().mapValues(max)`` (and ``min``) over string values: Python orders strings, and the
  interpreter and the encoder (an uninterpreted string order) already did; only the typing refused it.
  ``sum`` of a group still needs numbers.
- ``aggregateByKey([], ...)``: ``[]`` is typed ``List[None]``, the empty list's type, which is also a
  ``List[Int]``; the zero now takes the accumulator type the seq function declares (``fold`` and
  ``foldByKey``: the values' type), instead of clashing with it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import verifier
from frontend import translate_file
from sparklite.errors import TypeCheckError
from sparklite.interpreter import run
from sparklite.typecheck import typecheck
from sparklite.values import Bag, ListValue

JOBS = '''
from operator import add
from pyspark import RDD


def longest(pairs: RDD[tuple[str, str]]) -> RDD[tuple[str, str]]:
    return pairs.groupByKey().mapValues(max)


def shortest(pairs: RDD[tuple[str, str]]) -> RDD[tuple[str, str]]:
    return pairs.groupByKey().mapValues(min)


def longest_again(pairs: RDD[tuple[str, str]]) -> RDD[tuple[str, str]]:
    return pairs.filter(lambda kv: True).groupByKey().mapValues(max)


def lists(pairs: RDD[tuple[str, int]]) -> RDD[tuple[str, list[int]]]:
    return pairs.aggregateByKey([], lambda acc, v: acc + [v], lambda a, b: a + b)


def lists_sizes(pairs: RDD[tuple[str, int]]) -> RDD[tuple[str, int]]:
    return pairs.aggregateByKey([], lambda acc, v: acc + [v], lambda a, b: a + b).mapValues(len)


def counts(pairs: RDD[tuple[str, int]]) -> RDD[tuple[str, int]]:
    return pairs.mapValues(lambda v: 1).reduceByKey(add)


def everything(nums: RDD[int]) -> list[int]:
    return nums.aggregate([], lambda acc, v: acc + [v], lambda a, b: a + b)


def sums(pairs: RDD[tuple[str, str]]):
    return pairs.groupByKey().mapValues(sum)
'''


@pytest.fixture(scope="module")
def jobs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("typing") / "jobs.py"
    path.write_text(JOBS)
    return path


@pytest.mark.parametrize("name", ["longest", "shortest", "lists", "lists_sizes", "everything"])
def test_documented_constructs_are_not_input_errors(jobs: Path, name: str) -> None:
    program = translate_file(str(jobs), function=name)
    typecheck(program)  # raised TypeCheckError before


def test_group_max_over_strings_runs_as_python(jobs: Path) -> None:
    program = typecheck(translate_file(str(jobs), function="longest")).program
    out = run(program, {"pairs": [("a", "pear"), ("a", "fig"), ("b", "kiwi")]})
    assert out == Bag.of([("a", "pear"), ("b", "kiwi")])


def test_group_max_over_strings_is_proved_and_refuted(jobs: Path) -> None:
    assert verifier.check(f"{jobs}::longest", f"{jobs}::longest_again").verdict == "equivalent"
    r = verifier.check(f"{jobs}::longest", f"{jobs}::shortest")
    assert r.verdict == "not_equivalent", r.reason


def test_aggregate_by_key_from_an_empty_list(jobs: Path) -> None:
    program = typecheck(translate_file(str(jobs), function="lists")).program
    out = run(program, {"pairs": [("a", 1), ("a", 2), ("b", 3)]})
    assert out == Bag.of([("a", ListValue((1, 2))), ("b", ListValue((3,)))])
    # the list sizes are each key's count, whatever the partitioning
    r = verifier.check(f"{jobs}::lists_sizes", f"{jobs}::counts")
    assert r.verdict != "not_equivalent", r.reason


def test_sum_of_a_string_group_is_still_refused(jobs: Path) -> None:
    with pytest.raises(TypeCheckError):
        typecheck(translate_file(str(jobs), function="sums"))
