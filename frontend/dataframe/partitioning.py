"""``df.repartition(n | cols...)`` and ``df.coalesce(n)``: the same rows, another layout.

Why an identity and not a kernel node: what the kernel says of a DataFrame is the bag of its rows, and
its order only after an ``orderBy`` (``verifier.core.df_script_prove``: unsorted results are compared as
bags, in any order Spark returns them; the search compares them so too). Repartitioning moves rows
between partitions and changes nothing else (checked on Spark 4, ``docs/semantics-notes.md``: the same
bag for ``repartition(4)``, ``repartition("k")``, ``repartition(3, "k", col)``, ``coalesce(1)``,
``coalesce(5)``), so on an unsorted DataFrame it is the DataFrame itself. Two things are not identity:

* the order of a sorted DataFrame: ``repartition`` shuffles, so ``df.orderBy(k).repartition(4)`` returns
  its rows in any order; the kernel would still call it sorted, so a ``repartition`` of anything that
  holds a sort is refused (located). ``coalesce`` merges neighbouring partitions without a shuffle and
  keeps the order (checked on Spark: ``orderBy(v).coalesce(1)``/``coalesce(2)`` collect in order);
* the arguments Spark checks: a partition count must be a positive int (``repartition(0)`` and
  ``coalesce(0)`` raise), and the columns must resolve, as in a ``select``.

What still depends on the layout (a float sum's rounding, ``first()`` of an unsorted group) already
depends on Spark's partitioning of the input, which the prover and the search do not fix either.
"""

from __future__ import annotations

from typing import Any

from frontend.dataframe.columns import DF
from frontend.dataframe.values import DFV, ColV, PyV, Value
from sparklite.ast import Loc
from sparklite.errors import InputError, UnsupportedError
from sparklite.relational import ast as R


def repartition(t: Any, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any) -> Value:
    """``df.repartition(numPartitions, *cols)`` / ``df.repartition(*cols)``."""
    items = list(args)
    if "numPartitions" in kw:
        items.insert(0, kw["numPartitions"])
    if set(kw) - {"numPartitions"}:
        extra = sorted(set(kw) - {"numPartitions"})
        raise InputError(f"repartition() got unexpected keyword argument(s) {extra}", loc)
    if not items:
        raise InputError("repartition() needs a number of partitions or columns (PySpark raises TypeError)",
                         loc)
    if isinstance(items[0], PyV) and not isinstance(items[0].value, str):
        _count(items.pop(0), "repartition", loc)
    cols = [c for c in items if not isinstance(c, PyV) or isinstance(c.value, str)]
    if len(cols) != len(items) or not all(isinstance(c, ColV | PyV) for c in cols):
        raise InputError("repartition()'s columns must be column names or Columns", loc)
    if cols:
        t.select(df, cols, loc)  # the columns must resolve (AnalysisError otherwise), as in a select
    if _holds_sort(df.rel):
        raise UnsupportedError(
            "repartition() of a sorted DataFrame: the shuffle returns its rows in any order, which the "
            "kernel does not model (sort after repartitioning, or use coalesce, which keeps the order)",
            loc, construct="repartition")
    return DFV(df)


def coalesce(t: Any, df: DF, args: list[Value], kw: dict[str, Value], loc: Loc, node: Any) -> Value:
    """``df.coalesce(numPartitions)``: fewer partitions, merged in order (no shuffle)."""
    if len(args) + len(kw) != 1 or (kw and "numPartitions" not in kw):
        raise InputError("coalesce() takes one argument, numPartitions", loc)
    _count(args[0] if args else kw["numPartitions"], "coalesce", loc)
    return DFV(df)


def _count(v: Value, what: str, loc: Loc) -> None:
    if not isinstance(v, PyV) or isinstance(v.value, bool) or not isinstance(v.value, int):
        raise UnsupportedError(f"{what}()'s number of partitions must be an int constant", loc,
                               construct=what)
    if v.value <= 0:
        raise InputError(f"{what}({v.value}): the number of partitions must be positive (Spark raises "
                         "IllegalArgumentException)", loc)


def _holds_sort(rel: R.Rel) -> bool:
    """Is there a sort anywhere below (conservative: a sort under an aggregate is refused too)?"""
    if isinstance(rel, R.Sort):
        return True
    return any(_holds_sort(c) for c in _children(rel))


def _children(rel: Any) -> list[Any]:
    out: list[Any] = []
    for name in getattr(rel, "__dataclass_fields__", {}):
        v = getattr(rel, name)
        out += [x for x in (v if isinstance(v, tuple) else (v,)) if isinstance(x, R.Rel)]
    return out
