"""AggOne^p_sync (Theorem 3): folds that collapse in synchrony, decided.

Membership: (7) equal RepVarSets of the folded bags, and (8) for all input tuples ``x, y`` and scalars
there is one tuple ``a`` with ``F1(F1(i1, x), y) = F1(i1, a)`` and ``F2(F2(i2, x), y) = F2(i2, a)``
(``F`` is ``f*``: absent elements leave the accumulator alone). By induction on the number of input
tuples, every reachable pair of accumulators is then ``(i1, i2)`` or ``(F1(i1, a), F2(i2, a))``, so
(9) -- equal outcomes at the start values and after one tuple ``a`` -- is sufficient, and for a
primitive result necessary: a failure is the empty input or the singleton input ``{a}``, a real
counterexample (with self-products only when ``a`` lies on the diagonal, else a candidate).

(8) is forall-exists. Z3 gets help: ``a`` is first instantiated, per pair ``x, y``, by a disjunction of
candidate terms (``x``, ``y``, the arg-min/arg-max of a component, component-wise ``min``/``max``/``+``,
each also guarded by presence: if only one of ``x, y`` is present take it); only if that fails is the
quantified formula handed to quantifier elimination with the timeout.

The same reasoning applies to joint folds (several aggregations, tuple accumulator), to folds over
``flatMap``/``union`` alternatives of one RepVarSet (``F`` then takes every alternative's element of a
tuple), and, as a sufficient condition only, to results that are bags or tuples. Folds walking tuples
of several RepVarSets (``sum(union(R, S))``) are NotApplicable: the reachable pairs are no longer
``(F1(i1, a), F2(i2, a))``.
"""

from __future__ import annotations

import itertools
from collections import Counter

import z3

from encoder.basic import leaves, sym_eq
from encoder.terms import substitute, sym_pairs
from verifier.methods._shared import (
    Prepared,
    SideFold,
    Unknown,
    aggregation_gate,
    bag_types,
    base_failure,
    counter_model,
    occ_vars,
    prepare,
    single_failure,
    value_only,
)
from verifier.methods.base import Inconclusive, MethodOutcome, NotApplicable, Options, Pair, Proved

NAME = "AggOneSync"
MAX_PRODUCT_LEAVES = 2


def run(pair: Pair, options: Options) -> MethodOutcome:
    prep = prepare(pair, options, NAME)
    if isinstance(prep, NotApplicable):
        return prep
    gate = aggregation_gate(prep, NAME)
    if isinstance(gate, NotApplicable):
        return gate
    f1, f2, groups = gate
    if len(groups) > 1:
        return NotApplicable(NAME, "the folds walk input tuples of several different RepVarSets (a union "
                                   "of different bags, or folds of different bags): see AggOne")
    occ = groups[0] if groups else Counter()
    try:
        collapse = collapses_in_sync(prep, f1, f2, occ)
        if collapse is not True:
            return NotApplicable(NAME, collapse)
        failure = base_failure(prep, f1, f2, NAME)
        if failure is not None:
            return failure
        failure, _ = single_failure(prep, f1, f2, groups, NAME)
        if failure is not None:
            return failure
    except Unknown as exc:
        return Inconclusive(NAME, f"Z3 could not decide a condition: {exc}")
    what = "equal" if value_only(prep) else "equal (sufficient condition for bag results)"
    return Proved(NAME, "the folds collapse in synchrony (8) and the outcomes are " + what +
                  " on empty bags and after any single input tuple (9)")


def collapses_in_sync(prep: Prepared, f1: SideFold, f2: SideFold, occ: Counter[str]) -> bool | str:
    """True when (8) is valid, else the reason it is not (or could not be shown)."""
    types = bag_types(prep)
    xs, ys, avars = (occ_vars(p, occ, types) for p in ("x", "y", "a"))
    i1, i2 = f1.init, f2.init
    lhs1, lhs2 = f1.step(f1.step(i1, "x"), "y"), f2.step(f2.step(i2, "x"), "y")
    rhs1, rhs2 = f1.step(i1, "a"), f2.step(i2, "a")
    collapse = z3.And(sym_eq(lhs1, rhs1), sym_eq(lhs2, rhs2))
    presences = list({str(p): (p, q) for p, q in zip(f1.presences("x") + f2.presences("x"),
                                                       f1.presences("y") + f2.presences("y"),
                                                       strict=True)}.values())
    options = [substitute(collapse, sym_pairs(tuple(avars), c))
               for c in _instantiations(leaves(tuple(xs)), leaves(tuple(ys)), presences)]
    if counter_model(z3.Or(*options), prep.timeout_s) is None:
        return True
    a_leaves = leaves(tuple(avars))
    claim = z3.Exists(a_leaves, collapse) if a_leaves else collapse
    verdict = _decide_with_qe(claim, prep.timeout_s)
    if verdict is None:
        raise Unknown("collapse condition (8): quantifier elimination did not finish")
    return True if verdict else "the folds do not collapse in synchrony (condition (8) fails)"


def _decide_with_qe(claim: z3.BoolRef, timeout_s: float) -> bool | None:
    """Validity of a forall-exists claim (free variables universal): True/False, None if unknown."""
    ms = max(1, int(timeout_s * 1000))
    for solver in (z3.TryFor(z3.Then("qe", "smt"), ms).solver(), z3.Solver()):
        solver.set("timeout", ms)
        solver.add(z3.Not(claim))
        try:
            r = solver.check()
        except z3.Z3Exception:
            continue
        if r == z3.unsat:
            return True
        if r == z3.sat:
            return False
    return None


def _instantiations(lx: list[z3.ExprRef], ly: list[z3.ExprRef],
                    presences: list[tuple[z3.BoolRef, z3.BoolRef]]) -> list[tuple[z3.ExprRef, ...]]:
    """Candidate leaf vectors for ``a`` built from ``x`` and ``y``."""
    if not lx:
        return [()]
    base: list[list[z3.ExprRef]] = [list(lx), list(ly)]
    for i, xi in enumerate(lx):
        if z3.is_int(xi):
            yi = ly[i]
            base.append([z3.If(xi <= yi, u, v) for u, v in zip(lx, ly, strict=True)])
            base.append([z3.If(xi >= yi, u, v) for u, v in zip(lx, ly, strict=True)])
    for op in ("min", "max", "+"):
        base.append([_combine(op, u, v) for u, v in zip(lx, ly, strict=True)])
    if len(lx) <= MAX_PRODUCT_LEAVES:
        per_leaf = [[u, v, *(_combine(op, u, v) for op in ("min", "max", "+"))] for u, v in
                    zip(lx, ly, strict=True)]
        base += [list(c) for c in itertools.product(*per_leaf)]
    out: dict[str, tuple[z3.ExprRef, ...]] = {}
    for cand in base:
        variants = [cand]
        for px, py in presences:
            variants.append([z3.If(z3.And(px, py), c, z3.If(px, u, v))
                             for c, u, v in zip(cand, lx, ly, strict=True)])
        for v in variants:
            vt = tuple(z3.simplify(x) for x in v)
            out.setdefault(str(vt), vt)
    return list(out.values())


def _combine(op: str, u: z3.ExprRef, v: z3.ExprRef) -> z3.ExprRef:
    if z3.is_bool(u):
        return z3.And(u, v) if op == "min" else z3.Or(u, v) if op == "max" else u
    if op == "min":
        return z3.If(u <= v, u, v)
    if op == "max":
        return z3.If(u >= v, u, v)
    return u + v
