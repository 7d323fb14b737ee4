"""Support (``verifier.core.methods.support``): programs whose result is a set, compared by supports.

Each law is checked on a proof *and* on a near miss, whose candidate the interpreter confirms (the
method itself never claims a difference)."""

from __future__ import annotations

from test_method_support import OPTS, assert_real, pair

from sparklite.parser import parse
from verifier.core.base import Inconclusive, NotApplicable, Proved
from verifier.core.methods import support

HEAD = "program p(R: Bag[Int], S: Bag[Int], t: Int) =\n  "


def run(left: str, right: str):
    p = pair(parse(HEAD + left + "\n"), parse(HEAD + right + "\n"))
    return p, support.run(p, OPTS)


def test_distinct_commutes_with_filter():
    _, out = run("filter(lambda (x: Int) -> x > t)(distinct(R))",
                 "distinct(filter(lambda (x: Int) -> x > t)(R))")
    assert isinstance(out, Proved), out


def test_a_moved_threshold_gives_a_real_candidate():
    p, out = run("filter(lambda (x: Int) -> x > t)(distinct(R))",
                 "distinct(filter(lambda (x: Int) -> x >= t)(R))")
    assert isinstance(out, Inconclusive) and out.candidates, out
    assert_real(p, out.candidates)


def test_distinct_commutes_with_injective_maps_only():
    _, out = run("map(lambda (x: Int) -> 2 * x + t)(distinct(R))",
                 "distinct(map(lambda (x: Int) -> 2 * x + t)(R))")
    assert isinstance(out, Proved), out
    _, out = run("map(lambda (x: Int) -> x * x)(distinct(R))",
                 "distinct(map(lambda (x: Int) -> x * x)(R))")
    assert isinstance(out, NotApplicable) and "injective" in out.reason


def test_distinct_of_a_union_of_distincts():
    _, out = run("distinct(union(distinct(R), distinct(S)))", "distinct(union(S, R))")
    assert isinstance(out, Proved), out
    p, out = run("distinct(union(distinct(R), distinct(S)))", "distinct(R)")
    assert isinstance(out, Inconclusive) and out.candidates
    assert_real(p, out.candidates)


def test_count_of_distinct_is_the_number_of_keys():
    _, out = run("count(distinct(R))",
                 "count(reduceByKey(lambda (a: Int, b: Int) -> a + b)(map(lambda (x: Int) -> (x, 1))(R)))")
    assert isinstance(out, Proved), out
    parity = "map(lambda (x: Int) -> (x % 2, 1))(R)"
    _, out = run("count(distinct(R))", f"count(reduceByKey(lambda (a: Int, b: Int) -> a + b)({parity}))")
    assert not isinstance(out, Proved)


def test_keys_whose_aggregation_may_divide_by_zero_are_left_to_the_interpreter():
    _, out = run("count(distinct(R))",
                 "count(reduceByKey(lambda (a: Int, b: Int) -> a // b)(map(lambda (x: Int) -> (x, x))(R)))")
    assert isinstance(out, NotApplicable) and "division" in out.reason


def test_multisets_are_not_sets():
    _, out = run("R", "distinct(R)")
    assert isinstance(out, NotApplicable)


def test_maps_after_a_counted_by_key_output_still_run():
    """Found in review: count() forces the maps after reduceByKey, and 1 // v raises when v is 0."""
    keyed = "reduceByKey(lambda (a: Int, b: Int) -> a + b)(map(lambda (x: Int) -> (x, 0))(R))"
    p, out = run(f"count(map(lambda (kv: (Int, Int)) -> 1 // kv[1])({keyed}))", "count(distinct(R))")
    assert isinstance(out, NotApplicable) and "division" in out.reason
