"""pandas DataFrames of literal data in DataFrame scripts (issue 20).

Why: scripts build a small ``pd.DataFrame`` of literal data, hand it to ``spark.createDataFrame`` and
print both frames. The data is written in the script, so the Spark table it becomes is a constant,
computed here from the literal values alone (nothing is imported or run: pandas is not used).

- ``pd.DataFrame(data={name: [values], ...})`` or ``pd.DataFrame([[row], ...], columns=[names])`` is
  read only when every column is one of the kinds whose conversion was checked on PySpark 4.3 with
  pandas 3.1, with Arrow on (the default) and off: ints (``int64`` -> ``bigint``), floats without NaN
  or infinity (``float64`` -> ``double``), strings (-> ``string``) and non-empty lists of ints
  (-> ``array<bigint>``); every column nullable, columns in the dict's order (not sorted, unlike a
  dict row). A column with None or NaN is refused: what it becomes depends on the pandas version and
  on Arrow (pandas 3 makes None in a string column NaN, which Spark without Arrow reads as 'nan').
- ``createDataFrame(frame)`` is then ``createDataFrame`` of the same rows with those names.
- ``print(frame)`` is pandas' own text (it depends on the pandas version and display options): it is
  not modelled but kept as an opaque value (``R.Opaque``), the same function of the same frame in
  both scripts. For a literal frame its arguments are the ordered literal rows (two frames with the
  same bag of rows in another order print differently); for ``df.toPandas()`` it is a
  nondeterministic function of the DataFrame (pandas shows the rows in the order Spark returns them),
  so equal means the same set of possible texts. The interpreter cannot compute it: a difference
  that needs the text is unknown.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from frontend.dataframe.columns import DF
from frontend.dataframe.values import DFV, ActionV, DictV, PyV, SeqV, Value
from sparklite.ast import Loc
from sparklite.errors import UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational.types import BIGINT, DOUBLE, STRING, ArrayType, Field, Schema

_INT64 = range(-(2**63), 2**63)


@dataclass(frozen=True)
class PandasV:
    """A pandas DataFrame: ``df`` is the Spark DataFrame it stands for (the table
    ``createDataFrame(frame)`` makes, or the DataFrame ``toPandas()`` collected); ``rows`` the literal
    rows it was built of, None for ``toPandas()``."""

    df: DF
    rows: tuple[tuple[Any, ...], ...] | None

    DESCRIPTION = "a pandas DataFrame"


def _refuse(why: str, loc: Loc) -> UnsupportedError:
    return UnsupportedError(f"pandas.DataFrame {why}", loc, construct="pandas.DataFrame")


def _column(name: str, values: tuple[Value, ...], loc: Loc) -> Any:
    """The Spark type pandas' column converts to, for the kinds checked on Spark, else a refusal."""
    py = [v.value for v in values if isinstance(v, PyV)]
    if len(py) == len(values):
        if all(type(x) is int and x in _INT64 for x in py):
            return BIGINT
        if all(type(x) is float and math.isfinite(x) for x in py):
            return DOUBLE
        if all(type(x) is str for x in py):
            return STRING
    if all(isinstance(v, SeqV) and v.is_list and v.items
           and all(isinstance(i, PyV) and type(i.value) is int and i.value in _INT64 for i in v.items)
           for v in values):
        return ArrayType(BIGINT, True)
    raise _refuse(f"column {name!r}: only columns of ints, finite floats, strings or non-empty lists of "
                  "ints (no None, NaN or mixed kinds) are modelled", loc)


def _names(v: Value, loc: Loc) -> tuple[str, ...]:
    if isinstance(v, SeqV) and all(isinstance(i, PyV) and type(i.value) is str for i in v.items):
        return tuple(i.value for i in v.items)  # type: ignore[union-attr]
    raise _refuse("columns= must be a literal list of strings", loc)


def pandas_frame(tr: Any, args: list[Value], kwargs: dict[str, Value], loc: Loc, node: Any) -> PandasV:
    """``pd.DataFrame(data, columns=...)`` of literal data: a literal Spark table (see the docstring)."""
    from frontend.dataframe import functions as DFF

    b, _ = DFF.sig("data=None", "index=None", "columns=None", "dtype=None", "copy=None").bind(
        "pandas.DataFrame", args, kwargs, loc)
    if any(b[k] != PyV(None) for k in ("index", "dtype", "copy")):
        raise _refuse("with index=, dtype= or copy= is not modelled", loc)
    data = b["data"]
    if isinstance(data, DictV) and b["columns"] == PyV(None):
        names = tuple(k.value if isinstance(k, PyV) and type(k.value) is str else "" for k, _ in data.items)
        cols = [c.items if isinstance(c, SeqV) and c.is_list else None for _, c in data.items]
        if "" in names or any(c is None for c in cols):
            raise _refuse("data must be a dict of string keys to literal lists", loc)
        columns: list[tuple[Value, ...]] = cols  # type: ignore[assignment]
        if len({len(c) for c in columns}) != 1:
            raise _refuse("data's lists must have the same length (pandas raises otherwise)", loc)
        rows = list(zip(*columns, strict=True))
    elif isinstance(data, SeqV) and b["columns"] != PyV(None):
        names = _names(b["columns"], loc)
        if not all(isinstance(r, SeqV) and len(r.items) == len(names) for r in data.items):
            raise _refuse("data must be literal rows as wide as columns=", loc)
        rows = [r.items for r in data.items]  # type: ignore[union-attr]
    else:
        raise _refuse("is read only of a dict of lists, or of a list of rows with columns=", loc)
    if not rows or not names or len(set(names)) != len(names):
        raise _refuse("needs at least one row and distinct column names", loc)
    types = [_column(n, tuple(r[i] for r in rows), loc) for i, n in enumerate(names)]
    table = SeqV(tuple(SeqV(tuple(r), False) for r in rows))
    made = tr.create_data_frame([table, SeqV(tuple(map(PyV, names)))], {}, loc, node)
    want = Schema(tuple(Field(n, t, True) for n, t in zip(names, types, strict=True)))
    if not isinstance(made, DFV) or made.df.rel.schema != want:
        raise _refuse(f"data would be read as {getattr(made.df.rel, 'schema', None)}, not as Spark converts "
                      f"the frame ({want})", loc)
    return PandasV(made.df, tuple(tuple(_plain(v) for v in r) for r in rows))


def _plain(v: Value) -> Any:
    return v.value if isinstance(v, PyV) else tuple(_plain(i) for i in v.items)  # type: ignore[union-attr]


def from_pandas(v: PandasV, given_schema: Value, loc: Loc) -> DFV:
    """``spark.createDataFrame(frame)`` of a literal frame: its table (no schema given)."""
    if v.rows is None or given_schema != PyV(None):
        raise UnsupportedError("createDataFrame of a pandas frame is read only for a literal frame and "
                               "without a schema", loc, construct="createDataFrame")
    return DFV(v.df)


def repr_action(v: PandasV, loc: Loc) -> ActionV:
    """``str(frame)``: one opaque value, the same function of the same frame (see the docstring)."""
    args = (("rows", v.rows),) if v.rows is not None else ()
    op = "str(pandas.DataFrame(...))" if v.rows is not None else "str(df.toPandas())"
    node = R.Opaque(op, args, (v.df.rel,), Schema((Field("text", STRING, False),)), True, v.rows is None,
                    loc=loc)
    return ActionV(R.Action("first", node, None, loc=loc))
