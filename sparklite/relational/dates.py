"""Date functions and ``LIKE`` of the relational kernel, as Spark 4 computes them (session time zone UTC).

Kept apart from ``functions`` so that the date/time family has one home (the function table there
lists these specs next to its own, as ``FuncSpec(*spec)``; ``docs/dataframes.md`` has the table of
what is supported). Why these are plain ``Func`` nodes and not new kernel nodes: every one of them
is deterministic, so the prover may treat it as an uninterpreted function of its operands
(``encoder.relational.smt``) and the interpreter, codegen (``F.call_function(name, ...)``) and
generator need no new case.

Facts, observed on PySpark 4 (``docs/semantics-notes.md``, "Dates"):
- ``dayofweek`` counts from Sunday = 1; ``weekofyear`` is the ISO week (``2021-01-01`` is week 53);
- ``date_add``/``date_sub`` take an ``int``/``smallint``/``tinyint`` count (a ``bigint`` or a decimal
  is an analysis error); a string date argument is cast to ``date`` (``CAST_INVALID_INPUT`` if it
  does not parse);
- ``add_months`` and ``date + INTERVAL 'n' MONTH`` clamp to the month's last day (``2000-01-31`` plus
  one month is ``2000-02-29``);
- a result outside years 1..9999 is a value in Spark (``LocalDate`` is proleptic) that
  ``datetime.date`` cannot hold: it raises ``DateOutOfRange``, whose caveat makes a difference
  resting on it wait for Spark;
- ``LIKE`` matches the whole string, case-sensitively, ``%`` and ``_`` across newlines, with ``\\``
  escaping ``%``, ``_`` and itself; any other escape raises ``INVALID_FORMAT.ESC_IN_THE_MIDDLE``, a
  pattern ending in ``\\`` ``INVALID_FORMAT.ESC_AT_THE_END`` (at analysis for a literal pattern);
  ``12 LIKE '1%'`` casts the number to a string.
"""

from __future__ import annotations

import calendar
import datetime
import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from sparklite.relational import types as T
from sparklite.relational.sqlerror import DateOutOfRange, SqlError
from sparklite.relational.types import BOOLEAN, DATE, INT, STRING, SqlType
from sparklite.relational.values import CAST_INVALID_DATE, RelError

TypeResult = tuple[SqlType, bool, tuple[SqlType | None, ...]]
#: one function as ``functions.FuncSpec`` takes it: name, mode, evaluate, type rule
Spec = tuple[str, str, Callable[..., Any], Callable[..., TypeResult]]


def _arity(name: str, types: Sequence[SqlType], lo: int, hi: int) -> None:
    if not lo <= len(types) <= hi:
        raise ValueError(f"{name} takes {lo if lo == hi else f'{lo} to {hi}'} argument(s), got {len(types)}")

#: an invalid ``LIKE`` pattern: an escape before another character (``'a\\b'``), or at the end
LIKE_ESC_IN_THE_MIDDLE = RelError("AnalysisException", "INVALID_FORMAT.ESC_IN_THE_MIDDLE")
LIKE_ESC_AT_THE_END = RelError("AnalysisException", "INVALID_FORMAT.ESC_AT_THE_END")

_EPOCH = datetime.date(1970, 1, 1)


def _date_arg(name: str, t: SqlType) -> SqlType | None:
    """A date argument: a date as it is; a string or an untyped NULL cast to ``date``; else an
    analysis error."""
    if isinstance(t, T.DateType):
        return None
    if isinstance(t, T.StringType | T.NullType | T.TimestampType):  # a timestamp: its date (UTC)
        return DATE
    raise ValueError(f"{name}: cannot take a {t.simple} (a date is expected)")


def _count_arg(name: str, t: SqlType, bigint_ok: bool) -> SqlType | None:
    """A day or month count: ``int``, ``smallint``, ``tinyint`` as they are; a string or NULL cast to
    ``int``; a ``bigint`` too for ``add_months`` only (``date_add(d, 5L)`` is an analysis error)."""
    if isinstance(t, T.IntegralType) and (t.bits <= 32 or bigint_ok):
        return None if t.bits <= 32 else INT
    if isinstance(t, T.NullType | T.StringType):
        return INT
    raise ValueError(f"{name}: the count must be an int, smallint or tinyint, not {t.simple}")


def plus_days(d: datetime.date, n: int) -> datetime.date:
    """``d + n`` days; a result outside years 1..9999 raises ``DateOutOfRange``."""
    try:
        return d + datetime.timedelta(days=n)
    except OverflowError:
        raise DateOutOfRange(CAST_INVALID_DATE) from None


def plus_months(d: datetime.date, n: int) -> datetime.date:
    """``add_months``: the same day ``n`` months on, clamped to that month's last day."""
    total = d.year * 12 + (d.month - 1) + n
    year, month = divmod(total, 12)
    if not 1 <= year <= 9999:
        raise DateOutOfRange(CAST_INVALID_DATE)
    day = min(d.day, calendar.monthrange(year, month + 1)[1])
    return datetime.date(year, month + 1, day)


def _part(name: str, fn: Any) -> Spec:
    """A field of a date (``year``, ``month``...): an ``int``, NULL for NULL."""

    def evaluate(args: Sequence[Any], _types: Sequence[SqlType], _rt: SqlType) -> Any:
        return fn(args[0])

    def rule(types: Sequence[SqlType], nullables: Sequence[bool], _c: Sequence[Any]) -> TypeResult:
        _arity(name, types, 1, 1)
        return INT, nullables[0], (_date_arg(name, types[0]),)

    return (name, "null_stop", evaluate, rule)


def _date_count(name: str, sign: int, months: bool) -> Spec:
    """``date_add``/``date_sub``/``add_months(d, n)``."""

    def evaluate(args: Sequence[Any], _types: Sequence[SqlType], _rt: SqlType) -> Any:
        d, n = args
        return plus_months(d, sign * n) if months else plus_days(d, sign * n)

    def rule(types: Sequence[SqlType], nullables: Sequence[bool], _c: Sequence[Any]) -> TypeResult:
        _arity(name, types, 2, 2)
        return DATE, any(nullables), (_date_arg(name, types[0]), _count_arg(name, types[1], months))

    return (name, "null_stop", evaluate, rule)


def _datediff_eval(args: Sequence[Any], _types: Sequence[SqlType], _rt: SqlType) -> Any:
    return (args[0] - args[1]).days


def _datediff_rule(types: Sequence[SqlType], nullables: Sequence[bool], _c: Sequence[Any]) -> TypeResult:
    _arity("datediff", types, 2, 2)
    return INT, any(nullables), tuple(_date_arg("datediff", t) for t in types)


def _to_date_eval(args: Sequence[Any], _types: Sequence[SqlType], _rt: SqlType) -> Any:
    return args[0]  # the cast to date the type rule inserts did the work


def _to_date_rule(types: Sequence[SqlType], nullables: Sequence[bool], _c: Sequence[Any]) -> TypeResult:
    if len(types) == 2:
        raise ValueError("to_date with a format is not supported (only to_date(s), a cast to date)")
    _arity("to_date", types, 1, 1)
    return DATE, nullables[0], (_date_arg("to_date", types[0]),)


# -- LIKE ------------------------------------------------------------------------------------------


@lru_cache(maxsize=256)
def like_regex(pattern: str, escape: str = "\\") -> re.Pattern[str]:
    """Spark's ``StringUtils.escapeLikeRegex``: ``%`` any text, ``_`` one character (newlines too),
    ``escape`` before ``%``, ``_`` or itself a literal; any other use of ``escape`` raises."""
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == escape:
            if i + 1 >= len(pattern):
                raise SqlError(LIKE_ESC_AT_THE_END)
            if pattern[i + 1] not in ("%", "_", escape):
                raise SqlError(LIKE_ESC_IN_THE_MIDDLE)
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append(".*" if c == "%" else "." if c == "_" else re.escape(c))
        i += 1
    return re.compile("".join(out), re.S)


def like_pattern_valid(pattern: str) -> bool:
    """Whether a ``LIKE`` pattern is one Spark accepts (a literal one decides once whether it raises)."""
    try:
        like_regex(pattern)
    except SqlError:
        return False
    return True


def _like_eval(args: Sequence[Any], _types: Sequence[SqlType], _rt: SqlType) -> Any:
    return like_regex(args[1]).fullmatch(args[0]) is not None


_LIKE_ARGS = (T.IntegralType, T.DoubleType, T.DecimalType, T.BooleanType, T.DateType, T.StringType,
              T.NullType)


def _like_rule(types: Sequence[SqlType], nullables: Sequence[bool], consts: Sequence[Any]) -> TypeResult:
    """A literal pattern Spark rejects is an analysis error (``INVALID_FORMAT.ESC_*``); a computed one
    raises when a row reaches it."""
    _arity("like", types, 2, 2)
    if isinstance(consts[1], str) and not like_pattern_valid(consts[1]):
        raise ValueError(f"like: the pattern {consts[1]!r} is invalid (INVALID_FORMAT: an escape character "
                         "must precede %, _ or itself)")
    casts: list[SqlType | None] = []
    for t in types:
        if not isinstance(t, _LIKE_ARGS):
            raise ValueError(f"like: cannot take a {t.simple}")
        casts.append(None if isinstance(t, T.StringType) else STRING)
    return BOOLEAN, any(nullables), tuple(casts)


DATE_FUNCTIONS: tuple[Spec, ...] = (
    _part("year", lambda d: d.year),
    _part("month", lambda d: d.month),
    _part("day", lambda d: d.day),
    _part("dayofmonth", lambda d: d.day),
    _part("quarter", lambda d: (d.month - 1) // 3 + 1),
    _part("dayofweek", lambda d: d.isoweekday() % 7 + 1),
    _part("dayofyear", lambda d: d.timetuple().tm_yday),
    _part("weekofyear", lambda d: d.isocalendar()[1]),
    _date_count("date_add", 1, False),
    _date_count("date_sub", -1, False),
    _date_count("add_months", 1, True),
    ("datediff", "null_stop", _datediff_eval, _datediff_rule),
    ("to_date", "null_stop", _to_date_eval, _to_date_rule),
    ("like", "null_stop", _like_eval, _like_rule),
)

#: functions here that never raise in Spark (their implicit casts are separate ``Cast`` nodes; a date
#: outside years 1..9999 is a value there, only the interpreter lacks it): ``effects`` reads this.
#: ``like`` raises on an invalid pattern, so ``effects`` decides it by its pattern.
NEVER_RAISE = frozenset({"year", "month", "day", "dayofmonth", "quarter", "dayofweek", "dayofyear",
                         "weekofyear", "datediff", "to_date", "date_add", "date_sub", "add_months"})

__all__ = ["DATE_FUNCTIONS", "LIKE_ESC_AT_THE_END", "LIKE_ESC_IN_THE_MIDDLE", "NEVER_RAISE",
           "like_pattern_valid", "like_regex", "plus_days", "plus_months"]
