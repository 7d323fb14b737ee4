"""``df.fillna``/``df.na.fill`` and ``df.dropna``/``df.na.drop``, as the projections and filters Spark
builds for them (``DataFrameNaFunctions``), checked on Spark 4 (``docs/semantics-notes.md``, "fillna
and dropna"):

- ``fillna(v)`` fills the columns of ``v``'s kind only: a number the numeric columns (int, bigint,
  double, decimal...; PySpark sends an int as a double, so ``fillna(1.5)`` puts 1 in an int column and
  ``fillna(2**40)`` fails with ``CAST_OVERFLOW`` on an int column), a string the string columns, a bool
  the boolean ones; a double column's NaN is filled too (``coalesce(nanvl(c, NULL), CAST(v AS t))``);
  ``subset`` names columns case-insensitively (an unknown one is ``UNRESOLVED_COLUMN``) and columns of
  another kind in it are left alone; a dict maps column names to values;
- ``dropna(how='any', thresh=None, subset=None)`` keeps the rows with at least ``thresh`` values that are
  neither NULL nor NaN among the columns (``any``: all of them, ``all``: one); ``thresh`` wins over
  ``how``.

What could raise at planning (a value that does not fit a column's type, a dict value of another kind
than its column) is refused rather than modelled.
"""

from __future__ import annotations

from typing import Any

from frontend.dataframe.columns import (
    DF,
    Bin,
    Call,
    Cast,
    CExpr,
    IsNull,
    Lit,
    Resolved,
    Scope,
    Unary,
    When,
    col_at,
)
from frontend.dataframe.values import DictV, PyV, SeqV, Value, describe
from sparklite.ast import Loc
from sparklite.errors import InputError, UnsupportedError
from sparklite.relational.build import AnalysisError
from sparklite.relational.functions import SqlError, cast_value
from sparklite.relational.types import (
    DOUBLE,
    BooleanType,
    DecimalType,
    DoubleType,
    IntegralType,
    SqlType,
    StringType,
)


def _kind(t: SqlType) -> str | None:
    if isinstance(t, IntegralType | DoubleType | DecimalType):
        return "number"
    if isinstance(t, StringType):
        return "string"
    if isinstance(t, BooleanType):
        return "bool"
    return None


def _value_kind(v: Any) -> str | None:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int | float):
        return "number"
    if isinstance(v, str):
        return "string"
    return None


def _names(v: Value, loc: Loc, what: str) -> list[str] | None:
    if v == PyV(None):
        return None
    if isinstance(v, PyV) and isinstance(v.value, str):
        return [v.value]
    if isinstance(v, SeqV) and all(isinstance(x, PyV) and isinstance(x.value, str) for x in v.items):
        return [x.value for x in v.items]  # type: ignore[union-attr]
    raise InputError(f"{what} must be a column name or a list of them, not {describe(v)}", loc)


def _positions(df: DF, names: list[str] | None, loc: Loc) -> list[int]:
    lowered = [a.name.lower() for a in df.attrs]
    if len(set(lowered)) != len(lowered):
        raise UnsupportedError("fillna/dropna on a DataFrame with two columns of one name", loc,
                               construct="na")
    if names is None:
        return list(range(len(df.attrs)))
    out = []
    for n in names:
        if n.lower() not in lowered:
            raise AnalysisError(f"[UNRESOLVED_COLUMN] fillna/dropna: no column {n!r} in "
                                f"{', '.join(a.name for a in df.attrs)}", loc)
        out.append(lowered.index(n.lower()))
    return out


def _ref(df: DF, i: int, loc: Loc) -> CExpr:
    col = col_at(Scope.of(df), i, loc)
    return Resolved(col, df.attrs[i].name, loc=loc)


def _filled(df: DF, i: int, value: Any, loc: Loc) -> CExpr:
    """``coalesce(c, CAST(v AS t))``, with ``nanvl(c, NULL)`` for a double column."""
    t = df.fields[i].type
    if isinstance(value, bool | str):
        lit_value, lit_type = value, t
    elif isinstance(value, float) or (isinstance(value, int) and abs(value) < 2**53):
        lit_value, lit_type = float(value), DOUBLE
    else:
        raise UnsupportedError(f"fillna({value!r}): an integer beyond 2^53 (PySpark sends it as a double)",
                               loc, construct="fillna")
    try:
        cast_value(lit_value, lit_type, t)
    except SqlError as exc:
        raise UnsupportedError(f"fillna({value!r}) on column {df.attrs[i].name} of type {t.simple}: the "
                               f"value does not fit ({exc.error}); Spark fails", loc,
                               construct="fillna") from None
    ref = _ref(df, i, loc)
    if isinstance(t, DoubleType):
        ref = Call("nanvl", (ref, Lit(None, loc=loc)), loc=loc)
    fill: CExpr = Lit(lit_value, loc=loc)
    if lit_type != t:
        fill = Cast(fill, t, loc=loc)
    return Call("coalesce", (ref, fill), loc=loc)


def fill_columns(df: DF, value: Value, subset: Value, loc: Loc) -> list[tuple[str, CExpr]]:
    """The ``(name, expression)`` pairs ``fillna(value, subset)`` replaces."""
    if isinstance(value, DictV):
        pairs: list[tuple[int, Any]] = []
        for k, v in value.items:
            if not (isinstance(k, PyV) and isinstance(k.value, str)) or not isinstance(v, PyV):
                raise InputError("fillna(dict) maps column names to constants", loc)
            (i,) = _positions(df, [k.value], loc)
            if _value_kind(v.value) is None or _value_kind(v.value) != _kind(df.fields[i].type):
                raise UnsupportedError(f"fillna({{{k.value!r}: {v.value!r}}}): a value of another kind "
                                       f"than the {df.fields[i].type.simple} column (Spark casts it, and "
                                       "may fail)", loc, construct="fillna")
            pairs.append((i, v.value))
    else:
        if not isinstance(value, PyV) or _value_kind(value.value) is None:
            raise InputError(f"fillna()'s value should be bool, dict, float, int or str, not "
                             f"{describe(value)} (PySpark raises NOT_EXPECTED_TYPE)", loc)
        kind = _value_kind(value.value)
        cols = _positions(df, _names(subset, loc, "fillna()'s subset"), loc)
        pairs = [(i, value.value) for i in cols if _kind(df.fields[i].type) == kind]
    return [(df.attrs[i].name, _filled(df, i, v, loc)) for i, v in pairs]


def _present(df: DF, i: int, loc: Loc) -> CExpr:
    """Neither NULL nor NaN (Spark's ``AtLeastNNonNulls`` counts a NaN as missing)."""
    ref = _ref(df, i, loc)
    cond: CExpr = IsNull(ref, True, loc=loc)
    if isinstance(df.fields[i].type, DoubleType):
        cond = Bin("AND", cond, Unary("NOT", Call("isnan", (_ref(df, i, loc),), loc=loc), loc=loc), loc=loc)
    return cond


def drop_condition(df: DF, how: Value, thresh: Value, subset: Value, loc: Loc) -> CExpr:
    """The filter ``dropna(how, thresh, subset)`` keeps rows by."""
    h = how.value if isinstance(how, PyV) else None
    if h not in ("any", "all"):
        raise InputError("dropna()'s how must be 'any' or 'all' (PySpark raises VALUE_NOT_ALLOWED)", loc)
    cols = _positions(df, _names(subset, loc, "dropna()'s subset"), loc)
    if thresh == PyV(None):
        n = len(cols) if h == "any" else 1
    elif isinstance(thresh, PyV) and isinstance(thresh.value, int) and not isinstance(thresh.value, bool):
        n = thresh.value
    else:
        raise InputError(f"dropna()'s thresh must be an int, not {describe(thresh)}", loc)
    conds = [_present(df, i, loc) for i in cols]
    if conds and n == len(conds):
        out = conds[0]
        for c in conds[1:]:
            out = Bin("AND", out, c, loc=loc)
        return out
    if conds and n == 1:
        out = conds[0]
        for c in conds[1:]:
            out = Bin("OR", out, c, loc=loc)
        return out
    count: CExpr = Lit(0, loc=loc)
    for c in conds:
        count = Bin("+", count, When(((c, Lit(1, loc=loc)),), Lit(0, loc=loc), True, loc=loc), loc=loc)
    return Bin(">=", count, Lit(n, loc=loc), loc=loc)


__all__ = ["drop_condition", "fill_columns"]
