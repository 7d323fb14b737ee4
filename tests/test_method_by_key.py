"""AggOneK^b on the paper's P7/P8 (grade histogram) and the by-key shapes of Spark."""

from __future__ import annotations

from test_method_support import OPTS, PAIR, add, assert_real, at, bag, call, lam, op, pair, prog, tup, v

from sparklite import ast as A
from verifier.core.base import Inconclusive, NotApplicable, Proved, Refuted
from verifier.core.methods import by_key

RP = {"R": bag(PAIR)}
DECILE_ONE = lam("p", tup(op("//", at("p", 1), 10), 1))


def histogram(pre_filter: int | None, post_filter: int | None):
    src = v("R")
    if pre_filter is not None:
        src = A.Filter(lam("p", op(">=", at("p", 1), pre_filter)), src)
    out = A.FoldByKey(A.IntLit(0), add(), A.Map(DECILE_ONE, src))
    if post_filter is not None:
        out = A.Filter(lam("kv", op(">=", at("kv", 0), post_filter)), out)
    return prog(RP, out)


P7 = histogram(None, 6)
P8 = histogram(60, None)


def test_p7_p8_equivalent():
    out = by_key.run(pair(P7, P8), OPTS)
    assert isinstance(out, Proved), out


def test_p7_p8_threshold_off_is_refuted_for_real():
    p = pair(P7, histogram(61, None))
    out = by_key.run(p, OPTS)
    assert isinstance(out, Refuted), out
    assert_real(p, out.candidates)


def test_deciles_vs_percentiles_not_proved():
    # the paper's footnote 4: bucketing differs (K1 fails), so only candidates, never a proof
    left = prog(RP, A.Map(lam("kv", 0), A.FoldByKey(A.IntLit(0), add(),
                                                    A.Map(DECILE_ONE, v("R")))))
    percent = A.Map(lam("p", tup(op("//", at("p", 1), 1), 1)), v("R"))
    right = prog(RP, A.Map(lam("kv", 0), A.FoldByKey(A.IntLit(0), add(), percent)))
    p = pair(left, right)
    out = by_key.run(p, OPTS)
    assert isinstance(out, Inconclusive), out
    assert_real(p, out.candidates)


def test_reduce_by_key_vs_group_sum():
    left = prog(RP, A.ReduceByKey(add(), v("R")))
    right = prog(RP, A.GroupByKeyAgg(("sum",), v("R")))
    assert isinstance(by_key.run(pair(left, right), OPTS), Proved)


def test_group_max_vs_reduce_max():
    left = prog(RP, A.GroupByKeyAgg(("max",), v("R")))
    right = prog(RP, A.ReduceByKey(lam("a, b", call("max", "a", "b")), v("R")))
    assert isinstance(by_key.run(pair(left, right), OPTS), Proved)


def test_combine_by_key_count_vs_group_len():
    left = prog(RP, A.CombineByKey(lam("x", 1), lam("a, x", op("+", "a", 1)), add(), v("R")))
    right = prog(RP, A.GroupByKeyAgg(("len",), v("R")))
    assert isinstance(by_key.run(pair(left, right), OPTS), Proved)


def test_aggregate_by_key_sum_count_vs_group():
    seq = lam("a, x", tup(op("+", at("a", 0), "x"), op("+", at("a", 1), 1)))
    comb = lam("a, b", tup(op("+", at("a", 0), at("b", 0)), op("+", at("a", 1), at("b", 1))))
    left = prog(RP, A.AggregateByKey(tup(0, 0), seq, comb, v("R")))
    right = prog(RP, A.GroupByKeyAgg(("sum", "len"), v("R")))
    assert isinstance(by_key.run(pair(left, right), OPTS), Proved)


def test_value_filter_below_reduce_by_key_is_not_proved():
    left = prog(RP, A.Filter(lam("kv", op(">", at("kv", 1), 0)), A.ReduceByKey(add(), v("R"))))
    right = prog(RP, A.ReduceByKey(add(), A.Filter(lam("p", op(">", at("p", 1), 0)), v("R"))))
    p = pair(left, right)
    out = by_key.run(p, OPTS)
    assert not isinstance(out, Proved)
    if isinstance(out, Refuted):
        assert_real(p, out.candidates)


def test_key_filter_below_reduce_by_key():
    left = prog(RP, A.Filter(lam("kv", op(">", at("kv", 0), 0)), A.ReduceByKey(add(), v("R"))))
    right = prog(RP, A.ReduceByKey(add(), A.Filter(lam("p", op(">", at("p", 0), 0)), v("R"))))
    assert isinstance(by_key.run(pair(left, right), OPTS), Proved)


def test_sequential_gate_and_shape():
    out = by_key.run(pair(P7, P8, sequential_ok=False), OPTS)
    assert isinstance(out, NotApplicable)
    out = by_key.run(pair(prog(RP, v("R")), prog(RP, v("R"))), OPTS)
    assert isinstance(out, NotApplicable)


def test_by_key_over_a_union_pairs_the_alternatives():
    """``reduceByKey`` after ``union``: buckets mix both inputs; the union's order does not matter."""
    params = {"R": RP["R"], "S": RP["R"]}
    left = prog(params, A.ReduceByKey(add(), A.Union(v("R"), v("S"))))
    right = prog(params, A.ReduceByKey(lam("a,b", op("+", "b", "a")), A.Union(v("S"), v("R"))))
    assert isinstance(by_key.run(pair(left, right), OPTS), Proved)


def test_by_key_over_a_union_with_a_different_key_is_not_proved():
    params = {"R": RP["R"], "S": RP["R"]}
    swap = lam("kv", tup(at("kv", 1), at("kv", 0)))
    left = prog(params, A.ReduceByKey(add(), A.Union(v("R"), v("S"))))
    right = prog(params, A.ReduceByKey(add(), A.Union(v("R"), A.Map(swap, v("S")))))
    assert not isinstance(by_key.run(pair(left, right), OPTS), Proved)


def test_by_key_over_a_union_with_another_fold_is_not_proved():
    left = prog(RP, A.ReduceByKey(add(), A.Union(v("R"), v("R"))))
    right = prog(RP, A.ReduceByKey(lam("a,b", op("*", "a", "b")), A.Union(v("R"), v("R"))))
    assert not isinstance(by_key.run(pair(left, right), OPTS), Proved)


def test_by_key_output_followed_by_flatmap_is_left_to_bounded():
    body = A.FlatMap(lam("kv", tup("kv", "kv")), A.ReduceByKey(add(), v("R")))
    out = by_key.run(pair(prog(RP, body), prog(RP, body)), OPTS)
    assert isinstance(out, NotApplicable) and "alternatives" in out.reason


def test_several_by_key_outputs_are_compared_one_by_one():
    """A tuple of by-key outputs (several aggregations in one program), each refactored on its own."""
    ones = lam("kv", tup(at("kv", 0), 1))
    left = prog(RP, tup(A.ReduceByKey(add(), v("R")), A.ReduceByKey(add(), A.Map(ones, v("R")))))
    right = prog(RP, tup(A.FoldByKey(A.IntLit(0), add(), v("R")),
                         A.ReduceByKey(lam("a,b", op("+", "b", "a")), A.Map(ones, v("R")))))
    assert isinstance(by_key.run(pair(left, right), OPTS), Proved)
    twos = lam("kv", tup(at("kv", 0), 2))
    wrong = prog(RP, tup(A.ReduceByKey(add(), v("R")), A.ReduceByKey(add(), A.Map(twos, v("R")))))
    p = pair(left, wrong)
    out = by_key.run(p, OPTS)
    assert isinstance(out, Refuted)
    assert_real(p, out.candidates)
