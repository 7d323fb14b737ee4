"""Python's ``statistics`` in functions Spark runs (issue 20: mahmoudparsian chap01 compute_stats): the
interpreter gives CPython's values, types (``Num``: an int or a float by value) and StatisticsError; a
``Num`` takes no arithmetic; proofs through these calls are by congruence only."""

from __future__ import annotations

import statistics

import pytest

import verifier
from frontend import translate_source
from sparklite.errors import InputError
from sparklite.interpreter import run
from sparklite.types import FLOAT, NUM, STR, BagType, TupleType
from sparklite.values import Bag, ErrorOutcome

H = "import statistics\nfrom pyspark import RDD\n\n"
GROUPS = [[1, 3], [1, 2], [5], [2, 2, 7], [4, 1, 3, 2], [10**20, 1]]


def _grouped(body: str) -> str:
    return H + ("def f(R: RDD[tuple[str, int]]):\n"
                f"    return R.groupByKey().mapValues(lambda vs: {body})\n")


def _pairs(groups: list[list[int]]) -> list[tuple[str, int]]:
    return [(f"k{i}", x) for i, g in enumerate(groups) for x in g]


@pytest.mark.parametrize("name", ["mean", "median", "variance", "pvariance", "pstdev", "fmean",
                                  "median_low", "median_high"])
def test_values_and_types_are_cpythons(name: str) -> None:
    program = translate_source(_grouped(f"statistics.{name}(vs)"), "f")
    for group in GROUPS:
        expected = getattr(statistics, name)
        try:
            want: object = Bag.of([("k", expected(group))])
        except statistics.StatisticsError:
            want = ErrorOutcome("StatisticsError")
        got = run(program, {"R": [("k", x) for x in group]})
        assert got == want, (name, group)
        if isinstance(got, Bag):  # the int/float distinction is kept (2 is not 2.0 when printed)
            ((_, value),) = got.items
            assert type(value) is type(expected(group)), (name, group)


def test_too_few_values_raise_statistics_error() -> None:
    program = translate_source(_grouped("statistics.stdev(vs)"), "f")
    assert run(program, {"R": [("a", 1)]}) == ErrorOutcome("StatisticsError")
    assert run(program, {"R": [("a", 1), ("a", 3)]}) == Bag.of([("a", statistics.stdev([1, 3]))])


def test_result_types() -> None:
    from sparklite.typecheck import typecheck

    ints = typecheck(translate_source(_grouped("(statistics.mean(vs), statistics.stdev(vs))"), "f"))
    assert ints.result == BagType(TupleType((STR, TupleType((NUM, FLOAT)))))
    floats = H + ("def f(R: RDD[tuple[str, float]]):\n"
                  "    return R.groupByKey().mapValues(lambda vs: statistics.mean(vs))\n")
    assert typecheck(translate_source(floats, "f")).result == BagType(TupleType((STR, FLOAT)))


@pytest.mark.parametrize("body", ["statistics.mean(vs) + 1", "float(statistics.mean(vs))",
                                  "statistics.mean(vs) * 2.0", "statistics.quantiles(vs)",
                                  "statistics.mean(vs, 1)"])
def test_what_is_not_read_is_located(body: str) -> None:
    with pytest.raises(InputError) as info:
        translate_source(_grouped(body), "f")
    assert info.value.loc is not None and info.value.loc.line == 5, str(info.value)


def test_a_num_compares_with_floats_and_ints() -> None:
    program = translate_source(H + (
        "def f(R: RDD[tuple[str, int]], t: float):\n"
        "    return R.groupByKey().mapValues(lambda vs: statistics.mean(vs)).filter(lambda kv: kv[1] > t)\n"),
        "f")
    pairs = _pairs([[1, 3], [1, 2], [7]])
    assert run(program, {"R": pairs, "t": 1.5}) == Bag.of([("k0", 2), ("k2", 7)])


def test_congruent_pairs_are_proved_and_others_not() -> None:
    same = verifier.check((_grouped("statistics.mean(vs)"), "f"),
                          (_grouped("statistics.mean(list(vs))"), "f"), replay=False, timeout=20)
    assert same.verdict == "equivalent", same.reason
    sorted_first = verifier.check((_grouped("statistics.mean(vs)"), "f"),
                                  (_grouped("statistics.mean(sorted(vs))"), "f"), replay=False, timeout=20)
    assert sorted_first.verdict == "unknown", sorted_first.reason  # equal, but not by the same term
    differ = verifier.check((_grouped("statistics.mean(vs)"), "f"), (_grouped("statistics.median(vs)"), "f"),
                            replay=False, timeout=20)
    assert differ.verdict == "not_equivalent", differ.reason
