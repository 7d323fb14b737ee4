"""AggOne^p / AggOne^p_sync / AggMult on the paper's P3-P6, P15''/P16'' and the count/min variants."""

from __future__ import annotations

import pytest
from test_method_support import OPTS, PAIR, add, assert_real, at, bag, call, lam, n, op, pair, prog, tup, v

from sparklite import ast as A
from sparklite.types import INT
from verifier.core.base import Inconclusive, NotApplicable, Proved, Refuted
from verifier.core.methods import agg_mult, agg_one, agg_one_sync

R = {"R": bag()}
RP = {"R": bag(PAIR)}
BIG = 10**6


def min_price(source, cmp: str, target: int):
    # Spark's fold needs op: (T, T) -> T, so the paper's fold over pairs is an aggregate with comb = min
    fold = A.Aggregate(n(BIG), lam("a, p", call("min", "a", at("p", 1))), lam("a, b", call("min", "a", "b")),
                       source)
    return op(cmp, fold, target)


DISCOUNT = A.Map(lam("p", tup(at("p", 0), op("-", at("p", 1), 20))), v("R"))
P3 = prog(RP, min_price(v("R"), ">=", 100), name="P3")
P4 = prog(RP, min_price(DISCOUNT, ">=", 80), name="P4")
P5 = prog(RP, min_price(v("R"), "==", 100), name="P5")
P6 = prog(RP, min_price(DISCOUNT, "==", 80), name="P6")


def count_mod5(source):
    return op("==", op("%", A.SimpleAgg("count", source), 5), 0)


P15 = prog(R, op("==", op("%", A.Aggregate(n(0), lam("a, x", op("+", "a", 1)), add(), v("R")), 5), 0))
P16 = prog(R, count_mod5(A.Map(lam("x", op("*", 3, "x")), v("R"))))


def test_p3_p4_lemma1():
    assert isinstance(agg_one.run(pair(P3, P4), OPTS), Proved)


def test_p3_p4_sync():
    assert isinstance(agg_one_sync.run(pair(P3, P4), OPTS), Proved)


def test_p5_p6_only_via_sync():
    assert isinstance(agg_one.run(pair(P5, P6), OPTS), Inconclusive)  # naive step is not inductive
    assert isinstance(agg_one_sync.run(pair(P5, P6), OPTS), Proved)


def test_p5_p6_wrong_target_refuted_by_sync():
    wrong = prog(RP, min_price(DISCOUNT, "==", 81))
    p = pair(P5, wrong)
    out = agg_one_sync.run(p, OPTS)
    assert isinstance(out, Refuted), out
    assert_real(p, out.candidates)


def test_p15pp_p16pp_via_invariant_family():
    assert isinstance(agg_one_sync.run(pair(P15, P16), OPTS), NotApplicable)  # count does not collapse
    out = agg_one.run(pair(P15, P16), OPTS)
    assert isinstance(out, Proved), out


def test_count_vs_sum_of_ones():
    left = prog(R, A.SimpleAgg("count", v("R")))
    right = prog(R, A.SimpleAgg("sum", A.Map(lam("x", 1), v("R"))))
    assert isinstance(agg_one.run(pair(left, right), OPTS), Proved)


def test_count_vs_sum_of_twos_refuted_on_singletons():
    left = prog(R, A.SimpleAgg("count", v("R")))
    right = prog(R, A.SimpleAgg("sum", A.Map(lam("x", 2), v("R"))))
    p = pair(left, right)
    out = agg_one.run(p, OPTS)
    assert isinstance(out, Refuted)
    assert_real(p, out.candidates)


def test_affine_invariant_found():
    # 3 * count vs sum of threes: A1 = 3*A2 style relation between different accumulators
    left = prog(R, op("*", 3, A.SimpleAgg("count", A.Filter(lam("x", op(">", "x", 0)), v("R")))))
    right = prog(R, A.SimpleAgg("sum", A.Map(lam("x", 3), A.Filter(lam("x", op(">", "x", 0)), v("R")))))
    assert isinstance(agg_one.run(pair(left, right), OPTS), Proved)


def test_min_vs_reduce_min():
    left = prog(R, A.SimpleAgg("min", v("R")))
    right = prog(R, A.Reduce(lam("a, b", call("min", "a", "b")), v("R")))
    assert isinstance(agg_one_sync.run(pair(left, right), OPTS), Proved)
    assert isinstance(agg_one.run(pair(left, right), OPTS), Proved)


def test_min_vs_fold_from_zero_differs_on_empty_bag():
    left = prog(R, A.SimpleAgg("min", v("R")))
    right = prog(R, A.Fold(n(0), lam("a, b", call("min", "a", "b")), v("R")))
    p = pair(left, right)
    out = agg_one.run(p, OPTS)
    assert isinstance(out, Refuted)
    assert out.candidates[0].inputs == {"R": []}
    assert_real(p, out.candidates)


def test_max_vs_negated_min():
    left = prog(R, A.SimpleAgg("max", v("R")))
    right = prog(R, A.Neg(A.SimpleAgg("min", A.Map(lam("x", A.Neg(v("x"))), v("R")))))
    assert isinstance(agg_one_sync.run(pair(left, right), OPTS), Proved)


def test_sum_scaled_with_scalar_parameter():
    params = {"R": bag(), "k": INT}
    left = prog(params, op("+", A.SimpleAgg("sum", v("R")), "k"))
    right = prog(params, A.Fold(v("k"), add(), v("R")))
    assert isinstance(agg_one_sync.run(pair(left, right), OPTS), Proved)


def test_sequential_gate():
    out = agg_one.run(pair(P3, P4, sequential_ok=False), OPTS)
    assert isinstance(out, NotApplicable) and "partition" in out.reason


def test_agg_mult_sum_and_count():
    left = prog(R, tup(A.SimpleAgg("sum", v("R")), A.SimpleAgg("count", v("R"))))
    seq = lam("a, x", tup(op("+", at("a", 0), "x"), op("+", at("a", 1), 1)))
    comb = lam("a, b", tup(op("+", at("a", 0), at("b", 0)), op("+", at("a", 1), at("b", 1))))
    right = prog(R, A.Aggregate(tup(0, 0), seq, comb, v("R")))
    assert isinstance(agg_one.run(pair(left, right), OPTS), NotApplicable)
    assert isinstance(agg_mult.run(pair(left, right), OPTS), Proved)


def test_agg_mult_wrong_component_refuted():
    left = prog(R, tup(A.SimpleAgg("sum", v("R")), A.SimpleAgg("count", v("R"))))
    right = prog(R, tup(A.SimpleAgg("sum", v("R")), A.SimpleAgg("sum", v("R"))))
    p = pair(left, right)
    out = agg_mult.run(p, OPTS)
    assert isinstance(out, Refuted)
    assert_real(p, out.candidates)


def test_agg_one_b_is_sound_but_incomplete():
    # distance from the minimum vs the same with a filter that never fires: needs x >= min(R), which the
    # fold invariant does not know; must not be Refuted
    left = prog(R, A.Map(lam("x", op("-", "x", "m")), v("R")), lets={"m": A.SimpleAgg("min", v("R"))})
    right = prog(R, A.Filter(lam("d", op(">=", "d", 0)), A.Map(lam("x", op("-", "x", "m")), v("R"))),
                 lets={"m": A.SimpleAgg("min", v("R"))})
    for method in (agg_mult, agg_one_sync):
        assert not isinstance(method.run(pair(left, right), OPTS), (Proved, Refuted))
    same = prog(R, A.Map(lam("y", op("+", "y", 0)), A.Map(lam("x", op("-", "x", "m")), v("R"))),
                lets={"m": A.SimpleAgg("min", v("R"))})
    assert isinstance(agg_mult.run(pair(left, same), OPTS), Proved)


def test_unused_min_let_still_raises():
    """Driver code is strict: an unused ``min`` raises on an empty R, so the pair differs there."""
    left = prog(R, A.SimpleAgg("count", v("R")), lets={"m": A.SimpleAgg("min", v("R"))})
    right = prog(R, A.SimpleAgg("count", v("R")))
    for method in (agg_one, agg_mult, agg_one_sync):
        outcome = method.run(pair(left, right), OPTS)
        assert not isinstance(outcome, Proved)
    refuted = agg_mult.run(pair(left, right), OPTS)
    assert any(c.inputs["R"] == [] for c in getattr(refuted, "candidates", ()))


def test_unused_count_let_is_harmless():
    left = prog(R, A.SimpleAgg("count", v("R")), lets={"m": A.SimpleAgg("count", v("R"))})
    right = prog(R, A.SimpleAgg("count", v("R")))
    assert isinstance(agg_one.run(pair(left, right), OPTS), Proved)


@pytest.mark.parametrize("method", [agg_one, agg_one_sync])
def test_division_in_top_expression_is_left_to_bounded(method):
    left = prog(R, op("//", A.SimpleAgg("sum", v("R")), A.SimpleAgg("count", v("R"))))
    out = method.run(pair(left, left), OPTS)
    assert isinstance(out, NotApplicable) and "division" in out.reason


# ---------------------------------------------------------------------------------------------------
# folds over unions and flatMaps (bags as sums of alternatives)
# ---------------------------------------------------------------------------------------------------

RS = {"R": bag(), "S": bag()}
TWICE = A.FlatMap(lam("x", tup("x", "x")), v("R"))


def s(source) -> A.SimpleAgg:
    return A.SimpleAgg("sum", source)


def test_sum_over_union_is_sum_of_sums():
    left = prog(RS, s(A.Union(v("R"), v("S"))))
    right = prog(RS, op("+", s(v("R")), s(v("S"))))
    p = pair(left, right)
    assert isinstance(agg_one_sync.run(p, OPTS), NotApplicable)  # two groups of input tuples
    assert isinstance(agg_mult.run(p, OPTS), Proved)


def test_sum_over_union_is_not_twice_the_sum_of_one_side():
    p = pair(prog(RS, s(A.Union(v("R"), v("S")))), prog(RS, op("*", 2, s(v("R")))))
    out = agg_one.run(p, OPTS)
    assert isinstance(out, Refuted), out
    assert_real(p, out.candidates)


def test_count_over_flatmap_pairs_is_twice_the_count():
    p = pair(prog(R, A.SimpleAgg("count", TWICE)), prog(R, op("*", 2, A.SimpleAgg("count", v("R")))))
    assert isinstance(agg_one.run(p, OPTS), Proved)


def test_count_over_flatmap_pairs_is_not_the_count():
    p = pair(prog(R, A.SimpleAgg("count", TWICE)), prog(R, A.SimpleAgg("count", v("R"))))
    for method in (agg_one, agg_one_sync):
        out = method.run(p, OPTS)
        assert not isinstance(out, Proved), out
        if isinstance(out, Refuted):
            assert_real(p, out.candidates)
    assert isinstance(agg_one.run(p, OPTS), Refuted)


def test_sum_over_flatmap_of_opposites_is_zero():
    p = pair(prog(R, s(A.FlatMap(lam("x", tup("x", op("-", 0, "x"))), v("R")))), prog(R, n(0)))
    assert isinstance(agg_one.run(p, OPTS), Proved)


def test_max_over_flatmap_collapses_in_sync():
    left = prog(R, A.SimpleAgg("max", A.FlatMap(lam("x", tup("x", op("+", "x", 1))), v("R"))))
    right = prog(R, op("+", A.SimpleAgg("max", v("R")), 1))
    assert isinstance(agg_one_sync.run(pair(left, right), OPTS), Proved)


def test_min_over_union_vs_min_of_mins_is_not_proved():
    # min(R ++ S) raises only when both are empty; min(min(R), min(S)) when either is: a real
    # difference that empty and singleton inputs cannot show (the bounded method finds it)
    left = prog(RS, A.SimpleAgg("min", A.Union(v("R"), v("S"))))
    right = prog(RS, call("min", A.SimpleAgg("min", v("R")), A.SimpleAgg("min", v("S"))))
    p = pair(left, right)
    for method in (agg_one, agg_mult, agg_one_sync):
        out = method.run(p, OPTS)
        assert not isinstance(out, Proved), out
        if isinstance(out, Refuted):
            assert_real(p, out.candidates)


def test_count_of_two_bags_in_one_program():
    left = prog(RS, op("+", A.SimpleAgg("count", v("R")), A.SimpleAgg("count", v("S"))))
    right = prog(RS, A.SimpleAgg("count", A.Union(v("S"), v("R"))))
    assert isinstance(agg_mult.run(pair(left, right), OPTS), Proved)


def test_a_fold_reading_another_folds_result_is_not_a_joint_fold():
    """Found in review: in a joint fold the other aggregation's result is a state variable (its running
    value), not its final value, so AggMult proved s (0 for two or more elements) equal to max."""
    pos = A.Filter(lam("x", op(">", "x", 0)), v("R"))
    mx = A.Fold(A.IntLit(0), lam("a,x", A.Call("max", (v("a"), v("x")))), pos)
    excess = lam("a,x", op("+", "a", A.Ite(op(">", "x", "m"), op("-", "x", "m"), A.IntLit(0))))
    lets = {"m": mx, "c": A.SimpleAgg("count", pos), "s": A.Aggregate(A.IntLit(0), excess, add(), pos)}
    left = prog(R, A.Ite(op(">=", "c", 2), v("s"), v("m")), lets=lets)
    right = prog(R, mx)
    for method in (agg_mult, agg_one, agg_one_sync):
        assert not isinstance(method.run(pair(left, right), OPTS), Proved), method
