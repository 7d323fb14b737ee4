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

Bags with several alternatives (``union``, ``flatMap``; see ``encoder.terms``): a bag is the sum of its
alternatives' bags. Alternatives that are always absent are dropped; if what is left is one alternative
per program, the decision above applies unchanged. Otherwise the method looks for a *bijection*
between the two programs' alternatives pairing alternatives with equal RepVarSets and equal terms
(under some matching of occurrences): then the sums are equal term by term -- sufficient, not
necessary (``filter(p) ++ filter(not p)`` equals the unfiltered bag without any bijection). When no
bijection exists, the output multisets are compared exactly on singleton inputs at a diagonal model,
and on singleton inputs with one bag doubled (an alternative then contributes ``2^(reads of that bag)``
copies); a difference there is real (Refuted). Otherwise the answer is Inconclusive, never Refuted.
"""

from __future__ import annotations

from collections import Counter

import z3

from encoder.bag_terms import Alts, BagTerm
from encoder.basic import sym_eq
from encoder.terms import BagResult, TupleResult, ValueResult
from verifier.core.base import (
    Inconclusive,
    MethodOutcome,
    NotApplicable,
    Options,
    Pair,
    Proved,
    Refuted,
)
from verifier.core.methods._shared import (
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
    self_product,
    singleton_bags,
    term_eq,
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
                outcomes.append(_alt_bags(prep, c1.alts, c2.alts, where))
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


def _alt_bags(prep: Prepared, alts1: Alts, alts2: Alts, where: str) -> MethodOutcome:
    """Bags given as alternatives: drop the always-absent ones, then decide (one alternative each) or
    look for a bijection of alternatives, else for a difference on singleton/doubled inputs."""
    live1 = [t for t in alts1 if find_model(t.canonical("x").present, prep.timeout_s) is not None]
    live2 = [t for t in alts2 if find_model(t.canonical("x").present, prep.timeout_s) is not None]
    if not live1 and not live2:
        return Proved(NAME, f"{where}both programs always return the empty bag")
    if len(live1) <= 1 and len(live2) <= 1:
        t1 = live1[0] if live1 else _absent(live2[0])
        t2 = live2[0] if live2 else _absent(live1[0])
        return _bags(prep, t1, t2, where)
    matching = _match_alternatives(prep, live1, live2)
    if matching is not None:
        return Proved(NAME, f"{where}the {len(live1)} alternatives (union/flatMap branches) of the two "
                            "programs correspond one to one with equal RepVarSets and equal terms"
                            f" (left->right: {matching})")
    return _alternatives_difference(prep, live1, live2, where)


def _absent(t: BagTerm) -> BagTerm:
    """The empty bag, shaped like ``t`` (stands for a program whose every alternative is absent)."""
    return BagTerm(t.value, z3.BoolVal(False), (), t.elem_types)


def _equal_alternatives(prep: Prepared, t1: BagTerm, t2: BagTerm) -> bool:
    """Do the two alternatives generate the same bag? (Theorem 1's sufficient half.)"""
    c1 = t1.canonical("x")
    if c1.rep_var_set() != t2.rep_var_set():
        return False
    for perm in permutations(c1.rep_var_set()):
        c2 = t2.canonical("x", perm)
        if counter_model(term_eq(c1.present, c1.value, c2.present, c2.value), prep.timeout_s) is None:
            return True
    return False


def _match_alternatives(prep: Prepared, live1: list[BagTerm], live2: list[BagTerm]) -> list[int] | None:
    """A perfect matching (Kuhn's augmenting paths) of equal alternatives, as ``left i -> right m[i]``."""
    if len(live1) != len(live2):
        return None
    cache: dict[tuple[int, int], bool] = {}

    def edge(i: int, j: int) -> bool:
        if (i, j) not in cache:
            cache[i, j] = _equal_alternatives(prep, live1[i], live2[j])
        return cache[i, j]

    owner: dict[int, int] = {}  # right index -> left index

    def augment(i: int, seen: set[int]) -> bool:
        for j in [i, *range(i), *range(i + 1, len(live2))]:  # in-place first: same-order branches
            if j not in seen and edge(i, j):
                seen.add(j)
                if j not in owner or augment(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    for i in range(len(live1)):
        if not augment(i, set()):
            return None
    inverse = {i: j for j, i in owner.items()}
    return [inverse[i] for i in range(len(live1))]


def _multiset_differs(c1: list[BagTerm], c2: list[BagTerm], weight: str | None) -> z3.BoolRef:
    """On singleton input bags (``weight`` doubled) at a diagonal tuple, every alternative outputs its
    value ``2^(reads of weight)`` times when present: the outputs differ iff some present value is
    counted differently by the two programs. Exact, given the diagonal."""
    def mult(t: BagTerm) -> int:
        return 2 ** t.rep_var_set()[weight] if weight is not None else 1

    def count(alts: list[BagTerm], u: BagTerm) -> z3.ArithRef:
        return z3.Sum([z3.If(z3.And(t.present, sym_eq(t.value, u.value)), mult(t), 0) for t in alts])

    return z3.Or(*[z3.And(u.present, count(c1, u) != count(c2, u)) for u in c1 + c2])


def _alternatives_difference(prep: Prepared, live1: list[BagTerm], live2: list[BagTerm],
                             where: str) -> MethodOutcome:
    """No bijection of alternatives: look for a real difference on singleton (or doubled) inputs."""
    types = bag_types(prep)
    c1 = [t.canonical("x") for t in live1]
    c2 = [t.canonical("x") for t in live2]
    occ: Counter[str] = Counter()
    for t in c1 + c2:
        occ |= t.rep_var_set()
    diag = diagonal("x", occ, types)
    for weight in [None, *sorted(occ)]:
        m = find_model(z3.And(diag, _multiset_differs(c1, c2, weight)), prep.timeout_s)
        if m is not None:
            how = "singleton input bags" if weight is None else f"singleton input bags with {weight} doubled"
            cand = make_candidate(m, prep, singleton_bags("x", occ, types, weight),
                                  f"{NAME}: {where}alternatives differ on {how}")
            return Refuted(NAME, f"{where}the outputs differ on {how} (alternatives counted differently)",
                           (cand,))
    m = find_model(_multiset_differs(c1, c2, None), prep.timeout_s) if self_product(occ) else None
    cands = () if m is None else (make_candidate(m, prep, all_occurrence_bags("x", occ, types),
                                                 f"{NAME}: {where}alternatives differ off the diagonal"),)
    return Inconclusive(NAME, f"{where}no one-to-one correspondence of the alternatives (union/flatMap "
                              "branches) was found, and singleton or doubled inputs show no difference",
                        cands)


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
