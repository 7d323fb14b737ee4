"""NoAgg (Theorem 1) on the paper's P1/P2 and P1'/P2', self-products, joins, tuples, and the gates."""

from __future__ import annotations

from test_method_support import OPTS, PAIR, assert_real, at, bag, lam, n, op, pair, prog, tup, v

from sparklite import ast as A
from sparklite.types import INT
from verifier.core.base import Inconclusive, NotApplicable, Proved, Refuted
from verifier.core.methods import noagg

R = {"R": bag()}


def p1(threshold: int = 100, strict: bool = False):
    keep = op(">" if strict else ">=", "x", threshold)
    return prog(R, A.Filter(lam("x", keep), A.Map(lam("x", op("*", 2, "x")), v("R"))), name="P1")


P2 = prog(R, A.Map(lam("x", op("*", 2, "x")), A.Filter(lam("x", op(">=", "x", 50)), v("R"))), name="P2")


def test_p1_p2_equivalent():
    out = noagg.run(pair(p1(), P2), OPTS)
    assert isinstance(out, Proved), out


def test_p1_p2_boundary_refuted_with_real_counterexample():
    p = pair(p1(100, strict=True), P2)
    out = noagg.run(p, OPTS)
    assert isinstance(out, Refuted), out
    assert out.candidates[0].inputs == {"R": [50]}
    assert_real(p, out.candidates)


def test_p1prime_p2prime_repvarsets_differ():
    params = {"R1": bag(), "R2": bag()}
    left = prog(params, A.Map(lam("x", 1), v("R1")))
    right = prog(params, A.Map(lam("x", 1), v("R2")))
    p = pair(left, right)
    out = noagg.run(p, OPTS)
    assert isinstance(out, Refuted), out
    assert_real(p, out.candidates)


def test_both_always_empty():
    left = prog(R, A.Filter(lam("x", op("<", "x", "x")), v("R")))
    right = prog({"R": bag()}, A.Filter(lam("x", False), v("R")))
    assert isinstance(noagg.run(pair(left, right), OPTS), Proved)


def test_one_always_empty_is_refuted():
    left = prog(R, A.Filter(lam("x", False), v("R")))
    p = pair(left, prog(R, v("R")))
    out = noagg.run(p, OPTS)
    assert isinstance(out, Refuted)
    assert_real(p, out.candidates)


def test_self_product_swap_matched_by_permutation():
    left = prog(R, A.Cartesian(v("R"), v("R")))
    right = prog(R, A.Map(lam("p", tup(at("p", 1), at("p", 0))), A.Cartesian(v("R"), v("R"))))
    assert isinstance(noagg.run(pair(left, right), OPTS), Proved)


def test_self_product_vs_single_read_refuted():
    left = prog(R, A.Map(lam("p", at("p", 0)), A.Cartesian(v("R"), v("R"))))
    p = pair(left, prog(R, v("R")))
    out = noagg.run(p, OPTS)
    assert isinstance(out, Refuted)
    assert_real(p, out.candidates)


def test_self_product_off_diagonal_difference_is_not_refuted():
    # differ only when the two elements differ: singletons cannot show it, so only a candidate
    left = prog(R, A.Map(lam("p", op("-", at("p", 0), at("p", 1))), A.Cartesian(v("R"), v("R"))))
    right = prog(R, A.Map(lam("p", 0), A.Cartesian(v("R"), v("R"))))
    p = pair(left, right)
    out = noagg.run(p, OPTS)
    assert isinstance(out, Inconclusive), out
    assert_real(p, out.candidates)


def test_join_filter_pushdown():
    params = {"R": bag(PAIR), "S": bag(PAIR)}
    left = prog(params, A.Filter(lam("t", op(">", at(at("t", 1), 0), 0)), A.Join(v("R"), v("S"))))
    right = prog(params, A.Join(A.Filter(lam("r", op(">", at("r", 1), 0)), v("R")), v("S")))
    assert isinstance(noagg.run(pair(left, right), OPTS), Proved)


def test_scalar_parameter_counterexample():
    params = {"R": bag(), "t": INT}
    left = prog(params, A.Filter(lam("x", op(">=", "x", "t")), v("R")))
    right = prog(params, A.Filter(lam("x", op(">", "x", "t")), v("R")))
    p = pair(left, right)
    out = noagg.run(p, OPTS)
    assert isinstance(out, Refuted)
    assert set(out.candidates[0].inputs) == {"R", "t"}
    assert_real(p, out.candidates)


def test_tuple_result_componentwise():
    left = prog(R, tup(A.Map(lam("x", op("+", "x", 1)), v("R")), n(3)))
    right = prog(R, tup(A.Map(lam("x", op("+", 1, "x")), v("R")), op("+", 1, 2)))
    assert isinstance(noagg.run(pair(left, right), OPTS), Proved)
    wrong = prog(R, tup(A.Map(lam("x", op("+", 1, "x")), v("R")), n(4)))
    p = pair(left, wrong)
    out = noagg.run(p, OPTS)
    assert isinstance(out, Refuted)
    assert_real(p, out.candidates)


def test_python_floor_division_semantics():
    # x // -2 == (-x) // 2 for every int under Python's floor division, but not -(x // 2)
    left = prog(R, A.Map(lam("x", op("//", "x", -2)), v("R")))
    right = prog(R, A.Map(lam("x", op("//", A.Neg(v("x")), 2)), v("R")))
    assert isinstance(noagg.run(pair(left, right), OPTS), Proved)
    wrong = prog(R, A.Map(lam("x", A.Neg(op("//", "x", 2))), v("R")))
    p = pair(left, wrong)
    out = noagg.run(p, OPTS)
    assert isinstance(out, Refuted)
    assert_real(p, out.candidates)


def test_division_hazard_is_not_applicable():
    left = prog(R, A.Map(lam("x", op("//", 10, "x")), v("R")))
    out = noagg.run(pair(left, left), OPTS)
    assert isinstance(out, NotApplicable) and "division" in out.reason


# ---------------------------------------------------------------------------------------------------
# union and flatMap: bags as sums of alternatives
# ---------------------------------------------------------------------------------------------------

RS = {"R": bag(), "S": bag()}


def times10(x):
    return A.Map(lam("x", op("-", op("*", "x", 10), 1)), x)


def test_union_of_a_bag_with_itself_is_proved_equal_to_itself():
    left = prog(R, A.Union(v("R"), v("R")))
    assert isinstance(noagg.run(pair(left, left), OPTS), Proved)


def test_map_distributes_over_union():
    left = prog(RS, times10(A.Union(v("R"), v("S"))))
    right = prog(RS, A.Union(times10(v("R")), times10(v("S"))))
    assert isinstance(noagg.run(pair(left, right), OPTS), Proved)


def test_union_commutes():
    left = prog(RS, A.Union(v("R"), v("S")))
    right = prog(RS, A.Union(v("S"), v("R")))
    assert isinstance(noagg.run(pair(left, right), OPTS), Proved)


def test_flatmap_map_fusion():
    left = prog(R, A.Map(lam("y", op("*", 2, "y")), A.FlatMap(lam("x", tup("x", op("-", 0, "x"))), v("R"))))
    right = prog(R, A.FlatMap(lam("x", tup(op("*", 2, "x"), op("*", -2, "x"))), v("R")))
    assert isinstance(noagg.run(pair(left, right), OPTS), Proved)


def test_flatmap_components_swapped_is_the_same_bag():
    left = prog(R, A.FlatMap(lam("x", tup("x", op("+", "x", 1))), v("R")))
    right = prog(R, A.FlatMap(lam("x", tup(op("+", "x", 1), "x")), v("R")))
    assert isinstance(noagg.run(pair(left, right), OPTS), Proved)


def test_flatmap_is_a_union_of_maps_as_a_bag():
    left = prog(R, A.FlatMap(lam("x", tup("x", op("+", "x", 1))), v("R")))
    right = prog(R, A.Union(v("R"), A.Map(lam("x", op("+", "x", 1)), v("R"))))
    assert isinstance(noagg.run(pair(left, right), OPTS), Proved)


def test_always_empty_alternative_is_dropped():
    left = prog(RS, A.Union(v("R"), A.Filter(lam("x", op("<", "x", "x")), v("S"))))
    assert isinstance(noagg.run(pair(left, prog(RS, v("R"))), OPTS), Proved)


def test_cartesian_of_union_distributes():
    left = prog(RS, A.Cartesian(A.Union(v("R"), v("S")), v("R")))
    right = prog(RS, A.Union(A.Cartesian(v("R"), v("R")), A.Cartesian(v("S"), v("R"))))
    assert isinstance(noagg.run(pair(left, right), OPTS), Proved)


def test_union_twice_vs_map_refuted():
    p = pair(prog(R, A.Union(v("R"), v("R"))), prog(R, A.Map(lam("x", "x"), v("R"))))
    out = noagg.run(p, OPTS)
    assert isinstance(out, Refuted), out
    assert_real(p, out.candidates)


def test_flatmap_duplicates_vs_map_refuted():
    p = pair(prog(R, A.FlatMap(lam("x", tup("x", "x")), v("R"))), prog(R, A.Map(lam("x", "x"), v("R"))))
    out = noagg.run(p, OPTS)
    assert isinstance(out, Refuted), out
    assert_real(p, out.candidates)


def test_union_r_s_vs_union_r_r_refuted():
    p = pair(prog(RS, A.Union(v("R"), v("S"))), prog(RS, A.Union(v("R"), v("R"))))
    out = noagg.run(p, OPTS)
    assert isinstance(out, Refuted), out
    assert_real(p, out.candidates)


def test_filter_half_pushed_into_union_refuted():
    keep = lam("x", op(">", "x", 0))
    p = pair(prog(RS, A.Filter(keep, A.Union(v("R"), v("S")))),
             prog(RS, A.Union(A.Filter(keep, v("R")), v("S"))))
    out = noagg.run(p, OPTS)
    assert isinstance(out, Refuted), out
    assert_real(p, out.candidates)


def test_wrong_flatmap_fusion_refuted():
    left = prog(R, A.Map(lam("y", op("*", 2, "y")), A.FlatMap(lam("x", tup("x", op("-", 0, "x"))), v("R"))))
    right = prog(R, A.FlatMap(lam("x", tup(op("*", 2, "x"), op("*", 2, "x"))), v("R")))
    p = pair(left, right)
    out = noagg.run(p, OPTS)
    assert isinstance(out, Refuted), out
    assert_real(p, out.candidates)


def test_union_vs_self_product_needs_the_doubled_bag():
    # R ++ R vs the first components of R x R: {x, x} vs {x} on singletons, and 2n vs n^2 in general
    left = prog(R, A.Union(v("R"), v("R")))
    right = prog(R, A.Map(lam("p", at("p", 0)), A.Cartesian(v("R"), v("R"))))
    p = pair(left, right)
    out = noagg.run(p, OPTS)
    assert isinstance(out, Refuted), out
    assert_real(p, out.candidates)


def test_split_filter_is_not_refuted():
    # filter(p) ++ filter(not p) is the unfiltered bag, but no bijection of alternatives shows it:
    # the method must not claim a difference (and does not prove it either)
    left = prog(R, A.Union(A.Filter(lam("x", op(">", "x", 0)), v("R")),
                           A.Filter(lam("x", op("<=", "x", 0)), v("R"))))
    out = noagg.run(pair(left, prog(R, v("R"))), OPTS)
    assert isinstance(out, Inconclusive), out


def test_split_filter_with_a_wrong_half_is_refuted():
    left = prog(R, A.Union(A.Filter(lam("x", op(">", "x", 0)), v("R")),
                           A.Filter(lam("x", op("<", "x", 0)), v("R"))))
    p = pair(left, prog(R, v("R")))
    out = noagg.run(p, OPTS)
    assert isinstance(out, Refuted), out
    assert_real(p, out.candidates)


def test_distinct_left_to_bounded():
    left = prog(R, A.Distinct(v("R")))
    out = noagg.run(pair(left, left), OPTS)
    assert isinstance(out, NotApplicable) and "distinct" in out.reason
