"""AggOneK^b: one by-key aggregation per program, followed by per-element maps/filters (spec section 4).

``Pj = post_j(byKey_j(mu_j))`` where ``phi(mu_j) = (k_j, w_j)``. The by-key aggregation folds each
*bucket* (elements with one key) from Spark's per-key start: ``f(zero, v)`` (foldByKey), ``seq(zero, v)``
(aggregateByKey), ``v`` (reduceByKey), ``create(v)`` (combineByKey), the whole-group functions of
groupByKey likewise. Sound conditions, for input tuples ``x, y`` over the common RepVarSet:

- (K1) on elements both programs keep, the bucketing agrees: ``k1(x) = k1(y) <=> k2(x) = k2(y)``;
- (K2) a bucket never mixes kept and dropped elements: ``x`` kept by both, ``y`` kept by P1 in ``x``'s
  P1-bucket implies ``y`` kept by P2 (and symmetrically);
- (K3) a bucket only one program has yields nothing: ``x`` kept by P1 only means ``post1(k1(x), A)`` is
  absent for every ``A`` (and symmetrically);
- (K4) per shared bucket with first element ``x0``: an inductive relation ``I(A1, A2)`` (the invariant
  family of AggOne, plus the goal) holds after ``x0`` (``A = first(w(x0))``), is preserved by any ``y``
  of the same bucket, and implies ``post1(k1(x0), A1) = post2(k2(x0), A2)`` (presence and value).

Then the two programs' shared buckets are the same sets of input tuples, one-program buckets produce
nothing, and matching buckets produce equal elements: the output bags agree.

Only singleton inputs are checked for real counterexamples (each program then has at most one bucket
with one element); failures of K1-K4 give candidates for the interpreter, never a Refuted.
"""

from __future__ import annotations

import z3

from encoder.aggregates import KeyedAgg
from encoder.bag_terms import BagTerm, substitute, sym_pairs
from encoder.basic import Sym, fresh_like, leaves, sym_eq
from encoder.terms import BagResult, ProgramEncoding, TupleResult, constant_names
from verifier.core.base import (
    Candidate,
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
    bag_types,
    candidate_atoms,
    counter_model,
    diagonal,
    houdini,
    houdini_bases,
    make_candidate,
    occ_vars,
    prepare,
    short,
    singleton_bags,
    step_ratios,
    term_eq,
)

NAME = "AggOneK"


def run(pair: Pair, options: Options) -> MethodOutcome:
    prep = prepare(pair, options, NAME, allow_open=True)
    if isinstance(prep, NotApplicable):
        return prep
    shapes = [_shapes(e) for e in (prep.left, prep.right)]
    for s in shapes:
        if isinstance(s, str):
            return NotApplicable(NAME, s)
    left, right = shapes
    if len(left) != len(right):  # type: ignore[arg-type]
        return NotApplicable(NAME, "the results hold different numbers of by-key outputs")
    proofs = []
    for (g1, post1), (g2, post2) in zip(left, right, strict=True):  # type: ignore[arg-type]
        outcome = _component(prep, g1, post1, g2, post2)
        if not isinstance(outcome, Proved):
            return outcome  # a tuple differs where a component does: its candidates stand
        proofs.append(outcome.explanation)
    return Proved(NAME, "; ".join(proofs))


def _component(prep: Prepared, g1: KeyedAgg, post1: BagTerm, g2: KeyedAgg, post2: BagTerm) -> MethodOutcome:
    try:
        if len(g1.all_alts) > 1 or len(g2.all_alts) > 1:
            if prep.open_hazards:
                return NotApplicable(NAME, "an exception that may happen, with a bag of several alternatives")
            return _check_alternatives(prep, g1, post1, g2, post2)
        occ = g1.elem.rep_var_set()
        if occ != g2.elem.rep_var_set():
            return NotApplicable(NAME, "the aggregated bags use different representative variables")
        return _check(prep, g1, post1, g2, post2, occ)
    except Unknown as exc:
        return Inconclusive(NAME, f"Z3 could not decide a condition: {exc}")


def _shapes(enc: ProgramEncoding) -> list[tuple[KeyedAgg, BagTerm]] | str:
    """One (by-key aggregation, maps and filters after it) per component of the result: a bag, or a
    tuple of bags (several by-key aggregations, compared component by component)."""
    if not enc.keyed:
        return "no by-key aggregation"
    if enc.aggregates:
        return "a whole-bag aggregation next to the by-key one"
    r = enc.result
    parts = [r] if isinstance(r, BagResult) else list(r.items) if isinstance(r, TupleResult) else []
    out: list[tuple[KeyedAgg, BagTerm]] = []
    for part in parts:
        if not isinstance(part, BagResult):
            return "the result is not made of by-key outputs only"
        if len(part.alts) != 1:
            return "the by-key output is followed by a union or flatMap (several alternatives)"
        term = part.alts[0]
        if len(term.keyed) != 1 or term.occurrences:
            return "the by-key output is not followed only by maps and filters"
        out.append((enc.keyed[term.keyed[0]], term))
    if not out:
        return "the result is not made of by-key outputs only"
    if sorted(id(g) for g, _ in out) != sorted({id(g) for g in enc.keyed}) or len(out) != len(enc.keyed):
        return "several by-key aggregations feed one output, or one feeds nothing"
    return out


class _Side:
    """One program's pieces on canonical tuple copies ``x`` and ``y``."""

    def __init__(self, g: KeyedAgg, post: BagTerm) -> None:
        self.g, self.post = g, post
        sx, sy = g.elem.canonical("x"), g.elem.canonical("y")
        self.kx, self.wx, self.px = sx.value[0], sx.value[1], sx.present
        self.ky, self.wy, self.py = sy.value[0], sy.value[1], sy.present

    def out(self, key: Sym, acc: Sym) -> tuple[z3.BoolRef, Sym]:
        """``post(key, acc)`` boxed."""
        return self.post_of(self.g, self.post, key, acc)

    @staticmethod
    def post_of(g: KeyedAgg, post: BagTerm, key: Sym, acc: Sym | None = None) -> tuple[z3.BoolRef, Sym]:
        """``post(key, acc)`` boxed (``acc`` defaults to the bucket placeholder itself)."""
        pairs = sym_pairs(g.key, key) + (sym_pairs(g.acc, acc) if acc is not None else [])
        return substitute(post.present, pairs), substitute(post.value, pairs)


def _check(prep: Prepared, g1: KeyedAgg, post1: BagTerm, g2: KeyedAgg, post2: BagTerm, occ) -> MethodOutcome:
    t = prep.timeout_s
    types = bag_types(prep)
    a, b = _Side(g1, post1), _Side(g2, post2)
    # Exceptions that may happen (prepare: all of one kind) must come from the maps after the
    # aggregation, so that they are a condition on each bucket's result: then "the same buckets raise"
    # is one more per-bucket goal, and the programs raise on the same inputs with the same exception.
    open_l = [h for side, h in prep.open_hazards if side == "L"]
    open_r = [h for side, h in prep.open_hazards if side == "R"]
    for hs, g in ((open_l, g1), (open_r, g2)):
        bucket = {str(x) for x in (*leaves(g.acc), *leaves(g.key))}
        # a hazard is a condition on the bucket when it reads the bucket (only the maps after the
        # aggregation do) and nothing else but the program's scalars; one that does not read the bucket
        # (a driver let, a map before the aggregation) may happen with no bucket at all
        for h in hs:
            reads = constant_names(h)
            if reads.isdisjoint(bucket) or any(n not in bucket and not n.startswith("v:") for n in reads):
                return NotApplicable(NAME, "an exception may happen outside the maps after the aggregation")
    haz1 = _bucket_hazard(open_l, g1, a.kx)
    haz2 = _bucket_hazard(open_r, g2, b.kx)

    # singleton inputs: real counterexamples
    o1p, o1v = a.out(a.kx, g1.shape.first(a.wx))
    o2p, o2v = b.out(b.kx, g2.shape.first(b.wx))
    single = term_eq(z3.And(a.px, o1p), o1v, z3.And(b.px, o2p), o2v)
    m = counter_model(single, t, diagonal("x", occ, types))
    if m is not None:
        cand = make_candidate(m, prep, singleton_bags("x", occ, types), f"{NAME}: singleton input")
        return Refuted(NAME, "the programs differ on a one-element input", (cand,))

    both_x = z3.And(a.px, b.px)
    both_xy = z3.And(both_x, a.py, b.py)
    checks = [
        ("K1: the programs bucket shared elements differently",
         sym_eq(a.kx, a.ky) == sym_eq(b.kx, b.ky), both_xy, True),
        ("K2: a P1 bucket mixes elements P2 keeps and drops",
         b.py, z3.And(both_x, a.py, sym_eq(a.ky, a.kx)), True),
        ("K2: a P2 bucket mixes elements P1 keeps and drops",
         a.py, z3.And(both_x, b.py, sym_eq(b.ky, b.kx)), True),
        ("K3: a bucket only P1 has may produce output",
         z3.And(z3.Not(a.out(a.kx, g1.acc)[0]), z3.Not(haz1)), z3.And(a.px, z3.Not(b.px)), False),
        ("K3: a bucket only P2 has may produce output",
         z3.And(z3.Not(b.out(b.kx, g2.acc)[0]), z3.Not(haz2)), z3.And(b.px, z3.Not(a.px)), False),
    ]
    for what, claim, hyp, two in checks:
        m = counter_model(claim, t, hyp)
        if m is not None:
            return Inconclusive(NAME, what, (_pair_candidate(m, prep, occ, types, two, what),))

    # K4: per-bucket induction
    base = (g1.shape.first(a.wx), g2.shape.first(b.wx))
    same_bucket = z3.And(both_xy, sym_eq(a.ky, a.kx), sym_eq(b.ky, b.kx))
    nxt = (g1.shape.step(g1.acc, a.wy), g2.shape.step(g2.acc, b.wy))
    p1, v1 = a.out(a.kx, g1.acc)
    p2, v2 = b.out(b.kx, g2.acc)
    goal = term_eq(p1, v1, p2, v2)
    if open_l or open_r:
        goal = z3.And(goal, haz1 == haz2)
    ratios = step_ratios(g1.acc, base[0], nxt[0], g2.acc, base[1], nxt[1], same_bucket, t)
    atoms = [goal, *candidate_atoms(g1.acc, base[0], g2.acc, base[1], ratios)]
    inv = houdini(atoms, (g1.acc, g2.acc), base, both_x, nxt, same_bucket, t)
    if counter_model(goal, t, z3.And(both_x, *inv)) is not None:
        return Inconclusive(NAME, "K4: no invariant in the family relates the per-bucket folds")
    raises = ""
    if open_l or open_r:
        kind = prep.left.kind_of(open_l[0]) if open_l else prep.right.kind_of(open_r[0])
        raises = f"; both raise {kind} on the same buckets"
    return Proved(NAME, f"buckets correspond (K1-K3) and per bucket: {short(inv)}{raises}")


def _bucket_hazard(hazards: list[z3.BoolRef], g: KeyedAgg, key: Sym) -> z3.BoolRef:
    """Whether the maps after the aggregation raise on the bucket ``(key, g.acc)``."""
    if not hazards:
        return z3.BoolVal(False)
    return substitute(z3.Or(*hazards), sym_pairs(g.key, key))


def _check_alternatives(prep: Prepared, g1: KeyedAgg, post1: BagTerm, g2: KeyedAgg, post2: BagTerm
                        ) -> MethodOutcome:
    """By-key aggregations of bags with several alternatives (``union``/``flatMap`` before them).

    Sufficient condition: the alternatives pair up one-to-one (same RepVarSet) so that, on every input
    tuple, paired alternatives keep the same elements with the same key. Then both programs' buckets
    are the same sets of (alternative, tuple), each program folding its own values of them; the
    per-bucket induction (K4) starts from the first element of any pair and steps with any pair, in
    any order (partition independence makes the order irrelevant), and must imply equal outputs.
    """
    t = prep.timeout_s
    a1, a2 = list(g1.all_alts), list(g2.all_alts)
    if len(a1) != len(a2):
        return NotApplicable(NAME, "the aggregated bags have different numbers of alternatives")
    pairs = _pair_alternatives(a1, a2, t)
    if pairs is None:
        return NotApplicable(NAME, "no one-to-one matching of the aggregated bags' alternatives keeps the "
                                   "same elements under the same keys")
    key = fresh_like("bucket.key", g1.key)
    bases, steps = [], []
    for i, (u, w) in enumerate(pairs):
        xu, xw = u.canonical(f"x{i}"), w.canonical(f"x{i}")
        yu, yw = u.canonical(f"y{i}"), w.canonical(f"y{i}")
        bases.append(((g1.shape.first(xu.value[1]), g2.shape.first(xw.value[1])),
                      z3.And(xu.present, sym_eq(xu.value[0], key))))
        steps.append(((g1.shape.step(g1.acc, yu.value[1]), g2.shape.step(g2.acc, yw.value[1])),
                      z3.And(yu.present, sym_eq(yu.value[0], key))))
    out1, out2 = _Side.post_of(g1, post1, key), _Side.post_of(g2, post2, key)
    goal = term_eq(out1[0], out1[1], out2[0], out2[1])
    state = (g1.acc, g2.acc)
    atoms = [goal, *candidate_atoms(g1.acc, bases[0][0][0], g2.acc, bases[0][0][1], ())]
    inv = houdini_bases(atoms, state, bases, steps, t)
    if counter_model(goal, t, z3.And(*inv)) is not None:
        return Inconclusive(NAME, "K4: no invariant in the family relates the per-bucket folds")
    return Proved(NAME, f"alternatives pair up with the same keys, and per bucket: {short(inv)}")


def _pair_alternatives(a1: list[BagTerm], a2: list[BagTerm], timeout_s: float
                       ) -> list[tuple[BagTerm, BagTerm]] | None:
    """A one-to-one pairing in which paired alternatives keep the same tuples under the same keys."""
    out: list[tuple[BagTerm, BagTerm]] = []
    free = list(a2)
    for u in a1:
        cu = u.canonical("x")
        for w in free:
            cw = w.canonical("x")
            if cu.rep_var_set() != cw.rep_var_set():
                continue
            same = z3.And(cu.present == cw.present, z3.Implies(cu.present, sym_eq(cu.value[0], cw.value[0])))
            if counter_model(same, timeout_s) is None:
                out.append((u, w))
                free.remove(w)
                break
        else:
            return None
    return out


def _pair_candidate(m: z3.ModelRef, prep: Prepared, occ, types, two: bool, what: str) -> Candidate:
    """Inputs holding the model's ``x`` tuple (and ``y`` for two-element conditions)."""
    xs = {bag: [] for bag in occ}
    for prefix in ("x", "y") if two else ("x",):
        for bag in occ:
            xs[bag] += [v for v in occ_vars(prefix, occ.__class__({bag: occ[bag]}), types)]
    return make_candidate(m, prep, xs, f"{NAME}: {what}")
