"""NoAgg (Theorem 1) on the paper's P1/P2 and P1'/P2', self-products, joins, tuples, and the gates."""

from __future__ import annotations

from test_method_support import OPTS, PAIR, assert_real, at, bag, lam, n, op, pair, prog, tup, v

from sparklite import ast as A
from sparklite.types import INT
from verifier.methods import noagg
from verifier.methods.base import Inconclusive, NotApplicable, Proved, Refuted

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


def test_union_left_to_bounded():
    left = prog(R, A.Union(v("R"), v("R")))
    out = noagg.run(pair(left, left), OPTS)
    assert isinstance(out, NotApplicable) and "union" in out.reason
