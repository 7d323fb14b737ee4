"""Timestamps of the relational kernel (``timestamp``, ``timestamp_ntz``), as Spark 4 computes them with
the session time zone fixed to UTC.

Why UTC, fixed: a ``timestamp`` is an instant that Spark shows, casts to a date and splits into fields
in the session time zone, so the meaning of a program depends on it. sparkeq fixes it (the replay
session sets ``spark.sql.session.timeZone`` to UTC and the Python side runs with ``TZ=UTC``, so PySpark's
conversion of naive ``datetime`` values agrees); with UTC a ``timestamp`` and a ``timestamp_ntz`` of the
same wall-clock reading hold the same value, a naive ``datetime.datetime`` (microseconds, years 1..9999).

Why a module of its own: the date/time family's functions are plain ``Func`` nodes (deterministic, so
the prover may treat them as uninterpreted functions of their operands, and codegen calls them by name),
listed in ``functions.FUNCTIONS`` next to the others; the casts are called from ``functions.cast_value``.

Exact where it answers, and honest where it does not: a value Spark has but ``datetime`` lacks (a year
outside 1..9999), a string Spark reads in a way this module does not model (a time zone suffix, a time
without a date, which takes today's date), a parse with a pattern letter outside the supported subset:
these raise ``OutsideModel`` (a caveat: a difference resting on it waits for Spark) or, for a literal
pattern, ``NotModelled`` (a located refusal at translation). Facts, observed on PySpark 4.x
(``docs/semantics-notes.md``, "Timestamps").
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from sparklite.relational import types as T
from sparklite.relational.javaregex import NotModelled
from sparklite.relational.sqlerror import DateOutOfRange, SqlError
from sparklite.relational.types import BIGINT, DOUBLE, INT, STRING, TIMESTAMP, SqlType
from sparklite.relational.values import RelError

TypeResult = tuple[SqlType, bool, tuple[SqlType | None, ...]]
Spec = tuple[str, str, Callable[..., Any], Callable[..., TypeResult]]

#: the session time zone sparkeq runs Spark with (named in every counterexample that holds a timestamp)
SESSION_TIME_ZONE = "UTC"

CAST_INVALID_TIMESTAMP = RelError("DateTimeException", "CAST_INVALID_INPUT")
CANNOT_PARSE_TIMESTAMP = RelError("DateTimeException", "CANNOT_PARSE_TIMESTAMP")

_EPOCH = datetime.datetime(1970, 1, 1)
_MICROS = 1_000_000


class OutsideModel(DateOutOfRange):
    """Spark computes a value (or an error) here that this module does not model: the interpreter
    records a caveat (as for a date outside years 1..9999), so no definite difference rests on it."""

    caveat = "outside the model: a timestamp value, string or pattern sparkeq does not model exactly"


def _outside() -> OutsideModel:
    from sparklite.relational.values import CAST_INVALID_DATE

    return OutsideModel(CAST_INVALID_DATE)


# -- values --------------------------------------------------------------------------------------------


def micros(t: datetime.datetime) -> int:
    """Microseconds since 1970-01-01 00:00:00 UTC (Spark's internal form of both timestamp types)."""
    d = t - _EPOCH
    return (d.days * 86400 + d.seconds) * _MICROS + d.microseconds


def from_micros(n: int) -> datetime.datetime:
    try:
        return _EPOCH + datetime.timedelta(microseconds=n)
    except OverflowError:
        raise _outside() from None


def midnight(d: datetime.date) -> datetime.datetime:
    return datetime.datetime(d.year, d.month, d.day)


def format_default(t: datetime.datetime) -> str:
    """``CAST(ts AS STRING)``: ``yyyy-MM-dd HH:mm:ss`` plus the fraction without its trailing zeros."""
    out = t.strftime("%Y-%m-%d %H:%M:%S") if t.year >= 1000 else (
        f"{t.year:04d}-{t.month:02d}-{t.day:02d} {t.hour:02d}:{t.minute:02d}:{t.second:02d}")
    if t.microsecond:
        out += "." + f"{t.microsecond:06d}".rstrip("0")
    return out


#: what Spark trims before parsing (ASCII spaces and control characters, as ``functions._trim_all``)
_SPARK_BLANKS = "".join(chr(c) for c in range(0x21)) + "\x7f"
_TS_RE = re.compile(
    r"\+?([0-9]{4})(?:-([0-9]{1,2})(?:-([0-9]{1,2})"
    r"(?:[ T]([0-9]{1,2})(?::([0-9]{1,2})(?::([0-9]{1,2})(?:\.([0-9]+))?)?)?)?)?)?")


def parse_timestamp(s: str) -> datetime.datetime:
    """Spark's string-to-timestamp cast (``stringToTimestamp``) on the forms this module models: after
    trimming, ``yyyy[-m[-d[( |T)h[:m[:s[.fraction]]]]]]`` (one or two digits for the fields, the
    fraction truncated to microseconds; ``'2024'`` is 2024-01-01 00:00). An impossible field value
    (month 13, hour 24, February 30) raises ``CAST_INVALID_INPUT``, as does a string without a digit;
    other forms Spark may read (a time zone suffix, a time alone, a year of other than four digits)
    raise ``OutsideModel``."""
    t = s.strip(_SPARK_BLANKS)
    m = _TS_RE.fullmatch(t)
    if m is None:
        if not re.search(r"[0-9]", t):
            raise SqlError(CAST_INVALID_TIMESTAMP)
        raise _outside()
    year, month, day, hour, minute, second, frac = m.groups()
    try:
        return datetime.datetime(int(year), int(month or 1), int(day or 1), int(hour or 0), int(minute or 0),
                                 int(second or 0), int((frac or "0")[:6].ljust(6, "0")))
    except ValueError:
        raise SqlError(CAST_INVALID_TIMESTAMP) from None


# -- casts -----------------------------------------------------------------------------------------


def is_timestamp(t: SqlType) -> bool:
    return isinstance(t, T.TimestampType)


def can_cast(src: SqlType, dst: SqlType) -> bool | None:
    """Whether Spark 4 (ANSI) allows ``CAST(src AS dst)`` where either side is a timestamp (None when
    neither is). Observed: string, date and the other timestamp type both ways; ``timestamp`` to and
    from the integral types and double; ``timestamp_ntz`` with numbers, and booleans with either, are
    analysis errors."""
    if not (is_timestamp(src) or is_timestamp(dst)):
        return None
    other = dst if is_timestamp(src) else src
    ts = src if is_timestamp(src) else dst
    assert isinstance(ts, T.TimestampType)
    if isinstance(other, T.StringType | T.DateType | T.TimestampType | T.NullType):
        return True
    if isinstance(other, T.IntegralType | T.DoubleType | T.DecimalType):  # decimals: assumed like doubles
        return not ts.ntz
    return False


def cast_supported(src: SqlType, dst: SqlType) -> bool:
    """The allowed casts this module evaluates (a double or a decimal to a timestamp, and a timestamp
    to a decimal, are not: a located refusal)."""
    if not can_cast(src, dst):
        return False
    if isinstance(src, T.DecimalType) or isinstance(dst, T.DecimalType):
        return False
    return not (is_timestamp(dst) and isinstance(src, T.DoubleType))


def cast(v: Any, src: SqlType, dst: SqlType) -> Any:
    """``CAST(v AS dst)`` of a non-NULL ``v`` where ``src`` or ``dst`` is a timestamp type."""
    from sparklite.relational.values import CAST_OVERFLOW

    if is_timestamp(dst):
        if isinstance(src, T.StringType):
            return parse_timestamp(v)
        if isinstance(src, T.TimestampType):
            return v  # the session time zone is UTC: the same reading
        if isinstance(src, T.DateType):
            return midnight(v)
        if isinstance(src, T.IntegralType):
            return from_micros(v * _MICROS)
    if isinstance(src, T.TimestampType):
        if isinstance(dst, T.StringType):
            return format_default(v)
        if isinstance(dst, T.DateType):
            return v.date()
        if isinstance(dst, T.IntegralType):
            seconds = micros(v) // _MICROS
            if not dst.min <= seconds <= dst.max:
                raise SqlError(CAST_OVERFLOW)
            return seconds
        if isinstance(dst, T.DoubleType):
            return micros(v) / _MICROS
    raise ValueError(f"cannot cast {src} to {dst}")


def cast_kinds(src: SqlType, dst: SqlType) -> frozenset[str] | None:
    """What such a cast may raise (``effects``); None when neither side is a timestamp."""
    if not (is_timestamp(src) or is_timestamp(dst)):
        return None
    if isinstance(src, T.StringType):
        return frozenset({"CAST_INVALID_INPUT"})
    if isinstance(dst, T.IntegralType):
        return frozenset({"CAST_OVERFLOW"})
    return frozenset()


# -- datetime patterns ---------------------------------------------------------------------------------

#: pattern letters supported, with (width for parsing or None: not parsed, formatter)
_LETTERS: dict[str, tuple[int | None, Callable[[datetime.datetime], str]]] = {
    "yyyy": (4, lambda t: f"{t.year:04d}"),
    "MM": (2, lambda t: f"{t.month:02d}"),
    "dd": (2, lambda t: f"{t.day:02d}"),
    "HH": (2, lambda t: f"{t.hour:02d}"),
    "mm": (2, lambda t: f"{t.minute:02d}"),
    "ss": (2, lambda t: f"{t.second:02d}"),
    "SSSSSS": (None, lambda t: f"{t.microsecond:06d}"),
    "SSS": (None, lambda t: f"{t.microsecond // 1000:03d}"),
    "M": (None, lambda t: str(t.month)),
    "d": (None, lambda t: str(t.day)),
    "H": (None, lambda t: str(t.hour)),
    "m": (None, lambda t: str(t.minute)),
    "s": (None, lambda t: str(t.second)),
}
_LITERAL_CHARS = set(" -/:.,_T")
_FIELD_OF = {"yyyy": "year", "MM": "month", "dd": "day", "HH": "hour", "mm": "minute", "ss": "second"}


@lru_cache(maxsize=128)
def pattern_tokens(pattern: str) -> tuple[tuple[str, str], ...]:
    """A datetime pattern as (kind, text) tokens: ("field", "yyyy") or ("lit", "-"). A letter or run
    of letters outside the supported subset raises ``NotModelled``."""
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "'":
            j = pattern.find("'", i + 1)
            if j < 0 or j == i + 1:
                raise NotModelled(f"the datetime pattern {pattern!r} (quotes)")
            out.append(("lit", pattern[i + 1:j]))
            i = j + 1
            continue
        if c.isalpha() and c != "T" or c == "T" and i + 1 < len(pattern) and pattern[i + 1] == "T":
            j = i
            while j < len(pattern) and pattern[j] == c:
                j += 1
            run = pattern[i:j]
            if run not in _LETTERS:
                raise NotModelled(
                    f"the datetime pattern letters {run!r} in {pattern!r} (supported: yyyy, MM, M, dd, d, "
                    "HH, H, mm, m, ss, s, SSS, SSSSSS and the separators - / : . , _ space T and quoted "
                    "text)")
            out.append(("field", run))
            i = j
            continue
        if c not in _LITERAL_CHARS:
            raise NotModelled(f"the character {c!r} in the datetime pattern {pattern!r}")
        out.append(("lit", c))
        i += 1
    return tuple(out)


def format_pattern(t: datetime.datetime, pattern: str) -> str:
    """``date_format(ts, pattern)`` / ``from_unixtime(n, pattern)``."""
    return "".join(_LETTERS[text][1](t) if kind == "field" else text for kind,
                   text in pattern_tokens(pattern))


@lru_cache(maxsize=128)
def _parse_regexes(pattern: str) -> tuple[re.Pattern[str], re.Pattern[str], tuple[str, ...]]:
    tokens = pattern_tokens(pattern)
    strict, loose, fields = [], [], []
    for kind, text in tokens:
        if kind == "lit":
            strict.append(re.escape(text))
            loose.append(re.escape(text))
            continue
        width = _LETTERS[text][0]
        if width is None or text not in _FIELD_OF:
            raise NotModelled(f"parsing with the pattern letters {text!r} "
                              "(parsing supports yyyy, MM, dd, HH, mm, ss)")
        if _FIELD_OF[text] in fields:
            raise NotModelled(f"the datetime pattern {pattern!r} names a field twice")
        fields.append(_FIELD_OF[text])
        strict.append(f"([0-9]{{{width}}})")
        loose.append("[0-9]+")
    if "year" not in fields:
        raise NotModelled(f"parsing with the pattern {pattern!r}, which has no year (yyyy)")
    return re.compile("".join(strict)), re.compile("".join(loose)), tuple(fields)


def check_pattern(pattern: str, parse: bool) -> None:
    """Raise ``NotModelled`` for a literal pattern outside the subset (at translation)."""
    if parse:
        _parse_regexes(pattern)
    else:
        pattern_tokens(pattern)


def parse_pattern(s: str, pattern: str) -> datetime.datetime:
    """``to_timestamp(s, pattern)``: the whole string must match (fixed widths: ``MM`` is two
    digits); no match raises ``CANNOT_PARSE_TIMESTAMP``; missing fields default to January 1,
    midnight. A match only with other widths (a five-digit year), or impossible field values, raise
    ``OutsideModel`` (Java's resolver decides those)."""
    strict, loose, fields = _parse_regexes(pattern)
    m = strict.fullmatch(s)
    if m is None:
        if loose.fullmatch(s):
            raise _outside()
        raise SqlError(CANNOT_PARSE_TIMESTAMP)
    got = dict(zip(fields, (int(g) for g in m.groups()), strict=True))
    try:
        return datetime.datetime(got["year"], got.get("month", 1), got.get("day", 1), got.get("hour", 0),
                                 got.get("minute", 0), got.get("second", 0))
    except ValueError:
        raise _outside() from None


# -- functions -------------------------------------------------------------------------------------


def _arity(name: str, types: Sequence[SqlType], lo: int, hi: int) -> None:
    if not lo <= len(types) <= hi:
        raise ValueError(f"{name} takes {lo if lo == hi else f'{lo} to {hi}'} argument(s), got {len(types)}")


def _ts_arg(name: str, t: SqlType) -> SqlType | None:
    """A timestamp argument: a timestamp (either type) as it is; a string, a date or an untyped NULL
    cast to ``timestamp``; anything else an analysis error."""
    if isinstance(t, T.TimestampType):
        return None
    if isinstance(t, T.StringType | T.DateType | T.NullType):
        return TIMESTAMP
    raise ValueError(f"{name}: cannot take a {t.simple} (a timestamp is expected)")


def _pattern_arg(name: str, types: Sequence[SqlType], consts: Sequence[Any], i: int,
                 parse: bool) -> SqlType | None:
    if not isinstance(types[i], T.StringType | T.NullType):
        raise ValueError(f"{name}: the pattern must be a string, not {types[i].simple}")
    if not isinstance(consts[i], str):
        raise NotModelled(f"{name} with a pattern that is not a string literal")
    check_pattern(consts[i], parse)
    return None


def _field(name: str, fn: Callable[[datetime.datetime], int]) -> Spec:
    def evaluate(args: Sequence[Any], _types: Sequence[SqlType], _rt: SqlType) -> Any:
        return fn(args[0])

    def rule(types: Sequence[SqlType], nullables: Sequence[bool], _c: Sequence[Any]) -> TypeResult:
        _arity(name, types, 1, 1)
        return INT, nullables[0], (_ts_arg(name, types[0]),)

    return (name, "null_stop", evaluate, rule)


def _to_timestamp_eval(args: Sequence[Any], types: Sequence[SqlType], _rt: SqlType) -> Any:
    if len(args) == 1:
        return args[0]  # the cast the type rule inserts did the work
    if isinstance(types[0], T.StringType):
        return parse_pattern(args[0], args[1])
    return args[0] if isinstance(args[0], datetime.datetime) else midnight(args[0])


def _to_timestamp_rule(types: Sequence[SqlType], nullables: Sequence[bool],
                       consts: Sequence[Any]) -> TypeResult:
    _arity("to_timestamp", types, 1, 2)
    if len(types) == 1:
        return TIMESTAMP, nullables[0], (_ts_arg("to_timestamp", types[0]),)
    first = types[0]
    if not isinstance(first, T.StringType | T.DateType | T.TimestampType | T.NullType):
        raise ValueError(f"to_timestamp: cannot take a {first.simple}")
    return (TIMESTAMP, any(nullables),
            (STRING if isinstance(first, T.NullType) else None, _pattern_arg("to_timestamp", types, consts,
             1, True)))


def _unix_timestamp_eval(args: Sequence[Any], types: Sequence[SqlType], _rt: SqlType) -> Any:
    v = args[0]
    if isinstance(types[0], T.StringType):
        v = parse_pattern(v, args[1] if len(args) > 1 else "yyyy-MM-dd HH:mm:ss")
    elif not isinstance(v, datetime.datetime):
        v = midnight(v)
    m = micros(v)
    return m // _MICROS if m >= 0 else -(-m // _MICROS)  # Java's /: toward zero (-0.5 s is 0; a cast floors)


def _unix_timestamp_rule(types: Sequence[SqlType], nullables: Sequence[bool],
                         consts: Sequence[Any]) -> TypeResult:
    if not types:
        raise NotModelled("unix_timestamp() without an argument (the current time, nondeterministic)")
    _arity("unix_timestamp", types, 1, 2)
    first = types[0]
    if not isinstance(first, T.StringType | T.DateType | T.TimestampType | T.NullType):
        raise ValueError(f"unix_timestamp: cannot take a {first.simple}")
    casts: list[SqlType | None] = [STRING if isinstance(first, T.NullType) else None]
    if len(types) == 2:
        casts.append(_pattern_arg("unix_timestamp", types, consts, 1, True))
    return BIGINT, any(nullables), tuple(casts)


def _from_unixtime_eval(args: Sequence[Any], _types: Sequence[SqlType], _rt: SqlType) -> Any:
    t = from_micros(args[0] * _MICROS)
    return format_pattern(t, args[1] if len(args) > 1 else "yyyy-MM-dd HH:mm:ss")


def _from_unixtime_rule(types: Sequence[SqlType], nullables: Sequence[bool],
                        consts: Sequence[Any]) -> TypeResult:
    _arity("from_unixtime", types, 1, 2)
    first = types[0]
    if not isinstance(first, T.IntegralType | T.NullType):
        raise NotModelled(f"from_unixtime of a {first.simple} (an integral number of seconds is modelled)")
    casts: list[SqlType | None] = [None if first == BIGINT else BIGINT]
    if len(types) == 2:
        casts.append(_pattern_arg("from_unixtime", types, consts, 1, False))
    return STRING, any(nullables), tuple(casts)


def _date_format_eval(args: Sequence[Any], _types: Sequence[SqlType], _rt: SqlType) -> Any:
    return format_pattern(args[0], args[1])


def _date_format_rule(types: Sequence[SqlType], nullables: Sequence[bool],
                      consts: Sequence[Any]) -> TypeResult:
    _arity("date_format", types, 2, 2)
    return STRING, any(nullables), (_ts_arg("date_format", types[0]),
                                    _pattern_arg("date_format", types, consts, 1, False))


_TRUNC_UNITS = {
    "year": "year", "yyyy": "year", "yy": "year", "quarter": "quarter", "month": "month", "mm": "month",
    "mon": "month", "week": "week", "day": "day", "dd": "day", "hour": "hour", "minute": "minute",
    "second": "second", "millisecond": "millisecond", "microsecond": "microsecond",
}


def truncate(unit: str, t: datetime.datetime) -> datetime.datetime | None:
    """``date_trunc(unit, t)``; an unknown unit is NULL (observed)."""
    u = _TRUNC_UNITS.get(unit.lower())
    if u is None:
        return None
    if u == "year":
        return datetime.datetime(t.year, 1, 1)
    if u == "quarter":
        return datetime.datetime(t.year, (t.month - 1) // 3 * 3 + 1, 1)
    if u == "month":
        return datetime.datetime(t.year, t.month, 1)
    if u == "week":  # the Monday of the week
        day = t.date() - datetime.timedelta(days=t.weekday())
        return midnight(day)
    if u == "day":
        return midnight(t.date())
    if u == "hour":
        return t.replace(minute=0, second=0, microsecond=0)
    if u == "minute":
        return t.replace(second=0, microsecond=0)
    if u == "second":
        return t.replace(microsecond=0)
    if u == "millisecond":
        return t.replace(microsecond=t.microsecond // 1000 * 1000)
    return t


def _date_trunc_eval(args: Sequence[Any], _types: Sequence[SqlType], _rt: SqlType) -> Any:
    return truncate(args[0], args[1])


def _date_trunc_rule(types: Sequence[SqlType], nullables: Sequence[bool],
                     consts: Sequence[Any]) -> TypeResult:
    _arity("date_trunc", types, 2, 2)
    if not isinstance(types[0], T.StringType | T.NullType):
        raise ValueError(f"date_trunc: the unit must be a string, not {types[0].simple}")
    known = isinstance(consts[0], str) and consts[0].lower() in _TRUNC_UNITS
    return TIMESTAMP, any(nullables) or not known, (None, _ts_arg("date_trunc", types[1]))


def months_between(a: datetime.datetime, b: datetime.datetime, round_off: bool) -> float:
    """Spark's ``DateTimeUtils.monthsBetween``: whole months when the days of month agree or both are
    the last day of their month; else the month difference plus the difference in seconds over 31
    days; rounded to 8 decimal places unless ``round_off`` is false."""
    import calendar

    month_diff = (a.year * 12 + a.month) - (b.year * 12 + b.month)
    last_a = a.day == calendar.monthrange(a.year, a.month)[1]
    last_b = b.day == calendar.monthrange(b.year, b.month)[1]
    if a.day == b.day or (last_a and last_b):
        return float(month_diff)
    secs_a = a.hour * 3600 + a.minute * 60 + a.second
    secs_b = b.hour * 3600 + b.minute * 60 + b.second
    seconds_diff = (a.day - b.day) * 86400 + secs_a - secs_b
    diff = month_diff + seconds_diff / (31 * 86400.0)
    if not round_off:
        return diff
    from decimal import ROUND_HALF_UP, Decimal

    return float(Decimal(diff).quantize(Decimal("1e-8"), rounding=ROUND_HALF_UP))


def _months_between_eval(args: Sequence[Any], _types: Sequence[SqlType], _rt: SqlType) -> Any:
    return months_between(args[0], args[1], args[2] if len(args) > 2 else True)


def _months_between_rule(types: Sequence[SqlType], nullables: Sequence[bool],
                         _c: Sequence[Any]) -> TypeResult:
    _arity("months_between", types, 2, 3)
    casts = [_ts_arg("months_between", t) for t in types[:2]]
    if len(types) == 3:
        if not isinstance(types[2], T.BooleanType):
            raise ValueError("months_between: roundOff must be a boolean")
        casts.append(None)
    return DOUBLE, any(nullables), tuple(casts)


def _second_of(t: datetime.datetime) -> int:
    return t.second


TIMESTAMP_FUNCTIONS: tuple[Spec, ...] = (
    _field("hour", lambda t: t.hour),
    _field("minute", lambda t: t.minute),
    _field("second", _second_of),
    ("to_timestamp", "null_stop", _to_timestamp_eval, _to_timestamp_rule),
    ("unix_timestamp", "null_stop", _unix_timestamp_eval, _unix_timestamp_rule),
    ("from_unixtime", "null_stop", _from_unixtime_eval, _from_unixtime_rule),
    ("date_format", "null_stop", _date_format_eval, _date_format_rule),
    ("date_trunc", "null_stop", _date_trunc_eval, _date_trunc_rule),
    ("months_between", "null_stop", _months_between_eval, _months_between_rule),
)

FUNCTIONS_BY_NAME = {spec[0]: spec for spec in TIMESTAMP_FUNCTIONS}

#: what the others may raise (error conditions, as ``effects`` names them)
RAISES = {"to_timestamp": frozenset({"CANNOT_PARSE_TIMESTAMP"}),
          "unix_timestamp": frozenset({"CANNOT_PARSE_TIMESTAMP"}),
          "from_unixtime": frozenset({"CAST_OVERFLOW"})}

#: functions here that never raise in Spark (their implicit casts are separate ``Cast`` nodes)
NEVER_RAISE = frozenset({"hour", "minute", "second", "date_format", "date_trunc", "months_between"})

__all__ = ["CANNOT_PARSE_TIMESTAMP", "NEVER_RAISE", "SESSION_TIME_ZONE", "TIMESTAMP_FUNCTIONS",
           "OutsideModel",
           "can_cast", "cast", "cast_kinds", "cast_supported", "format_default", "micros", "parse_timestamp"]
