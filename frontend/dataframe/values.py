"""What a Python expression stands for while the DataFrame frontend reads a function's driver code.

The user's code is never run: a DataFrame is a kernel relation (``DFV``), a ``Column`` an unresolved
expression (``ColV``), a Python constant itself (``PyV``: only pure values such as ints, strings and
lists of them, which the translator can compute as Python would). Everything else a name may mean is
named explicitly (the ``pyspark.sql.functions`` module, the session, a helper function to inline...),
so that an unknown thing is a located error rather than a guess.
"""

from __future__ import annotations

import ast as pyast
from dataclasses import dataclass
from typing import Any

from frontend.dataframe.columns import DF, CExpr, Lit, parse_name
from sparklite.ast import Loc
from sparklite.errors import UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational.types import SqlType


@dataclass(frozen=True)
class PyV:
    """A Python constant: None, bool, int, float or str."""

    value: Any


@dataclass(frozen=True)
class SeqV:
    """A Python list or tuple (of any values, e.g. Columns)."""

    items: tuple[Value, ...]
    is_list: bool = True


@dataclass(frozen=True)
class DictV:
    """A dict of driver values, in insertion order; ``ordered`` for a ``collections.OrderedDict`` (whose
    repr is not a dict's: ``frontend.dataframe.dicts``)."""

    items: tuple[tuple[Value, Value], ...]
    ordered: bool = False


@dataclass(frozen=True)
class ColV:
    expr: CExpr


@dataclass(frozen=True)
class DFV:
    df: DF


@dataclass(frozen=True)
class GroupedV:
    """``df.groupBy(keys)``: only an aggregation (``agg``, ``count``, ``sum``...) may follow. ``sets``:
    ``rollup``/``cube``'s grouping sets (positions in ``keys``; ``frontend.dataframe.grouping``);
    ``pivot``: ``pivot(col, values)``'s column name and listed values (``frontend.dataframe.pivot``)."""

    df: DF
    keys: tuple[CExpr, ...]
    sets: tuple[tuple[int, ...], ...] | None = None
    pivot: tuple[str, tuple[Any, ...]] | None = None


@dataclass(frozen=True)
class NaV:
    """``df.na``: ``fill``, ``drop`` (``fillna``, ``dropna`` of ``df``)."""

    df: DF


@dataclass(frozen=True)
class SessionV:
    """The SparkSession (``spark``): ``spark.sql``, ``spark.table``."""


@dataclass(frozen=True)
class ReaderV:
    """``spark.read``: only ``.table(name)``."""


@dataclass(frozen=True)
class ModV:
    """A module, class or function reached through imports, by its dotted path
    (``pyspark.sql.functions``, ``pyspark.sql.functions.col``, ``typing.Annotated``)."""

    path: str


@dataclass(frozen=True)
class AnnotatedV:
    """``Annotated[base, metadata...]`` (only read in parameter annotations)."""

    base: Value
    metadata: tuple[Value, ...]


@dataclass(frozen=True)
class TypeV:
    """A Spark data type object (``IntegerType()``, ``DecimalType(10, 2)``)."""

    type: SqlType


@dataclass(frozen=True)
class BoundV:
    """``receiver.name`` for a method, not yet called."""

    receiver: Value
    name: str
    loc: Loc


@dataclass(frozen=True)
class FuncV:
    """A function of the user's module (``def`` or ``lambda``), inlined where it is called; ``env`` is
    the scope it closes over (None for a module-level function)."""

    node: pyast.FunctionDef | pyast.Lambda
    env: Any = None


@dataclass(frozen=True)
class BuiltinV:
    """A Python builtin (``len``, ``sum``...) or a ``functools``/``operator`` function."""

    name: str


@dataclass(frozen=True)
class WinSpecV:
    """A ``WindowSpec`` (``Window.partitionBy(...).orderBy(...).rowsBetween(...)``): ``frame`` is
    ``(kind, start, end)`` with None for UNBOUNDED, or None for Spark's default
    (``frontend.dataframe.windows``)."""

    partition: tuple[CExpr, ...] = ()
    order: tuple[CExpr, ...] = ()
    frame: tuple[str, int | None, int | None] | None = None


@dataclass(frozen=True)
class ActionV:
    """The result of an action (``count()``, ``collect()``...): only returned."""

    action: R.Action


Value = (
    PyV
    | SeqV
    | DictV
    | ColV
    | DFV
    | GroupedV
    | NaV
    | SessionV
    | ReaderV
    | ModV
    | AnnotatedV
    | TypeV
    | BoundV
    | FuncV
    | BuiltinV
    | ActionV
    | WinSpecV
)


FUNCTIONS_MODULE = "pyspark.sql.functions"
TYPES_MODULE = "pyspark.sql.types"


def canonical(path: str) -> str:
    """One spelling per PySpark object: ``pyspark.sql.dataframe.DataFrame`` and
    ``pyspark.sql.classic.dataframe.DataFrame`` are ``pyspark.sql.DataFrame``."""
    for prefix in ("pyspark.sql.functions.builtin", "pyspark.sql.connect.functions"):
        if path == prefix or path.startswith(prefix + "."):
            return FUNCTIONS_MODULE + path[len(prefix) :]
    parts = path.split(".")
    if parts[0] == "pyspark":
        for i, part in enumerate(parts):
            if part in ("DataFrame", "SparkSession", "Column", "Row", "GroupedData"):
                return ".".join(["pyspark", "sql", *parts[i:]])
    if path.startswith("typing_extensions."):
        return "typing." + path[len("typing_extensions.") :]
    return path


def describe(v: Value) -> str:
    """A value's kind in error messages."""
    if isinstance(v, PyV):
        return "None" if v.value is None else f"a Python {type(v.value).__name__}"
    own = getattr(v, "DESCRIPTION", None)  # values of the script frontend describe themselves
    if isinstance(own, str):
        return own
    return {
        SeqV: "a list",
        DictV: "a dict",
        ColV: "a Column",
        DFV: "a DataFrame",
        GroupedV: "grouped data",
        NaV: "df.na",
        SessionV: "the SparkSession",
        ReaderV: "spark.read",
        ModV: "a module",
        AnnotatedV: "a type",
        TypeV: "a data type",
        BoundV: "a method",
        FuncV: "a function",
        BuiltinV: "a builtin function",
        ActionV: "an action's result",
    }.get(type(v), f"a {type(v).__name__.strip('_')} value")  # never a KeyError: an error message


def as_col(v: Value, loc: Loc, what: str = "argument") -> CExpr:
    """A ``ColumnOrName`` argument: a Column, or a string naming a column."""
    if isinstance(v, ColV):
        return v.expr
    if isinstance(v, PyV) and isinstance(v.value, str):
        return parse_name(v.value, loc)
    raise UnsupportedError(
        f"{what} must be a Column or a column name, not {describe(v)}", loc, construct="column-argument"
    )


def as_col_or_lit(v: Value, loc: Loc, what: str = "operand") -> CExpr:
    """An operand PySpark turns into a literal unless it is a Column (``col + 1``, ``isin("x")``)."""
    if isinstance(v, ColV):
        return v.expr
    if isinstance(v, PyV):
        return Lit(v.value, loc=loc)
    raise UnsupportedError(
        f"{what} must be a Column or a Python constant, not {describe(v)}", loc, construct="column-operand"
    )


def py_value(v: Value, loc: Loc, what: str = "argument") -> Any:
    """The Python value of a constant (lists and tuples of constants included)."""
    if isinstance(v, PyV):
        return v.value
    if isinstance(v, SeqV):
        items = [py_value(i, loc, what) for i in v.items]
        return items if v.is_list else tuple(items)
    raise UnsupportedError(f"{what} must be a Python constant, not {describe(v)}", loc, construct="constant")


def as_str(v: Value, loc: Loc, what: str = "argument") -> str:
    if isinstance(v, PyV) and isinstance(v.value, str):
        return v.value
    raise UnsupportedError(f"{what} must be a string, not {describe(v)}", loc, construct="string-argument")


def as_int(v: Value, loc: Loc, what: str = "argument") -> int:
    if isinstance(v, PyV) and isinstance(v.value, int) and not isinstance(v.value, bool):
        return v.value
    raise UnsupportedError(
        f"{what} must be an int constant, not {describe(v)}", loc, construct="int-argument"
    )


def flatten_single(args: list[Value]) -> list[Value]:
    """PySpark's convention for ``select([a, b])``: one list or tuple argument is the argument list."""
    if len(args) == 1 and isinstance(args[0], SeqV):
        return list(args[0].items)
    return args
