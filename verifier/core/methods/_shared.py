"""Machinery shared by the proof methods (NoAgg, AggOne, AggOne_sync, AggMult, AggOneK).

Why it is shared: every method encodes both programs the same way, refuses the same things (Spark
semantics not proved sequential, possible division by zero, unsupported shapes), asks Z3 the same kind of
validity questions with a resource budget, and builds candidate inputs from models the same way. The fold
methods also share the *joint fold*: all aggregations of one program folded together over one canonical
input tuple (a tuple accumulator), and the search for an inductive relation between the two programs'
accumulators (a small invariant family, Houdini-style).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import z3

from encoder.aggregates import AggTerm, acc_init, acc_step
from encoder.bag_terms import canonical_var, substitute, sym_pairs
from encoder.basic import EncodingError, Sym, leaves, sym_eq, sym_to_value
from encoder.terms import (
    BagResult,
    ProgramEncoding,
    Result,
    TupleResult,
    UnsupportedShape,
    ValueResult,
    encode_program,
    has_aggregation_node,
)
from sparklite import ast as A
from sparklite.deadline import Deadline
from sparklite.types import BagType, Type
from verifier.core import budget
from verifier.core.base import (
    Candidate,
    Inconclusive,
    MethodOutcome,
    NotApplicable,
    Options,
    Pair,
    Refuted,
)
from verifier.core.methods.bucket_facts import bucket_facts

MAX_PERMUTATIONS = 120


class Unknown(Exception):
    """Z3 answered unknown (timeout, incompleteness): the method must say Inconclusive."""


# ---------------------------------------------------------------------------------------------------
# Preparation and gates
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Prepared:
    """Both programs' encodings, with the per-query patience and the check's deadline."""

    left: ProgramEncoding
    right: ProgramEncoding
    per_query_s: float
    deadline: Deadline = field(default_factory=Deadline)
    open_hazards: tuple[tuple[str, z3.BoolRef], ...] = ()
    """Hazards not ruled out (side "L"/"R", condition), all of one exception: only a method that proves
    both programs raise under the same conditions may accept them (``prepare(allow_open=True)``)."""

    @property
    def timeout_s(self) -> float:
        """The patience of the next Z3 query (a resource budget, ``verifier.core.budget``): the same
        at every load. The check's deadline is a hard cap enforced by the watchdog, not cut into it."""
        return self.per_query_s

    @staticmethod
    def with_float_patience(per_query_s: float, *programs: A.Program) -> float:
        """A query over floats gets ``FLOAT_PATIENCE`` per-query patiences (decided once per pair from
        the programs: inspecting every formula would cost more than many queries on long pipelines)."""
        return per_query_s * FLOAT_PATIENCE if any(_has_floats(p) for p in programs) else per_query_s


def prepare(pair: Pair, options: Options, method: str, *, allow_open: bool = False
            ) -> Prepared | NotApplicable:
    """Encode both programs and apply the gates every method shares. With ``allow_open``, hazards
    that cannot be ruled out but are all of one exception (an ``int / int`` too large for a float) are
    handed to the method in ``open_hazards`` instead of making it inapplicable."""
    aggregating = has_aggregation_node(pair.left) or has_aggregation_node(pair.right)
    if aggregating and not pair.sequential_ok:
        return NotApplicable(method, "an aggregation was not proved partition-independent, so Spark's "
                                     "result may differ from the sequential fold the proof reasons about")
    try:
        left = encode_program(pair.left, "L")
        right = encode_program(pair.right, "R")
    except UnsupportedShape as exc:
        return NotApplicable(method, f"unsupported shape: {exc}")
    except (EncodingError, RecursionError) as exc:
        return NotApplicable(method, f"cannot encode the programs: {exc}")
    gate = _no_partition_gate(left, right, options.timeout_s)
    if gate is not None:
        return NotApplicable(method, gate)
    hazards = left.hazards + right.hazards
    if hazards:
        # a bucket holds at least one value: facts proved of every bucket (e.g. its count >= 1)
        facts = bucket_facts((left, right), options.timeout_s)
        try:
            m = find_model(z3.And(z3.Or(*hazards), *facts), options.timeout_s)
        except Unknown:
            return NotApplicable(method, "could not rule out a division by zero")
        if m is not None:
            open_ = _open_hazards(left, right, facts, options.timeout_s) if allow_open else None
            if open_ is None:
                kinds = sorted({e.kind_of(h) for e in (left, right) for h in e.hazards})
                what = "division by zero" if kinds == ["ZeroDivisionError"] else " or ".join(kinds)
                return NotApplicable(method, f"{what} possible (left to the bounded method, random testing "
                                             "and the interpreter)")
            options.deadline.check(f"{method} (encoding)")
            patience = Prepared.with_float_patience(options.timeout_s, pair.left, pair.right)
            return Prepared(left, right, patience, options.deadline, open_)
    options.deadline.check(f"{method} (encoding)")
    return Prepared(left, right, Prepared.with_float_patience(options.timeout_s, pair.left, pair.right),
                    options.deadline)


def _no_partition_gate(left: ProgramEncoding, right: ProgramEncoding, timeout_s: float) -> str | None:
    """Why the methods cannot read the pair, when an unused ``countByValue``/``top`` of either program
    raises on an input with no partition (``ProgramEncoding.no_partition_error``); None when they can.

    The methods compare results, the ``error`` of empty reductions and the hazards, not this error, nor
    which of two errors comes first. So it is accepted only when both programs raise it for the same
    inputs without partitions, and every other exception either may raise is a ``ValueError`` too (the
    ``error`` of an empty reduction is; ``str()`` of a huge int is): then on those inputs both outcomes
    are ``ValueError`` whichever error comes first, and on every other input the method's own reasoning
    stands."""
    nl, nr = left.no_partition_error, right.no_partition_error
    if z3.is_false(nl) and z3.is_false(nr):
        return None
    why = "a countByValue()/top() raises on an input with no partition (an empty text file), and"
    kinds = {e.kind_of(h) for e in (left, right) for h in e.hazards}
    if kinds - {"ValueError"}:
        return f"{why} the programs may raise {' or '.join(sorted(kinds - {'ValueError'}))} too"
    try:
        if find_model(z3.Xor(nl, nr), timeout_s) is not None:
            return f"{why} the other program does not raise on the same inputs"
    except Unknown:
        return f"{why} the solver could not tell when"
    return None


def _open_hazards(left: ProgramEncoding, right: ProgramEncoding, facts: Sequence[z3.BoolRef],
                  timeout_s: float) -> tuple[tuple[str, z3.BoolRef], ...] | None:
    """The hazards that may happen, when they are all of one exception; None otherwise."""
    out = []
    for side, enc in (("L", left), ("R", right)):
        for h in enc.hazards:
            try:
                if find_model(z3.And(h, *facts), timeout_s) is None:
                    continue
            except Unknown:
                return None
            out.append((side, enc.kind_of(h), h))
    if len({k for _, k, _ in out}) != 1:
        return None
    return tuple((side, h) for side, _, h in out)


# ---------------------------------------------------------------------------------------------------
# Z3 queries
# ---------------------------------------------------------------------------------------------------


FLOAT_PATIENCE = 5.0
"""Floating point is bit-blasted: an identity as simple as ``x * 2.0 == x + x`` takes Z3 most of a
second (2.6M resource units), so a query over floats gets this many per-query patiences (resource
budgets, ``verifier.core.budget``: 7.5M units at the default effort; the largest float query of the
bundled cases used 3.7M)."""


def _has_floats(program: A.Program) -> bool:
    """Does the program compute with floats (a float input, literal, true division or conversion)?"""
    from sparklite.types import FloatType, TupleType

    def float_type(t: object) -> bool:
        if isinstance(t, FloatType):
            return True
        if isinstance(t, BagType):
            return float_type(t.elem)
        return isinstance(t, TupleType) and any(float_type(e) for e in t.elems)

    if any(float_type(p.type) for p in program.params):
        return True
    return any(isinstance(n, A.FloatLit) or (isinstance(n, A.BinOp) and n.op == "/")
               or (isinstance(n, A.Call) and (n.func == "float" or n.func.startswith("math.")))
               for n in A.walk(program))


def involves_floats(formula: z3.ExprRef) -> bool:
    text = formula.sexpr()
    return "fp." in text or "(fp " in text


def find_model(formula: z3.BoolRef, timeout_s: float) -> z3.ModelRef | None:
    """A model of ``formula``, or None when it is unsatisfiable. Raises ``Unknown``."""
    s = budget.solver(timeout_s)
    s.add(formula)
    r = budget.check(s)
    if r == z3.sat:
        return s.model()
    if r == z3.unsat:
        return None
    raise Unknown(s.reason_unknown() or "unknown")


def counter_model(claim: z3.BoolRef, timeout_s: float,
                  assume: z3.BoolRef | None = None) -> z3.ModelRef | None:
    """None when ``assume -> claim`` is valid, else a model of ``assume and not claim``."""
    f = z3.Not(claim) if assume is None else z3.And(assume, z3.Not(claim))
    return find_model(f, timeout_s)


def holds_in(model: z3.ModelRef, formula: z3.BoolRef) -> bool:
    return z3.is_true(model.eval(formula, model_completion=True))


# ---------------------------------------------------------------------------------------------------
# Canonical input tuples, the diagonal, candidates
# ---------------------------------------------------------------------------------------------------


def occ_vars(prefix: str, occ: Counter[str], types: Mapping[str, Type]) -> list[Sym]:
    """The canonical variables ``prefix:R#i`` of a RepVarSet, in a fixed order."""
    return [canonical_var(prefix, b, i, types[b]) for b in sorted(occ) for i in range(occ[b])]


def diagonal(prefix: str, occ: Counter[str], types: Mapping[str, Type]) -> z3.BoolRef:
    """All occurrences of the same bag read the same element: what singleton input bags can show."""
    eqs = [sym_eq(canonical_var(prefix, b, 0, types[b]), canonical_var(prefix, b, i, types[b]))
           for b in sorted(occ) for i in range(1, occ[b])]
    return z3.And(*eqs) if eqs else z3.BoolVal(True)


def self_product(occ: Counter[str]) -> bool:
    return any(n > 1 for n in occ.values())


def permutations(occ: Counter[str]) -> Iterator[dict[str, tuple[int, ...]]]:
    """Ways to match the occurrences of each bag between two programs (identity first)."""
    multi = [b for b in sorted(occ) if occ[b] > 1]
    per_bag = [list(itertools.permutations(range(occ[b]))) for b in multi]
    for n, combo in enumerate(itertools.product(*per_bag)):
        if n >= MAX_PERMUTATIONS:
            return
        yield dict(zip(multi, combo, strict=True))


def bag_types(prep: Prepared) -> dict[str, Type]:
    return {**prep.left.bag_types, **prep.right.bag_types}


def make_candidate(model: z3.ModelRef, prep: Prepared, bags: Mapping[str, Sequence[Sym]],
                   origin: str) -> Candidate:
    """Concrete inputs: each bag parameter's listed elements read from ``model``, scalars from it too."""
    return candidate_from(model, prep.left, bags, origin)


def candidate_from(model: z3.ModelRef, enc: ProgramEncoding, bags: Mapping[str, Sequence[Sym]],
                   origin: str) -> Candidate:
    """``make_candidate`` for one encoding (its parameters and scalar variables, shared by name)."""
    inputs: dict[str, object] = {}
    for p in enc.program.params:
        if isinstance(p.type, BagType):
            inputs[p.name] = [sym_to_value(s, model) for s in bags.get(p.name, ())]
        else:
            inputs[p.name] = sym_to_value(enc.scalars[p.name], model)
    return Candidate(inputs=inputs, origin=origin)


def singleton_bags(prefix: str, occ: Counter[str], types: Mapping[str, Type],
                   double: str | None = None) -> dict[str, list[Sym]]:
    """Every bag read is the singleton of its first occurrence's element (twice for ``double``)."""
    out = {b: [canonical_var(prefix, b, 0, types[b])] for b in occ}
    if double is not None:
        out[double] = out[double] * 2
    return out


def all_occurrence_bags(prefix: str, occ: Counter[str], types: Mapping[str, Type]) -> dict[str, list[Sym]]:
    """Every bag holds the elements of all its occurrences (off-diagonal models of self-products)."""
    return {b: [canonical_var(prefix, b, i, types[b]) for i in range(occ[b])] for b in occ}


# ---------------------------------------------------------------------------------------------------
# Joint folds
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SideFold:
    """All aggregations of one program folded together, one input tuple at a time.

    The folded bags are sums of alternatives (``encoder.terms``). Alternatives are grouped by their
    RepVarSet: a *group* ``G`` is walked over the product of its input occurrences, and one tuple ``t``
    of ``G`` makes every aggregation take, in turn, the element each of its ``G``-alternatives
    generates from ``t`` (``f*``: nothing when absent). Walking every group's product once, in any
    interleaving, feeds each fold exactly its own elements (the products are bijective images of the
    alternatives' own products, since occurrences of one bag range over the same bag); with partition
    independence the order does not matter. With one alternative per fold this is the paper's joint
    fold over one canonical tuple.
    """

    aggs: tuple[AggTerm, ...]
    groups: tuple[Counter[str], ...]

    @property
    def acc(self) -> Sym:
        return tuple(a.acc for a in self.aggs)

    @property
    def init(self) -> Sym:
        return tuple(acc_init(a.shape) for a in self.aggs)

    @property
    def occ(self) -> Counter[str]:
        """Every occurrence any group reads (the union of the groups' RepVarSets)."""
        out: Counter[str] = Counter()
        for g in self.groups:
            out |= g
        return out

    def step(self, acc: Sym, prefix: str, group: Counter[str] | None = None) -> Sym:
        """One tuple (canonical copy ``prefix``) of ``group`` (the only group when None); aggregations
        without alternatives in ``group`` keep their accumulator."""
        if group is None:
            if len(self.groups) > 1:
                raise UnsupportedShape("a fold over alternatives with different inputs needs a group")
            group = self.groups[0] if self.groups else Counter()
        out = []
        for agg, a in zip(self.aggs, acc, strict=True):
            for t in agg.elems:
                if t.rep_var_set() == group:
                    e = t.canonical(prefix)
                    a = acc_step(agg.shape, a, e.value, e.present)
            out.append(a)
        return tuple(out)

    def step_each(self, acc: Sym, prefix: str, groups: Sequence[Counter[str]]) -> Sym:
        """One tuple of every group in ``groups`` (all over ``prefix``): what singleton input bags do."""
        for g in groups:
            acc = self.step(acc, prefix, g)
        return acc

    def presences(self, prefix: str, group: Counter[str] | None = None) -> list[z3.BoolRef]:
        return [t.canonical(prefix).present for agg in self.aggs for t in agg.elems
                if group is None or t.rep_var_set() == group]


def _group_key(g: Counter[str]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(g.items()))


def merge_groups(*group_lists: Sequence[Counter[str]]) -> list[Counter[str]]:
    """The distinct RepVarSets of several lists, in a fixed order."""
    seen: dict[tuple[tuple[str, int], ...], Counter[str]] = {}
    for gs in group_lists:
        for g in gs:
            seen.setdefault(_group_key(g), g)
    return [seen[k] for k in sorted(seen)]


def side_fold(enc: ProgramEncoding) -> SideFold:
    return SideFold(tuple(enc.aggregates),
                    tuple(merge_groups([t.rep_var_set() for a in enc.aggregates for t in a.elems])))


def joint_folds(prep: Prepared) -> tuple[SideFold, SideFold, list[Counter[str]]] | str:
    """Both programs' joint folds and the groups (RepVarSets) walked by either, or why not.

    When the two programs' groups differ (a group one program folds and the other does not), the
    induction still walks every group's tuples with both programs (a program without alternatives
    in a group keeps its accumulator): sound, and refutable on empty/singleton bags, but a one-group
    method (AggOneSync) does not apply.
    """
    if prep.left.keyed or prep.right.keyed:
        return "a by-key aggregation (see AggOneK)"
    if not (prep.left.aggregates or prep.right.aggregates):
        return "no aggregation (see NoAgg)"
    f1, f2 = side_fold(prep.left), side_fold(prep.right)
    return f1, f2, merge_groups(f1.groups, f2.groups)


def _fmt(occ: Counter[str]) -> str:
    return "{" + ", ".join(f"{b}x{n}" if n > 1 else b for b, n in sorted(occ.items())) + "}"


# ---------------------------------------------------------------------------------------------------
# Outcome equality given accumulators
# ---------------------------------------------------------------------------------------------------


def value_only(prep: Prepared) -> bool:
    return isinstance(prep.left.result, ValueResult) and isinstance(prep.right.result, ValueResult)


def term_eq(p1: z3.BoolRef, v1: Sym, p2: z3.BoolRef, v2: Sym) -> z3.BoolRef:
    """Boxed equality: the same presence, and the same value when present."""
    return z3.And(p1 == p2, z3.Implies(p1, sym_eq(v1, v2)))


def _result_eq(r1: Result, r2: Result, prefix: str) -> z3.BoolRef:
    if isinstance(r1, ValueResult) and isinstance(r2, ValueResult):
        return sym_eq(r1.value, r2.value)
    if isinstance(r1, BagResult) and isinstance(r2, BagResult):
        # Alternatives paired in order (the shorter list padded with nothing): a sufficient condition,
        # since the bags are the sums of their alternatives and each pair is equal or both empty.
        parts = []
        for i in range(max(len(r1.alts), len(r2.alts))):
            t1 = r1.alts[i].canonical(prefix) if i < len(r1.alts) else None
            t2 = r2.alts[i].canonical(prefix) if i < len(r2.alts) else None
            if t1 is not None and t2 is not None and t1.rep_var_set() == t2.rep_var_set():
                parts.append(term_eq(t1.present, t1.value, t2.present, t2.value))
            else:
                parts += [z3.Not(t.present) for t in (t1, t2) if t is not None]
        return z3.And(*parts) if parts else z3.BoolVal(True)
    if isinstance(r1, TupleResult) and isinstance(r2, TupleResult) and len(r1.items) == len(r2.items):
        return z3.And(*[_result_eq(a, b, prefix) for a, b in zip(r1.items, r2.items, strict=True)])
    raise UnsupportedShape("the programs' results have different shapes")


def outcome_eq(prep: Prepared, f1: SideFold, acc1: Sym, f2: SideFold, acc2: Sym,
               prefix: str = "x") -> z3.BoolRef:
    """Both programs raise, or neither does and their results agree, when their accumulators are
    ``acc1``/``acc2``. For bag results the per-element condition is *sufficient* (valid for all ``x``
    means the bags agree, as in NoAgg); for value results it is exact."""
    body = _result_eq(prep.left.result, prep.right.result, prefix)
    pairs = sym_pairs(f1.acc, acc1) + sym_pairs(f2.acc, acc2)
    e1 = substitute(prep.left.error, pairs)
    e2 = substitute(prep.right.error, pairs)
    body = substitute(body, pairs)
    return z3.Or(z3.And(e1, e2), z3.And(z3.Not(e1), z3.Not(e2), body))


# ---------------------------------------------------------------------------------------------------
# Invariant search
# ---------------------------------------------------------------------------------------------------

COEFFICIENTS = (1, -1, 2, -2, 3, -3)


def candidate_atoms(acc1: Sym, base1: Sym, acc2: Sym, base2: Sym,
                    ratios: Sequence[int] = ()) -> list[z3.BoolRef]:
    """The invariant family relating two accumulators, component-wise: ``A1 = c*A2 + d`` (and the other
    way round) with ``d`` fixed by the base values, boolean (anti-)equalities, and one-sided facts
    ``A = a0``, ``A >= a0``, ``A <= a0``."""
    atoms: list[z3.BoolRef] = []
    l1, b1, l2, b2 = leaves(acc1), leaves(base1), leaves(acc2), leaves(base2)
    coeffs = list(dict.fromkeys([*COEFFICIENTS, *ratios]))
    for a, a0 in zip(l1, b1, strict=True):
        for b, b0 in zip(l2, b2, strict=True):
            if z3.is_bool(a) and z3.is_bool(b):
                atoms += [a == b, a == z3.Not(b)]
            elif z3.is_int(a) and z3.is_int(b):
                for c in coeffs:
                    atoms.append(a == c * b + (a0 - c * b0))
                    if abs(c) > 1:
                        atoms.append(b == c * a + (b0 - c * a0))
    for a, a0 in zip(l1 + l2, b1 + b2, strict=True):
        if z3.is_bool(a):
            atoms.append(a == a0)
        else:
            atoms += [a == a0, a >= a0, a <= a0]
    out: dict[str, z3.BoolRef] = {}
    for atom in atoms:
        out.setdefault(str(z3.simplify(atom)), atom)
    return list(out.values())


def step_ratios(acc1: Sym, base1: Sym, next1: Sym, acc2: Sym, base2: Sym, next2: Sym,
                hyp: z3.BoolRef, timeout_s: float) -> list[int]:
    """Solve for ``c`` in ``A1 = c*A2 + d`` from one sample step where both folds take an element."""
    l1, l2 = leaves(acc1), leaves(acc2)
    s1 = [substitute(n, sym_pairs(acc1, base1)) for n in leaves(next1)]
    s2 = [substitute(n, sym_pairs(acc2, base2)) for n in leaves(next2)]
    try:
        m = find_model(hyp, timeout_s)
    except Unknown:
        return []
    if m is None:
        return []
    out = []
    for a, a0, n1 in zip(l1, leaves(base1), s1, strict=True):
        for b, b0, n2 in zip(l2, leaves(base2), s2, strict=True):
            if not (z3.is_int(a) and z3.is_int(b)):
                continue
            d1 = m.eval(n1 - a0, model_completion=True)
            d2 = m.eval(n2 - b0, model_completion=True)
            if z3.is_int_value(d1) and z3.is_int_value(d2):
                x, y = d1.as_long(), d2.as_long()
                if y != 0 and x % y == 0:
                    out.append(x // y)
                if x != 0 and y % x == 0:
                    out.append(y // x)
    return out


def houdini(atoms: list[z3.BoolRef], state: Sym, base: Sym, base_hyp: z3.BoolRef, nxt: Sym,
            step_hyp: z3.BoolRef, timeout_s: float) -> list[z3.BoolRef]:
    """The largest subset of ``atoms`` (formulas over ``state``) that holds at ``base`` and is preserved
    by ``state := nxt``: the strongest inductive invariant in the family (the union of inductive
    conjunctions is inductive, so dropping atoms refuted by a model never loses one). Raises ``Unknown``."""
    return houdini_steps(atoms, state, base, base_hyp, [(nxt, step_hyp)], timeout_s)


def houdini_steps(atoms: list[z3.BoolRef], state: Sym, base: Sym, base_hyp: z3.BoolRef,
                  steps: Sequence[tuple[Sym, z3.BoolRef]], timeout_s: float) -> list[z3.BoolRef]:
    """``houdini`` with several transitions (one per group of a fold over alternatives with different
    inputs): the result is preserved by *every* ``state := nxt`` under its hypothesis, so it is
    invariant along any interleaving of the transitions. Raises ``Unknown``."""
    return houdini_bases(atoms, state, [(base, base_hyp)], steps, timeout_s)


def houdini_bases(atoms: list[z3.BoolRef], state: Sym, bases: Sequence[tuple[Sym, z3.BoolRef]],
                  steps: Sequence[tuple[Sym, z3.BoolRef]], timeout_s: float) -> list[z3.BoolRef]:
    """``houdini_steps`` with several possible start states (a by-key bucket may start with an element
    of any alternative): the result holds at every base and is preserved by every step."""
    current = list(atoms)
    for base, hyp in bases:
        current = _weed(current, sym_pairs(state, base), lambda cur, h=hyp: h, timeout_s)
    while True:
        before = len(current)
        for nxt, step_hyp in steps:
            current = _weed(current, sym_pairs(state, nxt),
                            lambda cur, h=step_hyp: z3.And(h, *cur), timeout_s)
        if len(current) == before or not current:
            return current


def _weed(current: list[z3.BoolRef], pairs: list, hyp_of: Callable[[list[z3.BoolRef]], z3.BoolRef],
          timeout_s: float) -> list[z3.BoolRef]:
    """Drop atoms that fail (after substituting ``pairs``) under ``hyp_of(current)`` until none does."""
    while current:
        inst = [substitute(a, pairs) for a in current]
        m = counter_model(z3.And(*inst), timeout_s, hyp_of(current))
        if m is None:
            return current
        kept = [a for a, i in zip(current, inst, strict=True) if holds_in(m, i)]
        if len(kept) == len(current):  # model evaluation disagrees with the solver: give up safely
            return []
        current = kept
    return current


# ---------------------------------------------------------------------------------------------------
# Checks on concrete small inputs shared by the fold methods
# ---------------------------------------------------------------------------------------------------


def base_failure(prep: Prepared, f1: SideFold, f2: SideFold, method: str) -> MethodOutcome | None:
    """Condition (5): the outcomes on empty input bags. With empty bags every fold yields its start value,
    so for value results a failure is a real counterexample (Refuted); otherwise a candidate."""
    m = counter_model(outcome_eq(prep, f1, f1.init, f2, f2.init), prep.timeout_s)
    if m is None:
        return None
    cand = make_candidate(m, prep, {}, f"{method}: base case fails on empty bags")
    if value_only(prep):
        return Refuted(method, "the programs differ on empty input bags (base case (5))", (cand,))
    return Inconclusive(method, "the base case fails on empty bags (candidate)", (cand,))


def union_occ(groups: Sequence[Counter[str]]) -> Counter[str]:
    """Every occurrence some group reads: the canonical variables singleton inputs are built from."""
    out: Counter[str] = Counter()
    for g in groups:
        out |= g
    return out


def single_failure(prep: Prepared, f1: SideFold, f2: SideFold, groups: Sequence[Counter[str]],
                   method: str) -> tuple[MethodOutcome | None, bool]:
    """One element per input bag: ``g1(F1(i1, a)) = g2(F2(i2, a))``, where ``F`` takes one tuple of
    every group (with singleton bags each group's product is the one diagonal tuple).

    Returns ``(outcome, holds_for_all_a)``. A failure at a diagonal ``a`` (occurrences of one bag
    agree) is what singleton bags compute: real for value results. ``holds_for_all_a`` is the second
    half of Theorem 3's condition (9), over all ``a`` including off-diagonal ones.
    """
    types = bag_types(prep)
    occ = union_occ(groups)
    eq = outcome_eq(prep, f1, f1.step_each(f1.init, "a", groups), f2, f2.step_each(f2.init, "a", groups))
    m = counter_model(eq, prep.timeout_s, diagonal("a", occ, types))
    if m is not None:
        cand = make_candidate(m, prep, singleton_bags("a", occ, types),
                              f"{method}: differs on singleton bags")
        if value_only(prep):
            return Refuted(method, "the programs differ on singleton input bags", (cand,)), False
        return Inconclusive(method, "a one-element condition fails (candidate)", (cand,)), False
    if not self_product(occ):
        return None, True
    m = counter_model(eq, prep.timeout_s)
    if m is None:
        return None, True
    cand = make_candidate(m, prep, all_occurrence_bags("a", occ, types),
                          f"{method}: one element per occurrence differs")
    return Inconclusive(method, "a one-element condition fails off the diagonal of a self-product",
                        (cand,)), False


def aggregation_gate(prep: Prepared, method: str
                     ) -> tuple[SideFold, SideFold, list[Counter[str]]] | NotApplicable:
    jf = joint_folds(prep)
    if isinstance(jf, str):
        return NotApplicable(method, jf)
    return jf


def short(formulas: Sequence[z3.BoolRef], limit: int = 4, width: int = 80) -> str:
    """A readable rendering of an invariant for explanations (simplified, each atom truncated)."""
    parts = []
    for f in formulas[:limit]:
        text = " ".join(str(z3.simplify(f)).split())
        parts.append(text if len(text) <= width else text[: width - 3] + "...")
    more = f" and {len(formulas) - limit} more" if len(formulas) > limit else ""
    return " and ".join(parts) + more
