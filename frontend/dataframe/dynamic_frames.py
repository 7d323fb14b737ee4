"""A DataFrame function's parameter declared as an AWS Glue ``DynamicFrame`` with known columns.

Why: Glue code is full of helpers over a ``DynamicFrame`` (``def f(dyf): return dyf.toDF()``, a method
added to ``DynamicFrame`` whose ``self`` is the frame). Declaring such a parameter as a DataFrame is not
honest (``DataFrame.toDF()`` with no names raises in Spark), so it is declared as what it is:
``--schema 'dyf=DynamicFrame<id INT, name STRING>'`` (DDL inside ``DynamicFrame<...>``, which no DDL
column list starts with). The frame is then an input table of those columns, and only what carries its
rows unchanged is read (the round trip ``frontend.script.glue`` also assumes, listed in the result):

* ``dyf.toDF()`` is the DataFrame of the declared columns;
* ``dyf.glue_ctx`` and ``dyf.name`` are handed on to ``DynamicFrame.fromDF(df, glue_ctx, name)`` only
  (the name names the frame in Glue's logs: it is no output);
* ``DynamicFrame.fromDF(df, ...)`` is a frame of ``df``'s rows, and a function may return it (or the
  parameter itself): the result is its rows.

Anything else of a ``DynamicFrame`` (its transforms, ``count()``, ``schema()``) is a located refusal:
Glue runs only on AWS and its own operations are not observed. (Glue *jobs*, with opaque transforms,
are ``frontend.script.glue``; this module is the function case, in the DataFrame dialect.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from frontend.dataframe.columns import DF
from frontend.dataframe.values import DFV, PyV
from sparklite.ast import Loc
from sparklite.errors import UnsupportedError
from sparklite.relational.types import Schema, parse_ddl

PREFIX = "DynamicFrame<"

ROUND_TRIP = ("a parameter declared as an AWS Glue DynamicFrame holds rows of the declared columns, and "
              "dyf.toDF() / DynamicFrame.fromDF(df, ...) carry them unchanged (the same values, column names "
              "and types; not observed, AWS Glue has no local runtime)")


@dataclass(frozen=True)
class DynamicFrameSchema(Schema):
    """``--schema 'dyf=DynamicFrame<DDL>'``: a Schema (SQL and scripts read it as the columns), marked as
    a DynamicFrame's for a DataFrame function's parameter."""


def declaration(text: str, loc: Loc) -> DynamicFrameSchema | None:
    """``'DynamicFrame<a INT, b STRING>'`` -> its schema; None for anything else (plain DDL)."""
    stripped = text.strip()
    if not (stripped.startswith(PREFIX) and stripped.endswith(">")):
        return None
    schema = parse_ddl(stripped[len(PREFIX):-1], loc)
    return DynamicFrameSchema(schema.fields, schema.constraints)


@dataclass(frozen=True)
class DynFrameParamV:
    """A ``DynamicFrame`` whose rows are ``df``'s (a declared parameter, or ``fromDF`` of a DataFrame)."""

    df: DF
    DESCRIPTION = "an AWS Glue DynamicFrame"


@dataclass(frozen=True)
class GlueHandleV:
    """``dyf.glue_ctx`` or ``dyf.name``: only handed on to ``DynamicFrame.fromDF``."""

    attr: str
    DESCRIPTION = "a DynamicFrame's glue_ctx or name"


def attribute(base: DynFrameParamV, attr: str, loc: Loc) -> Any:
    if attr in ("glue_ctx", "name"):
        return GlueHandleV(attr)
    if attr == "toDF":
        return None  # a method: the caller binds it
    raise UnsupportedError(f"DynamicFrame.{attr} is not modelled (AWS Glue's own operations are not "
                           "observed): only toDF() and DynamicFrame.fromDF(df, ...) are read", loc,
                           construct=attr)


def method(recv: DynFrameParamV, name: str, args: list[Any], kwargs: dict[str, Any], loc: Loc) -> Any:
    if name == "toDF" and not args and not kwargs:
        return DFV(recv.df)
    raise UnsupportedError(f"DynamicFrame.{name}(...) is not modelled (AWS Glue's own operations are not "
                           "observed): only toDF() and DynamicFrame.fromDF(df, ...) are read", loc,
                           construct=name)


def is_from_df(path: str) -> bool:
    return path.split(".")[0] == "awsglue" and path.endswith("DynamicFrame.fromDF")


def from_df(args: list[Any], kwargs: dict[str, Any], loc: Loc) -> DynFrameParamV:
    """``DynamicFrame.fromDF(dataframe, glue_ctx, name)``: the DataFrame's rows; the context and the name
    must be a frame's own (or a string name), so nothing else is read through them."""
    names = ("dataframe", "glue_ctx", "name")
    bound = dict(zip(names, args, strict=False)) | {k: v for k, v in kwargs.items() if k in names}
    extra = [k for k in kwargs if k not in names]
    df = bound.get("dataframe")
    ok_ctx = isinstance(bound.get("glue_ctx"), GlueHandleV)
    name = bound.get("name")
    ok_name = isinstance(name, GlueHandleV) or (isinstance(name, PyV) and isinstance(name.value, str))
    if not isinstance(df, DFV) or len(args) > 3 or extra or not ok_ctx or not ok_name:
        raise UnsupportedError("DynamicFrame.fromDF(df, glue_ctx, name) is read with a DataFrame, a frame's "
                               "glue_ctx and a name (a frame's or a string)", loc, construct="fromDF")
    return DynFrameParamV(df.df)


def takes_dynamic_frames(program: Any) -> bool:
    """Does a translated function take a DynamicFrame parameter? Then it does not run on local Spark (no
    ``awsglue`` there, and a DataFrame handed in for the frame fails at ``toDF()``): never replayed."""
    return ROUND_TRIP in getattr(program, "assumed", ())
