"""Python UDFs in DataFrame code: ``F.udf(f, returnType)``, ``udf(f)``, ``@udf``, ``@F.udf(returnType=...)``,
``@udf("int")`` over a lambda or a ``def`` of the same file.

Why here and not in the evaluator: a UDF is a value of driver code (``UdfV``) until it is called on
columns; the call is a column expression (``UdfCall``) whose body can be read only once the argument
types are known, when the column is resolved (``resolve``): then ``frontend.python.spark_udf`` reads
the function with the shared Python reader and ``sparklite.relational.pyudf`` wraps it in Spark's UDF
rules. ``pandas_udf`` stays a located refusal (``functions.UNSUPPORTED_FUNCTIONS``);
``asNondeterministic()`` is refused too: a nondeterministic UDF has no single meaning to compare.
"""

from __future__ import annotations

import ast as pyast
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from frontend.dataframe.columns import Call, CExpr
from frontend.dataframe.values import ColV, FuncV, PyV, TypeV
from sparklite.ast import Loc
from sparklite.errors import UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational import types as T
from sparklite.relational.types import STRING, SqlType


@dataclass(frozen=True)
class UdfV:
    """A UDF of driver code: the function (a ``def`` of the module or a lambda), Spark's declared
    return type, and the module it was read from (its body is translated when it is called)."""

    func: FuncV
    return_type: SqlType
    module: Any  # frontend.dataframe.module.ModuleNames
    source: str
    registered: str | None = None  # the name given to spark.udf.register

    @property
    def shown(self) -> str:
        if self.registered is not None:
            return self.registered
        node = self.func.node
        return node.name if isinstance(node, pyast.FunctionDef) else "<lambda>"

    def sql_call(self, args: list[R.Expr], loc: Loc | None) -> R.Expr:
        """The call of this UDF from SQL text, under its registered name."""
        return resolve(UdfCall(self.shown, (), self.shown, loc=loc, udf=self), args, loc)


@dataclass(frozen=True)
class RegistryV:
    """``spark.udf``: ``register(name, f, returnType)``."""


@dataclass(frozen=True)
class UdfFactoryV:
    """``udf(returnType=...)`` / ``udf("int")`` without a function: a decorator."""

    return_type: SqlType


@dataclass(frozen=True)
class UdfCall(Call):
    """A call of a Python UDF on columns (``name`` and ``pretty_name`` are Spark's shown name)."""

    udf: UdfV | None = None

    def resolved(self, args: Sequence[R.Expr], loc: Loc | None) -> R.Expr:
        return resolve(self, args, loc)


_RETURN_TYPES = (T.StringType, T.BooleanType, T.IntegralType, T.DoubleType)


def _return_type(v: Any, loc: Loc) -> SqlType:
    from frontend.dataframe.functions import data_type

    if v is None or v == PyV(None):
        return STRING
    return data_type(v, loc)


def make(ev: Any, args: Sequence[Any], kwargs: dict[str, Any], loc: Loc) -> Any:
    """``F.udf(f=None, returnType=StringType())``: a UDF, or a decorator when ``f`` is missing or is
    itself the return type (``@udf("int")``, as PySpark reads it)."""
    if "useArrow" in kwargs and kwargs["useArrow"] != PyV(None) and kwargs["useArrow"] != PyV(False):
        raise UnsupportedError("udf(useArrow=True): Arrow-optimised UDFs convert results otherwise "
                               "(not modelled)", loc, construct="udf-arrow")
    kwargs = {k: v for k, v in kwargs.items() if k != "useArrow"}
    if set(kwargs) - {"f", "returnType"} or len(args) > 2:
        raise UnsupportedError("udf() takes f and returnType", loc, construct="udf")
    f = kwargs.get("f", args[0] if args else None)
    rt = kwargs.get("returnType", args[1] if len(args) > 1 else None)
    if f is None or isinstance(f, TypeV) or isinstance(f, PyV) and isinstance(f.value, str | type(None)):
        return UdfFactoryV(_return_type(rt if f is None or f == PyV(None) else f, loc))
    return wrap(ev, f, _return_type(rt, loc), loc)


def wrap(ev: Any, f: Any, return_type: SqlType, loc: Loc) -> UdfV:
    if not isinstance(f, FuncV):
        raise UnsupportedError("udf() of something other than a lambda or a def of this file", loc,
                               construct="udf-function")
    return UdfV(f, return_type, ev.info, "\n".join(ev.lines))


def decorated(ev: Any, node: pyast.FunctionDef, env: Any) -> UdfV | None:
    """A ``def`` decorated with ``@udf``/``@F.udf``/``@udf(...)``: its UDF (None for other decorators)."""
    if len(node.decorator_list) != 1:
        return None
    dec = node.decorator_list[0]
    loc = ev.loc(dec)
    target = dec.func if isinstance(dec, pyast.Call) else dec
    value = ev.ev(target, env)
    from frontend.dataframe.values import ModV

    if not (isinstance(value, ModV) and value.path.endswith("functions.udf")):
        return None
    factory = ev.call(value, [], {}, loc, dec) if not isinstance(dec, pyast.Call) else ev.call_node(dec, env)
    if not isinstance(factory, UdfFactoryV):
        raise UnsupportedError("this udf decorator", loc, construct="udf")
    return wrap(ev, FuncV(node, env), factory.return_type, loc)


def call(func: UdfV, args: Sequence[Any], kwargs: dict[str, Any], loc: Loc) -> ColV:
    """``my_udf(col, "name", ...)``: a column; a string names a column, as PySpark reads it."""
    from frontend.dataframe.functions import as_col

    if kwargs:
        raise UnsupportedError("keyword arguments to a UDF", loc, construct="udf-call")
    cols: list[CExpr] = [as_col(a, loc) for a in args]
    return ColV(UdfCall(func.shown, tuple(cols), func.shown, loc=loc, udf=func))


def registry_attribute(ev: Any, attr: str, loc: Loc) -> Any:
    """``spark.udf.register``: a Python builtin-like callable bound to the evaluator."""
    if attr != "register":
        raise UnsupportedError(f"spark.udf.{attr}", loc, construct="udf")
    return _Register(ev)


@dataclass(frozen=True)
class _Register:
    ev: Any


def register(reg: _Register, args: Sequence[Any], kwargs: dict[str, Any], loc: Loc) -> UdfV:
    """``spark.udf.register(name, f, returnType=None)``: the UDF, callable from SQL text by ``name``
    (and returned, as PySpark does); ``f`` may be a lambda, a def or a UDF (its return type then)."""
    from frontend.dataframe.functions import as_str, sig

    b, _ = sig("name", "f", "returnType=None").bind("register", list(args), kwargs, loc)
    name = as_str(b["name"], loc, "the UDF's name")
    f = b["f"]
    if isinstance(f, UdfV):
        udf = UdfV(f.func, f.return_type, f.module, f.source, name)
    else:
        rt = _return_type(None if b["returnType"] == PyV(None) else b["returnType"], loc)
        udf = UdfV(wrap(reg.ev, f, rt, loc).func, rt, reg.ev.info, "\n".join(reg.ev.lines), name)
    reg.ev.registered_udfs[name.lower()] = udf
    return udf


def method(recv: UdfV, name: str, loc: Loc) -> Any:
    if name == "asNondeterministic":
        raise UnsupportedError("a nondeterministic UDF (asNondeterministic()): its results are not one "
                               "function of its arguments", loc, construct="udf-nondeterministic")
    raise UnsupportedError(f"UDF.{name}", loc, construct="udf")


def resolve(e: UdfCall, args: Sequence[R.Expr], loc: Loc | None) -> R.Expr:
    """The kernel call, now that the argument types are known."""
    from frontend.python.spark_udf import udf_program
    from sparklite.relational import pyudf

    udf = e.udf
    assert udf is not None
    if not isinstance(udf.return_type, _RETURN_TYPES):
        raise UnsupportedError(f"a Python UDF returning {udf.return_type.simple} (modelled return types: "
                               "string, boolean, the integral types and double)", loc,
                               construct="udf-return-type")
    node = udf.func.node
    program, none_modelled = udf_program(udf.module.tree, udf.source, udf.module.filename, node,
                                         [a.type for a in args], [a.nullable for a in args], "udf", loc)
    return pyudf.call(pyudf.PyUdf(udf.shown, program, udf.return_type, none_modelled), args, loc)


__all__ = ["RegistryV", "UdfCall", "UdfFactoryV", "UdfV", "call", "decorated", "make", "method", "register",
           "registry_attribute", "resolve", "wrap"]
