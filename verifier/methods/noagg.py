"""NoAgg (Theorem 1): programs without aggregation, decided.

Two aggregation-free programs are equivalent iff both are always empty, or their RepVarSets are equal and
their boxed terms are equal for every element and scalar. Counterexamples are built as in the paper and
are real: a term difference at a *diagonal* model (all occurrences of one bag read the same element) is
what singleton input bags compute; a RepVarSet difference shows on singleton bags with the over-read bag
doubled (2^c1 vs 0 or 2^c2 copies of one value).

Self-products (a bag read twice) are handled soundly: the proof may match the occurrences of a bag
between the programs by any permutation (``R x R`` is symmetric), and a difference found only off the
diagonal is an Inconclusive candidate, never Refuted.

Tuple results (``(bag, scalar)``) are compared component by component: a tuple is equal iff every
component is, so a component's counterexample is one for the tuple.
"""

from __future__ import annotations

from collections import Counter

import z3

from encoder.basic import sym_eq
from encoder.terms import BagResult, BagTerm, TupleResult, ValueResult
from verifier.methods._shared import (
    Prepared,
    Unknown,
    all_occurrence_bags,
    bag_types,
    counter_model,
    diagonal,
    find_model,
    make_candidate,
    permutations,
    prepare,
    singleton_bags,
    term_eq,
)
from verifier.methods.base import (
    Inconclusive,
    MethodOutcome,
    NotApplicable,
    Options,
    Pair,
    Proved,
    Refuted,
)

NAME = "NoAgg"


def run(pair: Pair, options: Options) -> MethodOutcome:
    prep = prepare(pair, options, NAME)
    if isinstance(prep, NotApplicable):
        return prep
    if prep.left.has_aggregation or prep.right.has_aggregation:
        return NotApplicable(NAME, "the programs aggregate")
    r1, r2 = prep.left.result, prep.right.result
    comps1 = r1.items if isinstance(r1, TupleResult) else (r1,)
    comps2 = r2.items if isinstance(r2, TupleResult) else (r2,)
    if len(comps1) != len(comps2) or isinstance(r1, TupleResult) != isinstance(r2, TupleResult):
        return NotApplicable(NAME, "the programs' results have different shapes")
    outcomes: list[MethodOutcome] = []
    try:
        for i, (c1, c2) in enumerate(zip(comps1, comps2, strict=True)):
            where = f"component {i}: " if len(comps1) > 1 else ""
            if isinstance(c1, BagResult) and isinstance(c2, BagResult):
                outcomes.append(_bags(prep, c1.term, c2.term, where))
            elif isinstance(c1, ValueResult) and isinstance(c2, ValueResult):
                outcomes.append(_values(prep, c1, c2, where))
            else:
                return NotApplicable(NAME, f"{where}a bag is compared with a value")
    except Unknown as exc:
        return Inconclusive(NAME, f"Z3 could not decide: {exc}")
    for kind in (Refuted, Inconclusive):
        hit = [o for o in outcomes if isinstance(o, kind)]
        if hit:
            return hit[0]
    return Proved(NAME, "; ".join(o.explanation for o in outcomes if isinstance(o, Proved)))


def _values(prep: Prepared, c1: ValueResult, c2: ValueResult, where: str) -> MethodOutcome:
    m = counter_model(sym_eq(c1.value, c2.value), prep.timeout_s)
    if m is None:
        return Proved(NAME, f"{where}the values are equal for all scalars")
    cand = make_candidate(m, prep, {}, f"{NAME}: {where}values")
    return Refuted(NAME, f"{where}the values differ", (cand,))


def _bags(prep: Prepared, t1: BagTerm, t2: BagTerm, where: str) -> MethodOutcome:
    types = bag_types(prep)
    c1, c2 = t1.canonical("x"), t2.canonical("x")
    occ1, occ2 = c1.rep_var_set(), c2.rep_var_set()
    empty1 = find_model(c1.present, prep.timeout_s) is None
    empty2 = find_model(c2.present, prep.timeout_s) is None
    if empty1 and empty2:
        return Proved(NAME, f"{where}both programs always return the empty bag")
    if occ1 != occ2:
        return _repvar_difference(prep, c1, c2, occ1, occ2, empty1, empty2, where)
    for perm in permutations(occ1):
        c2p = t2.canonical("x", perm)
        if counter_model(term_eq(c1.present, c1.value, c2p.present, c2p.value), prep.timeout_s) is None:
            how = "" if not perm else f" (occurrences matched by {perm})"
            return Proved(NAME, f"{where}equal RepVarSets and equal terms for every element{how}")
    eq = term_eq(c1.present, c1.value, c2.present, c2.value)
    m = counter_model(eq, prep.timeout_s, diagonal("x", occ1, types))
    if m is not None:
        cand = make_candidate(m, prep, singleton_bags("x", occ1, types), f"{NAME}: {where}terms differ")
        return Refuted(NAME, f"{where}the program terms differ on one element", (cand,))
    m = counter_model(eq, prep.timeout_s)
    cands = () if m is None else (make_candidate(m, prep, all_occurrence_bags("x", occ1, types),
                                                 f"{NAME}: {where}terms differ off the diagonal"),)
    return Inconclusive(NAME, f"{where}the terms of a self-product differ only off the diagonal under every "
                              "matching of occurrences", cands)


def _repvar_difference(prep: Prepared, c1: BagTerm, c2: BagTerm, occ1: Counter[str], occ2: Counter[str],
                       empty1: bool, empty2: bool, where: str) -> MethodOutcome:
    """One program reads a bag more often than the other (or a bag the other does not read)."""
    types = bag_types(prep)
    union = occ1 | occ2
    # which program is non-empty, and which bag it over-reads (doubling that bag changes its count only)
    if empty1 or empty2:
        side, double = (c2, None) if empty1 else (c1, None)
    else:
        extra1 = [b for b in sorted(union) if occ1[b] > occ2[b]]
        side, double = (c1, extra1[0]) if extra1 else (
            c2, next(b for b in sorted(union) if occ2[b] > occ1[b]))
    both_diag = z3.And(diagonal("x", occ1, types), diagonal("x", occ2, types))
    m = find_model(z3.And(side.present, both_diag), prep.timeout_s)
    what = ("one program can be non-empty while the other is always empty" if double is None else
            f"the RepVarSets differ ({dict(occ1)} vs {dict(occ2)}): with bag {double} doubled the "
            "multiplicities differ")
    if m is not None:
        cand = make_candidate(m, prep, singleton_bags("x", union, types, double), f"{NAME}: {where}{what}")
        return Refuted(NAME, f"{where}{what}", (cand,))
    m = find_model(side.present, prep.timeout_s)
    cands = () if m is None else (make_candidate(m, prep, all_occurrence_bags("x", union, types),
                                                 f"{NAME}: {where}{what} (off-diagonal)"),)
    return Inconclusive(NAME, f"{where}{what}, but only off the diagonal of a self-product", cands)
