"""Kernel expressions as Z3 terms: each value a pair (is NULL, value), predicates in three-valued logic.

Why pairs rather than an option datatype: Spark's operators test NULL first and then compute on the
value, so a Boolean flag and a plain Z3 value keep every formula in theories Z3 decides well (integers,
IEEE doubles, strings). A NULL's value component is pinned to a default (``If(null, default, v)``), so
two NULLs are one value and an uninterpreted function cannot tell NULLs apart.

Precision where proofs need it, soundness everywhere else:
- integral ``+ - *`` and unary minus are exact, with ANSI overflow as an error condition; comparisons,
  AND/OR/NOT, IS NULL, IN, CASE, ``coalesce`` are exact; doubles are IEEE doubles (NaN equal to NaN
  and above +inf, -0.0 equal to 0.0, as Spark compares them; output cells compare by value, ``same``);
- everything else (``/``, ``div``, ``%``, ``pmod``, decimal arithmetic, most casts and functions) is an
  *uninterpreted function* of its operands' values, named by the operation and types, with an
  uninterpreted error condition of its own. Spark computes them deterministically, so equal operands
  give equal results on both sides: a proof that only needs that is sound, and one that needs more is
  not found (the answer is then unknown, never wrong).

Errors: ``Sym.err`` is the condition under which evaluating the expression raises, following the
interpreter's evaluation order (AND/OR/CASE/IN/coalesce lazy; a binary operator stops at a NULL left
operand, a division at a NULL divisor). ``Sym.latent`` is the condition under which an operand the
interpreter skips because of a NULL would raise (Spark may still evaluate it: the interpreter's
*latent* errors); the prover relies on ``err`` only where it shows ``latent`` implies an error anyway.
An expression whose error condition simplifies to false raises nothing (its ``kinds`` are dropped), so
constant branches never taken do not count.
"""

from __future__ import annotations

import contextlib
import datetime
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import z3

from sparklite.relational import ast as R
from sparklite.relational import effects
from sparklite.relational.types import (
    BooleanType,
    DateType,
    DecimalType,
    DoubleType,
    IntegralType,
    NullType,
    SqlType,
    StringType,
    TimestampType,
)

FP64 = z3.Float64()
RNE = z3.RNE()


class NotEncodable(Exception):
    """An expression the encoder has no sound translation for (the prover then answers unknown)."""


def sort_of(t: SqlType) -> z3.SortRef:
    if isinstance(t, IntegralType | DateType | DecimalType | TimestampType):  # a timestamp: its microseconds
        return z3.IntSort()
    if isinstance(t, DoubleType):
        return FP64
    if isinstance(t, StringType):
        return z3.StringSort()
    if isinstance(t, BooleanType | NullType):
        return z3.BoolSort()
    raise NotEncodable(f"values of type {t.simple}")


def default_of(t: SqlType) -> z3.ExprRef:
    s = sort_of(t)
    if s == z3.IntSort():
        return z3.IntVal(0)
    if s == FP64:
        return z3.FPVal(0.0, FP64)
    if s == z3.StringSort():
        return z3.StringVal("")
    return z3.BoolVal(False)


@dataclass(frozen=True)
class Sym:
    """One encoded value: ``null`` (a Bool), ``val`` (meaningful when not NULL, the default when NULL),
    ``err`` (evaluating it raises), ``kinds`` (error conditions it may raise), ``latent`` (an operand
    skipped at a NULL would raise)."""

    null: z3.BoolRef
    val: z3.ExprRef
    type: SqlType
    err: z3.BoolRef = field(default_factory=lambda: z3.BoolVal(False))
    kinds: frozenset[str] = frozenset()
    latent: z3.BoolRef = field(default_factory=lambda: z3.BoolVal(False))


def make(
    null: z3.ExprRef,
    val: z3.ExprRef,
    t: SqlType,
    err: z3.ExprRef | None = None,
    kinds: frozenset[str] = frozenset(),
    latent: z3.ExprRef | None = None,
) -> Sym:
    null = z3.simplify(null) if z3.is_true(null) or z3.is_false(null) else null
    v = val if z3.is_false(null) else z3.If(null, default_of(t), val)
    err = err if err is not None else z3.BoolVal(False)
    latent = latent if latent is not None else z3.BoolVal(False)
    if kinds and z3.is_false(z3.simplify(z3.Or(err, latent))):
        kinds = frozenset()
    return Sym(null, v, t, err, kinds, latent)


def latent_of(*syms: Sym) -> z3.BoolRef:
    parts = [s.latent for s in syms if not z3.is_false(s.latent)]
    return z3.Or(*parts) if parts else z3.BoolVal(False)


def in_range(v: z3.ArithRef, t: SqlType) -> z3.BoolRef:
    if isinstance(t, IntegralType):
        return z3.And(v >= t.min, v <= t.max)
    if isinstance(t, DecimalType):
        bound = 10**t.precision
        return z3.And(v > -bound, v < bound)
    return z3.BoolVal(True)


def literal(value: Any, t: SqlType) -> z3.ExprRef:
    if isinstance(t, NullType):
        return z3.BoolVal(False)
    if isinstance(t, BooleanType):
        return z3.BoolVal(bool(value))
    if isinstance(t, IntegralType):
        return z3.IntVal(int(value))
    if isinstance(t, DecimalType):
        scaled = Decimal(value).scaleb(t.scale)
        if scaled != scaled.to_integral_value():
            raise NotEncodable(f"decimal literal {value} in {t.simple}")
        return z3.IntVal(int(scaled))
    if isinstance(t, DoubleType):
        x = float(value)
        if math.isnan(x):
            return z3.fpNaN(FP64)
        if math.isinf(x):
            return z3.fpPlusInfinity(FP64) if x > 0 else z3.fpMinusInfinity(FP64)
        return z3.FPVal(x, FP64)
    if isinstance(t, StringType):
        return z3.StringVal(str(value))
    if isinstance(t, TimestampType):
        if not isinstance(value, datetime.datetime):
            raise NotEncodable(f"timestamp literal {value!r}")
        from sparklite.relational.timestamps import micros

        return z3.IntVal(micros(value))
    if isinstance(t, DateType):
        if not isinstance(value, datetime.date):
            raise NotEncodable(f"date literal {value!r}")
        return z3.IntVal(value.toordinal())
    raise NotEncodable(f"literal of type {t.simple}")


# ---------------------------------------------------------------------------------------------------
# Comparison as Spark compares values (NaN = NaN, NaN above everything, -0.0 = 0.0)
# ---------------------------------------------------------------------------------------------------


def values_eq(a: z3.ExprRef, b: z3.ExprRef, t: SqlType) -> z3.BoolRef:
    if isinstance(t, DoubleType):
        return z3.Or(z3.And(z3.fpIsNaN(a), z3.fpIsNaN(b)), z3.fpEQ(a, b))
    return a == b


def values_lt(a: z3.ExprRef, b: z3.ExprRef, t: SqlType) -> z3.BoolRef:
    if isinstance(t, DoubleType):
        return z3.Or(z3.And(z3.Not(z3.fpIsNaN(a)), z3.fpIsNaN(b)), z3.fpLT(a, b))
    if isinstance(t, BooleanType):
        return z3.And(z3.Not(a), b)
    if isinstance(t, StringType):
        return a < b  # code-point order, which is UTF-8 byte order
    return a < b


def same(a: Sym, b: Sym) -> z3.BoolRef:
    """The two values are the same output cell (both NULL, or both non-NULL and the same value as
    ``collect()`` returns it). Not Spark's ``=``: a double ``-0.0`` is returned, shown and written as
    ``-0.0`` (only grouping and ``distinct`` normalise it), so cells compare structurally (Z3's ``=``
    on floating point: ``-0.0`` differs from ``0.0``, NaN is one value)."""
    if a.type != b.type:
        raise NotEncodable(f"cells of types {a.type.simple} and {b.type.simple}")
    return z3.Or(z3.And(a.null, b.null), z3.And(z3.Not(a.null), z3.Not(b.null), a.val == b.val))


def true_(p: Sym) -> z3.BoolRef:
    """A predicate holds (TRUE: neither FALSE nor NULL)."""
    return z3.And(z3.Not(p.null), p.val)


def false_(p: Sym) -> z3.BoolRef:
    return z3.And(z3.Not(p.null), z3.Not(p.val))


def _tdiv(a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
    """Java's integer division (truncating toward zero); SMT-LIB's ``div`` is Euclidean."""
    q = z3.If(a >= 0, 1, -1) * z3.If(b >= 0, 1, -1)
    return q * (z3.If(a >= 0, a, -a) / z3.If(b >= 0, b, -b))


def _wrap(x: z3.ArithRef, t: SqlType) -> z3.ArithRef:
    """Two's complement wrap-around into ``t`` (Java's ``r + n`` inside ``pmod``)."""
    assert isinstance(t, IntegralType)
    span = 1 << t.bits
    return (x - t.min) % span + t.min


# ---------------------------------------------------------------------------------------------------
# The encoder
# ---------------------------------------------------------------------------------------------------

Leaf = Callable[[Any], Sym]


class Encoder:
    """Encodes kernel expressions whose leaves are resolved by ``leaf`` (column references of the
    prover's terms, ``Exists`` atoms). Uninterpreted functions are shared through ``ufs`` so that both
    programs of a pair use the same ones."""

    def __init__(self, leaf: Leaf, ufs: dict[str, z3.FuncDeclRef]) -> None:
        self.leaf = leaf
        self.ufs = ufs

    def uf(self, name: str, args: list[z3.ExprRef], result: z3.SortRef) -> z3.ExprRef:
        key = f"{name}|{','.join(str(a.sort()) for a in args)}|{result}"
        f = self.ufs.get(key)
        if f is None:
            f = z3.Function(f"uf{len(self.ufs)}_{name}", *[a.sort() for a in args], result)
            self.ufs[key] = f
        return f(*args) if args else f()

    def expr(self, e: Any) -> Sym:
        method = _METHODS.get(type(e))
        if method is None:
            return self.leaf(e)
        return method(self, e)

    # leaves and literals

    def _lit(self, e: R.Lit) -> Sym:
        if e.value is None:
            return make(z3.BoolVal(True), default_of(e.type), e.type)
        return make(z3.BoolVal(False), literal(e.value, e.type), e.type)

    # arithmetic

    def _arith(self, e: R.Arith) -> Sym:
        divides = e.op in ("/", "div", "%", "pmod")
        a, b = self.expr(e.left), self.expr(e.right)
        first, second = (b, a) if divides else (a, b)  # Spark evaluates a divisor first
        null = z3.Or(a.null, b.null)
        # the second operand is skipped at a NULL first one, where Spark may still evaluate it
        latent = z3.Or(latent_of(a, b), z3.And(first.null, second.err)) if second.kinds else latent_of(a, b)
        err = z3.Or(first.err, z3.And(z3.Not(first.null), second.err))
        kinds = a.kinds | b.kinds
        own = frozenset() if e.try_ else effects.own_kinds(e)
        t = e.type
        bad: z3.BoolRef = z3.BoolVal(False)
        if e.op in ("+", "-", "*") and isinstance(t, IntegralType) and a.type == t and b.type == t:
            val = {"+": a.val + b.val, "-": a.val - b.val, "*": a.val * b.val}[e.op]
            bad = z3.Not(in_range(val, t))
        elif e.op in ("+", "-", "*", "/") and isinstance(t, DoubleType) and a.type == t and b.type == t:
            val = {"+": z3.fpAdd, "-": z3.fpSub, "*": z3.fpMul, "/": z3.fpDiv}[e.op](RNE, a.val, b.val)
            if e.op == "/":
                bad = z3.fpIsZero(b.val)
        elif (
            e.op in ("%", "pmod", "div")
            and isinstance(a.type, IntegralType)
            and a.type == b.type
            and isinstance(t, IntegralType)
        ):
            zero = b.val == 0
            if e.op == "div":
                val = _tdiv(a.val, b.val)
                bad = z3.Or(zero, z3.Not(in_range(val, t)))
            else:
                r = a.val - b.val * _tdiv(a.val, b.val)
                if e.op == "pmod":
                    wrapped = _wrap(r + b.val, a.type)
                    r = z3.If(r < 0, wrapped - b.val * _tdiv(wrapped, b.val), r)
                val, bad = r, zero
        else:
            name = f"arith{e.op}_{a.type.simple}_{b.type.simple}_{t.simple}"
            val = self.uf(name, [a.val, b.val], sort_of(t))
            if own or e.try_:
                bad = self.uf(name + "_fails", [a.val, b.val], z3.BoolSort())
                if divides and not isinstance(b.type, NullType):
                    bad = z3.Or(values_eq(b.val, literal(0, b.type), b.type), bad)
        fires = z3.And(z3.Not(null), bad)
        if e.try_:
            null = z3.Or(null, fires)
        else:
            err = z3.Or(err, fires)
            kinds |= own
        return make(null, val, t, err, kinds, latent)

    def _neg(self, e: R.Neg) -> Sym:
        a = self.expr(e.operand)
        t = e.type
        if isinstance(t, IntegralType):
            fires = z3.And(z3.Not(a.null), a.val == t.min)
            return make(a.null, -a.val, t, z3.Or(a.err, fires), a.kinds | effects.own_kinds(e), a.latent)
        if isinstance(t, DoubleType):
            return make(a.null, z3.fpNeg(a.val), t, a.err, a.kinds, a.latent)
        if isinstance(t, DecimalType):
            return make(a.null, -a.val, t, a.err, a.kinds, a.latent)
        raise NotEncodable(f"negation of {t.simple}")

    # predicates

    def _cmp(self, e: R.Cmp) -> Sym:
        a, b = self.expr(e.left), self.expr(e.right)
        if a.type != b.type and not (isinstance(a.type, NullType) or isinstance(b.type, NullType)):
            raise NotEncodable(f"comparison of {a.type.simple} with {b.type.simple}")
        t = a.type if not isinstance(a.type, NullType) else b.type
        if isinstance(t, NullType):
            t = BooleanType()
        err = z3.Or(a.err, b.err) if e.op == "<=>" else z3.Or(a.err, z3.And(z3.Not(a.null), b.err))
        latent = latent_of(a, b)
        if e.op != "<=>" and b.kinds:
            latent = z3.Or(latent, z3.And(a.null, b.err))
        kinds = a.kinds | b.kinds
        if e.op == "<=>":
            val = z3.Or(
                z3.And(a.null, b.null), z3.And(z3.Not(a.null), z3.Not(b.null), values_eq(a.val, b.val, t))
            )
            return make(z3.BoolVal(False), val, BooleanType(), err, kinds, latent)
        eq = values_eq(a.val, b.val, t)
        lt = values_lt(a.val, b.val, t)
        gt = values_lt(b.val, a.val, t)
        val = {"=": eq, "!=": z3.Not(eq), "<": lt, "<=": z3.Or(lt, eq), ">": gt, ">=": z3.Or(gt, eq)}[e.op]
        return make(z3.Or(a.null, b.null), val, BooleanType(), err, kinds, latent)

    def _and(self, e: R.And) -> Sym:
        a, b = self.expr(e.left), self.expr(e.right)
        null = z3.And(z3.Not(false_(a)), z3.Not(false_(b)), z3.Or(a.null, b.null))
        val = z3.And(a.val, b.val)
        err = z3.Or(a.err, z3.And(z3.Not(false_(a)), b.err))
        latent = z3.Or(a.latent, z3.And(z3.Not(false_(a)), b.latent))
        return make(null, val, BooleanType(), err, a.kinds | b.kinds, latent)

    def _or(self, e: R.Or) -> Sym:
        a, b = self.expr(e.left), self.expr(e.right)
        null = z3.And(z3.Not(true_(a)), z3.Not(true_(b)), z3.Or(a.null, b.null))
        val = z3.Or(true_(a), true_(b))
        err = z3.Or(a.err, z3.And(z3.Not(true_(a)), b.err))
        latent = z3.Or(a.latent, z3.And(z3.Not(true_(a)), b.latent))
        return make(null, val, BooleanType(), err, a.kinds | b.kinds, latent)

    def _not(self, e: R.Not) -> Sym:
        a = self.expr(e.operand)
        return make(a.null, z3.Not(a.val), BooleanType(), a.err, a.kinds, a.latent)

    def _isnull(self, e: R.IsNull) -> Sym:
        a = self.expr(e.operand)
        val = z3.Not(a.null) if e.negated else a.null
        return make(z3.BoolVal(False), val, BooleanType(), a.err, a.kinds, a.latent)

    def _in(self, e: R.In) -> Sym:
        x = self.expr(e.operand)
        syms = [self.expr(v) for v in e.values]
        found: z3.BoolRef = z3.BoolVal(False)
        some_null: z3.BoolRef = x.null
        err: z3.BoolRef = x.err
        reached = z3.Not(x.null)  # IN stops at a NULL operand and at the first match
        latent: z3.BoolRef = x.latent
        kinds = x.kinds
        for s in syms:
            if s.type != x.type and not isinstance(s.type, NullType):
                raise NotEncodable("IN over values of another type")
            err = z3.Or(err, z3.And(reached, s.err))
            latent = z3.Or(latent, z3.And(reached, s.latent))
            hit = z3.And(z3.Not(s.null), values_eq(x.val, s.val, x.type))
            found = z3.Or(found, z3.And(reached, hit))
            some_null = z3.Or(some_null, s.null)
            reached = z3.And(reached, z3.Not(hit))
            kinds = kinds | s.kinds
        null = z3.And(z3.Not(found), some_null)
        return make(null, z3.And(z3.Not(x.null), found), BooleanType(), err, kinds, latent)

    def _case(self, e: R.Case) -> Sym:
        t = e.type
        branches = [(self.expr(c), self.expr(v)) for c, v in e.branches]
        orelse = self.expr(e.orelse) if e.orelse is not None else make(z3.BoolVal(True), default_of(t), t)
        null, val, err = orelse.null, orelse.val, orelse.err
        kinds = orelse.kinds
        latent = orelse.latent
        for c, v in reversed(branches):
            if v.type != t and not isinstance(v.type, NullType):
                raise NotEncodable("CASE branch of another type")
            taken = true_(c)
            vv = v.val if not isinstance(v.type, NullType) else default_of(t)
            null, val = z3.If(taken, v.null, null), z3.If(taken, vv, val)
            err = z3.Or(c.err, z3.If(taken, v.err, err))
            kinds = kinds | c.kinds | v.kinds
            latent = z3.Or(c.latent, z3.If(taken, v.latent, latent))
        return make(null, val, t, err, kinds, latent)

    def _cast(self, e: R.Cast) -> Sym:
        a = self.expr(e.operand)
        src, dst = a.type, e.type
        if src == dst:
            return a
        if isinstance(src, NullType):
            return make(z3.BoolVal(True), default_of(dst), dst, a.err, a.kinds, a.latent)
        folded = effects.constant_cast(e)  # a string constant Spark casts without an error: its value
        if folded is not None:
            with contextlib.suppress(NotEncodable):
                return make(z3.BoolVal(False), literal(folded[0], dst), dst, a.err, a.kinds, a.latent)
        if isinstance(src, IntegralType) and isinstance(dst, IntegralType) and src.bits <= dst.bits:
            return make(a.null, a.val, dst, a.err, a.kinds, a.latent)
        if isinstance(src, IntegralType) and isinstance(dst, IntegralType):
            fires = z3.And(z3.Not(a.null), z3.Not(in_range(a.val, dst)))
            null = z3.Or(a.null, fires) if e.try_ else a.null
            err = a.err if e.try_ else z3.Or(a.err, fires)
            kinds = a.kinds | (frozenset() if e.try_ else effects.cast_kinds(src, dst))
            return make(null, a.val, dst, err, kinds, a.latent)
        if isinstance(src, IntegralType) and isinstance(dst, DoubleType):
            return make(a.null, z3.fpToFP(RNE, z3.ToReal(a.val), FP64), dst, a.err, a.kinds, a.latent)
        if isinstance(src, IntegralType) and isinstance(dst, DecimalType):
            raw = a.val * (10**dst.scale)
            fires = z3.And(z3.Not(a.null), z3.Not(in_range(raw, dst)))
            null = z3.Or(a.null, fires) if e.try_ else a.null
            err = a.err if e.try_ else z3.Or(a.err, fires)
            kinds = a.kinds | (frozenset() if e.try_ else effects.cast_kinds(src, dst))
            return make(null, raw, dst, err, kinds, a.latent)
        name = f"cast_{src.simple}_{dst.simple}"
        val = self.uf(name, [a.val], sort_of(dst))
        own = frozenset() if e.try_ else effects.cast_kinds(src, dst)
        null = a.null
        err = a.err
        if own or e.try_:
            bad = z3.And(z3.Not(a.null), self.uf(name + "_fails", [a.val], z3.BoolSort()))
            if e.try_:
                null = z3.Or(null, bad)
            else:
                err = z3.Or(err, bad)
        if isinstance(src, DoubleType) and isinstance(dst, DecimalType):
            null = z3.Or(null, z3.And(z3.Not(a.null), self.uf(name + "_null", [a.val], z3.BoolSort())))
        return make(null, val, dst, err, a.kinds | own, a.latent)

    def _func(self, e: R.Func) -> Sym:
        from sparklite.relational.functions import FUNCTIONS

        if e.udf is not None:  # sparklite.relational.pyudf: its body is not encoded
            raise NotEncodable(f"the Python UDF {e.udf.shown} (UDF bodies are not encoded; a proof needs "
                               "the same UDF called on the same arguments on both sides)")
        args = [self.expr(x) for x in e.args]
        t = e.type
        if e.name in ("coalesce", "nvl", "ifnull"):
            null, val = z3.BoolVal(True), default_of(t)
            err: z3.BoolRef = z3.BoolVal(False)
            latent: z3.BoolRef = z3.BoolVal(False)
            for s in reversed(args):
                sv = s.val if not isinstance(s.type, NullType) else default_of(t)
                null, val = z3.If(s.null, null, z3.BoolVal(False)), z3.If(s.null, val, sv)
                err = z3.Or(s.err, z3.And(s.null, err))
                latent = z3.Or(s.latent, z3.And(s.null, latent))
            return make(null, val, t, err, frozenset().union(*(s.kinds for s in args)), latent)
        spec = FUNCTIONS.get(e.name)
        mode = spec.mode if spec is not None else "all"
        kinds = frozenset().union(*(s.kinds for s in args)) | effects.own_kinds(e)
        latent = latent_of(*args)
        err = z3.BoolVal(False)
        stopped: z3.BoolRef = z3.BoolVal(False)
        for s in args:
            err = z3.Or(err, z3.And(z3.Not(stopped), s.err))
            if mode == "null_stop":
                if s.kinds and not z3.is_false(stopped):
                    latent = z3.Or(latent, z3.And(stopped, s.err))
                stopped = z3.Or(stopped, s.null)
            elif mode == "lazy" and s.kinds:  # which arguments it forces is not modelled
                latent = z3.Or(latent, s.err)
        flat: list[z3.ExprRef] = []
        for s in args:
            flat += [s.null, s.val]
        null = (
            stopped if mode == "null_stop" else self.uf(f"fn_{e.name}_null_{t.simple}", flat, z3.BoolSort())
        )
        if e.name == "isnan":
            null, val = z3.BoolVal(False), z3.And(z3.Not(args[0].null), z3.fpIsNaN(args[0].val))
        elif e.name == "concat" and args and all(isinstance(a.type, StringType) for a in args):
            val = z3.Concat(*[a.val for a in args]) if len(args) > 1 else args[0].val
        else:
            val = self.uf(f"fn_{e.name}_{t.simple}", flat, sort_of(t))
        if effects.own_kinds(e):
            err = z3.Or(err, z3.And(z3.Not(null), self.uf(f"fn_{e.name}_fails", flat, z3.BoolSort())))
        return make(null, val, t, err, kinds, latent)


_METHODS: Mapping[type, Callable[[Encoder, Any], Sym]] = {
    R.Lit: Encoder._lit,
    R.Arith: Encoder._arith,
    R.Neg: Encoder._neg,
    R.Cmp: Encoder._cmp,
    R.And: Encoder._and,
    R.Or: Encoder._or,
    R.Not: Encoder._not,
    R.IsNull: Encoder._isnull,
    R.In: Encoder._in,
    R.Case: Encoder._case,
    R.Cast: Encoder._cast,
    R.Func: Encoder._func,
}
