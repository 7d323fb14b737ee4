"""Dates in SQL text: ``INTERVAL`` arithmetic, ``EXTRACT`` and the date functions sqlglot rewrites.

A mixin of ``translator._Translator``. Why a module of its own: sqlglot's Spark reader does not keep
what the user wrote for dates (``year(d)`` becomes ``Year(TsOrDsToDate(d))``, ``date_sub(d, 2)``
becomes ``TsOrDsAdd(d, 2 * -1, DAY)``), so the arguments are taken back here before the function
table (``sparklite.relational.dates``) types them as Spark does.

Spark 4's analyser, as observed (``docs/semantics-notes.md``, "Dates"):
- ``d + INTERVAL 'n' DAY`` (``DAYS``, ``INTERVAL n days``) is ``date_add(d, n)``, named
  ``date_add(d, extractansiintervaldays(INTERVAL 'n' DAY))``; ``d - INTERVAL 'n' DAY`` is
  ``date_add(d, (- extractansiintervaldays(INTERVAL 'n' DAY)))``; both are dates;
- ``d + INTERVAL 'n' MONTH`` (``YEAR``: 12 n months) is ``add_months``'s arithmetic (clamped to the
  month's end), named ``d + INTERVAL 'n' MONTH``;
- an hour, minute or second interval makes a timestamp, which the kernel does not have yet: refused;
- ``EXTRACT(YEAR FROM d)`` is ``year(d)`` named ``extract(YEAR FROM d)``.
"""

from __future__ import annotations

import re

from sqlglot import exp

from frontend.sql.scopes import _E, _Ctx, _start
from sparklite.ast import Loc
from sparklite.relational import build
from sparklite.relational.types import DATE, INT, DateType

#: EXTRACT fields the kernel has, and the function each one is (Spark's ``extract`` synonyms)
_EXTRACT = {
    "year": "year", "years": "year", "y": "year", "yr": "year", "yrs": "year", "yyyy": "year",
    "month": "month", "months": "month", "mon": "month", "mons": "month",
    "day": "day", "days": "day", "d": "day",
    "quarter": "quarter", "qtr": "quarter",
    "dow": "dayofweek", "dayofweek": "dayofweek",
    "doy": "dayofyear",
    "week": "weekofyear", "weeks": "weekofyear", "w": "weekofyear",
    "hour": "hour", "hours": "hour", "h": "hour", "hr": "hour", "hrs": "hour",
    "minute": "minute", "minutes": "minute", "m": "minute", "min": "minute", "mins": "minute",
}

#: the date functions sqlglot wraps or rewrites, by the name the user called
DATE_CALLS = frozenset({"year", "month", "day", "dayofmonth", "quarter", "dayofweek", "dayofyear",
                        "weekofyear", "date_add", "date_sub", "datediff", "add_months", "to_date"})

_DAY_UNITS = {"day", "days"}
_MONTH_UNITS = {"month": 1, "months": 1, "year": 12, "years": 12}


def _written(node: exp.Expression) -> bool:
    """Whether the user wrote ``node`` (sqlglot positions what it read; what it adds has no position)."""
    return bool(node.meta) and "start" in node.meta


class DatesMixin:
    """``INTERVAL`` arithmetic, ``EXTRACT`` and the arguments of date functions."""

    def date_call_args(
        self, node: exp.Func, called: str, arg_nodes: list[exp.Expression]
    ) -> list[exp.Expression]:
        """The arguments the user wrote for a date function sqlglot rewrote: implicit
        ``TsOrDsToDate`` wrappers removed, ``date_sub``'s ``n * -1`` back to ``n``, the unit dropped."""
        if called not in DATE_CALLS:
            return arg_nodes
        if called == "to_date" and node.args.get("format") is not None:
            raise self.unsupported("to_date with a format", node,  # type: ignore[attr-defined]
                                   "to_date(s) without a format (a cast to date) is supported")
        out = []
        for a in arg_nodes:
            if isinstance(a, exp.Var) and isinstance(node, exp.TsOrDsAdd):
                continue  # the DAY unit sqlglot adds
            if isinstance(a, exp.TsOrDsToDate) and not _written(a) and a.args.get("format") is None:
                a = a.this  # the cast sqlglot assumes: Spark's own type rule decides
            if called == "date_sub" and isinstance(a, exp.Mul) and not _written(a.expression):
                a = a.this  # sqlglot's n * -1
            out.append(a)
        starts = [_start(a) for a in out]
        if all(s is not None for s in starts):
            out = [a for _, a in sorted(zip(starts, out, strict=True), key=lambda p: p[0])]  # type: ignore[arg-type,return-value]
        return out

    def h_extract(self, node: exp.Extract, ctx: _Ctx, loc: Loc) -> _E:
        named = isinstance(node.this, exp.Var | exp.Identifier | exp.Column)
        field = node.this.name if named else str(node.this)
        at = _start(node.expression)
        text = self.src.text[:at] if at else ""  # type: ignore[attr-defined]
        m = re.search(r"(?is)extract\s*\(\s*(\w+)\s+from\s*\(*\s*$", text)
        if m:
            field = m.group(1)  # as written: Spark's name keeps it (sqlglot upper-cases it)
        fn = _EXTRACT.get(field.lower())
        if fn is None:
            raise self.unsupported(f"EXTRACT({field.upper()} FROM ...)", node,  # type: ignore[attr-defined]
                                   "supported fields: YEAR, MONTH, DAY, QUARTER, DOW, DOY, WEEK, "
                                   "HOUR, MINUTE")
        e = self.expr(node.expression, ctx)  # type: ignore[attr-defined]
        return _E(self.func(fn, [e.expr], node, loc), f"extract({field} FROM {e.name})")  # type: ignore[attr-defined]

    def h_interval(self, node: exp.Interval, ctx: _Ctx, loc: Loc) -> _E:
        raise self.unsupported(  # type: ignore[attr-defined]
            "an INTERVAL value outside date arithmetic", node,
            "only DATE + or - INTERVAL 'n' DAY/MONTH/YEAR is supported "
            "(interval types are not in the kernel)",
        )

    def interval_arith(self, node: exp.Add | exp.Sub, ctx: _Ctx, loc: Loc) -> _E | None:
        """``date ± INTERVAL 'n' unit`` (and ``INTERVAL + date``), or None when neither operand is an
        interval."""
        left, right = node.this, node.expression
        while isinstance(left, exp.Paren):
            left = left.this
        while isinstance(right, exp.Paren):
            right = right.this
        if isinstance(right, exp.Interval):
            date_node, iv = left, right
        elif isinstance(left, exp.Interval) and isinstance(node, exp.Add):
            date_node, iv = right, left
        elif isinstance(left, exp.Interval):
            raise self.unsupported("INTERVAL - date", node)  # type: ignore[attr-defined]
        else:
            return None
        n, unit, shown = self.interval_parts(iv)
        d = self.expr(date_node, ctx)  # type: ignore[attr-defined]
        if not isinstance(d.expr.type, DateType):
            raise self.unsupported(  # type: ignore[attr-defined]
                f"INTERVAL arithmetic on a {d.expr.type.simple}", node,
                "only a DATE plus or minus a DAY, MONTH or YEAR interval is supported",
            )
        sub = isinstance(node, exp.Sub)
        if unit in _DAY_UNITS:
            days = build.lit(-n if sub else n, loc)
            if days.type != INT:
                raise self.unsupported("an INTERVAL of more days than an int holds", iv)  # type: ignore[attr-defined]
            extract = f"extractansiintervaldays({shown})"
            name = f"date_add({d.name}, {'(- ' + extract + ')' if sub else extract})"
            return _E(build.func("date_add", [d.expr, days], loc=loc), name)
        months = n * _MONTH_UNITS[unit]
        count = build.lit(-months if sub else months, loc)
        if count.type != INT:
            raise self.unsupported("an INTERVAL of more months than an int holds", iv)  # type: ignore[attr-defined]
        name = f"{d.name} {'-' if sub else '+'} {shown}"
        return _E(build.func("add_months", [d.expr, count], loc=loc), name)

    def interval_parts(self, iv: exp.Interval) -> tuple[int, str, str]:
        """(count, unit in lower case, Spark's spelling ``INTERVAL '3' MONTH``) of a one-unit interval
        literal; anything else is refused."""
        unit_node = iv.args.get("unit")
        unit = unit_node.name.lower() if isinstance(unit_node, exp.Var) else None
        if isinstance(unit_node, exp.Expression) and not isinstance(unit_node, exp.Var):
            unit = unit_node.key.lower()
            if unit_node.this is not None:
                raise self.unsupported("an INTERVAL with a precision", iv)  # type: ignore[attr-defined]
        value = iv.this
        text = value.this if isinstance(value, exp.Literal) else None
        if unit is None or text is None or not re.fullmatch(r"\s*[+-]?\d+\s*", str(text)):
            raise self.unsupported("this INTERVAL literal", iv,  # type: ignore[attr-defined]
                                   "only INTERVAL 'n' DAY/MONTH/YEAR with an integer n is supported")
        if unit not in _DAY_UNITS and unit not in _MONTH_UNITS:
            raise self.unsupported(  # type: ignore[attr-defined]
                f"INTERVAL ... {unit.upper()}", iv,
                "an hour/minute/second or week interval (a timestamp) is not in the kernel; "
                "DAY, MONTH, YEAR are",
            )
        n = int(str(text))
        spelled = {"days": "DAY", "months": "MONTH", "years": "YEAR"}.get(unit, unit.upper())
        return n, unit, f"INTERVAL '{n}' {spelled}"


__all__ = ["DATE_CALLS", "DatesMixin", "DATE"]
