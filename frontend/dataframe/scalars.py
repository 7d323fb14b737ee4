"""Scalar parameters of DataFrame functions: a column name, a number, a list of renames.

Real DataFrame helpers take more than DataFrames: ``get_schema_type(df, column_name)``,
``rename_columns(df, rename_tuples)``, ``fill(df, columnName, newValue)``. Both functions of a check are
called with the same arguments, so such a parameter is one value shared by both sides; but the
relational kernel needs column names (and most other arguments: a ``limit``, a cast's type) as
literals, so the value is not left symbolic: the user declares it, as a tables' schema is declared,
with ``--schema 'column_name="NAME"'`` (the value a Python literal: a string, a number, ``None``, a list
or tuple of them). The check is then about that call, and the result says so in ``assumptions``
("column_name is assumed to be 'NAME' (declared with --schema): the verdict is for that argument").
A scalar parameter without a declaration is refused with the message saying what to declare.

Why a Python literal and not DDL: the two never overlap (a DDL column list is never a Python literal;
a quoted string, a number or a bracket never starts a DDL), so ``--schema`` keeps one syntax and the
benchmark's declarations (``bench/corpus_schemas.toml``) stay one list per unit.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

_SCALAR = (str, int, float, bool, type(None))


@dataclass(frozen=True)
class ScalarArg:
    """A declared argument of a scalar parameter: ``value`` is a Python constant (tuples for lists)."""

    value: Any
    text: str  # as declared, for messages


def scalar_declaration(text: str) -> ScalarArg | None:
    """``'"NAME"'`` -> ``ScalarArg("NAME")``; None when ``text`` is not a Python literal (then it is DDL)."""
    stripped = text.strip()
    if not stripped:
        return None
    try:
        value = ast.literal_eval(stripped)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    if not _allowed(value):
        return None
    return ScalarArg(_frozen(value), stripped)


def _allowed(value: Any) -> bool:
    if isinstance(value, _SCALAR):
        return True
    if isinstance(value, list | tuple):
        return all(_allowed(v) for v in value)
    return False


def _frozen(value: Any) -> Any:
    """Lists kept as lists (Python iterates both alike; the evaluator tells them apart by kind)."""
    if isinstance(value, list):
        return [_frozen(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_frozen(v) for v in value)
    return value


def split_declarations(schemas: Mapping[str, Any] | None) -> tuple[dict[str, Any], dict[str, ScalarArg]]:
    """``--schema`` values as (tables, scalar arguments); SQL and scripts take only the tables."""
    tables: dict[str, Any] = {}
    scalars: dict[str, ScalarArg] = {}
    for name, value in (schemas or {}).items():
        if isinstance(value, ScalarArg):
            scalars[name] = value
        else:
            tables[name] = value
    return tables, scalars


def assumption_text(name: str, arg: ScalarArg) -> str:
    return (f"{name} is assumed to be {arg.value!r} (declared with --schema: {name}={arg.text}): "
            "the verdict is for a call with that argument")


def missing_text(name: str) -> str:
    """What to declare for a parameter that is not a DataFrame (or may not be)."""
    return (f"if '{name}' is a value (a column name, a number, a list of names), declare the argument "
            f"both functions are called with: --schema \"{name}='NAME'\" (a Python literal)")
