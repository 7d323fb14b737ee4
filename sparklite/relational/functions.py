"""Spark 4's scalar semantics on plain values: arithmetic, casts, comparisons and the function table.

This module says *what* each scalar operation computes on non-NULL Python values (ANSI mode: errors,
never wrap-around) and which ``RelError`` it raises; ``sparklite.relational.interpreter`` decides *when*
an operand is evaluated (laziness, NULL short-circuits, errors that count only when demanded). The split
keeps every value-level fact in one place, shared by the interpreter and, through ``func_type``, by the
builder's analysis (``sparklite.relational.build``): the function table is the single place that knows
each function's type rule, its evaluation and its NULL behaviour.

Every fact here was observed on PySpark 4.3 (``tests/test_relational_interpreter.py`` re-checks them):
- integral arithmetic raises ``ARITHMETIC_OVERFLOW`` (``BINARY_ARITHMETIC_OVERFLOW`` for tinyint/smallint);
  ``%`` takes the dividend's sign; ``pmod(a, n)`` is Java's ``r = a % n; r < 0 ? (r + n) % n : r`` with
  ``r + n`` wrapping (``pmod(-1, -2147483648)`` is 2147483647);
- a zero divisor raises even for doubles; decimals are exact and rounded HALF_UP to the result scale,
  overflow raising ``NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION``;
- casts from strings trim ASCII whitespace and control characters (not NBSP); ``'12.0'`` is not an int;
  NaN and infinities cast to a decimal give NULL (not an error); a double prints as Java's
  ``Double.toString`` of the JDK Spark runs on (JDK 17: integral doubles between 2^53 and 2^63 print
  their 17 "significant" digits, e.g. ``3.1911425645391149E17`` where the shortest form is
  ``3.191142564539115E17``);
- ``round`` of a double rounds the decimal ``Double.toString`` form (``round(2.675D, 2)`` is 2.68);
  ``floor``/``ceil`` of a double are bigints, NaN giving 0 and values outside bigint raising.
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import ROUND_FLOOR, ROUND_HALF_EVEN, ROUND_HALF_UP, Context, Decimal
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from sparklite.relational import mathfuncs, nested, strings, timestamps
from sparklite.relational.dates import DATE_FUNCTIONS
from sparklite.relational.sqlerror import DateOutOfRange, SqlError
from sparklite.relational.types import (
    BIGINT,
    BOOLEAN,
    DOUBLE,
    INT,
    STRING,
    ArrayType,
    BooleanType,
    DateType,
    DecimalType,
    DoubleType,
    IntegralType,
    NullType,
    SqlType,
    StringType,
    TimestampType,
    is_numeric,
    string_promotion,
    wider,
)
from sparklite.relational.types import NULL as NULL_TYPE
from sparklite.relational.values import (
    ARITHMETIC_OVERFLOW,
    BINARY_ARITHMETIC_OVERFLOW,
    CAST_INVALID_BOOLEAN,
    CAST_INVALID_DATE,
    CAST_INVALID_NUMBER,
    CAST_OVERFLOW,
    DECIMAL_OVERFLOW,
    DIVIDE_BY_ZERO,
    REMAINDER_BY_ZERO,
    RelError,
)

# ---------------------------------------------------------------------------------------------------
# Decimals, doubles as Java prints them
# ---------------------------------------------------------------------------------------------------


def _ctx(prec: int = 200) -> Context:
    """A fresh decimal context, wide enough that +, - and * of two 38-digit numbers are exact (a shared
    context would carry sticky flags from run to run)."""
    return Context(prec=prec, rounding=ROUND_HALF_UP)


def round_fraction(value: Fraction, scale: int, rounding: str = ROUND_HALF_UP) -> int:
    """The unscaled integer of ``value`` rounded to ``scale`` decimal places (``scale`` may be negative:
    tens, hundreds...): HALF_UP rounds ties away from zero, HALF_EVEN to the even neighbour."""
    scaled = value * Fraction(10) ** scale
    magnitude = abs(scaled)
    q, r = divmod(magnitude.numerator, magnitude.denominator)
    twice = 2 * r
    if twice > magnitude.denominator or (
            twice == magnitude.denominator and (rounding == ROUND_HALF_UP or q % 2 == 1)):
        q += 1
    return -q if scaled < 0 else q


def decimal_fit(value: Decimal | Fraction | int, t: DecimalType, rounding: str = ROUND_HALF_UP) -> Decimal:
    """``value`` rounded to ``t``'s scale (HALF_UP, as Spark's ``toPrecision``), raising the decimal
    overflow when it needs more than ``t.precision`` digits. The result carries ``t``'s scale
    (``Decimal('1.50')`` for ``decimal(3,2)``), as PySpark returns it."""
    unscaled = round_fraction(Fraction(value), t.scale, rounding)
    if abs(unscaled) >= 10 ** t.precision:
        raise SqlError(DECIMAL_OVERFLOW)
    return Decimal(unscaled).scaleb(-t.scale, _ctx())


def java_double_str(x: float) -> str:
    """Java's ``Double.toString(x)`` as JDK 17 prints it, which is what ``CAST(d AS STRING)`` shows.

    Plain notation for ``1e-3 <= |x| < 1e7`` (``1000000.0``, ``0.001``), else ``d.dddE±n``
    (``1.0E7``, ``1.0E-4``). The digits are the shortest that read back as ``x``, except JDK 17's
    integer fast path: a double with no fractional bits below 2^63 prints its exact integer digits
    minus a number of "insignificant" low digits fixed by its binary exponent (so ``2^53 + 2`` prints
    all 16 digits and large integers 17). JDK 19 and later always print the shortest form
    (``shortest_double_str``); the interpreter adds a caveat where they may differ
    (``jvm_may_print_otherwise``)."""
    if x != x:
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    if abs(x) == 5e-324:  # Double.MIN_VALUE: Java prints two digits
        return "-4.9E-324" if x < 0 else "4.9E-324"
    digits, point = _jdk17_digits(abs(x))
    return ("-" if x < 0 else "") + _java_format(digits, point, abs(x))


def jvm_may_print_otherwise(x: float) -> bool:
    """Whether ``Double.toString(x)`` may differ from ``java_double_str(x)`` on some JVM: JDK 19+ prints
    the shortest form where JDK 17's integer fast path prints more digits, and JDK 17's general path
    is not always shortest for magnitudes of 2^63 and above (``1e23`` prints ``9.999999999999999E22``),
    which ``java_double_str`` does not reproduce."""
    if x != x or math.isinf(x):
        return False
    return abs(x) >= 2.0**63 or java_double_str(x) != shortest_double_str(x)


def shortest_double_str(x: float) -> str:
    """``Double.toString`` with the shortest round-trip digits (JDK 19+, Python's ``repr``)."""
    if x != x or math.isinf(x) or x == 0:
        return java_double_str(x)
    digits, point = _shortest_digits(abs(x))
    return ("-" if x < 0 else "") + _java_format(digits, point, abs(x))


def _shortest_digits(a: float) -> tuple[str, int]:
    """(significant digits, decimal exponent) of a positive double, with ``a = 0.DIGITS * 10^exponent``."""
    _, digits, exp = Decimal(repr(a)).as_tuple()
    s = "".join(map(str, digits)).lstrip("0")
    return s.rstrip("0") or "0", len(s) + int(exp)


_INSIGNIFICANT = (0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7,
                  8, 8, 8, 9, 9, 9, 9, 10, 10, 10, 11, 11, 11, 12, 12, 12, 12, 13, 13, 13, 14, 14, 14,
                  15, 15, 15, 15, 16, 16, 16, 17, 17, 17, 18, 18, 18, 19)


def _jdk17_digits(a: float) -> tuple[str, int]:
    """JDK 17 ``FloatingDecimal.dtoa``: the integer fast path, else the shortest digits (its general
    path agrees with the shortest form on all but a handful of values such as 1e23)."""
    _, exponent = math.frexp(a)  # a = mantissa * 2^exponent, 0.5 <= mantissa < 1
    bin_exp = exponent - 1
    if a.is_integer() and 0 <= bin_exp <= 62 and a >= 2.2250738585072014e-308:
        # dtoa's nSignificantBits is 53 for every normal double; its table of "insignificant" digits
        # is indexed by the binary exponent beyond those bits
        p2 = bin_exp - 53 - 1
        insignificant = _INSIGNIFICANT[p2] if bin_exp > 53 and 1 < p2 < len(_INSIGNIFICANT) else 0
        value = int(a)
        dec_exp = 0
        if insignificant:
            pow10 = 10 ** insignificant
            residue = value % pow10
            value //= pow10
            dec_exp = insignificant
            if residue >= pow10 >> 1:
                value += 1
        s = str(value)
        return s.rstrip("0") or "0", len(s) + dec_exp
    return _shortest_digits(a)


def _java_format(digits: str, point: int, a: float) -> str:
    if 1e-3 <= a < 1e7:
        if point <= 0:
            return "0." + "0" * (-point) + digits
        if point >= len(digits):
            return digits + "0" * (point - len(digits)) + ".0"
        return digits[:point] + "." + digits[point:]
    return f"{digits[0]}.{digits[1:] or '0'}E{point - 1}"


def double_as_decimal(x: float) -> Decimal:
    """Scala's ``BigDecimal(x)``: the decimal that ``Double.toString`` prints (``2.675`` is 2.675, not
    the binary value 2.67499999...), which Spark uses to round doubles and to cast them to decimals."""
    return Decimal(java_double_str(x).replace("E", "e"))


# ---------------------------------------------------------------------------------------------------
# Comparison and grouping keys
# ---------------------------------------------------------------------------------------------------


class _NaNKey:
    """The grouping key of every NaN (NaN equals NaN in groupBy, distinct, joins and set operations)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NaN"


NAN_KEY = _NaNKey()


def norm_key(v: Any) -> Any:
    """A hashable key under which Spark's grouping puts values together: NULL with NULL, every NaN
    with every NaN, -0.0 with 0.0."""
    if isinstance(v, float):
        if v != v:
            return NAN_KEY
        return v + 0.0  # -0.0 + 0.0 is 0.0
    return v


def norm_value(v: Any) -> Any:
    """The value Spark outputs for a grouping key: -0.0 becomes 0.0 (``NormalizeFloatingNumbers``)."""
    if isinstance(v, float) and v == 0.0:
        return 0.0
    return v


def compare(a: Any, b: Any) -> int:
    """Spark's ordering of two non-NULL values of one type: doubles in the total order where NaN equals
    NaN and is above +inf and -0.0 equals 0.0; strings by code point (the UTF-8 byte order); false <
    true; decimals and dates by value. Returns -1, 0 or 1."""
    if isinstance(a, float):
        an, bn = a != a, b != b
        if an or bn:
            return 0 if an and bn else (1 if an else -1)
    if isinstance(a, tuple):  # arrays: element by element (a NULL element first), then the shorter first
        for x, y in zip(a, b, strict=False):
            c = (0 if y is None else -1) if x is None else 1 if y is None else compare(x, y)
            if c:
                return c
        return compare(len(a), len(b))
    return -1 if a < b else (1 if a > b else 0)


def values_equal(a: Any, b: Any) -> bool:
    """Spark's ``=`` on two non-NULL values of one type (NaN = NaN, -0.0 = 0.0)."""
    return compare(a, b) == 0


# ---------------------------------------------------------------------------------------------------
# Arithmetic
# ---------------------------------------------------------------------------------------------------


def _overflow_error(t: IntegralType) -> RelError:
    return BINARY_ARITHMETIC_OVERFLOW if t.bits < 32 else ARITHMETIC_OVERFLOW


def check_integral(v: int, t: IntegralType, error: RelError | None = None) -> int:
    if not t.min <= v <= t.max:
        raise SqlError(error or _overflow_error(t))
    return v


def _wrap(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _trunc_rem(a: int, b: int) -> int:
    return a - b * _trunc_div(a, b)


def _java_rem(a: float, b: float) -> float:
    """Java's double ``%`` (Spark's): an infinite dividend gives NaN, where ``math.fmod`` raises."""
    if math.isinf(a):
        return math.nan
    return math.fmod(a, b)


def _is_zero(v: Any) -> bool:
    return v == 0


def arith(op: str, a: Any, b: Any, result: SqlType) -> Any:
    """``a op b`` on non-NULL operands, in ``result`` (Spark's result type: the operands' common type,
    double or decimal for ``/``, bigint for ``div``). Raises ``SqlError`` on overflow or a zero
    divisor."""
    if op in ("/", "div") and _is_zero(b):
        raise SqlError(DIVIDE_BY_ZERO)
    if op in ("%", "pmod") and _is_zero(b):
        raise SqlError(REMAINDER_BY_ZERO)
    if op == "div":
        if isinstance(a, float) or isinstance(b, float):  # pragma: no cover - Spark has no double div
            raise ValueError("div of doubles")
        q = Fraction(a) / Fraction(b)
        whole = math.trunc(q)
        return check_integral(whole, result if isinstance(result, IntegralType) else BIGINT)
    if isinstance(result, IntegralType):
        if op == "+":
            return check_integral(a + b, result)
        if op == "-":
            return check_integral(a - b, result)
        if op == "*":
            return check_integral(a * b, result)
        if op == "%":
            return _trunc_rem(a, b)
        if op == "pmod":
            r = _trunc_rem(a, b)
            if r < 0:
                r = _trunc_rem(_wrap(r + b, result.bits), b)
            return r
        raise ValueError(f"operator {op!r} on {result}")
    if isinstance(result, DoubleType):
        a, b = float(a), float(b)
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if op == "/":
            return a / b
        if op == "%":
            return _java_rem(a, b)
        if op == "pmod":
            r = _java_rem(a, b)
            return _java_rem(r + b, b) if r < 0 else r
        raise ValueError(f"operator {op!r} on double")
    if isinstance(result, DecimalType):
        fa, fb = Fraction(a), Fraction(b)
        if op == "+":
            exact = fa + fb
        elif op == "-":
            exact = fa - fb
        elif op == "*":
            exact = fa * fb
        elif op == "/":
            exact = fa / fb
        elif op in ("%", "pmod"):
            exact = fa - fb * math.trunc(fa / fb)
            if op == "pmod" and exact < 0:
                s = exact + fb
                exact = s - fb * math.trunc(s / fb)
        else:
            raise ValueError(f"operator {op!r} on decimal")
        return decimal_fit(exact, result)
    raise ValueError(f"arithmetic in {result}")


def negate(v: Any, t: SqlType) -> Any:
    """Unary minus: ``-(-2147483648)`` on ``int`` overflows."""
    if isinstance(t, IntegralType):
        return check_integral(-v, t, ARITHMETIC_OVERFLOW)
    if isinstance(t, DecimalType):
        return decimal_fit(-v, t)
    return -v


# ---------------------------------------------------------------------------------------------------
# Casts
# ---------------------------------------------------------------------------------------------------


def _trim_all(s: str) -> str:
    """What Spark strips before parsing a number, boolean or date: ASCII spaces and control characters
    (``' 12 '`` and ``'\\t12\\n'`` are 12; a non-breaking or ideographic space is not stripped)."""
    return s.strip("".join(chr(c) for c in range(0x21)) + "\x7f")


_INT_RE = re.compile(r"[+-]?[0-9]+")
# java.math.BigDecimal(String), which Spark's string -> decimal cast calls, takes any digit Java's
# Character.isDigit(char) accepts: a Unicode decimal digit of the Basic Multilingual Plane ('١' is 1)
_BMP_DIGIT = r"(?:(?=\d)[\u0000-\uffff])"
_DEC_RE = re.compile(rf"[+-]?({_BMP_DIGIT}+\.?{_BMP_DIGIT}*|\.{_BMP_DIGIT}+)([eE][+-]?{_BMP_DIGIT}+)?")
_DOUBLE_RE = re.compile(r"[+-]?(NaN|Infinity|([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?)[fFdD]?")
_HEX_DOUBLE_RE = re.compile(r"[+-]?0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?[0-9]+[fFdD]?")
_SPECIAL_DOUBLES = {"inf": math.inf, "+inf": math.inf, "infinity": math.inf, "+infinity": math.inf,
                    "-inf": -math.inf, "-infinity": -math.inf, "nan": math.nan, "+nan": math.nan,
                    "-nan": math.nan}
_TRUE = {"t", "true", "y", "yes", "1"}
_FALSE = {"f", "false", "n", "no", "0"}
_DATE_RE = re.compile(r"([+-]?[0-9]{4,7})(?:-([0-9]{1,2})(?:-([0-9]{1,2})(?:[ T].*)?)?)?", re.S)


def parse_double(s: str) -> float:
    """Spark's string-to-double: trimmed, Java's ``Double.parseDouble`` grammar (``1d``, ``0x1p3``) plus
    case-insensitive ``inf``/``infinity``/``nan``."""
    t = _trim_all(s)
    special = _SPECIAL_DOUBLES.get(t.lower())
    if special is not None:
        return special
    if _DOUBLE_RE.fullmatch(t):
        body = t.rstrip("fFdD")
        return float(body)
    if _HEX_DOUBLE_RE.fullmatch(t):
        return float.fromhex(t.rstrip("fFdD"))
    raise SqlError(CAST_INVALID_NUMBER)


def parse_date(s: str) -> datetime.date:
    """Spark's string-to-date (``SparkDateTimeUtils.stringToDate``): after trimming whitespace and ISO
    control characters, ``[+-]yyyy``, ``[+-]yyyy-[m]m``, ``[+-]yyyy-[m]m-[d]d`` with 4 to 7 year digits,
    the last optionally followed by a space or ``T`` and anything (``'2019-06-24 12:01:19.000'`` and
    ``'2024-01-31 xyz'`` are dates); an impossible date raises. A valid date outside years 1..9999
    raises ``DateOutOfRange`` (see there). Checked on Spark 4 by ``tests/test_realworld_regressions``."""
    m = _DATE_RE.fullmatch(_trim_all(s))
    if not m:
        raise SqlError(CAST_INVALID_DATE)
    year, month, day = int(m.group(1)), int(m.group(2) or 1), int(m.group(3) or 1)
    if 1 <= year <= 9999:
        try:
            return datetime.date(year, month, day)
        except ValueError:
            raise SqlError(CAST_INVALID_DATE) from None
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)  # proleptic Gregorian, as LocalDate
    days = (31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
    if 1 <= month <= 12 and 1 <= day <= days[month - 1] and -(2**31) <= _epoch_day(year, month, day) < 2**31:
        raise DateOutOfRange(CAST_INVALID_DATE)
    raise SqlError(CAST_INVALID_DATE)  # Spark's dates are int days since 1970: year 5881581 is NULL


def _epoch_day(year: int, month: int, day: int) -> int:
    """``java.time.LocalDate.toEpochDay`` (proleptic Gregorian), for years ``datetime`` lacks."""
    total = 365 * year
    if year >= 0:
        total += (year + 3) // 4 - (year + 99) // 100 + (year + 399) // 400
    else:
        total -= -year // 4 - -year // 100 + -year // 400
    total += (367 * month - 362) // 12 + day - 1
    if month > 2:
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        total -= 1 if leap else 2
    return total - 719528


def cast_supported(src: SqlType, dst: SqlType) -> bool:
    """Whether ``CAST(src AS dst)`` is one this module evaluates (the pairs Spark allows among the
    kernel's types, minus date <-> numeric, which Spark rejects at analysis)."""
    if src == dst or isinstance(src, NullType):
        return True
    if timestamps.can_cast(src, dst) is not None:  # sparklite.relational.timestamps
        return timestamps.cast_supported(src, dst)
    if isinstance(src, ArrayType) or isinstance(dst, ArrayType):  # element by element, array to array only
        return isinstance(src, ArrayType) and isinstance(dst, ArrayType) and cast_supported(src.element,
                                                                                              dst.element)
    if isinstance(dst, StringType):
        return True
    if isinstance(src, StringType):
        return True
    if isinstance(src, DateType) or isinstance(dst, DateType):
        return False
    return True


def cast_value(v: Any, src: SqlType, dst: SqlType) -> Any:
    """``CAST(v AS dst)`` of a non-NULL ``v`` of type ``src`` under ANSI rules: out-of-range numbers
    raise ``CAST_OVERFLOW`` (a decimal target: the decimal overflow), unparsable strings
    ``CAST_INVALID_INPUT``. NaN or an infinity cast to a decimal is NULL (observed, even in ANSI mode)."""
    if src == dst:
        return v
    if isinstance(src, NullType):
        return None
    if timestamps.can_cast(src, dst) is not None:
        return timestamps.cast(v, src, dst)
    if isinstance(src, ArrayType) and isinstance(dst, ArrayType):
        return tuple(None if x is None else cast_value(x, src.element, dst.element) for x in v)
    if isinstance(dst, IntegralType):
        if isinstance(src, IntegralType):
            return check_integral(v, dst, CAST_OVERFLOW)
        if isinstance(src, DoubleType):
            if math.isnan(v) or math.isinf(v):
                raise SqlError(CAST_OVERFLOW)
            # Spark's check, in doubles: floor(x) <= MAX and ceil(x) >= MIN, then Java's saturating cast
            # (so 2^63 as a double casts to bigint's MAX)
            if not (math.floor(v) <= float(dst.max) and math.ceil(v) >= float(dst.min)):
                raise SqlError(CAST_OVERFLOW)
            return max(dst.min, min(dst.max, math.trunc(v)))
        if isinstance(src, DecimalType):
            return check_integral(math.trunc(v), dst, CAST_OVERFLOW)
        if isinstance(src, StringType):
            t = _trim_all(v)
            if not _INT_RE.fullmatch(t):
                raise SqlError(CAST_INVALID_NUMBER)
            return check_integral(int(t), dst, CAST_INVALID_NUMBER)
        if isinstance(src, BooleanType):
            return int(v)
    if isinstance(dst, DoubleType):
        if isinstance(src, IntegralType | DecimalType):
            return float(v)
        if isinstance(src, StringType):
            return parse_double(v)
        if isinstance(src, BooleanType):
            return 1.0 if v else 0.0
    if isinstance(dst, DecimalType):
        if isinstance(src, IntegralType):
            return decimal_fit(v, dst)
        if isinstance(src, DoubleType):
            if math.isnan(v) or math.isinf(v):
                return None
            return decimal_fit(double_as_decimal(v), dst)
        if isinstance(src, DecimalType):
            return decimal_fit(v, dst)
        if isinstance(src, StringType):
            t = v.strip("".join(chr(c) for c in range(0x21)))  # Java's String.trim(): not 0x7f
            if not _DEC_RE.fullmatch(t):
                raise SqlError(CAST_INVALID_NUMBER)
            return decimal_fit(Decimal(t), dst)
        if isinstance(src, BooleanType):
            return decimal_fit(int(v), dst)
    if isinstance(dst, StringType):
        if isinstance(src, BooleanType):
            return "true" if v else "false"
        if isinstance(src, IntegralType):
            return str(v)
        if isinstance(src, DoubleType):
            return java_double_str(v)
        if isinstance(src, DecimalType):
            return format(v, "f")
        if isinstance(src, DateType):
            return v.isoformat()
    if isinstance(dst, BooleanType):
        if isinstance(src, IntegralType | DoubleType | DecimalType):
            return v != 0  # NaN is true
        if isinstance(src, StringType):
            t = _trim_all(v).lower()
            if t in _TRUE:
                return True
            if t in _FALSE:
                return False
            raise SqlError(CAST_INVALID_BOOLEAN)
    if isinstance(dst, DateType) and isinstance(src, StringType):
        return parse_date(v)
    raise ValueError(f"cannot cast {src} to {dst}")


# ---------------------------------------------------------------------------------------------------
# Rounding
# ---------------------------------------------------------------------------------------------------


def round_value(v: Any, t: SqlType, scale: int, mode: str) -> Any:
    """``round``/``bround`` (``mode`` HALF_UP or HALF_EVEN) of ``v`` (of type ``t``) to ``scale``
    decimal places (negative: tens, hundreds...); the result type is Spark's (``func_type``). A double
    is rounded in its ``Double.toString`` decimal form, NaN and infinities unchanged; an integral
    result out of range raises ``ARITHMETIC_OVERFLOW`` (``round(2147483647, -1)``)."""
    if isinstance(t, DoubleType):
        if math.isnan(v) or math.isinf(v):
            return v
        d = double_as_decimal(v)
        if int(d.as_tuple().exponent) >= -scale:  # no digit beyond the scale: unchanged
            return v + 0.0  # BigDecimal(-0.0) is 0
        return float(Fraction(round_fraction(Fraction(d), scale, mode)) / Fraction(10) ** scale)
    if isinstance(t, IntegralType):
        if scale >= 0:
            return v
        return check_integral(round_fraction(Fraction(v), scale, mode) * 10 ** (-scale), t,
                              ARITHMETIC_OVERFLOW)
    if isinstance(t, DecimalType):
        exact = Fraction(round_fraction(Fraction(v), scale, mode)) / Fraction(10) ** scale
        return decimal_fit(exact, _round_decimal_type(t, scale))
    raise ValueError(f"round of {t}")


def _round_decimal_type(t: DecimalType, scale: int) -> DecimalType:
    integral_digits = t.precision - t.scale + 1
    if scale < 0:
        return DecimalType(min(max(integral_digits, -scale + 1), 38), 0)
    new_scale = min(t.scale, scale)
    return DecimalType(min(integral_digits + new_scale, 38), new_scale)


def floor_ceil(v: Any, t: SqlType, ceil: bool) -> Any:
    """``floor``/``ceil``: of a double a bigint (NaN gives 0, a result outside bigint raises
    ``ARITHMETIC_OVERFLOW``, observed), of an integral the value as a bigint, of a decimal a decimal
    with scale 0."""
    if isinstance(t, DoubleType):
        if math.isnan(v):
            return 0
        if math.isinf(v):
            raise SqlError(ARITHMETIC_OVERFLOW)
        r = math.ceil(v) if ceil else math.floor(v)
        return check_integral(r, BIGINT, ARITHMETIC_OVERFLOW)
    if isinstance(t, IntegralType):
        return v
    if isinstance(t, DecimalType):
        r = v.to_integral_value(rounding="ROUND_CEILING" if ceil else ROUND_FLOOR, context=_ctx())
        return decimal_fit(r, DecimalType(min(t.precision - t.scale + 1, 38), 0))
    raise ValueError(f"floor/ceil of {t}")


# ---------------------------------------------------------------------------------------------------
# The function table
# ---------------------------------------------------------------------------------------------------

EvalMode = str  # "null_stop" | "all" | "lazy"
ArgTypes = tuple[SqlType | None, ...]
TypeResult = tuple[SqlType, bool, ArgTypes]


@dataclass(frozen=True)
class FuncSpec:
    """One scalar function.

    ``mode`` is how Spark evaluates its arguments (observed: it decides which errors happen):
    - ``null_stop``: left to right, and the first NULL makes the result NULL without evaluating the
      rest (``concat(NULL, 1/0)`` is NULL, ``concat(1/0, NULL)`` raises; ``substring`` alike);
    - ``all``: every argument, left to right, then the function sees the NULLs (``greatest`` skips them,
      ``concat_ws`` too: ``concat_ws('-', NULL, 1/0)`` raises; ``isnan(NULL)`` is false);
    - ``lazy``: ``evaluate`` receives thunks and forces only those it needs (``coalesce`` stops at the
      first non-NULL, ``nanvl`` evaluates its second argument only for a NaN, ``nullif`` its second
      only for a non-NULL first).
    ``evaluate(args, arg_types, result_type)`` raises ``SqlError``. ``type_rule(arg_types,
    arg_nullables, consts)`` gives (result type, nullable, the type each argument must be cast to
    first, or None to leave it) or raises ``ValueError`` (an analysis error)."""

    name: str
    mode: EvalMode
    evaluate: Callable[[Sequence[Any], Sequence[SqlType], SqlType], Any]
    type_rule: Callable[[Sequence[SqlType], Sequence[bool], Sequence[Any]], TypeResult]


def _arity(name: str, types: Sequence[SqlType], lo: int, hi: int | None) -> None:
    if len(types) < lo or (hi is not None and len(types) > hi):
        want = f"{lo}" if hi == lo else f"{lo} to {hi}" if hi is not None else f"at least {lo}"
        raise ValueError(f"{name} takes {want} argument(s), got {len(types)}")


def _cast_to(t: SqlType, target: SqlType) -> SqlType | None:
    """The cast an argument of type ``t`` needs to become ``target`` (None: none needed)."""
    return None if t == target else target


def _common(name: str, types: Sequence[SqlType], promote_strings: bool) -> SqlType:
    """The type Spark coerces all arguments to: the tightest common type (``types.wider``); with
    ``promote_strings`` a string meets another type as ``types.string_promotion`` says
    (``coalesce(int, string)`` is bigint; ``greatest(int, string)`` is an analysis error)."""
    result: SqlType = NULL_TYPE
    for t in types:
        w = wider(result, t)
        if w is None and promote_strings:
            w = string_promotion(result, t)
        if w is None:
            raise ValueError(f"{name}: arguments of types {', '.join(x.simple for x in types)} have no "
                             "common type")
        result = w
    return result


def _same_rule(name: str, lo: int, promote_strings: bool, nullable: Callable[[Sequence[bool]], bool]):
    def rule(types: Sequence[SqlType], nullables: Sequence[bool], _c: Sequence[Any]) -> TypeResult:
        _arity(name, types, lo, None)
        t = _common(name, types, promote_strings)
        return t, nullable(nullables), tuple(_cast_to(a, t) for a in types)

    return rule


_STRINGABLE = (IntegralType, DoubleType, DecimalType, BooleanType, DateType, StringType, NullType,
               TimestampType)


def _stringish(name: str, t: SqlType) -> SqlType | None:
    """Spark casts any atomic argument of a string function to a string (``length(123)`` is 3)."""
    if not isinstance(t, _STRINGABLE):
        raise ValueError(f"{name}: cannot take a {t.simple}")
    return None if isinstance(t, StringType) else STRING


def _numeric_arg(name: str, t: SqlType) -> SqlType | None:
    """A numeric function's argument: numbers as they are, a string cast to double (``abs('x')``
    raises ``CAST_INVALID_INPUT`` at run time), NULL as double (``abs(NULL)``, ``round(NULL)`` are doubles);
    anything else is an analysis error."""
    if is_numeric(t):
        return None
    if isinstance(t, NullType):
        return DOUBLE
    if isinstance(t, StringType):
        return DOUBLE
    raise ValueError(f"{name} of {t.simple}")


# -- coalesce, nvl, ifnull, nullif, nanvl, isnan ---------------------------------------------------


def _coalesce_eval(thunks: Sequence[Callable[[], Any]], _types: Sequence[SqlType], _rt: SqlType) -> Any:
    for thunk in thunks:
        v = thunk()
        if v is not None:
            return v
    return None


def _nvl_rule(name: str):
    base = _same_rule(name, 2, True, all)

    def rule(types: Sequence[SqlType], nullables: Sequence[bool], consts: Sequence[Any]) -> TypeResult:
        _arity(name, types, 2, 2)
        return base(types, nullables, consts)

    return rule


def _nullif_eval(thunks: Sequence[Callable[[], Any]], types: Sequence[SqlType], _rt: SqlType) -> Any:
    """``nullif(a, b)``: NULL when ``a = b`` is TRUE, else ``a`` (in ``a``'s own type); ``b`` is not
    evaluated when ``a`` is NULL (``nullif(NULL, 1/0)`` is NULL)."""
    a = thunks[0]()
    if a is None:
        return None
    b = thunks[1]()
    if b is None:
        return a
    t = _common("nullif", types, True)
    return None if values_equal(cast_value(a, types[0], t), cast_value(b, types[1], t)) else a


def _nullif_rule(types: Sequence[SqlType], nullables: Sequence[bool], _c: Sequence[Any]) -> TypeResult:
    _arity("nullif", types, 2, 2)
    _common("nullif", types, True)  # the comparison's type; the result keeps the first argument's
    return types[0], True, (None, None)


def _nanvl_eval(thunks: Sequence[Callable[[], Any]], _types: Sequence[SqlType], _rt: SqlType) -> Any:
    """``nanvl(a, b)``: ``a`` unless it is NaN, then ``b``; ``b`` is evaluated only for a NaN."""
    a = thunks[0]()
    if a is None or not math.isnan(a):
        return a
    return thunks[1]()


def _double_args_rule(name: str, n: int, result: SqlType | None, nullable: Callable[[Sequence[bool]], bool]):
    def rule(types: Sequence[SqlType], nullables: Sequence[bool], _c: Sequence[Any]) -> TypeResult:
        _arity(name, types, n, n)
        casts = []
        for t in types:
            if not (is_numeric(t) or isinstance(t, NullType | StringType)):
                raise ValueError(f"{name} of {t.simple}")
            casts.append(_cast_to(t, DOUBLE))
        return result or DOUBLE, nullable(nullables), tuple(casts)

    return rule


def _isnan_eval(args: Sequence[Any], _types: Sequence[SqlType], _rt: SqlType) -> Any:
    return args[0] is not None and math.isnan(args[0])


# -- greatest / least ------------------------------------------------------------------------------


def _extreme(sign: int) -> Callable[[Sequence[Any], Sequence[SqlType], SqlType], Any]:
    """NULLs are skipped (NULL only if all are), NaN is the greatest, the first of equal values wins."""

    def evaluate(args: Sequence[Any], _types: Sequence[SqlType], _rt: SqlType) -> Any:
        best = None
        for v in args:
            if v is not None and (best is None or compare(v, best) * sign > 0):
                best = v
        return best

    return evaluate


# -- abs, negative, sign, round, bround, floor, ceil -----------------------------------------------


def _abs_eval(args: Sequence[Any], types: Sequence[SqlType], _rt: SqlType) -> Any:
    """``abs``: of ``int``/``bigint`` MIN raises ``ARITHMETIC_OVERFLOW``; ``abs(-0.0)`` is 0.0."""
    (v,), (t,) = args, types
    if isinstance(t, IntegralType):
        return check_integral(abs(v), t, ARITHMETIC_OVERFLOW)
    if isinstance(t, DoubleType):
        return abs(v)
    return decimal_fit(abs(v), t) if isinstance(t, DecimalType) else abs(v)


def _negative_eval(args: Sequence[Any], types: Sequence[SqlType], _rt: SqlType) -> Any:
    return negate(args[0], types[0])


def _sign_eval(args: Sequence[Any], _types: Sequence[SqlType], _rt: SqlType) -> Any:
    """``sign``/``signum`` (Java's ``Math.signum``): -1.0, 1.0, NaN for NaN, the zero itself for ±0.0."""
    v = args[0]
    if math.isnan(v) or v == 0:
        return v
    return 1.0 if v > 0 else -1.0


def _numeric_same(name: str):
    def rule(types: Sequence[SqlType], nullables: Sequence[bool], _c: Sequence[Any]) -> TypeResult:
        _arity(name, types, 1, 1)
        cast = _numeric_arg(name, types[0])
        return cast or types[0], nullables[0], (cast,)

    return rule


def _round_eval(mode: str):
    def evaluate(args: Sequence[Any], types: Sequence[SqlType], _rt: SqlType) -> Any:
        scale = args[1] if len(args) > 1 else 0
        return round_value(args[0], types[0], scale, mode)

    return evaluate


def _round_type(name: str):
    def rule(types: Sequence[SqlType], nullables: Sequence[bool], consts: Sequence[Any]) -> TypeResult:
        _arity(name, types, 1, 2)
        cast = _numeric_arg(name, types[0])
        t = cast or types[0]
        casts: list[SqlType | None] = [cast]
        scale = 0
        if len(types) == 2:
            if not isinstance(types[1], IntegralType):
                raise ValueError(f"{name}: the scale must be an integer literal, got {types[1].simple}")
            casts.append(_cast_to(types[1], INT))
            known = len(consts) > 1 and isinstance(consts[1], int) and not isinstance(consts[1], bool)
            if isinstance(t, DecimalType):
                if not known:
                    raise ValueError(f"{name}(decimal, scale): the result type depends on the scale's "
                                     "value; pass the literal in func_type's consts")
                scale = consts[1]
        if isinstance(t, DecimalType):
            return _round_decimal_type(t, scale), nullables[0], tuple(casts)
        return t, nullables[0], tuple(casts)

    return rule


def _floor_ceil_eval(ceil: bool):
    def evaluate(args: Sequence[Any], types: Sequence[SqlType], _rt: SqlType) -> Any:
        return floor_ceil(args[0], types[0], ceil)

    return evaluate


def _floor_ceil_type(name: str):
    def rule(types: Sequence[SqlType], nullables: Sequence[bool], _c: Sequence[Any]) -> TypeResult:
        _arity(name, types, 1, 1)
        cast = _numeric_arg(name, types[0])
        t = cast or types[0]
        if isinstance(t, DecimalType):
            return DecimalType(min(t.precision - t.scale + 1, 38), 0), nullables[0], (cast,)
        return BIGINT, nullables[0], (cast,)

    return rule


# -- strings ---------------------------------------------------------------------------------------


def _string_unary(name: str, fn: Callable[[str], Any], result: SqlType) -> FuncSpec:
    def evaluate(args: Sequence[Any], _types: Sequence[SqlType], _rt: SqlType) -> Any:
        return fn(args[0])

    def rule(types: Sequence[SqlType], nullables: Sequence[bool], _c: Sequence[Any]) -> TypeResult:
        _arity(name, types, 1, 1)
        return result, nullables[0], (_stringish(name, types[0]),)

    return FuncSpec(name, "null_stop", evaluate, rule)


def _concat_eval(args: Sequence[Any], _types: Sequence[SqlType], _rt: SqlType) -> Any:
    return "".join(args)


def _concat_type(types: Sequence[SqlType], nullables: Sequence[bool], _c: Sequence[Any]) -> TypeResult:
    return STRING, any(nullables), tuple(_stringish("concat", t) for t in types)


def _concat_ws_eval(args: Sequence[Any], _types: Sequence[SqlType], _rt: SqlType) -> Any:
    """``concat_ws(sep, ...)``: NULL separator gives NULL; NULL arguments are skipped, and so are the
    NULL elements of an ``array<string>`` argument (whose elements join in)."""
    sep = args[0]
    if sep is None:
        return None
    parts = (x for a in args[1:] if a is not None for x in (a if isinstance(a, tuple) else (a,)))
    return sep.join(x for x in parts if x is not None)


def _concat_ws_type(types: Sequence[SqlType], nullables: Sequence[bool], _c: Sequence[Any]) -> TypeResult:
    _arity("concat_ws", types, 1, None)
    return STRING, nullables[0], tuple(None if i and isinstance(t, ArrayType) and t.element == STRING
                                       else _stringish("concat_ws", t) for i, t in enumerate(types))


def substring_sql(s: str, pos: int, length: int = 2**31 - 1) -> str:
    """Spark's ``UTF8String.substringSQL``: 1-based ``pos``, 0 the same as 1, a negative ``pos`` counts
    from the end; the window ``[start, start + length)`` is clipped to the string (``substring('hello',
    -10, 8)`` is ``'hel'``)."""
    n = len(s)
    start = pos - 1 if pos > 0 else (n + pos if pos < 0 else 0)
    end = max(min(start + length, 2**31 - 1), -(2**31))
    start = max(start, 0)
    if start >= end:
        return ""
    return s[start:min(end, n)]


def _substring_eval(args: Sequence[Any], _types: Sequence[SqlType], _rt: SqlType) -> Any:
    return substring_sql(*args)


def _substring_type(types: Sequence[SqlType], nullables: Sequence[bool], _c: Sequence[Any]) -> TypeResult:
    _arity("substring", types, 2, 3)
    casts = [_stringish("substring", types[0])]
    for t in types[1:]:  # a string position or length is cast to int (substring(s, '2') is allowed)
        if not (is_numeric(t) or isinstance(t, NullType | StringType)):
            raise ValueError(f"substring: position and length must be numbers, got {t.simple}")
        casts.append(_cast_to(t, INT))
    return STRING, any(nullables), tuple(casts)


def _trim(name: str, how: str) -> FuncSpec:
    """``trim``/``ltrim``/``rtrim(s[, chars])`` (SQL ``TRIM([BOTH|LEADING|TRAILING] [chars] FROM s)``):
    remove the characters of ``chars`` (spaces only by default, not tabs or newlines) from the ends."""
    strip = {"both": str.strip, "left": str.lstrip, "right": str.rstrip}[how]

    def evaluate(args: Sequence[Any], _types: Sequence[SqlType], _rt: SqlType) -> Any:
        return strip(args[0], args[1] if len(args) > 1 else " ")

    def rule(types: Sequence[SqlType], nullables: Sequence[bool], _c: Sequence[Any]) -> TypeResult:
        _arity(name, types, 1, 2)
        return STRING, any(nullables), tuple(_stringish(name, t) for t in types)

    return FuncSpec(name, "null_stop", evaluate, rule)


#: a scalar subquery returned more than one row (``frontend/sql/subqueries.py`` reads its value through
#: this function when it has several rows): Spark raises it while running the subquery
SCALAR_SUBQUERY_TOO_MANY_ROWS = RelError("SparkException", "SCALAR_SUBQUERY_TOO_MANY_ROWS")


def _too_many_rows_eval(_args: Sequence[Any], _types: Sequence[SqlType], _rt: SqlType) -> Any:
    raise SqlError(SCALAR_SUBQUERY_TOO_MANY_ROWS)


def _too_many_rows_type(types: Sequence[SqlType], _n: Sequence[bool], _c: Sequence[Any]) -> TypeResult:
    _arity("scalar_subquery_too_many_rows", types, 0, 0)
    return NULL_TYPE, True, ()


_SIGN = FuncSpec("sign", "null_stop", _sign_eval, _double_args_rule("sign", 1, DOUBLE, lambda n: n[0]))


def _more_functions() -> dict[str, FuncSpec]:
    """The specs of the modules that extend this table (``strings``, ``mathfuncs``), made with
    ``FuncSpec`` and the helpers above (handed to them: they do not import this module)."""
    more = (*strings.specs(FuncSpec, _arity, _stringish), *mathfuncs.specs(FuncSpec, _arity),
            *nested.specs(FuncSpec, _arity, compare))
    return {spec.name: spec for spec in more}


FUNCTIONS: MappingProxyType[str, FuncSpec] = MappingProxyType({
    spec.name: spec for spec in (
        FuncSpec("coalesce", "lazy", _coalesce_eval, _same_rule("coalesce", 1, True, all)),
        FuncSpec("nvl", "lazy", _coalesce_eval, _nvl_rule("nvl")),
        FuncSpec("ifnull", "lazy", _coalesce_eval, _nvl_rule("ifnull")),
        FuncSpec("nullif", "lazy", _nullif_eval, _nullif_rule),
        FuncSpec("nanvl", "lazy", _nanvl_eval, _double_args_rule("nanvl", 2, None, any)),
        FuncSpec("isnan", "all", _isnan_eval, _double_args_rule("isnan", 1, BOOLEAN, lambda n: False)),
        FuncSpec("greatest", "all", _extreme(1), _same_rule("greatest", 2, False, all)),
        FuncSpec("least", "all", _extreme(-1), _same_rule("least", 2, False, all)),
        FuncSpec("abs", "null_stop", _abs_eval, _numeric_same("abs")),
        FuncSpec("negative", "null_stop", _negative_eval, _numeric_same("negative")),
        _SIGN,
        FuncSpec("signum", _SIGN.mode, _SIGN.evaluate,
                 _double_args_rule("signum", 1, DOUBLE, lambda n: n[0])),
        FuncSpec("round", "null_stop", _round_eval(ROUND_HALF_UP), _round_type("round")),
        FuncSpec("bround", "null_stop", _round_eval(ROUND_HALF_EVEN), _round_type("bround")),
        FuncSpec("floor", "null_stop", _floor_ceil_eval(False), _floor_ceil_type("floor")),
        FuncSpec("ceil", "null_stop", _floor_ceil_eval(True), _floor_ceil_type("ceil")),
        _string_unary("upper", str.upper, STRING),
        _string_unary("lower", str.lower, STRING),
        _string_unary("length", len, INT),
        _trim("trim", "both"),
        _trim("ltrim", "left"),
        _trim("rtrim", "right"),
        FuncSpec("concat", "null_stop", _concat_eval, _concat_type),
        FuncSpec("concat_ws", "all", _concat_ws_eval, _concat_ws_type),
        FuncSpec("substring", "null_stop", _substring_eval, _substring_type),
        *(FuncSpec(*d) for d in DATE_FUNCTIONS),  # sparklite.relational.dates
        *(FuncSpec(*d) for d in timestamps.TIMESTAMP_FUNCTIONS),  # sparklite.relational.timestamps
        FuncSpec("scalar_subquery_too_many_rows", "all", _too_many_rows_eval, _too_many_rows_type),
    )
} | _more_functions())


def func_type(name: str, arg_types: Sequence[SqlType], arg_nullables: Sequence[bool],
              consts: Sequence[Any] = ()) -> TypeResult:
    """``name(args)``'s result type, its nullability, and the type each argument must first be cast to
    (None: as it is), as Spark's analyser decides them; ``build.func`` inserts the casts. ``consts``
    holds each argument's literal value where it is a literal (None otherwise): ``round(d, 2)`` of a
    decimal needs it, because the scale decides the result type. Raises ``KeyError`` for a function
    the table lacks (unsupported) and ``ValueError`` for arguments Spark rejects (an analysis error)."""
    spec = FUNCTIONS.get(name.lower())
    if spec is None:
        raise KeyError(name)
    if len(arg_nullables) != len(arg_types):
        raise ValueError("func_type: one nullability per argument")
    padded = list(consts) + [None] * (len(arg_types) - len(consts))
    return spec.type_rule(list(arg_types), list(arg_nullables), padded)


__all__ = [
    "FUNCTIONS", "FuncSpec", "NAN_KEY", "SqlError", "arith", "cast_supported", "cast_value",
    "check_integral", "compare", "decimal_fit", "double_as_decimal", "floor_ceil", "func_type",
    "java_double_str", "jvm_may_print_otherwise", "negate", "norm_key", "norm_value", "parse_date",
    "DateOutOfRange",
    "parse_double", "round_value", "shortest_double_str", "substring_sql", "values_equal",
]
