"""Which relational expressions may raise, and what: the one notion of "may raise" for the kernel.

The prover (``encoder.relational``) proves nothing about an expression that may raise unless it can
say exactly on which rows it raises; every rewrite of kernel programs (and the fuzzer's oracle for
them) asks this module. It over-approximates: ``raise_kinds(e)`` is empty only when no input row can
make ``e`` (or any of its sub-expressions) raise under Spark 4's ANSI rules
(``dataframe-semantics.md``); a non-empty answer names the error conditions that might.
"""

from __future__ import annotations

from typing import Any

from sparklite.relational import ast as R
from sparklite.relational import dates, mathfuncs, nested, strings, timestamps
from sparklite.relational.types import (
    ArrayType,
    BooleanType,
    DateType,
    DecimalType,
    DoubleType,
    IntegralType,
    NullType,
    SqlType,
    StringType,
)

OVERFLOW = "ARITHMETIC_OVERFLOW"
BINARY_OVERFLOW = "BINARY_ARITHMETIC_OVERFLOW"
DIVIDE_BY_ZERO = "DIVIDE_BY_ZERO"
REMAINDER_BY_ZERO = "REMAINDER_BY_ZERO"
CAST_OVERFLOW = "CAST_OVERFLOW"
DECIMAL_OVERFLOW = "NUMERIC_VALUE_OUT_OF_RANGE"
CAST_INVALID_INPUT = "CAST_INVALID_INPUT"

_SAFE_FUNCTIONS = frozenset(
    {
        "coalesce",
        "nvl",
        "ifnull",
        "nullif",
        "nanvl",
        "isnan",
        "greatest",
        "least",
        "sign",
        "signum",
        "upper",
        "lower",
        "length",
        "trim",
        "ltrim",
        "rtrim",
        "concat",
        "concat_ws",
        "substring",
    }
)


def raise_kinds(e: R.Expr) -> frozenset[str]:
    """The error conditions ``e`` may raise on some row (empty: it never raises)."""
    own = own_kinds(e)
    for child in children(e):
        own |= raise_kinds(child)
    return own


def may_raise(e: R.Expr) -> bool:
    return bool(raise_kinds(e))


def agg_raise_kinds(call: R.AggCall) -> frozenset[str]:
    """Errors of the aggregate itself (its arguments aside): an integral or decimal ``sum`` overflows."""
    if call.name in ("sum", "sum_distinct") and isinstance(call.type, IntegralType):
        return frozenset({OVERFLOW})
    if call.name in ("sum", "sum_distinct", "avg") and isinstance(call.type, DecimalType):
        return frozenset({DECIMAL_OVERFLOW})
    return frozenset()


def children(e: R.Expr) -> tuple[R.Expr, ...]:
    """The direct sub-expressions of ``e`` (evaluation order aside)."""
    if isinstance(e, R.Arith | R.Cmp | R.And | R.Or):
        return (e.left, e.right)
    if isinstance(e, R.Neg | R.Not | R.IsNull | R.Cast):
        return (e.operand,)
    if isinstance(e, R.In):
        return (e.operand, *e.values)
    if isinstance(e, R.Case):
        out = [x for branch in e.branches for x in branch]
        return (*out, e.orelse) if e.orelse is not None else tuple(out)
    if isinstance(e, R.Func):
        return e.args
    return ()


def own_kinds(e: R.Expr) -> frozenset[str]:
    """What ``e``'s own operation may raise (its operands aside)."""
    if isinstance(e, R.Arith):
        return frozenset() if e.try_ else _arith(e)
    if isinstance(e, R.Neg):
        return _overflow(e.type)
    if isinstance(e, R.Cast):
        if e.try_ or constant_cast(e) is not None:
            return frozenset()
        return cast_kinds(e.operand.type, e.type)
    if isinstance(e, R.Func):
        if e.udf is not None:  # a Python UDF may raise anything (sparklite.relational.pyudf)
            return frozenset({"PythonException"})
        if (e.name in _SAFE_FUNCTIONS or e.name in dates.NEVER_RAISE or e.name in strings.NAMES
                or e.name in timestamps.NEVER_RAISE
                or e.name in mathfuncs.NAMES or e.name in nested.NEVER_RAISE):
            return frozenset()
        if e.name in nested.RAISES:
            return nested.RAISES[e.name]
        if e.name == "like":  # only an invalid pattern raises; a valid literal one never does
            pattern = e.args[1]
            if isinstance(pattern, R.Lit) and (
                pattern.value is None or dates.like_pattern_valid(pattern.value)
            ):
                return frozenset()
            return frozenset({"INVALID_FORMAT"})
        if e.name in ("abs", "negative"):
            return _overflow(e.type)
        if e.name in timestamps.RAISES:
            return timestamps.RAISES[e.name]
        return frozenset({OVERFLOW, DECIMAL_OVERFLOW})  # round/bround/floor/ceil and anything new
    return frozenset()


def constant_cast(e: R.Cast) -> tuple[Any] | None:
    """``(value,)`` when ``e`` casts a non-NULL literal that Spark casts without an error
    (``CAST('2019-06-24 12:01:19.000' AS DATE)`` is 2019-06-24, ``CAST(0.0D AS INT)`` the 0 that
    ``fillna(0)`` puts in an int column); None otherwise (another operand, or a cast that raises).
    Why: such a cast is a constant that cannot raise on any row; counting it as "may raise" blocked
    proofs of real code (issue 25). The value is the interpreter's own (``functions.cast_value``), so
    the prover and the interpreter agree on it."""
    lit = e.operand
    if not (isinstance(lit, R.Lit) and lit.value is not None):
        return None
    from sparklite.relational.functions import SqlError, cast_supported, cast_value

    if not cast_supported(lit.type, e.type):
        return None
    try:
        value = cast_value(lit.value, lit.type, e.type)
    except (SqlError, ValueError):
        return None
    return None if value is None else (value,)


def _overflow(t: SqlType) -> frozenset[str]:
    if isinstance(t, IntegralType):
        return frozenset({OVERFLOW if t.bits >= 32 else BINARY_OVERFLOW})
    if isinstance(t, DecimalType):
        return frozenset({DECIMAL_OVERFLOW})
    return frozenset()


def _nonzero_literal(e: R.Expr) -> bool:
    return isinstance(e, R.Lit) and e.value is not None and e.value != 0


def _arith(e: R.Arith) -> frozenset[str]:
    if e.op in ("+", "-", "*"):
        return _overflow(e.type)
    out: set[str] = set()
    if not _nonzero_literal(e.right):
        out.add(DIVIDE_BY_ZERO if e.op in ("/", "div") else REMAINDER_BY_ZERO)
    if e.op == "div" or (e.op == "/" and isinstance(e.type, DecimalType)):
        out |= _overflow(e.type)
    if e.op in ("%", "pmod") and isinstance(e.type, DecimalType):
        out.add(DECIMAL_OVERFLOW)
    return frozenset(out)


def cast_kinds(src: SqlType, dst: SqlType) -> frozenset[str]:
    """What ``CAST(x AS dst)`` of a ``src`` value may raise under ANSI rules."""
    if src == dst or isinstance(src, NullType):
        return frozenset()
    if isinstance(src, ArrayType) and isinstance(dst, ArrayType):  # element by element
        return cast_kinds(src.element, dst.element)
    if isinstance(dst, StringType):
        return frozenset()
    stamped = timestamps.cast_kinds(src, dst)
    if stamped is not None:  # sparklite.relational.timestamps
        return stamped
    if isinstance(src, StringType):
        return frozenset({CAST_INVALID_INPUT, CAST_OVERFLOW, DECIMAL_OVERFLOW})
    if isinstance(dst, IntegralType):
        if isinstance(src, IntegralType) and src.bits <= dst.bits:
            return frozenset()
        if isinstance(src, BooleanType):
            return frozenset()
        return frozenset({CAST_OVERFLOW})
    if isinstance(dst, DoubleType):
        return frozenset()
    if isinstance(dst, DecimalType):
        if isinstance(src, IntegralType) and dst.precision - dst.scale >= len(str(src.max)):
            return frozenset()
        if (
            isinstance(src, DecimalType)
            and dst.precision - dst.scale >= src.precision - src.scale
            and dst.scale >= src.scale
        ):
            return frozenset()
        return frozenset({DECIMAL_OVERFLOW, CAST_OVERFLOW})
    if isinstance(dst, BooleanType | DateType):
        return frozenset() if isinstance(src, BooleanType | DateType) else frozenset({CAST_INVALID_INPUT})
    return frozenset({CAST_OVERFLOW})
