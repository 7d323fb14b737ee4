"""Python UDFs in the relational kernel: a ``Func`` node whose ``udf`` holds the UDF's body as a
SparkLite program (``frontend.python.spark_udf``), with Spark's rules for calling it.

Why a ``Func`` and not a node of its own: a deterministic UDF is a scalar function of its arguments like
the others, so every pass that walks ``Func`` (names, effects, congruence) already treats it right. Its
``name`` is ``pyudf_<digest>``, a digest of the typed body and the declared return type, so two calls
are the same function exactly when their bodies are (the congruence check and the prover's
uninterpreted functions compare names); the name Spark shows is ``udf.shown``.

Spark's rules, observed on PySpark 4 (``docs/semantics-notes.md``, "Python UDFs"):
- a NULL argument reaches the function as ``None`` (so ``x * 2`` on a NULL raises ``TypeError``);
- an exception in the function fails the task: ``PythonException`` (the interpreter's error value
  ``PYTHON_UDF_ERROR``; which exception it was is not part of the outcome);
- the result is converted to the declared type, or is NULL when Python's value has another type
  (``convert``); the default return type is ``string``.
The body runs in SparkLite's interpreter (Python's meaning: unbounded ints, ``//``, string methods).
The prover does not look inside a body (``encoder.relational`` refuses it, naming the UDF): two sides
are proved equal with a UDF only when they call the same one on the same arguments (congruence).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sparklite import ast as sl
from sparklite.relational import ast as R
from sparklite.relational import types as T
from sparklite.relational.sqlerror import SqlError
from sparklite.relational.timestamps import OutsideModel
from sparklite.relational.values import RelError

#: a UDF raised (a task failure): PySpark's ``PythonException``, which carries no error condition
PYTHON_UDF_ERROR = RelError("PythonException", "PYTHON_EXCEPTION")
PREFIX = "pyudf_"


class UdfOutsideModel(OutsideModel):
    caveat = ("outside the model: a Python UDF's result of a type whose conversion sparkeq does not model, "
              "or a NULL argument its body is not typed for")


@dataclass(frozen=True)
class PyUdf:
    """A Python UDF: ``program`` (SparkLite, one basic parameter per argument) and Spark's declared
    ``return_type``; ``shown`` is the name in Spark's column names (the def's name, ``<lambda>``, or
    the name given to ``spark.udf.register``)."""

    shown: str
    program: sl.Program
    return_type: T.SqlType
    none_modelled: bool = True  # False: typed for non-NULL arguments only; a NULL one is outside the model

    @property
    def key(self) -> str:
        digest = hashlib.sha256(f"{self.program!r}|{self.return_type.simple}".encode()).hexdigest()[:16]
        return PREFIX + digest


def is_udf(e: R.Func) -> bool:
    return e.name.startswith(PREFIX) and getattr(e, "udf", None) is not None


def call(udf: PyUdf, args: Sequence[R.Expr], loc: Any = None) -> R.Func:
    """The call ``udf(args)``: nullable (a UDF may return None, and NULL results of conversions)."""
    return R.Func(udf.key, tuple(args), udf.return_type, True, udf=udf, loc=loc)


def evaluate(udf: PyUdf, values: Sequence[Any]) -> Any:
    """The UDF on one row's argument values (NULL as None): its converted result; ``SqlError`` when the
    Python function raises."""
    from sparklite.interpreter import run
    from sparklite.values import ErrorOutcome

    if not udf.none_modelled and any(v is None for v in values):
        raise UdfOutsideModel(PYTHON_UDF_ERROR)  # Python may raise (None.split()) or not: not modelled
    inputs = {p.name: v for p, v in zip(udf.program.params, values, strict=True)}
    out = run(udf.program, inputs)
    if isinstance(out, ErrorOutcome):
        raise SqlError(PYTHON_UDF_ERROR)
    return convert(out, udf.return_type)


_LONG = (-(1 << 63), (1 << 63) - 1)


def convert(v: Any, t: T.SqlType) -> Any:
    """A Python value returned for Spark type ``t`` (pickled UDFs, Spark 4; observed):
    - ``string``: a str as it is; an int as its digits, a bool as ``true``/``false``, a float as Java's
      ``Double.toString`` (``1.5``), a list as Java prints it (not modelled);
    - an integral type: an int within a long wraps to the type's bits (``2**40`` as ``int`` is 0, 300
      as ``tinyint`` 44); an int beyond a long is NULL for ``bigint``; a float, str or bool is NULL;
    - ``double``: a float as it is (-0.0 kept); an int or anything else is NULL;
    - ``boolean``: a bool; anything else NULL.
    What this module does not model (containers, other types) raises ``UdfOutsideModel``."""
    from sparklite.relational.functions import java_double_str, jvm_may_print_otherwise

    if v is None:
        return None
    if not isinstance(v, int | float | str | bool):
        raise UdfOutsideModel(PYTHON_UDF_ERROR)
    if isinstance(t, T.StringType):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int):
            if not _LONG[0] <= v <= _LONG[1]:
                raise UdfOutsideModel(PYTHON_UDF_ERROR)
            return str(v)
        if isinstance(v, float):
            if jvm_may_print_otherwise(v):  # Double.toString differs between JDKs there
                raise UdfOutsideModel(PYTHON_UDF_ERROR)
            return java_double_str(v)
        return v
    if isinstance(t, T.BooleanType):
        return v if isinstance(v, bool) else None
    if isinstance(t, T.IntegralType):
        if isinstance(v, bool) or not isinstance(v, int):
            return None
        if not _LONG[0] <= v <= _LONG[1]:
            if t.bits == 64:
                return None
            raise UdfOutsideModel(PYTHON_UDF_ERROR)
        v &= (1 << t.bits) - 1
        return v - (1 << t.bits) if v >> (t.bits - 1) else v
    if isinstance(t, T.DoubleType):
        return v if isinstance(v, float) else None
    raise UdfOutsideModel(PYTHON_UDF_ERROR)


def codegen(udf: PyUdf, args: Sequence[str]) -> str:
    """A PySpark Column expression calling the UDF (its body as the Python code SparkLite's code
    generator writes, defined by ``exec`` in a namespace of its own, so the emitted module needs no
    import): ``F.udf(f, 'bigint')(a, b)``."""
    from sparklite.codegen import function_name, to_pyspark

    src = to_pyspark(udf.program)
    name = function_name(udf.program)
    fn = f"(lambda ns: (exec({src!r}, ns), ns[{name!r}])[1])({{'__name__': 'sparkeq_udf'}})"
    return f"F.udf({fn}, {udf.return_type.simple!r})({', '.join(args)})"


__all__ = ["PREFIX", "PYTHON_UDF_ERROR", "PyUdf", "UdfOutsideModel", "call", "codegen", "convert", "evaluate",
           "is_udf"]
