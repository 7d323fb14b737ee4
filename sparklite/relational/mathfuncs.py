"""Math functions of Spark 4 in doubles: ``sqrt``, ``exp``, ``ln``, ``log(base, x)``, ``log10``, ``log2``,
``pow``/``power``.

Why a module of its own: see ``sparklite.relational.strings`` (the table joins them through ``specs``).

Observed on Spark 4 (``docs/semantics-notes.md``, "Math functions"): arguments are cast to double (a
string too: ``sqrt('4')`` is 2.0), the result is a double; ``sqrt`` of a negative is NaN; the
logarithms give NULL (not NaN, not an error) for an argument ``<= 0`` and ``log(1, x)`` is Infinity;
``log2(x)`` is ``ln(x) / ln(2)`` and ``log(b, x)`` is ``ln(x) / ln(b)``; ``pow`` is Java's
``StrictMath.pow``: ``pow(1, NaN)`` and ``pow(1, Infinity)`` are NaN where C's ``pow`` gives 1,
``pow(0, -1)`` is Infinity, overflow is Infinity. Spark computes ``exp``/``log``/``pow`` with
``StrictMath`` (fdlibm), which may round differently from Python's libm in the last bit
(``exp(1)`` is ``2.7182818284590455`` on Spark, ``2.718281828459045`` here): the interpreter adds the
caveat ``CAVEAT_LIBM`` wherever a result may be such a value (``may_round_otherwise``), so a
difference resting on it is reported only once Spark shows it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from sparklite.relational.types import DOUBLE, NullType, SqlType, StringType, is_numeric

TypeResult = tuple[SqlType, bool, tuple[SqlType | None, ...]]
Arity = Callable[[str, Sequence[SqlType], int, int | None], None]

CAVEAT_LIBM = "jvm-dependent: Spark's StrictMath (fdlibm) may round exp/log/pow differently in the last bit"

#: The functions of this module: none raises an error of its own (effects.own_kinds).
NAMES = frozenset({"sqrt", "exp", "ln", "log", "log10", "log2", "pow", "power"})
#: Those computed by fdlibm routines whose last bit Python's libm may not reproduce.
LIBM = frozenset({"exp", "ln", "log", "log10", "log2", "pow", "power"})


def java_pow(x: float, y: float) -> float:
    """``StrictMath.pow`` on the special cases where C's ``pow`` (``math.pow``) differs or raises."""
    if math.isnan(y):
        return math.nan
    if y == 0:
        return 1.0
    if math.isnan(x):
        return math.nan
    if abs(x) == 1 and math.isinf(y):
        return math.nan
    odd = y.is_integer() and abs(y) < 2**53 and int(y) % 2 == 1
    try:
        return math.pow(x, y)
    except ZeroDivisionError:  # pragma: no cover - math.pow raises ValueError for 0 ** negative
        return math.copysign(math.inf, x) if odd else math.inf
    except ValueError:
        if x == 0:  # 0 ** negative: an infinity, negative for -0.0 ** odd
            return math.copysign(math.inf, x) if odd else math.inf
        return math.nan  # a negative base to a non-integral power
    except OverflowError:
        return -math.inf if x < 0 and odd else math.inf


def _ln(x: float) -> float | None:
    if math.isnan(x):
        return x
    if x <= 0:
        return None
    return math.log(x)


def _log10(x: float) -> float | None:
    return x if math.isnan(x) else None if x <= 0 else math.log10(x)


def _log2(x: float) -> float | None:
    return x if math.isnan(x) else None if x <= 0 else math.log(x) / math.log(2.0)


def _log(base: float, x: float) -> float | None:
    """``Logarithm``: NULL when either is ``<= 0``; else ``ln(x) / ln(base)`` in doubles."""
    if math.isnan(base) or math.isnan(x):
        return math.nan
    if base <= 0 or x <= 0:
        return None
    den = math.log(base)
    num = math.log(x)
    if den == 0:
        return math.nan if num == 0 else math.copysign(math.inf, num)
    return num / den


def _sqrt(x: float) -> float:
    if math.isnan(x) or x < 0:
        return math.nan
    return math.sqrt(x)


def _exp(x: float) -> float:
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def may_round_otherwise(name: str, args: Sequence[Any], result: Any) -> bool:
    """Whether fdlibm may give another double than Python for ``name(args)``: not for NULL, NaN,
    infinities, 0, 1, nor for a ``pow`` of integral operands with an integral result below 2^53 (both
    are exact there)."""
    if name not in LIBM or not isinstance(result, float):
        return False
    if math.isnan(result) or math.isinf(result) or result in (0.0, 1.0):
        return False
    if name in ("pow", "power") and all(isinstance(a, float) and a.is_integer() for a in args) \
            and result.is_integer() and abs(result) < 2**53:
        return False
    return True


def _double_rule(arity: Arity, name: str, lo: int, hi: int, null_on_domain: bool):
    def rule(types: Sequence[SqlType], nullables: Sequence[bool], _c: Sequence[Any]) -> TypeResult:
        arity(name, types, lo, hi)
        casts: list[SqlType | None] = []
        for t in types:
            if not (is_numeric(t) or isinstance(t, NullType | StringType)):
                raise ValueError(f"{name} of {t.simple}")
            casts.append(None if t == DOUBLE else DOUBLE)
        return DOUBLE, null_on_domain or any(nullables), tuple(casts)

    return rule


def _strict(fn: Callable[..., Any]):
    def evaluate(args: Sequence[Any], _types: Sequence[SqlType], _rt: SqlType) -> Any:
        return fn(*args)

    return evaluate


def _lazy(fn: Callable[..., Any]):
    """A function that may give NULL on non-NULL arguments: its arguments left to right, the first NULL
    making the result NULL without evaluating the rest (Spark's ``BinaryExpression.eval``)."""

    def evaluate(thunks: Sequence[Callable[[], Any]], _types: Sequence[SqlType], _rt: SqlType) -> Any:
        values = []
        for thunk in thunks:
            v = thunk()
            if v is None:
                return None
            values.append(v)
        return fn(*values)

    return evaluate


def specs(spec: Callable[..., Any], arity: Arity) -> tuple[Any, ...]:
    """This module's entries of ``sparklite.relational.functions.FUNCTIONS``, made with that module's
    ``FuncSpec`` (``spec``) and arity check (passed in: no import circle). The logarithms are ``lazy``
    (they may be NULL on non-NULL arguments: ``null_stop`` promises NULL exactly at a NULL argument,
    which the encoder relies on)."""

    def rule(name: str, lo: int, hi: int, null_on_domain: bool) -> Callable[..., TypeResult]:
        return _double_rule(arity, name, lo, hi, null_on_domain)

    return (
        spec("sqrt", "null_stop", _strict(_sqrt), rule("sqrt", 1, 1, False)),
        spec("exp", "null_stop", _strict(_exp), rule("exp", 1, 1, False)),
        spec("ln", "lazy", _lazy(_ln), rule("ln", 1, 1, True)),
        spec("log10", "lazy", _lazy(_log10), rule("log10", 1, 1, True)),
        spec("log2", "lazy", _lazy(_log2), rule("log2", 1, 1, True)),
        spec("log", "lazy", _lazy(_log), rule("log", 2, 2, True)),
        spec("pow", "null_stop", _strict(java_pow), rule("pow", 2, 2, False)),
        spec("power", "null_stop", _strict(java_pow), rule("power", 2, 2, False)),
    )


__all__ = ["CAVEAT_LIBM", "LIBM", "NAMES", "java_pow", "may_round_otherwise", "specs"]
