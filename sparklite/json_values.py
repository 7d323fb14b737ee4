"""Program inputs from their JSON form (the inverse of ``sparklite.values.to_json`` on inputs).

Why a module of its own: counterexamples travel as JSON (the CLI, the library's ``Result``, batch
files), where tuples are lists and non-finite floats are ``{"float": "nan" | "inf" | "-inf"}``; replay,
the fuzzer and the tests must turn them back into exactly the Python values the interpreter and Spark
were given, guided by the parameter's SparkLite type.
"""

from __future__ import annotations

from typing import Any

from sparklite.types import BagType, BoolType, FloatType, IntType, ListType, OptionType, TupleType, Type

_NON_FINITE = {"nan": float("nan"), "inf": float("inf"), "-inf": float("-inf")}


def from_json(value: Any, t: Type | None) -> Any:
    """The runtime value of type ``t`` whose JSON form is ``value`` (bags as lists of elements)."""
    if isinstance(t, BagType | ListType):
        return [from_json(v, t.elem) for v in value]
    if isinstance(t, TupleType):
        return tuple(from_json(v, e) for v, e in zip(value, t.elems, strict=True))
    if isinstance(t, OptionType):
        return None if value is None else from_json(value, t.elem)
    if isinstance(t, FloatType):
        if isinstance(value, dict):
            return _NON_FINITE[value["float"]]
        return float(value)
    if isinstance(t, BoolType):
        return bool(value)
    if isinstance(t, IntType):
        return value if isinstance(value, bool) else int(value)
    return value
