"""Rows of literal data with nested values: ``Row(department=dept, employees=[e1, e2])`` (issue 20/21).

Why: the corpus builds DataFrames from ``Row`` objects holding other ``Row``s and lists of them
(chap07/dataframe_creation_from_rows.py): struct and array columns of data the script writes. The values
stay driver values while the script runs (a nested ``Row`` is a ``_RowLit``, a list a ``ListLit``: they
print as Python prints them and their fields can be read), and become kernel values (tuples) when
``createDataFrame`` makes a table of them.

The schema is PySpark 4's inference for a list of rows without a schema (checked on PySpark 4.3,
``docs/semantics-notes.md``): each row's types inferred (``int`` -> ``bigint``, ``float`` -> ``double``,
``str`` -> ``string``, ``bool`` -> ``boolean``, a ``Row`` -> a ``struct`` of its fields in their order, a
list -> an ``array`` whose elements' types are merged, ``containsNull = true``), then the rows' types
merged (``None`` takes the other side's type); every field nullable. What PySpark would reject or what
is not modelled (types that do not merge, a type left unknown because every value is ``None``, an empty
list, dicts as maps) is a located refusal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from frontend.script.df_meta import ListLit, _py, _RowLit, value_repr
from sparklite.ast import Loc
from sparklite.errors import UnsupportedError
from sparklite.relational.types import (
    BIGINT,
    BOOLEAN,
    DOUBLE,
    STRING,
    ArrayType,
    Field,
    Schema,
    SqlType,
    StructType,
)


def is_nested(v: Any) -> bool:
    return isinstance(v, _RowLit | ListLit)


def nested_py(v: Any, loc: Loc) -> Any:
    """A driver value inside literal row data: a constant, a ``Row`` (kept, its values converted) or a
    list (a ``ListLit``); anything else as ``df_meta._py`` decides."""
    from frontend.dataframe.values import SeqV

    if isinstance(v, _RowLit):
        return v
    if isinstance(v, SeqV) and v.is_list:
        return ListLit(tuple(nested_py(x, loc) for x in v.items))
    return _py(v, loc)


def driver_value(v: Any) -> Any:
    """A value read back from a row (``row.employees``) as the evaluator's value."""
    from frontend.dataframe.values import PyV, SeqV

    if isinstance(v, ListLit):
        return SeqV(tuple(driver_value(x) for x in v.items), True)
    if is_nested(v):
        return v
    return PyV(v)


def _refuse(why: str, loc: Loc) -> UnsupportedError:
    return UnsupportedError(f"createDataFrame of nested literal data: {why}", loc,
                            construct="createDataFrame")


# While rows are inferred a type is ``None`` (only ``None`` seen: PySpark's NullType), a simple
# ``SqlType``, ``_S(names, types)`` (a struct) or ``_A(element)`` (an array): merged, then closed.
@dataclass(frozen=True)
class _S:
    names: tuple[str, ...]
    types: tuple[Any, ...]


@dataclass(frozen=True)
class _A:
    element: Any


def _type_of(v: Any, loc: Loc) -> Any:
    """PySpark's ``_infer_type``."""
    if v is None:
        return None
    if isinstance(v, bool):
        return BOOLEAN
    if isinstance(v, int):
        return BIGINT
    if isinstance(v, float):
        return DOUBLE
    if isinstance(v, str):
        return STRING
    if isinstance(v, _RowLit):
        return _S(v.names, tuple(_type_of(x, loc) for x in v.values))
    if isinstance(v, ListLit):
        if not v.items:
            raise _refuse("an empty list (its element type is not known)", loc)
        element = None
        for x in v.items:
            element = _merge(element, _type_of(x, loc), loc)
        return _A(element)
    raise _refuse(f"a value of type {type(v).__name__}", loc)


def _merge(a: Any, b: Any, loc: Loc) -> Any:
    """PySpark's ``_merge_type`` for the types modelled here (``None`` takes the other's type)."""
    if a is None:
        return b
    if b is None:
        return a
    if isinstance(a, _S) and isinstance(b, _S):
        if a.names != b.names:
            raise _refuse("Rows with different fields in one column", loc)
        return _S(a.names, tuple(_merge(x, y, loc) for x, y in zip(a.types, b.types, strict=True)))
    if isinstance(a, _A) and isinstance(b, _A):
        return _A(_merge(a.element, b.element, loc))
    if a != b:
        shown = [t.simple if isinstance(t, SqlType) else type(t).__name__.strip("_") for t in (a, b)]
        raise _refuse(f"values of types {shown[0]} and {shown[1]} in one column are not modelled "
                      "(PySpark rejects bigint with double, CANNOT_MERGE_TYPE, but makes [1, 'x'] an "
                      "array<string>)", loc)
    return a


def _closed(t: Any, loc: Loc) -> SqlType:
    if t is None:
        raise _refuse("a field whose values are all None (PySpark cannot infer its type)", loc)
    if isinstance(t, _S):
        fields = zip(t.names, t.types, strict=True)
        return StructType(tuple(Field(n, _closed(x, loc), True) for n, x in fields))
    if isinstance(t, _A):
        return ArrayType(_closed(t.element, loc), True)
    return t  # type: ignore[no-any-return]


def infer(rows: Sequence[tuple[Any, ...]], names: Sequence[str], loc: Loc) -> Schema:
    """The schema PySpark infers for literal rows some of whose values are nested."""
    types: list[Any] = [None] * len(names)
    for r in rows:
        if len(r) != len(names):
            raise _refuse("rows of different lengths", loc)
        types = [_merge(t, _type_of(v, loc), loc) for t, v in zip(types, r, strict=True)]
    return Schema(tuple(Field(n, _closed(t, loc), True) for n, t in zip(names, types, strict=True)))


def kernel_value(v: Any, t: SqlType, loc: Loc) -> Any:
    """A nested driver value as the kernel holds it under the inferred type ``t`` (structs and arrays as
    tuples)."""
    if v is None:
        return None
    if isinstance(v, _RowLit) and isinstance(t, StructType):
        return tuple(kernel_value(x, f.type, loc) for x, f in zip(v.values, t.fields, strict=True))
    if isinstance(v, ListLit) and isinstance(t, ArrayType):
        return tuple(kernel_value(x, t.element, loc) for x in v.items)
    if isinstance(t, StructType | ArrayType) or is_nested(v):
        raise _refuse(f"a value that does not fit {t.simple}", loc)
    if t == BIGINT and not -(2**63) <= v <= 2**63 - 1:
        raise _refuse("an int past the long range", loc)
    return v


__all__ = ["ListLit", "driver_value", "infer", "is_nested", "kernel_value", "nested_py", "value_repr"]
