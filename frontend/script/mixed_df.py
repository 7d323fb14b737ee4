"""Mixed scripts: the RDD side of a DataFrame script (issue 23).

Why here, as an extension of the DataFrame script reader rather than a third reader: in the mixed
units of the real-world corpus the RDD code is a *literal* RDD (``sc.parallelize(data)``, perhaps
mapped to ``Row``s) that becomes a DataFrame, or a DataFrame's rows handed back as an RDD (``df.rdd``)
that is only counted or collected. Both have an exact meaning inside the DataFrame script's model:

- ``sc.parallelize(<literal>)`` then ``map``/``filter`` with a lambda the script's evaluator reads (as it
  reads driver code: never run) is a literal RDD, ``LiteralRddV``: its elements are known values;
  ``count()`` is their number, ``collect()``/``take(n)`` the list in order (``parallelize`` keeps it);
- ``rdd.toDF(names | schema)`` and ``spark.createDataFrame(rdd, ...)`` convert the elements *as Spark
  converts an RDD* (``sparklite.mixed.to_dataframe``: the schema inferred from the first element only,
  values that do not fit it NULL; a given schema verified on every element), then the DataFrame is a
  literal source like ``createDataFrame(<list>)``. A conversion that raises on Spark is refused with
  what Spark raises (script mode does not model a script dying there);
- ``df.rdd`` is ``DfRddV``: its ``count()`` and ``collect()`` are the DataFrame's (the same job, the same
  ``Row``s in the same order); transforming it (``df.rdd.map``) is not read yet and says so.

Printing an RDD object (``print("rdd =", rdd)``) prints its id and lineage: an opaque field, as a
printed SparkSession is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from frontend.dataframe.values import DFV, FuncV, PyV, SeqV
from frontend.script.df_meta import _py, _RowLit
from sparklite import mixed as M
from sparklite.ast import Loc
from sparklite.errors import UnsupportedError
from sparklite.relational.types import Schema

RDD_REPR = "<RDD: its id and lineage>"


@dataclass(frozen=True)
class LiteralRddV:
    """An RDD whose elements the script fixes (driver values: ``PyV``, ``SeqV``, ``_RowLit``)."""

    DESCRIPTION = "an RDD of literal data"

    items: tuple[Any, ...]


@dataclass(frozen=True)
class DfRddV:
    """``df.rdd``: the DataFrame's rows as an RDD of ``Row``s."""

    DESCRIPTION = "a DataFrame's rows as an RDD (df.rdd)"

    df: DFV


def parallelize(args: list[Any], kwargs: dict[str, Any], loc: Loc) -> LiteralRddV:
    """``sc.parallelize(data[, numSlices])`` of a literal list (the slice count changes no result here:
    every use below is order-preserving or a count)."""
    if not args or len(args) > 2 or set(kwargs) - {"numSlices"}:
        raise UnsupportedError(
            "sc.parallelize(data[, numSlices]) of a literal list", loc, construct="parallelize"
        )
    data = args[0]
    if not isinstance(data, SeqV) or not data.is_list:
        raise UnsupportedError(
            "sc.parallelize of a literal list (the script's data) in a DataFrame script",
            loc,
            construct="parallelize",
        )
    return LiteralRddV(tuple(data.items))


def _element(v: Any, loc: Loc) -> Any:
    """A driver value as the Python value an RDD element is (tuples, ``Row``s with their names)."""
    if isinstance(v, _RowLit):
        return M.Row(v.values, v.names)
    if isinstance(v, SeqV):
        values = tuple(_py(x, loc) for x in v.items)
        return list(values) if v.is_list else values
    return _py(v, loc)


def elements(rdd: LiteralRddV, loc: Loc) -> list[Any]:
    return [_element(v, loc) for v in rdd.items]


def to_dataframe(t: Any, rdd: LiteralRddV, schema_v: Any, loc: Loc, what: str) -> tuple[Schema, list[tuple]]:
    """The schema and rows Spark makes of ``rdd`` under ``toDF``/``createDataFrame``'s second argument
    (None, a list of names, a StructType or a DDL string)."""
    names: tuple[str, ...] = ()
    schema: Schema | None = None
    if isinstance(schema_v, SeqV) and all(
        isinstance(i, PyV) and isinstance(i.value, str) for i in schema_v.items
    ):
        names = tuple(i.value for i in schema_v.items)
    elif schema_v is not None and schema_v != PyV(None):
        schema = t.schema_of(schema_v, loc)
    try:
        return M.to_dataframe(elements(rdd, loc), M.ToDF(schema=schema, names=names))
    except M.NotModelled as exc:
        raise UnsupportedError(f"{what} of an RDD: {exc} is not modelled", loc, construct=what) from None
    except M._Raised as raised:
        raise UnsupportedError(
            f"{what} of this RDD raises {raised.error} on Spark (sparkeq does not model a "
            "script that fails while it creates a DataFrame)",
            loc,
            construct=what,
        ) from None


def rdd_method(
    t: Any, rdd: LiteralRddV | DfRddV, name: str, args: list[Any], kwargs: dict[str, Any], loc: Loc, node: Any
) -> Any:
    """A method of an RDD in a DataFrame script; ``t`` is the script translator."""
    if name in ("cache", "persist", "unpersist") and not kwargs:
        return rdd
    if isinstance(rdd, DfRddV):
        if name in ("count", "collect") and not args and not kwargs:
            return t.method(rdd.df, name, args, kwargs, loc, node)
        raise UnsupportedError(
            f"df.rdd.{name}: a DataFrame's rows transformed as an RDD are not read in "
            "script mode yet (df.rdd.count() and collect() are)",
            loc,
            construct=f"rdd.{name}",
        )
    if name == "count" and not args and not kwargs:
        return PyV(len(rdd.items))
    if name == "collect" and not args and not kwargs:
        return SeqV(rdd.items, True)
    if (
        name == "take"
        and len(args) == 1
        and not kwargs
        and isinstance(args[0], PyV)
        and type(args[0].value) is int
    ):
        return SeqV(rdd.items[: max(args[0].value, 0)], True)
    if name in ("map", "filter") and len(args) == 1 and not kwargs and isinstance(args[0], FuncV):
        out = []
        for item in rdd.items:
            value = t.call(args[0], [item], {}, loc, node)
            if name == "map":
                out.append(value)
            elif not (isinstance(value, PyV) and isinstance(value.value, bool)):
                raise UnsupportedError("a filter whose function gives a bool", loc, construct="rdd.filter")
            elif value.value:
                out.append(item)
        return LiteralRddV(tuple(out))
    if name == "toDF":  # RDD.toDF(schema=None, sampleRatio=None): names, a StructType or a DDL string
        if kwargs or len(args) > 1:
            raise UnsupportedError("rdd.toDF(names) or rdd.toDF(schema)", loc, construct="toDF")
        schema_v = args[0] if args else None
        if (
            isinstance(schema_v, PyV)
            and isinstance(schema_v.value, str)
            and " " not in schema_v.value.strip()
        ):
            raise UnsupportedError("rdd.toDF of one string that is not a DDL schema", loc, construct="toDF")
        schema, rows = to_dataframe(t, rdd, schema_v, loc, "toDF")
        return t.literal_df(schema, rows, loc, node)
    raise UnsupportedError(
        f"rdd.{name} on an RDD of literal data in a DataFrame script is not read yet "
        "(map, filter, count, collect, take, toDF are)",
        loc,
        construct=f"rdd.{name}",
    )


# RDD code a DataFrame script reads (the rest of the RDD API makes a script an RDD script)
_MIXED_WORDS = frozenset({"parallelize", "rdd"})


def reads_as_df_script(words: set[str]) -> bool:
    """Whether a script whose attribute names are ``words`` and which uses RDD code is read as a mixed
    DataFrame script: its only RDD sources are ``sc.parallelize`` and ``df.rdd``, and it makes a
    DataFrame of an RDD (``toDF``, ``createDataFrame``) or hands one back (``df.rdd``). Spark's idiom for
    a text file, ``spark.read.text(p).rdd.map(lambda r: r[0])``, stays an RDD script (a text source)."""
    rdd_words = words & frozenset(
        {"textFile", "parallelize", "rdd", "wholeTextFiles", "binaryFiles", "sequenceFile"}
    )
    if not rdd_words <= _MIXED_WORDS | {"textFile"} or ("rdd" in words and "text" in words):
        return False
    if "textFile" in rdd_words:  # sc.textFile(p).map(...) made a DataFrame: frontend.script.mixed_text
        return bool(words & {"toDF", "createDataFrame"})
    return bool(words & {"toDF", "createDataFrame"}) or "rdd" in rdd_words
