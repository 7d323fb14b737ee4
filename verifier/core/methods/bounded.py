"""Bounded disproof: look for a concrete counterexample among small inputs (verification-conditions §7).

Where no proof method settles a pair, both programs are unrolled symbolically (``encoder.bounded``) over
input bags of 0..``bound`` elements, under one partition and -- when some aggregation is not proved
partition-independent -- a few split layouts too, and Z3 is asked for inputs on which the outcomes
(values compared as multisets, or errors) differ. A model is only a candidate: it is re-run on both
original programs with the reference interpreter at once, and a spurious model is blocked and the search
goes on. Constructs the encoder cannot handle fall back to enumerating small concrete inputs (the
programs' constants and their neighbours, small integers) through the interpreter, so every answer is a
real counterexample either way. This method never proves anything: no difference means ``Inconclusive``.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator, Sequence
from typing import Any

import z3

from encoder.basic import EncodingError
from encoder.bounded import (
    Evaluator,
    outcomes_equal,
    partitions_from,
    size_vectors,
    split_layouts,
    symbolic_inputs,
)
from sparklite import ast as A
from sparklite.deadline import Deadline, OutOfTime
from sparklite.types import BagType, BoolType, IntType, TupleType, Type
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
from verifier.core.validate import ValidationStats, validate

NAME = "bounded"
MODELS_PER_QUERY = 4  # spurious models blocked before moving on to the next size
ENUMERATION_LIMIT = 4000  # concrete candidates tried by the fallback
ENUMERATION_STEPS = 1000  # of them, tried after Z3 gave up on some sizes (counted, not timed: issue 24)
QUERY_TIMEOUT_S = 4.0  # one size/layout query's patience at most: Z3 rarely succeeds later
# A symbolic query gets at most this share of the per-query patience: on inputs this small Z3 decides
# quickly or not at all, and an undecided query leaves the rest of the step to the enumeration.
QUERY_SHARE = 0.5
# Give up the symbolic search after this many undecided queries: the sizes are tried smallest first,
# and where Z3 cannot decide the smallest (nonlinear arithmetic, typically) a larger one of the same
# programs is no easier -- a second try only doubled the time to ``unknown``. The concrete enumeration
# then takes over.
MAX_UNDECIDED = 1


def _deadline(options: Options, deadline: float | None) -> float:
    """The wall-clock hard cap (the check's deadline); none when not given. Every step of the search
    is counted (sizes, models per query, candidates) and every query has a resource budget, so the
    outcome does not depend on the machine's speed unless the cap cuts it short."""
    return deadline if deadline is not None else float("inf")


def layout_choices(bags: Sequence[str], sizes: Sequence[int], split: bool,
                   max_parts: int) -> list[dict[str, tuple[int, ...]]]:
    """One partition per bag, and (``split``) each alternative layout applied to every bag at once."""
    per_bag = [split_layouts(n, max_parts) if split else [(n,)] for n in sizes]
    width = max((len(p) for p in per_bag), default=1)
    choices = []
    for i in range(width):
        choice = {b: opts[min(i, len(opts) - 1)] for b, opts in zip(bags, per_bag, strict=True)}
        if choice not in choices:
            choices.append(choice)
    return choices


def run(pair: Pair, options: Options, *, deadline: float | None = None,
        stats: ValidationStats | None = None) -> MethodOutcome:
    """Search symbolic inputs of growing size; fall back to concrete enumeration where the encoder
    cannot go (or Z3 gives up, e.g. on nonlinear arithmetic). Returns ``Refuted`` with one
    interpreter-confirmed candidate, else ``Inconclusive``."""
    end = _deadline(options, deadline)
    stats = stats if stats is not None else ValidationStats()
    if not classic(pair):
        # strings, floats, lists: the unrolling and the enumeration are over Int/Bool values; random
        # testing (verifier.core.difftest) searches these programs with values of their own types
        return NotApplicable(NAME, "bounded search covers Int and Bool inputs; programs over strings or "
                                   "floats are searched by random testing")
    try:
        outcome = _symbolic(pair, options, end, stats)
    except OutOfTime:  # the unrolling or the comparison of two big symbolic bags outlasted the step
        return Inconclusive(NAME, _summary(options, (), timed_out=True))
    except (EncodingError, z3.Z3Exception, RecursionError) as exc:
        note = f"the symbolic encoding failed ({exc}); enumerated small concrete inputs instead"
        return _enumerate(pair, options, end, stats, note)
    if isinstance(outcome, Inconclusive) and "could not decide" in outcome.reason and time.monotonic() < end:
        return _enumerate(pair, options, end, stats, outcome.reason + "; then enumerated small concrete "
                          "inputs", limit=ENUMERATION_STEPS)
    return outcome


def classic(pair: Pair) -> bool:
    """Every input and every value the programs build is Int, Bool or a tuple of them."""
    from sparklite.types import is_classic

    for program in (pair.left, pair.right):
        for p in program.params:
            t = p.type.elem if isinstance(p.type, BagType) else p.type
            if t is None or not is_classic(t):
                return False
        for n in A.walk(program):
            if isinstance(n, (A.StrLit, A.FloatLit, A.NoneLit, A.ListExpr, A.ListComp, A.OuterJoin,
                              A.SortBy, A.Subtract, A.Intersection, *A.COLLECTING_ACTIONS)):
                return False
            if isinstance(n, A.BinOp) and n.op in ("/", "in"):
                return False
            if isinstance(n, A.Call) and n.func not in ("min", "max", "abs") and n.func not in {
                    d.name for d in program.defs}:
                return False
    return True


def _symbolic(pair: Pair, options: Options, end: float, stats: ValidationStats) -> MethodOutcome:
    left, right = pair.left, pair.right
    bags = [p.name for p in left.params if isinstance(p.type, BagType)]
    unknowns: list[str] = []
    split = not pair.sequential_ok
    for sizes in size_vectors(len(bags), options.bound):
        for layout in layout_choices(bags, sizes, split, options.max_partitions):
            if time.monotonic() >= end:
                return Inconclusive(NAME, _summary(options, unknowns, timed_out=True))
            sym = symbolic_inputs(left, dict(zip(bags, sizes, strict=True)))
            step = Deadline(end)  # never later than the check's deadline (decide passes the earlier)
            enc_l = Evaluator(left, deadline=step).run(sym.laid_out(layout))
            enc_r = Evaluator(right, deadline=step).run(sym.laid_out(layout))
            solver = budget.solver(min(options.timeout_s * QUERY_SHARE, QUERY_TIMEOUT_S))
            solver.add(z3.Not(outcomes_equal(enc_l, enc_r, step)))
            for _ in range(MODELS_PER_QUERY):
                answer = budget.check(solver)
                if answer == z3.unknown:
                    unknowns.append(f"sizes {dict(zip(bags, sizes, strict=True))}: "
                                    f"{solver.reason_unknown()}")
                    if len(unknowns) >= MAX_UNDECIDED:
                        return Inconclusive(NAME, _summary(options, unknowns, timed_out=False, gave_up=True))
                    break
                if answer == z3.unsat:
                    break
                model = solver.model()
                values = sym.read(model)
                cand = Candidate(values, partitions_from(values, layout) if split else None,
                                 origin=f"bounded model, sizes {dict(zip(bags, sizes, strict=True))}")
                confirmed = validate(left, right, [cand], all_partitions=split,
                                     max_parts=options.max_partitions, stats=stats)
                if confirmed is not None:
                    return Refuted(NAME, _found(sizes, bags, split),
                                   (Candidate(confirmed.inputs, confirmed.partitions, cand.origin),))
                solver.add(_block(sym, model))
    return Inconclusive(NAME, _summary(options, unknowns, timed_out=False))


def _block(sym: Any, model: z3.ModelRef) -> z3.BoolRef:
    """Exclude this model's input values from further answers."""
    from encoder.basic import leaves

    terms = [leaf for v in sym.scalars.values() for leaf in leaves(v)]
    terms += [leaf for elems in sym.elems.values() for v in elems for leaf in leaves(v)]
    if not terms:
        return z3.BoolVal(False)
    return z3.Or(*[t != model.eval(t, model_completion=True) for t in terms])


def _found(sizes: Sequence[int], bags: Sequence[str], split: bool) -> str:
    shape = ", ".join(f"{b}: {n} element(s)" for b, n in zip(bags, sizes, strict=True)) or "no bags"
    extra = ", trying several partitionings" if split else ""
    return (f"bounded search over symbolic inputs ({shape}{extra}) found inputs on which the "
            "programs' outcomes differ; the reference interpreter confirmed them")


def _summary(options: Options, unknowns: Sequence[str], timed_out: bool, gave_up: bool = False) -> str:
    text = f"no difference on input bags of up to {options.bound} element(s)"
    if gave_up:
        text = "no difference on the input sizes Z3 could decide"
    if timed_out:
        text = "the bounded search ran out of time; " + text + " searched so far"
    if unknowns:
        text += f"; Z3 could not decide {len(unknowns)} case(s) ({unknowns[0]})"
    return text


# ---------------------------------------------------------------------------------------------------
# Concrete enumeration (fallback)
# ---------------------------------------------------------------------------------------------------


def constant_pool(programs: Sequence[A.Program], limit: int = 7) -> list[int]:
    """Small integers worth trying: the programs' constants and their neighbours, then 0, 1, -1, 2."""
    pool = {0, 1, -1, 2}
    for program in programs:
        for node in A.walk(program):
            if isinstance(node, A.IntLit) and not isinstance(node.value, bool):
                pool.update({node.value - 1, node.value, node.value + 1})
    ordered = sorted(pool, key=lambda v: (abs(v), v))
    return ordered[:limit]


def values_of(t: Type, pool: Sequence[int], cap: int = 12) -> list[Any]:
    if isinstance(t, IntType):
        return list(pool)
    if isinstance(t, BoolType):
        return [False, True]
    if isinstance(t, TupleType):
        parts = [values_of(e, pool[:3] if len(t.elems) > 1 else pool, cap) for e in t.elems]
        return list(itertools.islice(itertools.product(*parts), cap))
    return []


def enumerate_candidates(pair: Pair, options: Options) -> Iterator[Candidate]:
    """Small concrete inputs, smallest first: every bag a multiset of pool values of size 0..bound."""
    pool = constant_pool([pair.left, pair.right])
    params = pair.left.params
    per_param: list[list[Any]] = []
    for p in params:
        if isinstance(p.type, BagType):
            elems = values_of(p.type.elem, pool)
            bags: list[list[Any]] = []
            for n in range(options.bound + 1):
                bags.extend(list(c) for c in itertools.islice(
                    itertools.combinations_with_replacement(elems, n), 300))
            per_param.append(bags)
        else:
            per_param.append(values_of(p.type, pool) if p.type is not None else [0])
    combos = itertools.product(*per_param)
    ordered = sorted(itertools.islice(combos, ENUMERATION_LIMIT * 4), key=_input_size)
    for combo in ordered[:ENUMERATION_LIMIT]:
        yield Candidate({p.name: v for p, v in zip(params, combo, strict=True)}, None, origin="enumeration")


def _input_size(combo: Sequence[Any]) -> int:
    return sum(len(v) for v in combo if isinstance(v, list))


def _enumerate(pair: Pair, options: Options, end: float, stats: ValidationStats, note: str,
               limit: int = ENUMERATION_LIMIT) -> MethodOutcome:
    confirmed = validate(pair.left, pair.right, itertools.islice(enumerate_candidates(pair, options), limit),
                         all_partitions=not pair.sequential_ok, max_parts=options.max_partitions,
                         stats=stats, deadline=end)
    if confirmed is not None:
        return Refuted(NAME, f"{note}: the reference interpreter found a difference",
                       (Candidate(confirmed.inputs, confirmed.partitions, "enumeration"),))
    return Inconclusive(NAME, f"{note}; none of them showed a difference")


def run_enumeration(pair: Pair, options: Options, *, deadline: float | None = None,
                    stats: ValidationStats | None = None) -> MethodOutcome:
    """Only the concrete enumeration (what ``run`` falls back to when the encoder cannot go)."""
    end = _deadline(options, deadline)
    return _enumerate(pair, options, end, stats if stats is not None else ValidationStats(),
                      "enumerated small concrete inputs")
