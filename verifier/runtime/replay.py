"""Run both *original* programs on a real Spark with a counterexample's inputs and partitionings.

A counterexample is computed against sparkeq's model of Spark (the reference interpreter); replaying it
on Spark itself is what lets a user trust it (and what catches a modelling mistake). So replay runs the
user's own PySpark function, not a translation: bag parameters become RDDs whose partitions are exactly
the counterexample's (``verifier.runtime.spark.exact_rdd``), scalars are passed as they are, RDD results (also
inside tuples) are collected into bags, and an exception in a Spark job becomes an ``ErrorOutcome``
named after the Python exception the user's code raised (Spark wraps worker errors in a Java
exception; the Python exception's name is dug out of its message).

Only the pipeline function and what it references run (``verifier.runtime.extract``): the rest of the user's
file, with whatever side effects it has at top level, never does. SparkLite programs (``.sl`` files and
in-memory ASTs) are first turned into PySpark source by ``sparklite.codegen.to_pyspark``.
"""

from __future__ import annotations

import inspect
import re
import time
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import Any

from sparklite.ast import Program
from sparklite.types import (
    BagType,
    BoolType,
    FloatType,
    IntType,
    ListType,
    NoneType_,
    OptionType,
    StrType,
    TupleType,
    Type,
)
from sparklite.values import (
    Bag,
    ErrorOutcome,
    Outcome,
    Partitioning,
    Sorted,
    observe_like,
    observe_value,
    outcomes_equal,
)
from verifier.core.base import LoadedProgram
from verifier.core.services import ReplayError, SparkUnavailable
from verifier.runtime.extract import ExtractionError, loaded_function
from verifier.runtime.progress import label, say
from verifier.runtime.spark import DEFAULT_MASTER, exact_rdd, get_context

__all__ = ["ReplayError", "ReplayResult", "SparkUnavailable", "replay", "run_on_spark"]

_EXC_LINE = re.compile(r"^([A-Za-z_][\w.]*)(?::\s|:?$)")


@dataclass(frozen=True)
class ReplayResult:
    """Both programs' outcomes as Spark computed them (``Bag``, basic value, tuple, ``ErrorOutcome``)."""

    left: Outcome
    right: Outcome
    differs: bool
    seconds: float = 0.0


def replay(
    left: LoadedProgram,
    right: LoadedProgram,
    candidate_inputs: Mapping[str, Any],
    partitions: Mapping[str, Partitioning] | None,
    master: str = DEFAULT_MASTER,
    references: tuple[Outcome, Outcome] | None = None,
) -> ReplayResult:
    """Run both programs on Spark with the same inputs and partitionings and compare their outcomes.

    ``references`` are the outcomes the interpreter predicted (the counterexample's): Spark returns an
    ordered result (``sortBy(...).collect()``, ``take``, ``top``...) as one concrete list, and each side's
    list is read through its reference's tie groups (``values.observe_like``), so that a different
    order among equal sort keys is no difference. Without them RDDs and lists are observed as bags.

    Raises ``SparkUnavailable`` when Spark cannot start (no Java, ...), ``ReplayError`` when a program
    cannot be run at all.
    """
    from py4j.protocol import Py4JError

    started = time.perf_counter()
    sc = get_context(master)
    try:
        with _quiet(sc):
            ref_left, ref_right = references if references is not None else (None, None)
            say(f"running LEFT on Spark: {label(left)}")
            out_left = run_on_spark(left, candidate_inputs, partitions, master, ref_left)
            say(f"running RIGHT on Spark: {label(right)}")
            out_right = run_on_spark(right, candidate_inputs, partitions, master, ref_right)
    except Py4JError as exc:  # Spark itself failed (the programs' own errors are outcomes, caught inside)
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise SparkUnavailable(f"Spark failed at master {master!r}: {first}") from exc
    return ReplayResult(
        left=out_left,
        right=out_right,
        differs=not outcomes_equal(out_left, out_right),
        seconds=time.perf_counter() - started,
    )


def run_on_spark(
    loaded: LoadedProgram,
    inputs: Mapping[str, Any],
    partitions: Mapping[str, Partitioning] | None = None,
    master: str = DEFAULT_MASTER,
    reference: Outcome = None,
) -> Outcome:
    """One program's outcome on Spark for the given inputs, observed like ``reference`` when given
    (see ``replay``)."""
    sc = get_context(master)
    source, function, filename = _runnable_source(loaded)
    with _quiet(sc), ExitStack() as stack:
        try:
            fn = stack.enter_context(loaded_function(source, function, filename,
                                                     {"sc": sc, "spark": _session(sc)}))
        except ExtractionError as exc:
            raise ReplayError(str(exc)) from exc
        except Exception as exc:  # the selected top-level code itself failed: no outcome to report
            raise ReplayError(f"{filename}: the code {function!r} needs cannot be loaded: "
                              f"{type(exc).__name__}: {exc}") from exc
        args, kwargs = _arguments(sc, loaded.program, fn, inputs, partitions or {})
        try:
            return _observe(fn(*args, **kwargs), reference)
        except Exception as exc:  # the program's own failure is an outcome
            return ErrorOutcome(_exception_name(exc))


# ---------------------------------------------------------------------------------------------------
# Source of the code to run
# ---------------------------------------------------------------------------------------------------


def _runnable_source(loaded: LoadedProgram) -> tuple[str, str, str]:
    """(source, function name, file name) of the PySpark code that ``loaded`` stands for."""
    if loaded.language == "script":  # its SparkLite program is not the script: run the file itself
        raise ReplayError("a whole script is replayed by running the script (verifier.runtime.script_replay)")
    if loaded.language == "python":
        source = loaded.source
        if source is None:
            if loaded.path is None:
                raise ReplayError("a Python program without source or path cannot be replayed")
            with open(loaded.path, encoding="utf-8") as handle:
                source = handle.read()
        function = loaded.function or loaded.program.name
        return source, function, loaded.path or "<pipeline>"
    try:
        from sparklite.codegen import function_name, to_pyspark
    except ImportError as exc:
        raise ReplayError(f"SparkLite programs cannot be replayed: no code generator ({exc})") from exc
    source = to_pyspark(loaded.program)
    filename = f"<sparklite {loaded.path or loaded.program.name}>"
    return source, function_name(loaded.program), filename


def _session(sc: Any) -> Any:
    """A SparkSession over ``sc`` for files that bind ``spark = SparkSession...`` (created lazily)."""

    class _LazySession:
        def __getattr__(self, item: str) -> Any:
            from pyspark.sql import SparkSession

            return getattr(SparkSession(sc), item)

    return _LazySession()


# ---------------------------------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------------------------------


def _arguments(
    sc: Any,
    program: Program,
    fn: Any,
    inputs: Mapping[str, Any],
    partitions: Mapping[str, Partitioning],
) -> tuple[list[Any], dict[str, Any]]:
    """Arguments for the user's function: by name when its parameters are the program's, else by
    position (a frontend may rename parameters, never reorder them)."""
    values: dict[str, Any] = {}
    for param in program.params:
        if param.name not in inputs and param.name not in partitions:
            raise ReplayError(f"the counterexample gives no value for parameter {param.name!r}")
        ptype = param.type
        if isinstance(ptype, BagType):
            parts = partitions.get(param.name)
            if parts is None:
                value = inputs[param.name]
                parts = [value.items if isinstance(value, Bag) else value]
            rdd_parts = [[_convert(x, ptype.elem) for x in part] for part in parts]
            values[param.name] = exact_rdd(sc, rdd_parts)
        else:
            values[param.name] = _convert(inputs[param.name], ptype)
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return [values[p.name] for p in program.params], {}
    args: list[Any] = []
    kwargs: dict[str, Any] = values
    if not set(values) <= set(signature.parameters):
        args, kwargs = [values[p.name] for p in program.params], {}
    try:
        signature.bind(*args, **kwargs)
    except TypeError as exc:
        # Not an outcome of the program: the call itself does not fit (a TypeError here would
        # otherwise be reported as the program raising TypeError).
        raise ReplayError(f"cannot call {getattr(fn, '__name__', fn)}{signature} with the program's "
                          f"parameters {[p.name for p in program.params]}: {exc}") from exc
    return args, kwargs


def _convert(value: Any, typ: Type | None) -> Any:
    """A JSON-ish value (lists for tuples, ``{"float": "nan"}`` for a non-finite float) as the Python
    value of type ``typ``."""
    if isinstance(typ, TupleType):
        return tuple(_convert(v, t) for v, t in zip(value, typ.elems, strict=True))
    if isinstance(typ, BoolType):
        return bool(value)
    if isinstance(typ, IntType):
        return value if isinstance(value, bool) else int(value)
    if isinstance(typ, FloatType):
        if isinstance(value, dict) and "float" in value:
            return float(value["float"])
        return float(value)
    if isinstance(typ, StrType):
        return str(value)
    if isinstance(typ, NoneType_):
        return None
    if isinstance(typ, OptionType):
        return None if value is None else _convert(value, typ.elem)
    if isinstance(typ, ListType):
        return [_convert(v, typ.elem) for v in value]
    return _tuplify(value)


def _tuplify(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(_tuplify(v) for v in value)
    return value


# ---------------------------------------------------------------------------------------------------
# Outputs
# ---------------------------------------------------------------------------------------------------


def _observe(value: Any, reference: Outcome = None) -> Outcome:
    """What the caller observes: RDDs collected (left to right), tuples component-wise, values as the
    interpreter observes them (``values.observe_value``: lists inside elements as ``ListValue``, dicts as
    ``DictValue``). A list (a collected RDD or an action's list) is read through ``reference`` when there
    is one (``values.observe_like``: an ordered result modulo ties), else as a bag of collected rows."""
    from pyspark import RDD

    if isinstance(value, RDD):
        value = value.collect()
        if not isinstance(reference, Sorted):
            return Bag.of(observe_value(x) for x in value)
    if isinstance(value, tuple):
        same_shape = isinstance(reference, tuple) and len(reference) == len(value)
        refs = reference if same_shape else (None,) * len(value)
        return tuple(_observe(v, r) for v, r in zip(value, refs, strict=True))
    if isinstance(value, list) and reference is None:
        return Bag.of(observe_value(x) for x in value)
    return observe_like(value, reference)


def _exception_name(exc: BaseException) -> str:
    """The Python exception behind ``exc``: itself, or the one a Spark worker reported."""
    text = str(exc)
    marker = "Traceback (most recent call last):"
    if marker not in text:
        if type(exc).__module__.startswith("py4j"):
            raise ReplayError(f"Spark failed while running the program: {text.splitlines()[0:2]}") from exc
        if type(exc).__module__.startswith("pyspark"):
            # PySpark's own subclasses (PySparkValueError, ...): report the builtin the user knows.
            return next(c.__name__ for c in type(exc).__mro__ if c.__module__ == "builtins")
        return type(exc).__name__
    tail = text[text.rindex(marker) + len(marker):]
    for line in tail.splitlines()[1:]:
        if not line or line[0].isspace():
            continue
        match = _EXC_LINE.match(line)
        if match:
            return _builtin_name(match.group(1).rsplit(".", 1)[-1])
    raise ReplayError(f"cannot tell which exception the Spark job raised: {text[:300]}") from exc


def _builtin_name(name: str) -> str:
    """``PySparkValueError`` -> ``ValueError``; any other name unchanged."""
    import builtins

    if name.startswith("PySpark") and isinstance(getattr(builtins, name[7:], None), type):
        return name[7:]
    return name


@contextmanager
def _quiet(sc: Any) -> Iterator[None]:
    """Silence Spark's log while replaying: a failing task is an expected outcome here, and Spark
    would otherwise print the worker's traceback as an ERROR on the user's terminal."""
    sc.setLogLevel("OFF")
    try:
        yield
    finally:
        sc.setLogLevel("ERROR")
