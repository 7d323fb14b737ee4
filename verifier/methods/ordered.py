"""Ordered results: ``sortBy(k).collect()``, ``sortBy(k).take(n)``, ``takeOrdered(n, key)``, ``top(n, key)``.

An ordered result is observed as the exact sequence Spark returns. PySpark fixes the order of equal
sort keys: all four forms are a prefix of a *stable* sort of the elements in their input order
(partition order; ``sortBy``'s range partitions each sort their elements stably in arrival order,
``takeOrdered``/``top`` are ``heapq.nsmallest``/``nlargest`` per partition merged in partition order,
which equal ``sorted(...)[:n]``), so ties come out in input order (``docs/semantics-notes.md``). Two
such results are equal on every input when

1. the bags being ordered are equal (proved by the other methods on the pair of bags, same lets);
2. the two programs order any two elements alike: for all values ``x``, ``y`` of the element type,
   ``x`` sorts before ``y`` in one program exactly when it does in the other (``key1(x) < key1(y)``
   for an ascending sort, ``key1(y) < key1(x)`` for a descending one or ``top``) -- then ties coincide
   too;
3. the order of ties cannot differ: either ties hold only between equal elements (for all ``x``, ``y``,
   neither sorting before the other implies ``x`` and ``y`` are the same observation: the key is
   injective, so the input order of ties is invisible), or the two bags are the same expression over
   the same definitions and lets (so the same input sequence, tie order included), or nothing is kept;
4. both keep the same number of elements: both the whole bag, or the same literal ``n >= 0``.

Two equal bags in different input orders (``r.union(s)`` against ``s.union(r)``) with a key that ties
distinct elements give different sequences on Spark: condition 3 refuses them. Keys holding floats are
not accepted (NaN breaks the strict weak order, and then the result depends on the input order and on
the algorithm), nor keys that may raise. The answer is a proof or not applicable: counterexamples are
the other searches' job.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import z3

from encoder.basic import BasicEncoder, EncodingError, Sym, fresh, is_float, is_str, leaves, sym_eq, sym_lt
from sparklite import ast as A
from sparklite import effects, no_partitions
from sparklite.typecheck import type_of
from sparklite.types import BagType
from verifier.methods._shared import Unknown, counter_model
from verifier.methods.base import Inconclusive, MethodOutcome, NotApplicable, Options, Pair, Proved

NAME = "Ordered"


@dataclass(frozen=True)
class _Shape:
    bag: A.Expr
    key: A.Fn | None  # None: the element itself
    ascending: bool
    count: int | None  # None: the whole bag
    top: bool = False  # top(n): raises ValueError when the bag has no partition (an empty text file)


def run(pair: Pair, options: Options) -> MethodOutcome:
    shapes = [_shape(p) for p in (pair.left, pair.right)]
    if any(s is None for s in shapes):
        return NotApplicable(NAME, "the results are not both ordered (sortBy, takeOrdered, top)")
    s1, s2 = shapes
    assert s1 is not None and s2 is not None
    if s1.count != s2.count:
        return NotApplicable(NAME, "the two results keep different numbers of elements")
    if s1.count == 0 and any(_may_raise(p, s.bag) for p, s in ((pair.left, s1), (pair.right, s2))):
        # keeping nothing, takeOrdered(0)/top(0) read no element while take(0) of a sortBy runs its
        # sampling job: which raises then depends on the form and the partition count
        return NotApplicable(NAME, "nothing is kept from a bag that may raise")
    if not _raise_alike_without_partitions(pair, s1, s2):
        return NotApplicable(NAME, "top() raises on an input with no partition (an empty text file) where "
                                   "the other program does not")
    try:
        same_order = _same_order(pair, s1, s2, options)
    except (EncodingError, Unknown) as exc:
        return Inconclusive(NAME, f"could not compare the orders: {exc}")
    if same_order is not None:
        return NotApplicable(NAME, same_order)
    ties = "same input sequence"
    if s1.count != 0 and not _same_sequence(pair, s1, s2):
        ties = "only equal elements tie"
        try:
            ties = _ties_only_equal(pair, s1, options)
        except (EncodingError, Unknown) as exc:
            return Inconclusive(NAME, f"could not compare the order of ties: {exc}")
        if ties is not None:
            return NotApplicable(NAME, ties)
    from verifier.methods import PROOF_METHODS

    bags = Pair(_with_body(pair.left, s1.bag), _with_body(pair.right, s2.bag), pair.sequential_ok)
    for method in PROOF_METHODS:
        if method.NAME == NAME:
            continue
        outcome = method.run(bags, options)
        if isinstance(outcome, Proved):
            kept = "all elements" if s1.count is None else f"the first {s1.count}"
            return Proved(NAME, f"both order the same bag ({outcome.method}: {outcome.explanation}) the same "
                                f"way ({ties}) and keep {kept}")
    return NotApplicable(NAME, "the bags being ordered were not proved equal")


def _shape(program: A.Program) -> _Shape | None:
    body = program.body
    if isinstance(body, A.Var) and program.lets and program.lets[-1].name == body.name:
        body = program.lets[-1].value
    if isinstance(body, A.Collect):
        body = body.source
    if isinstance(body, A.SortBy):
        return _Shape(body.source, body.key, body.ascending, None)
    if isinstance(body, A.Take) and isinstance(body.source, A.SortBy):
        n = _literal(body.count)
        return None if n is None else _Shape(body.source.source, body.source.key, body.source.ascending, n)
    if isinstance(body, A.TakeOrdered):
        n = _literal(body.count)
        return None if n is None else _Shape(body.source, body.key, not body.top, n, body.top)
    return None


def _raise_alike_without_partitions(pair: Pair, s1: _Shape, s2: _Shape) -> bool:
    """``top(n)`` is ``reduce`` over one list per partition: it raises ``ValueError`` when its bag has no
    partition, where ``takeOrdered`` and ``take`` give ``[]`` (``sparklite.no_partitions``). The bags
    are proved equal below, so the results agree only if, for every set of inputs (by position) with no
    partition, both programs raise there or neither does."""
    if not (s1.top or s2.top):
        return True
    worlds = no_partitions.paired_worlds(pair.left, pair.right)
    if worlds is None:
        return False
    for zl, zr in worlds:
        raises = []
        for prog, shape, empty in ((pair.left, s1, zl), (pair.right, s2, zr)):
            got = no_partitions.no_partitions(shape.bag, empty, effects.bag_lets(prog)) if shape.top \
                else False
            if got is None:
                return False
            raises.append(got)
        if raises[0] != raises[1]:
            return False
    return True


def _may_raise(program: A.Program, bag: A.Expr) -> bool:
    return effects.may_raise(bag, {d.name: d for d in program.defs}, effects.bag_lets(program))


def _literal(e: A.Expr) -> int | None:
    return e.value if isinstance(e, A.IntLit) and e.value >= 0 else None


def _with_body(program: A.Program, bag: A.Expr) -> A.Program:
    lets = program.lets
    if isinstance(program.body, A.Var) and lets and lets[-1].name == program.body.name:
        lets = lets[:-1]  # the last let was the ordered result itself
    return dataclasses.replace(program, lets=lets, body=bag)


def _same_order(pair: Pair, s1: _Shape, s2: _Shape, options: Options) -> str | None:
    """None when the two orders provably agree on every two elements; else why not."""
    env_types = {p.name: p.type for p in pair.left.params if p.type is not None}
    elem_t = type_of(s1.bag, env_types)
    if not isinstance(elem_t, BagType):
        return "not a bag"
    scalars = {p.name: fresh(f"v:{p.name}", p.type) for p in pair.left.params
               if p.type is not None and not isinstance(p.type, BagType)}
    x, y = fresh("ord.x", elem_t.elem), fresh("ord.y", elem_t.elem)
    lts = []
    for program, shape in ((pair.left, s1), (pair.right, s2)):
        if program.lets and _reads_lets(shape, program):
            return "a sort key reads a value computed on the driver"
        enc = BasicEncoder.for_program(program)
        kx = _key(enc, shape, x, scalars)
        ky = _key(enc, shape, y, scalars)
        if any(is_float(leaf) for leaf in leaves(kx)):
            return "a sort key holds floats (NaN is not ordered)"
        if enc.div_hazards:
            return "a sort key may raise"
        lts.append(sym_lt(kx, ky) if shape.ascending else sym_lt(ky, kx))
    if counter_model(lts[0] == lts[1], options.timeout_s) is not None:
        return "the two programs order some elements differently"
    return None


def _same_sequence(pair: Pair, s1: _Shape, s2: _Shape) -> bool:
    """The two bags are one expression over the same parameters, definitions and lets (RIGHT's
    parameters already carry LEFT's names): Spark computes the same input sequence for both."""
    left = dataclasses.replace(_with_body(pair.left, s1.bag), name="")
    right = dataclasses.replace(_with_body(pair.right, s2.bag), name="")
    return left == right


def _ties_only_equal(pair: Pair, s1: _Shape, options: Options) -> str | None:
    """None when LEFT's order (the same as RIGHT's, ``_same_order``) ties only observationally equal
    elements, so the input order of ties cannot show; else why not."""
    env_types = {p.name: p.type for p in pair.left.params if p.type is not None}
    elem_t = type_of(s1.bag, env_types)
    assert isinstance(elem_t, BagType)
    scalars = {p.name: fresh(f"v:{p.name}", p.type) for p in pair.left.params
               if p.type is not None and not isinstance(p.type, BagType)}
    x, y = fresh("tie.x", elem_t.elem), fresh("tie.y", elem_t.elem)
    enc = BasicEncoder.for_program(pair.left)
    kx, ky = _key(enc, s1, x, scalars), _key(enc, s1, y, scalars)
    tie = z3.And(z3.Not(sym_lt(kx, ky)), z3.Not(sym_lt(ky, kx)))
    # strings are ordered by an uninterpreted relation (``sym_lt``); Python's order on them is total
    total = [z3.Or(a == b, sym_lt(a, b), sym_lt(b, a))
             for a, b in zip(leaves(kx), leaves(ky), strict=True) if is_str(a)]
    if counter_model(sym_eq(x, y), options.timeout_s, assume=z3.And(tie, *total)) is not None:
        return ("the sort key ties distinct elements, which Spark returns in their input order, and the "
                "two bags were not shown to be the same sequence")
    return None


def _key(enc: BasicEncoder, shape: _Shape, v: Sym, scalars: dict[str, Sym]) -> Sym:
    return v if shape.key is None else enc.apply(shape.key, [v], scalars)


def _reads_lets(shape: _Shape, program: A.Program) -> bool:
    names = {b.name for b in program.lets}
    return shape.key is not None and any(isinstance(n, A.Var) and n.name in names for n in A.walk(shape.key))

