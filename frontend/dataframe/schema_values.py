"""``df.schema`` in a DataFrame function's driver code: known statically, so read, not refused.

Real helpers walk a DataFrame's schema to decide what to select (``for field in df.schema.fields: if
isinstance(field.dataType, ArrayType): ...``, ``df.select(c).schema.fields[0].dataType``). The schema of
every DataFrame the evaluator builds is known (the analysed plan's column names, types and
nullability), so ``df.schema`` is a constant of the driver code, as ``df.columns`` and ``df.dtypes``
already are. What is read: ``.fields`` (a list), ``.names``/``.fieldNames()``, ``len()``, a field's
``name``/``dataType``/``nullable``, a type's ``simpleString()``/``typeName()``, and ``isinstance`` against
``pyspark.sql.types`` classes with PySpark's class hierarchy (``LongType`` is an ``IntegralType``, a
``NumericType``, an ``AtomicType`` and a ``DataType``: checked against PySpark 4's ``__mro__``). A type
this table does not know (one another part of the kernel adds) is refused where ``isinstance`` asks
about it, never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from sparklite.ast import Loc
from sparklite.errors import UnsupportedError
from sparklite.relational import types as T

TYPES_PREFIX = "pyspark.sql.types."


@dataclass(frozen=True)
class SchemaV:
    """A DataFrame's ``StructType``."""

    DESCRIPTION = "a schema (StructType)"

    fields: tuple[T.Field, ...]


@dataclass(frozen=True)
class FieldV:
    """One ``StructField``."""

    DESCRIPTION = "a StructField"

    field: T.Field


@dataclass(frozen=True)
class TypeV:
    """A column's ``DataType``."""

    DESCRIPTION = "a column type (DataType): a value known before any job runs, not a result to compare"

    type: T.SqlType


SCHEMA_VALUES = (SchemaV, FieldV, TypeV)


def schema_of(columns: tuple[str, ...], fields: tuple[T.Field, ...]) -> SchemaV:
    """The schema PySpark shows: the DataFrame's column names (as selected) over the plan's fields."""
    return SchemaV(tuple(replace(f, name=n) for n, f in zip(columns, fields, strict=True)))


def _pyspark_classes(t: T.SqlType) -> tuple[str, ...] | None:
    """PySpark's class and its bases for ``t`` (None: a type this table does not know)."""
    if isinstance(t, T.IntegralType):
        own = {8: "ByteType", 16: "ShortType", 32: "IntegerType", 64: "LongType"}[t.bits]
        return (own, "IntegralType", "NumericType", "AtomicType", "DataType")
    if isinstance(t, T.DoubleType):
        return ("DoubleType", "FractionalType", "NumericType", "AtomicType", "DataType")
    if isinstance(t, T.DecimalType):
        return ("DecimalType", "FractionalType", "NumericType", "AtomicType", "DataType")
    if isinstance(t, T.StringType):
        return ("StringType", "AtomicType", "DataType")
    if isinstance(t, T.BooleanType):
        return ("BooleanType", "AtomicType", "DataType")
    if isinstance(t, T.DateType):
        return ("DateType", "DatetimeType", "AtomicType", "DataType")
    if isinstance(t, T.NullType):
        return ("NullType", "DataType")
    return None


def _type_name(t: T.SqlType) -> str:
    """PySpark's ``typeName()``: ``long`` for bigint, ``integer`` for int, ``decimal`` without its
    precision."""
    names = {8: "byte", 16: "short", 32: "integer", 64: "long"}
    if isinstance(t, T.IntegralType):
        return names[t.bits]
    return t.simple.split("(")[0]


def classes_of(value: Any, loc: Loc) -> tuple[str, ...]:
    """The PySpark classes ``value`` is an instance of (for ``isinstance``)."""
    if isinstance(value, SchemaV):
        return ("StructType", "DataType")
    if isinstance(value, FieldV):
        return ("StructField", "DataType")
    assert isinstance(value, TypeV)
    found = _pyspark_classes(value.type)
    if found is None:
        raise UnsupportedError(
            f"isinstance() of the column type {value.type.simple}: its PySpark class is not modelled here",
            loc, construct="isinstance")
    return found


def is_instance(value: Any, class_paths: list[str], loc: Loc) -> bool:
    """``isinstance(value, C)`` for ``C`` (or a tuple of them) classes of ``pyspark.sql.types``."""
    names = []
    for path in class_paths:
        if not path.startswith(TYPES_PREFIX):
            raise UnsupportedError(f"isinstance() of a schema value against {path}: only the classes of "
                                   "pyspark.sql.types are modelled", loc, construct="isinstance")
        names.append(path[len(TYPES_PREFIX):])
    return any(n in classes_of(value, loc) for n in names)


def attribute(value: Any, attr: str, loc: Loc) -> Any:
    """``schema.fields``, ``field.name`` ...: a Python value (lists as lists) or a schema value; None
    for a method (``fieldNames``, ``simpleString``, ``typeName``), which ``call`` runs."""
    if isinstance(value, SchemaV):
        if attr == "fields":
            return [FieldV(f) for f in value.fields]
        if attr == "names":
            return [f.name for f in value.fields]
        if attr in ("fieldNames", "simpleString", "typeName"):
            return None
    if isinstance(value, FieldV):
        if attr == "name":
            return value.field.name
        if attr == "dataType":
            return TypeV(value.field.type)
        if attr == "nullable":
            return value.field.nullable
        if attr == "simpleString":
            return None
    if isinstance(value, TypeV) and attr in ("simpleString", "typeName"):
        return None
    what = {SchemaV: "StructType", FieldV: "StructField", TypeV: "DataType"}[type(value)]
    raise UnsupportedError(f"{what}.{attr} is not modelled (fields, names, fieldNames(), name, dataType, "
                           "nullable, simpleString() and typeName() are)", loc, construct="schema")


def call(value: Any, method: str, loc: Loc) -> Any:
    """A method of a schema value, called without arguments."""
    if isinstance(value, SchemaV):
        if method == "fieldNames":
            return [f.name for f in value.fields]
        if method == "simpleString":
            return "struct<" + ",".join(f"{f.name}:{f.type.simple}" for f in value.fields) + ">"
        if method == "typeName":
            return "struct"
    if isinstance(value, FieldV):
        if method == "simpleString":
            return f"{value.field.name}:{value.field.type.simple}"
    if isinstance(value, TypeV):
        if method == "simpleString":
            return value.type.simple
        if method == "typeName":
            return _type_name(value.type)
    raise UnsupportedError(f"the schema method {method}() is not modelled", loc, construct="schema")
