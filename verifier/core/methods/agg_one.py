"""AggOne^p (Lemma 1, strengthened by a small invariant family): one fold per program, primitive result.

Conditions: (4) the folds walk the same input tuples (one *group* per RepVarSet of the folded bags'
alternatives, ``_shared.SideFold``; a fold over ``union``/``flatMap`` takes every alternative's element
of a tuple); then an inductive relation ``I(A1, A2)`` between the two accumulators that holds
at the start values (5), is preserved when both folds see the same input tuple of any group with ``f*``
(absent elements leave the accumulator alone) (6), and implies equal outcomes ``g1(A1) = g2(A2)``.

The paper takes ``I := (g1(A1) = g2(A2))``; it fails on its own P15''/P16'' (``count % 5 == 0``), so
``I`` is the strongest inductive conjunction of a family: the goal itself, ``A1 = c*A2 + d`` (either way
round, ``d`` fixed by the start values, ``c`` small or solved from a sample step), boolean equalities,
and one-sided facts, component-wise for tuple accumulators. Any conjunction that is inductive and
implies the goal is a proof, so the choice of family affects completeness only.

A failed step is never a counterexample (``A1, A2`` may be unreachable). Empty bags (base) and singleton
bags are checked first: for a primitive result those failures are real counterexamples.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import z3

from verifier.core.base import Inconclusive, MethodOutcome, NotApplicable, Options, Pair, Proved
from verifier.core.methods._shared import (
    Prepared,
    SideFold,
    Unknown,
    aggregation_gate,
    base_failure,
    candidate_atoms,
    counter_model,
    houdini_steps,
    outcome_eq,
    prepare,
    short,
    single_failure,
    step_ratios,
    value_only,
)

NAME = "AggOne"


def run(pair: Pair, options: Options) -> MethodOutcome:
    prep = prepare(pair, options, NAME)
    if isinstance(prep, NotApplicable):
        return prep
    if prep.left.keyed or prep.right.keyed:
        return NotApplicable(NAME, "a by-key aggregation (see AggOneK)")
    n1, n2 = len(prep.left.aggregates), len(prep.right.aggregates)
    if n1 + n2 == 0:
        return NotApplicable(NAME, "no aggregation (see NoAgg)")
    if n1 > 1 or n2 > 1:
        return NotApplicable(NAME, "several aggregations in one program (see AggMult)")
    if not value_only(prep):
        return NotApplicable(NAME, "the result is not a primitive value (see AggMult)")
    return prove_by_induction(prep, NAME)


def prove_by_induction(prep: Prepared, method: str) -> MethodOutcome:
    """Lemma 1 over the joint folds with the invariant family (shared with AggMult)."""
    gate = aggregation_gate(prep, method)
    if isinstance(gate, NotApplicable):
        return gate
    f1, f2, groups = gate
    try:
        failure = base_failure(prep, f1, f2, method)
        if failure is not None:
            return failure
        failure, _ = single_failure(prep, f1, f2, groups, method)
        if failure is not None:
            return failure
        inv = find_invariant(prep, f1, f2, groups)
    except Unknown as exc:
        return Inconclusive(method, f"Z3 could not decide a condition: {exc}")
    if inv is None:
        return Inconclusive(method, "the induction step (6) fails for every invariant in the family "
                                    "(the accumulators it fails on may be unreachable)")
    what = "RepVarSets of the folded bags agree" if len(groups) <= 1 else (
        f"every one of the {len(groups)} groups of input tuples preserves the invariant")
    return Proved(method, f"{what}; inductive invariant: {short(inv)}")


def find_invariant(prep: Prepared, f1: SideFold, f2: SideFold,
                   groups: Sequence[Counter[str]]) -> list[z3.BoolRef] | None:
    """An inductive conjunction relating the accumulators that implies equal outcomes, or None.

    With several groups (folds over unions of bags with different inputs) the conjunction must be
    preserved by one tuple of each group, both programs stepping on the same tuple; the fold walks
    the groups' tuples in some interleaving, so the final accumulators satisfy it."""
    t = prep.timeout_s
    steps = []
    ratios: list[int] = []
    for g in groups or [Counter()]:
        next1, next2 = f1.step(f1.acc, "t", g), f2.step(f2.acc, "t", g)
        steps.append(((next1, next2), z3.BoolVal(True)))
        both_take = z3.And(*f1.presences("t", g), *f2.presences("t", g))
        ratios += step_ratios(f1.acc, f1.init, next1, f2.acc, f2.init, next2, both_take, t)
    goal = outcome_eq(prep, f1, f1.acc, f2, f2.acc)
    atoms = candidate_atoms(f1.acc, f1.init, f2.acc, f2.init, ratios)
    if value_only(prep):
        atoms = [goal, *atoms]
    inv = houdini_steps(atoms, (f1.acc, f2.acc), (f1.init, f2.init), z3.BoolVal(True), steps, t)
    if counter_model(goal, t, z3.And(*inv)) is None:
        return inv
    return None
