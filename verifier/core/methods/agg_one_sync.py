"""AggOne^p_sync (Theorem 3): folds that collapse in synchrony, decided.

Membership: (7) equal RepVarSets of the folded bags, and (8) for all input tuples ``x, y`` and scalars
there is one tuple ``a`` with ``F1(F1(i1, x), y) = F1(i1, a)`` and ``F2(F2(i2, x), y) = F2(i2, a)``
(``F`` is ``f*``: absent elements leave the accumulator alone). By induction on the number of input
tuples, every reachable pair of accumulators is then ``(i1, i2)`` or ``(F1(i1, a), F2(i2, a))``, so
(9) -- equal outcomes at the start values and after one tuple ``a`` -- is sufficient, and for a
primitive result necessary: a failure is the empty input or the singleton input ``{a}``, a real
counterexample (with self-products only when ``a`` lies on the diagonal, else a candidate).

(8) is forall-exists. Z3 gets help: ``a`` is first instantiated, per pair ``x, y``, by a disjunction of
candidate terms (``x``, ``y``, component-wise ``min``/``max``/``+``, each combination also guarded by
presence: if only one of ``x, y`` is present take it); only if that fails is the quantified formula
handed to quantifier elimination with the timeout. (Candidates that always pick all of ``x`` or all of
``y`` -- the arg-min/arg-max of a component, ``x`` or ``y`` guarded by presence -- add nothing to the
disjunction: their disjunct implies the one for ``x`` or for ``y``. So the candidate set grows
linearly with the tuple width, not quadratically.)

The same reasoning applies to joint folds (several aggregations, tuple accumulator), to folds over
``flatMap``/``union`` alternatives of one RepVarSet (``F`` then takes every alternative's element of a
tuple), and, as a sufficient condition only, to results that are bags or tuples. Folds walking tuples
of several RepVarSets (``sum(union(R, S))``) are NotApplicable: the reachable pairs are no longer
``(F1(i1, a), F2(i2, a))``.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

import z3

from encoder.bag_terms import substitute, sym_pairs
from encoder.basic import leaves, sym_eq
from verifier.core import budget
from verifier.core.base import Inconclusive, MethodOutcome, NotApplicable, Options, Pair, Proved
from verifier.core.methods._shared import (
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
    presences = list({_ids((p, q)): (p, q) for p, q in zip(f1.presences("x") + f2.presences("x"),
                                                            f1.presences("y") + f2.presences("y"),
                                                            strict=True)}.values())
    options = []
    for c in _instantiations(leaves(tuple(xs)), leaves(tuple(ys)), presences):
        prep.deadline.check(f"{NAME} (instantiating condition (8))")
        options.append(substitute(collapse, sym_pairs(tuple(avars), c)))
    if counter_model(z3.Or(*options), prep.timeout_s) is None:
        return True
    a_leaves = leaves(tuple(avars))
    claim = z3.Exists(a_leaves, collapse) if a_leaves else collapse
    verdict = _decide_with_qe(claim, prep.timeout_s)
    if verdict is None:
        raise Unknown("collapse condition (8): quantifier elimination did not finish")
    return True if verdict else "the folds do not collapse in synchrony (condition (8) fails)"


QE_TACTICS = ("qe2", "qe")  # qe2 (model-based projection) first: on long pipelines it takes well under
# a second where qe takes minutes (a 1,000-operation chain + sum: 0.4 s against over 20 s)


def _decide_with_qe(claim: z3.BoolRef, timeout_s: float) -> bool | None:
    """Validity of a forall-exists claim (free variables universal): True/False, None if unknown.

    Each eliminator gets the per-query patience as a resource budget (``verifier.core.budget``: the
    same at any load); any of them answering settles the claim (they decide the same formula)."""
    for tactic in (*QE_TACTICS, None):
        solver = z3.Solver() if tactic is None else z3.Then(tactic, "smt").solver()
        budget.limit(solver, timeout_s)
        solver.add(z3.Not(claim))
        try:
            r = budget.check(solver)
        except z3.Z3Exception:
            continue
        if r == z3.unsat:
            return True
        if r == z3.sat:
            return False
    return None


def _instantiations(lx: list[z3.ExprRef], ly: list[z3.ExprRef],
                    presences: list[tuple[z3.BoolRef, z3.BoolRef]]) -> list[tuple[z3.ExprRef, ...]]:
    """Candidate leaf vectors for ``a`` built from ``x`` and ``y`` (see the module doc for why no
    candidate picks ``x`` or ``y`` wholesale under a condition).

    Duplicates are recognised by Z3's AST ids -- Z3 hash-conses terms, so structurally equal terms
    are one node -- rather than by printing every candidate, which made wide tuples cost seconds."""
    if not lx:
        return [()]
    combos = [[_combine(op, u, v) for u, v in zip(lx, ly, strict=True)] for op in ("min", "max", "+")]
    if len(lx) <= MAX_PRODUCT_LEAVES:
        per_leaf = [[u, v, *(_combine(op, u, v) for op in ("min", "max", "+"))] for u, v in
                    zip(lx, ly, strict=True)]
        combos += [list(c) for c in itertools.product(*per_leaf)]
    guards = [(px, py) for px, py in presences if not (z3.is_true(px) and z3.is_true(py))]
    out = {_ids(lx): tuple(lx), _ids(ly): tuple(ly)}
    for cand in combos:
        out.setdefault(_ids(cand), tuple(cand))
        for px, py in guards:
            guarded = tuple(z3.If(z3.And(px, py), c, z3.If(px, u, v))
                            for c, u, v in zip(cand, lx, ly, strict=True))
            out.setdefault(_ids(guarded), guarded)
    return list(out.values())


def _ids(terms: Sequence[z3.ExprRef]) -> tuple[int, ...]:
    """A structural key for a vector of terms (Z3's hash-consed AST ids)."""
    return tuple(t.get_id() for t in terms)


def _combine(op: str, u: z3.ExprRef, v: z3.ExprRef) -> z3.ExprRef:
    if z3.is_bool(u):
        return z3.And(u, v) if op == "min" else z3.Or(u, v) if op == "max" else u
    if op == "min":
        return z3.If(u <= v, u, v)
    if op == "max":
        return z3.If(u >= v, u, v)
    return u + v
