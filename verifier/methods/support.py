"""Support: programs whose result is a *set*, compared through the sets of values they hold.

Why: ``distinct`` collapses multiplicities, so program terms (which count how often each input tuple
contributes) cannot compare it, and every other method gives up on it. But when a program's output is
a set -- ``distinct(e)``, then filters and injective maps -- its bag is determined by its *support*,
the set of values ``e`` produces, and supports are simpler than bags: a value is in ``supp(e)`` iff
some input tuple produces it. The common laws follow: ``distinct`` commutes with ``filter`` and with
injective ``map``; ``distinct(distinct(R) ++ distinct(S)) = distinct(R ++ S)``; and the number of
elements of a set is the number of values of its support, so ``distinct().count()`` equals the number of
keys a by-key aggregation produces (``map(x -> (x, 1)).reduceByKey(add).count()``).

Applicable shapes, per program (after desugaring; bag lets are inlined):

- a bag result ``post(distinct(e))`` where ``post`` is a chain of ``filter`` and ``map``, every map
  injective (checked by Z3 for all values), so the output is a set with the image of ``supp(e)``;
- a value result ``count(X)`` where ``X`` is such a set, or ``X = maps(byKey(e))``: one output element
  per key, so the count is the size of ``supp(keys of e)``.

Both programs must be of the same kind (sets, or counts of sets). The sets are compared by inclusion
both ways, a sufficient condition without quantifiers: every alternative ``a`` of one side (see
``encoder.terms``) must be covered, for every input tuple ``x``, by an alternative ``b`` of the other
with the same RepVarSet on the *same* tuple: ``present_a(x) -> OR_b (present_b(x) and value_a(x) =
value_b(x))``. If that holds both ways the supports are equal (every value of one is produced, by the
same input tuple, in the other). A failed inclusion is only a candidate input (the tuple ``x`` as
singleton bags) for the interpreter to check.

Errors: the method applies only when no division can see a zero divisor and no action may raise
(``_shared.prepare``'s gate, on the programs' inner parts); then neither program raises.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import z3

from encoder.basic import BasicEncoder, EncodingError, Sym, fresh_like, sym_eq
from encoder.terms import Alts, BagResult, BagTerm, ProgramEncoding, UnsupportedShape, encode_program
from sparklite import ast as A
from sparklite.desugar import desugar
from verifier.methods._shared import Unknown, candidate_from, counter_model, find_model, singleton_bags
from verifier.methods.base import (
    Candidate,
    Inconclusive,
    MethodOutcome,
    NotApplicable,
    Options,
    Pair,
    Proved,
)

NAME = "Support"


@dataclass(frozen=True)
class SetShape:
    """``post(distinct(inner))`` (``keys`` False) or the keys of ``byKey(inner)`` (``keys`` True);
    ``post`` holds the maps and filters above, innermost first."""

    inner: A.Expr
    post: tuple[A.Map | A.Filter, ...]
    keys: bool
    counted: bool  # the program's result is count(...) of the set
    by_key: A.Expr | None = None  # the counted by-key output, maps included (its functions all run)


def run(pair: Pair, options: Options) -> MethodOutcome:
    programs = [desugar(p) for p in (pair.left, pair.right)]
    shapes = [_shape(p) for p in programs]
    for s in shapes:
        if isinstance(s, str):
            return NotApplicable(NAME, s)
    s1, s2 = shapes  # type: ignore[misc]
    from verifier.methods.bounded import classic

    if not classic(pair):
        # Spark dedupes by hash and ==: NaN never equals itself, 0.0 is -0.0; supports compare by the
        # observational equality, so sets of floats (or strings, kept apart for simplicity) are left out
        return NotApplicable(NAME, "sets of values other than Int and Bool")
    if s1.counted != s2.counted:  # type: ignore[union-attr]
        return NotApplicable(NAME, "one program counts a set and the other does not")
    try:
        sides = [_encode(p, s, side) for p, s, side in zip(programs, shapes, "LR", strict=True)]
    except (UnsupportedShape, EncodingError) as exc:
        return NotApplicable(NAME, f"cannot encode the set's elements: {exc}")
    for side in sides:
        if isinstance(side, str):
            return NotApplicable(NAME, side)
    left, right = sides  # type: ignore[misc]
    try:
        hazard = z3.Or(*left.hazards, *right.hazards) if left.hazards or right.hazards else None
        if hazard is not None and find_model(hazard, options.timeout_s) is not None:
            return NotApplicable(NAME, "division by zero possible")
        for side in (left, right):
            if not side.injective(options.timeout_s):
                return NotApplicable(NAME, "a map after distinct is not injective (the output may hold "
                                           "a value several times)")
        for a, b, which in ((left, right, "LEFT"), (right, left, "RIGHT")):
            missing = _not_covered(a, b, options.timeout_s)
            if missing is not None:
                alt, model = missing
                other = "RIGHT" if which == "LEFT" else "LEFT"
                cand = _candidate(model, left, alt)
                return Inconclusive(NAME, f"a value of {which}'s set was not shown to be in {other}'s",
                                    (cand,))
    except Unknown as exc:
        return Inconclusive(NAME, f"Z3 could not decide a condition: {exc}")
    what = "the numbers of distinct values agree" if s1.counted else "the programs hold the same set"
    return Proved(NAME, f"{what}: every value one program produces, the other produces from the same "
                        "input elements")


# ---------------------------------------------------------------------------------------------------
# Shapes
# ---------------------------------------------------------------------------------------------------


def _resolve(e: A.Expr, lets: dict[str, A.Expr]) -> A.Expr:
    while isinstance(e, A.Var) and e.name in lets:
        e = lets[e.name]
    return e


def _shape(program: A.Program) -> SetShape | str:
    lets = {b.name: b.value for b in program.lets}
    scalar_lets = [b for b in program.lets if not isinstance(b.value, A.BAG_OPS + (A.Var,))]
    if scalar_lets:
        return "driver values next to the set (lets that are not RDDs)"
    body, counted = _resolve(program.body, lets), False
    if isinstance(body, A.SimpleAgg) and body.kind == "count":
        body, counted = _resolve(body.source, lets), True
    whole = body  # what count() forces: every map after a by-key aggregation runs (and may raise)
    post: list[A.Map | A.Filter] = []
    while isinstance(body, A.Map | A.Filter):
        post.append(body)
        body = _resolve(body.source, lets)
    post.reverse()
    if isinstance(body, A.Distinct):
        return SetShape(_support_of(body.source, lets), tuple(post), keys=False, counted=counted)
    if counted and isinstance(body, A.CombineByKey | A.GroupByKeyAgg) \
            and all(isinstance(p, A.Map) for p in post):
        # maps do not change the count; one output element per key
        return SetShape(_support_of(body.source, lets), (), keys=True, counted=True, by_key=whole)
    return "the result is not a set (distinct, then filters and maps) nor the count of one"


_SUPPORT_COMPOSITIONAL = (A.Map, A.Filter, A.FlatMap, A.Union, A.Cartesian, A.Join)


def _support_of(e: A.Expr, lets: dict[str, A.Expr]) -> A.Expr:
    """An expression with the same support as ``e``: bag lets inlined and inner ``distinct``s dropped
    where only support-compositional operators lie above them (the support of a map, filter, flatMap,
    union, cartesian product or join is determined by its inputs' supports; that of a by-key
    aggregation's values is not, so the walk stops there)."""
    e = _resolve(e, lets)
    if isinstance(e, A.Distinct):
        return _support_of(e.source, lets)
    if isinstance(e, _SUPPORT_COMPOSITIONAL):
        changes = {f.name: _support_of(getattr(e, f.name), lets)
                   for f in dataclasses.fields(e) if f.name in ("source", "left", "right")}
        return dataclasses.replace(e, **changes)
    return e


# ---------------------------------------------------------------------------------------------------
# Encoding
# ---------------------------------------------------------------------------------------------------


@dataclass
class _Side:
    """One program's set: alternatives whose (value, present) are the set's elements."""

    enc: ProgramEncoding  # of the set's inner bag: parameters and scalar variables
    alts: Alts
    hazards: list[z3.BoolRef]
    maps: list[tuple[BasicEncoder, A.Fn, Sym, dict[str, Sym]]]  # post maps, sample argument, scope

    def injective(self, timeout_s: float) -> bool:
        """Every post map is injective on all values (so the output holds each value once)."""
        for enc, fn, sample, env in self.maps:
            a, b = fresh_like("inj.a", sample), fresh_like("inj.b", sample)
            fa, fb = enc.apply(fn, [a], env), enc.apply(fn, [b], env)
            if counter_model(z3.Implies(sym_eq(fa, fb), sym_eq(a, b)), timeout_s) is not None:
                return False
        return True


def _encode(program: A.Program, shape: SetShape, side: str) -> _Side | str:
    inner = dataclasses.replace(program, body=shape.inner)
    enc = encode_program(inner, side)
    if enc.aggregates or enc.keyed or not isinstance(enc.result, BagResult):
        return "the set's elements depend on an aggregation"
    if not z3.is_false(enc.no_partition_error):
        return "a countByValue()/top() raises on an input with no partition"
    basic = BasicEncoder.for_program(inner)
    env = dict(enc.scalars)
    hazards = list(enc.hazards)
    if shape.by_key is not None:  # its functions run (and may divide by zero) though only keys count
        hazards += encode_program(dataclasses.replace(program, body=shape.by_key), side).hazards
    maps: list[tuple[BasicEncoder, A.Fn, Sym, dict[str, Sym]]] = []
    alts: list[BagTerm] = []
    for t in enc.result.alts:
        value, present = t.value, t.present
        if shape.keys:
            if not (isinstance(value, tuple) and len(value) == 2):
                return "a by-key aggregation of elements that are not pairs"
            value = value[0]
        for step in shape.post:
            start = len(basic.div_hazards)
            if isinstance(step, A.Map):
                maps.append((basic, step.fn, value, env))
                value = basic.apply(step.fn, [value], env, present)
            else:
                keep = basic.apply(step.fn, [value], env, present)
                present = z3.And(present, keep)
            hazards += basic.div_hazards[start:]
        alts.append(BagTerm(value, present, t.occurrences, t.elem_types, t.keyed))
    return _Side(enc, tuple(alts), hazards, maps)


# ---------------------------------------------------------------------------------------------------
# Inclusion
# ---------------------------------------------------------------------------------------------------


def _not_covered(a: _Side, b: _Side, timeout_s: float) -> tuple[BagTerm, z3.ModelRef] | None:
    """An alternative of ``a`` and a model where its value is produced by no alternative of ``b`` on
    the same input tuple; None when every alternative is covered."""
    for alt in a.alts:
        x = alt.canonical("x")
        covers = [z3.And(y.present, sym_eq(x.value, y.value))
                  for y in (t.canonical("x") for t in b.alts) if y.rep_var_set() == x.rep_var_set()]
        claim = z3.Implies(x.present, z3.Or(*covers)) if covers else z3.Not(x.present)
        model = counter_model(claim, timeout_s)
        if model is not None:
            return x, model
    return None


def _candidate(model: z3.ModelRef, side: _Side, alt: BagTerm) -> Candidate:
    """Singleton input bags holding the uncovered tuple, scalars from the model (the interpreter
    decides whether the programs really differ there)."""
    bags = singleton_bags("x", alt.rep_var_set(), dict(alt.elem_types))
    return candidate_from(model, side.enc, bags, f"{NAME}: a value one set holds and the other may not")


__all__ = ["NAME", "run"]
