"""Ordered results: ``sortBy(k).collect()``, ``sortBy(k).take(n)``, ``takeOrdered(n, key)``, ``top(n, key)``.

An ordered result is observed as a sequence modulo ties (``sparklite.values.Sorted``): the groups of
elements with equal sort keys, in order, each a multiset, and for a cut result the group it was cut in.
Two such results are equal on every input when

1. the bags being ordered are equal (proved by the other methods on the pair of bags, same lets);
2. the two programs order any two elements alike: for all values ``x``, ``y`` of the element type,
   ``x`` sorts before ``y`` in one program exactly when it does in the other (``key1(x) < key1(y)``
   for an ascending sort, ``key1(y) < key1(x)`` for a descending one or ``top``) -- then ties coincide
   too, and so do the groups;
3. both keep the same number of elements: both the whole bag, or the same literal ``n >= 0``.

Conditions 1-3 give equal observations whatever order Spark delivers the elements in, because Python's
sort with a strict weak order sorts a multiset to one sequence modulo ties. Keys holding floats are not
accepted (NaN breaks the strict weak order, and then the result depends on the input order), nor keys
that may raise. The answer is a proof or not applicable: counterexamples are the other searches' job.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from encoder.basic import BasicEncoder, EncodingError, Sym, fresh, is_float, leaves, sym_lt
from sparklite import ast as A
from sparklite import effects
from sparklite.typecheck import type_of
from sparklite.types import BagType
from verifier.core.base import Inconclusive, MethodOutcome, NotApplicable, Options, Pair, Proved
from verifier.core.methods._shared import Unknown, counter_model

NAME = "Ordered"


@dataclass(frozen=True)
class _Shape:
    bag: A.Expr
    key: A.Fn | None  # None: the element itself
    ascending: bool
    count: int | None  # None: the whole bag


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
    try:
        same_order = _same_order(pair, s1, s2, options)
    except (EncodingError, Unknown) as exc:
        return Inconclusive(NAME, f"could not compare the orders: {exc}")
    if same_order is not None:
        return NotApplicable(NAME, same_order)
    from verifier.core.methods.bag_methods import BAG_METHODS

    bags = Pair(_with_body(pair.left, s1.bag), _with_body(pair.right, s2.bag), pair.sequential_ok)
    for method in BAG_METHODS:
        outcome = method.run(bags, options)
        if isinstance(outcome, Proved):
            kept = "all elements" if s1.count is None else f"the first {s1.count}"
            return Proved(NAME, f"both order the same bag ({outcome.method}: {outcome.explanation}) the same "
                                f"way and keep {kept}")
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
        return None if n is None else _Shape(body.source, body.key, not body.top, n)
    return None


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


def _key(enc: BasicEncoder, shape: _Shape, v: Sym, scalars: dict[str, Sym]) -> Sym:
    return v if shape.key is None else enc.apply(shape.key, [v], scalars)


def _reads_lets(shape: _Shape, program: A.Program) -> bool:
    names = {b.name for b in program.lets}
    return shape.key is not None and any(isinstance(n, A.Var) and n.name in names for n in A.walk(shape.key))

