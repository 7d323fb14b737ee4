"""Aggregate terms: the sequential fold behind every SparkLite aggregation, as Z3-buildable pieces.

The paper's aggregate term ``[phi(mu)]_{i,f}`` is not first-order, so it is never built. Instead every
aggregation is reduced to a ``FoldShape`` (start value, step function, and how the first element of a
non-empty bag starts the accumulator) and the program's own use of the result is encoded over a *placeholder*
accumulator variable. The verification methods then relate the placeholders of the two programs by
induction (Lemma 1, Theorem 3, the by-key reduction).

Why one accumulator model for everything: ``fold``/``aggregate``/``count``/``sum`` start at a value and
never fail; ``reduce``/``min``/``max`` (and per-key ``reduceByKey``/``combineByKey``) start at their first
element and raise ``ValueError`` on an empty bag. Modelling the latter as an *optional* accumulator
``(has, value)`` lets an empty bag become an error outcome, and makes "both raise" an ordinary case of
outcome equality.

The shapes describe the *sequential* fold; they equal Spark's partitioned computation only when the
aggregation is partition-independent (``Pair.sequential_ok``), which is checked elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import z3

from encoder.basic import (
    BasicEncoder,
    EncodingError,
    Sym,
    as_number,
    fresh_like,
    is_float,
    sym_ite,
    sym_max,
    sym_min,
)
from sparklite import ast as A

if TYPE_CHECKING:  # pragma: no cover - typing only
    from encoder.terms import BagTerm

AccKind = Literal["fold", "reduce"]
Step = Callable[..., Sym]  # step(acc, elem, path=None) -> acc
First = Callable[..., Sym]  # first(elem, path=None) -> acc


@dataclass(frozen=True)
class FoldShape:
    """How one aggregation folds its bag sequentially.

    ``kind == "fold"``: the accumulator starts at ``init``; each present element ``e`` gives
    ``step(acc, e)``. ``kind == "reduce"``: the first present element gives ``first(e)``, later ones
    ``step(acc, e)``; an empty bag raises ``ValueError``. ``first`` is also defined for folds
    (``step(init, e)``), which is how Spark starts every key of ``foldByKey``/``aggregateByKey``.
    """

    kind: AccKind
    init: Sym | None
    step: Step
    first: First
    value_shape: Sym  # a sample of the accumulated value's shape (for fresh placeholders)


@dataclass(frozen=True)
class AggTerm:
    """One aggregation of a program: its fold, the bag it folds, and the placeholder accumulator that
    stands for its (unknown) final accumulator in the program's top expression.

    ``elems`` are the folded bag's alternatives (``encoder.terms``): the fold sees every element each
    alternative generates, in some order (the order is irrelevant once the aggregation is
    partition-independent)."""

    node: A.Expr
    shape: FoldShape
    elems: tuple[BagTerm, ...]
    acc: Sym  # fold: value-shaped; reduce: (has: Bool, value)


@dataclass(frozen=True)
class KeyedAgg:
    """One by-key aggregation: per-bucket fold of the values ``elem.value[1]`` grouped by
    ``elem.value[0]``. Its output elements are ``(key, acc)`` with the placeholders below.

    ``alts`` are all alternatives of the aggregated bag (``union``/``flatMap`` before the aggregation:
    a bucket then mixes elements of several alternatives); ``elem`` is the first."""

    node: A.Expr
    shape: FoldShape
    elem: BagTerm
    key: Sym
    acc: Sym  # the bucket's final accumulated value (buckets are never empty)
    alts: tuple[BagTerm, ...] = ()

    @property
    def all_alts(self) -> tuple[BagTerm, ...]:
        return self.alts or (self.elem,)


def default_like(shape: Sym) -> Sym:
    """A fixed value of the given shape (0 / False), used as the don't-care slot of an empty reduce."""
    if isinstance(shape, tuple):
        return tuple(default_like(s) for s in shape)
    return z3.BoolVal(False) if z3.is_bool(shape) else z3.IntVal(0)


def acc_template(name: str, shape: FoldShape) -> Sym:
    """Fresh accumulator variables for ``shape`` (placeholders, or the A1/A2 of an induction step)."""
    if shape.kind == "fold":
        return fresh_like(name, shape.value_shape)
    return (z3.Bool(f"{name}.has"), fresh_like(f"{name}.val", shape.value_shape))


def acc_init(shape: FoldShape) -> Sym:
    """The accumulator of an empty bag."""
    if shape.kind == "fold":
        assert shape.init is not None
        return shape.init
    return (z3.BoolVal(False), default_like(shape.value_shape))


def acc_step(shape: FoldShape, acc: Sym, elem: Sym, present: z3.BoolRef,
             path: z3.BoolRef | None = None) -> Sym:
    """The paper's ``f*``: unchanged when the element is absent (filtered out), one step otherwise."""
    if shape.kind == "fold":
        return sym_ite(present, shape.step(acc, elem, path), acc)
    has, val = acc
    stepped = sym_ite(has, shape.step(val, elem, path), shape.first(elem, path))
    return (z3.Or(present, has), sym_ite(present, stepped, val))


def acc_outcome(shape: FoldShape, acc: Sym) -> tuple[z3.BoolRef, Sym]:
    """``(raises, value)`` of an aggregation whose final accumulator is ``acc``."""
    if shape.kind == "fold":
        return z3.BoolVal(False), acc
    has, val = acc
    return z3.Not(has), val


# ---------------------------------------------------------------------------------------------------
# Shape extraction
# ---------------------------------------------------------------------------------------------------


def _fn_step(enc: BasicEncoder, fn: A.Fn, env: Mapping[str, Sym]) -> Step:
    env = dict(env)
    return lambda acc, elem, path=None: enc.apply(fn, [acc, elem], env, path)


def _fold(init: Sym, step: Step) -> FoldShape:
    return FoldShape("fold", init, step, lambda e, path=None: step(init, e, path), init)


def _reduce(step: Step, first: First, elem: Sym) -> FoldShape:
    return FoldShape("reduce", None, step, first, first(elem))


def _identity(e: Sym, path: z3.BoolRef | None = None) -> Sym:
    return e


def _minmax(kind: str) -> Step:
    """Python's ``min``/``max`` over ints, bools or tuples (``sym_min``/``sym_max``)."""
    def step(acc: Sym, e: Sym, path: z3.BoolRef | None = None) -> Sym:
        return sym_min(acc, e) if kind == "min" else sym_max(acc, e)

    return step


def _simple(kind: str, elem: Sym, nonempty: bool = False) -> FoldShape:
    """count/sum/min/max over a bag (also the whole-group functions len/sum/min/max of groupByKey,
    whose groups are ``nonempty``); ``sum`` of bools counts the Trues, as Python's does."""
    if kind in ("count", "len"):
        return _fold(z3.IntVal(0), lambda a, e, path=None: a + 1)
    if kind == "sum" and is_float(elem):
        if not nonempty:  # Python's sum of no floats is the int 0, which no float term is
            raise EncodingError("sum() of an RDD of floats (0, an int, when it is empty)")
        # 0 + v1 + ...: the int 0 turns a first -0.0 into 0.0 (0.0 + -0.0 is 0.0), as +0.0 does
        return _fold(z3.FPVal(0.0, z3.Float64()), lambda a, e, path=None: z3.fpAdd(z3.RNE(), a, e))
    if kind == "sum":
        return _fold(z3.IntVal(0), lambda a, e, path=None: a + as_number(e))
    if kind in ("min", "max"):
        return _reduce(_minmax(kind), _identity, elem)
    raise EncodingError(f"unknown aggregation {kind}")


def fold_shape(node: A.Expr, enc: BasicEncoder, env: Mapping[str, Sym], elem: Sym) -> FoldShape:
    """The sequential fold of a whole-bag aggregation (``elem`` is a sample element of its bag)."""
    match node:
        case A.Aggregate(zero=z, seq=seq):
            return _fold(enc.expr(z, env), _fn_step(enc, seq, env))
        case A.Reduce(op=op):
            return _reduce(_fn_step(enc, op, env), _identity, elem)
        case A.SimpleAgg(kind=kind):
            return _simple(kind, elem)
    raise EncodingError(f"{type(node).__name__} is not a whole-bag aggregation", node.loc)


def bucket_shape(node: A.Expr, enc: BasicEncoder, env: Mapping[str, Sym], value: Sym) -> FoldShape:
    """The per-key fold of a by-key aggregation, over the *values* of one key (``value`` is a sample).

    Spark starts each (partition, key) with ``create(v)``, or ``create(zero, v)`` in the kernel form of
    ``foldByKey``/``aggregateByKey`` (``sparklite.desugar``); sequentially that is a reduce, or a fold
    from ``zero`` whose first step is ``create(zero, v)``.
    """
    match node:
        case A.CombineByKey(create=create, merge_value=mv, zero=z):
            env2 = dict(env)
            step = _fn_step(enc, mv, env)
            if z is not None:
                init = enc.expr(z, env)
                first_z: First = lambda e, path=None: enc.apply(create, [init, e], env2, path)
                return FoldShape("fold", init, step, first_z, init)
            first: First = lambda e, path=None: enc.apply(create, [e], env2, path)
            return _reduce(step, first, value)
        case A.GroupByKeyAgg(kinds=kinds):
            parts = [_simple(k, value, nonempty=True) for k in kinds]
            if len(parts) == 1:
                p = parts[0]
                return _reduce(p.step, p.first, value)

            def step(acc: Sym, e: Sym, path: z3.BoolRef | None = None) -> Sym:
                return tuple(p.step(a, e, path) for p, a in zip(parts, acc, strict=True))

            def first(e: Sym, path: z3.BoolRef | None = None) -> Sym:
                return tuple(p.first(e, path) for p in parts)

            return _reduce(step, first, value)
    raise EncodingError(f"{type(node).__name__} is not a by-key aggregation", node.loc)
