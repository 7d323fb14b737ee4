"""``df.groupBy(keys).pivot(col, [v1, v2...]).agg(...)`` as two kernel aggregations, the plan Spark 4 runs.

Why two aggregations and not one ``sum(CASE WHEN col <=> v THEN x END)`` per value: when every aggregate
output is numeric or boolean (``PivotFirst.supportsDataType``), Spark's analyzer (``ResolvePivot``)
aggregates by ``keys + [col]`` first, then picks, per listed value, the row of that value (``PivotFirst``)
-- so a value no row has gives NULL even for ``count`` (``pivot('x', [10, 5]).count()`` shows NULL, not
0), and the aggregates and output expressions are computed for every ``(keys, col)`` group, listed or not
(an error there fails the query). The kernel says exactly that: ``Aggregate(keys + [col], outputs)``,
then ``Aggregate(keys, max(CASE WHEN col <=> v THEN out END))`` (each ``(keys, v)`` group is one row, so
``max`` picks it), then the outputs in Spark's order. Checked on Spark 4 (docs/semantics-notes.md,
"pivot").

Located refusals: ``pivot`` without a list of values (the output columns then depend on the data: Spark
collects the distinct values in a job of its own), an aggregate output of another type (Spark then
rewrites each aggregate's argument with ``if(col <=> v, x, NULL)``, where ``count`` gives 0: not
modelled), a floating-point pivot column (the first aggregation groups -0.0 with 0.0 and Spark matches
the listed values in a hash map that does not), a listed value whose Python type is not the column's,
``pivot`` after ``rollup``/``cube``, ``sum()``/``avg()``... without column names, and the shapes whose
meaning was not checked on Spark (an empty or tuple list of values, a pivot column that is a grouping key).

Output names (Spark's ``outputName``): the value cast to a string (``None`` is ``null``) with one
aggregate, ``<value>_<aggregate's name>`` with several (``a_sum(x)``, ``a_s`` for an alias).
"""

from __future__ import annotations

import datetime
from typing import Any

from frontend.dataframe.columns import DF, Attr, Name
from frontend.dataframe.values import DFV, GroupedV, PyV, SeqV, Value
from sparklite.ast import Loc
from sparklite.errors import UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational import build
from sparklite.relational.types import (
    BooleanType,
    DateType,
    DecimalType,
    DoubleType,
    IntegralType,
    SqlType,
    StringType,
)

#: the aggregate output types Spark's ``PivotFirst`` supports (the two-aggregation plan)
_PIVOT_FIRST = (IntegralType, DecimalType, BooleanType, DoubleType)


def start(g: GroupedV, args: list[Value], kwargs: dict[str, Value], loc: Loc) -> GroupedV:
    """``grouped.pivot(pivot_col, values)``: the grouped data remembering the column and its values."""
    if g.sets is not None:
        raise UnsupportedError("pivot after rollup/cube is not supported", loc, construct="pivot")
    if g.pivot is not None:
        raise UnsupportedError("pivot of a pivot (Spark rejects it)", loc, construct="pivot")
    params = dict(zip(("pivot_col", "values"), args, strict=False)) | kwargs
    col, values = params.get("pivot_col"), params.get("values")
    if not (isinstance(col, PyV) and isinstance(col.value, str)):
        raise UnsupportedError("pivot of something other than a column name", loc, construct="pivot")
    if values is None or isinstance(values, PyV) and values.value is None:
        raise UnsupportedError(
            "pivot without a list of values (the output columns depend on the data)", loc, construct="pivot"
        )
    if not (isinstance(values, SeqV) and values.is_list and all(isinstance(v, PyV) for v in values.items)):
        raise UnsupportedError("pivot values that are not a list of literals", loc, construct="pivot")
    if not values.items:
        raise UnsupportedError("pivot with an empty list of values (not checked on Spark)", loc,
                               construct="pivot")
    if any(isinstance(k, Name) and k.parts[-1].lower() == col.value.lower() for k in g.keys):
        raise UnsupportedError("pivot on a grouping column (not checked on Spark)", loc, construct="pivot")
    return GroupedV(g.df, g.keys, None, (col.value, tuple(v.value for v in values.items)))  # type: ignore[union-attr]


def aggregate(t: Any, g: GroupedV, name: str, args: list[Value], kwargs: dict[str, Value], loc: Loc) -> DFV:
    """The aggregation ``name`` (``agg``, ``count``, ``sum``...) of a pivoted ``GroupedV``."""
    assert g.pivot is not None
    col_name, values = g.pivot
    if name in ("sum", "avg", "mean", "min", "max") and not args:
        raise UnsupportedError(f"pivot followed by {name}() without column names", loc, construct="pivot")
    # the first aggregation: by keys + [col], through the ordinary groupBy translation
    first: DFV = t.grouped_method(GroupedV(g.df, (*g.keys, Name((col_name,), loc=loc))), name, args, kwargs,
                                  loc)
    df: DF = first.df
    nk = len(g.keys)
    cols = build.columns_of(df.rel)
    pcol, outs = cols[nk], cols[nk + 1 :]
    out_names = [a.name for a in df.attrs[nk + 1 :]]
    if not isinstance(pcol.type, _KEY_TYPES):
        raise UnsupportedError(
            f"pivot on a column of type {pcol.type.simple} is not supported", loc, construct="pivot"
        )
    for o in outs:
        if not isinstance(o.type, _PIVOT_FIRST):
            raise UnsupportedError(
                f"pivot with an aggregate of type {o.type.simple} (Spark's per-value rewrite, where count "
                "gives 0) is not supported",
                loc,
                construct="pivot",
            )
    aggs: list[R.AggCall] = []
    names: list[str] = []
    for v in values:
        match = build.compare("<=>", pcol, _literal(v, pcol.type, loc), loc)
        shown = _shown(v)
        for o, oname in zip(outs, out_names, strict=True):
            aggs.append(build.agg("max", [build.case([(match, o)], None, loc)], loc))
            names.append(shown if len(outs) == 1 else f"{shown}_{oname}")
    key_cols = list(cols[:nk])
    key_names = [a.name for a in df.attrs[:nk]]
    rel = build.aggregate(df.rel, key_cols, key_names, aggs, names, loc)
    attrs = (*df.attrs[:nk], *(Attr(t.ids.fresh(), n) for n in names))
    return DFV(DF(rel, attrs, df.ambiguous, df.hidden))


#: pivot column types with an exact match of listed values (no double: see the module's docstring)
_KEY_TYPES = (IntegralType, StringType, BooleanType, DateType, DecimalType)


def _literal(v: object, t: SqlType, loc: Loc) -> R.Expr:
    """The listed value as a literal of the column's type, when its Python type is the column's."""
    if v is None:
        return R.Lit(None, t, loc=loc)
    ok = (
        isinstance(t, IntegralType) and isinstance(v, int) and not isinstance(v, bool) and t.min <= v <= t.max
        or isinstance(t, StringType) and isinstance(v, str)
        or isinstance(t, BooleanType) and isinstance(v, bool)
        or isinstance(t, DateType) and isinstance(v, datetime.date) and not isinstance(v, datetime.datetime)
    )
    if not ok:
        raise UnsupportedError(
            f"pivot value {v!r} for a column of type {t.simple} (Spark casts it) is not supported",
            loc,
            construct="pivot",
        )
    return R.Lit(v, t, loc=loc)


def _shown(v: object) -> str:
    """Spark's ``Cast(value, StringType)`` of a listed value."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


__all__ = ["aggregate", "start"]
