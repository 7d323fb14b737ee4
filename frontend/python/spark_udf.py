"""The body of a Python UDF of DataFrame or SQL code (``F.udf(f, type)``, ``@udf``,
``spark.udf.register``) as a SparkLite program, read with the shared Python reader.

Why the RDD kernel: a UDF runs in a Python worker with Python's meaning (unbounded ints, ``//``, string
methods, exceptions), which is exactly what SparkLite's interpreter models for the lambdas of RDD
code; the relational kernel only adds Spark's UDF rules around it (``sparklite.relational.pyudf``:
NULL in is ``None``, an exception is a task failure, the declared return type converts or nulls the
result). The body is read as ``frontend.rdd`` reads a lambda passed to ``map``: by the same
``Translator`` (the user's module is parsed, never imported), then typed by the same inference.

The program has one basic parameter per argument column, typed as the column's Python type, and the
call of the function as its body. A nullable column's parameter is ``Optional``: the body must test it
for ``None`` before using it (``lambda s: s.upper() if s is not None else None``); a body that does not
is typed again with plain parameters, and the kernel then knows it for a NULL argument only as
"outside the model" (Python would raise ``TypeError`` or not, depending on the operation).
"""

from __future__ import annotations

import ast as pyast
import copy
from collections.abc import Sequence

from frontend.python.names import DefV, Scalar, Scope, scan_module
from frontend.python.resolve import infer_program
from frontend.python.udf import Translator
from sparklite import ast as sl
from sparklite import types as st
from sparklite.errors import InputError, TypeCheckError, UnsupportedError
from sparklite.relational import types as T


def python_type(t: T.SqlType) -> st.Type | None:
    """The Python type a UDF sees for a column of Spark type ``t`` (None: not modelled)."""
    if isinstance(t, T.IntegralType):
        return st.INT
    if isinstance(t, T.DoubleType):
        return st.FLOAT
    if isinstance(t, T.StringType):
        return st.STR
    if isinstance(t, T.BooleanType):
        return st.BOOL
    return None


def udf_program(tree: pyast.Module, source: str, filename: str, fn: pyast.Lambda | pyast.FunctionDef,
                arg_types: Sequence[T.SqlType], optional: Sequence[bool], name: str,
                loc: sl.Loc | None) -> tuple[sl.Program, bool]:
    """The UDF ``fn`` (a lambda, or a ``def`` of the module) applied to one argument of each type, and
    whether it was typed with ``Optional`` parameters for the nullable arguments (False: the body does
    not type with them, and a NULL argument is outside what the program models)."""
    if any(optional):
        try:
            return _program(tree, source, filename, fn, arg_types, optional, name, loc), True
        except TypeCheckError:
            pass
    plain = _program(tree, source, filename, fn, arg_types, [False] * len(arg_types), name, loc)
    return plain, not any(optional)


def _program(tree: pyast.Module, source: str, filename: str, fn: pyast.Lambda | pyast.FunctionDef,
             arg_types: Sequence[T.SqlType], optional: Sequence[bool], name: str,
             loc: sl.Loc | None) -> sl.Program:
    params: list[sl.Param] = []
    for i, (t, opt) in enumerate(zip(arg_types, optional, strict=True)):
        pt = python_type(t)
        if pt is None:
            raise UnsupportedError(f"a Python UDF over a {t.simple} column (UDF arguments of types int, "
                                   "bigint, smallint, tinyint, double, string and boolean are modelled)", loc,
                                   construct="udf-argument-type")
        params.append(sl.Param(f"udf_arg{i}", st.OptionType(pt) if opt else pt, loc=loc))
    if isinstance(fn, pyast.FunctionDef) and fn.decorator_list:  # @udf def f: the body is what Spark calls
        bare = copy.copy(fn)
        bare.decorator_list = []
        tree = pyast.Module(body=[bare if s is fn else s for s in tree.body], type_ignores=[])
        fn = bare
    info = scan_module(tree, filename, frozenset())
    tr = Translator(info, source.splitlines())
    scope = Scope({p.name: Scalar(sl.Var(p.name, loc=loc)) for p in params}, in_udf=False)
    if isinstance(fn, pyast.Lambda):
        value = tr.expr(fn, scope)
    else:
        if fn.name not in info.defs:
            raise UnsupportedError(f"the UDF '{fn.name}' is not a module-level def (a nested def is not "
                                   "read)", loc, construct="udf-nested-def")
        value = DefV(fn.name)
    f = tr.as_fn(value, len(params), fn, "a UDF")
    body = sl.Apply(f, tuple(sl.Var(p.name, loc=loc) for p in params), loc=loc)
    tr.finalize_lists()
    program = sl.Program(name, tuple(params), tuple(tr.defs.values()), tuple(tr.lets), body, loc=loc)
    try:
        return infer_program(program)
    except RecursionError:
        raise InputError("the UDF is nested too deeply to translate", loc) from None


__all__ = ["python_type", "udf_program"]
