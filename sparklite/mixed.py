"""Mixed programs: one job that crosses between the RDD kernel and the relational kernel (issue 23).

Why a chain of stages rather than a node inside either kernel: each kernel keeps its own meaning (Python
values and partitions for SparkLite, typed rows with NULLs and lazy errors for the relational kernel),
and what is new is only the *bridge* between them, the conversion Spark performs when a job crosses:

- ``ToDF``: an RDD of tuples/``Row``s becomes a DataFrame (``rdd.toDF(names)``, ``rdd.toDF(schema)``,
  ``spark.createDataFrame(rdd, schema)``). With a schema (a ``StructType`` or a DDL string) PySpark
  *verifies* every element before the JVM sees it and raises on the first bad one (``verify_row``):
  an int past the column type's range, ``None`` in a non-nullable field, a value of the wrong Python type
  (``bool`` is not an int, an ``int`` not a double), a tuple of the wrong length. Without one (names or
  nothing) it *infers* the schema from the first element (``rdd.first()``: an empty RDD raises), merging
  with the next ones up to 100 while a column is still all ``None``, and then converts each element
  *without* verification: a value that does not fit the inferred type becomes NULL on the JVM side
  (``infer_rows``). Every fact is checked on Spark 4 (``docs/semantics-notes.md``, "RDD <-> DataFrame").
- ``ToRdd``: a DataFrame becomes an RDD of ``Row``s (``df.rdd``, or ``sc.parallelize(df.collect())``):
  tuples whose fields keep their names, ``None`` for NULL, Python values as PySpark hands them over.

A ``MixedProgram`` is a source RDD (a bag of tuples) followed by stages, each a whole program of its
kernel (a one-bag ``sparklite.ast.Program``, a one-table ``RelProgram``) or a bridge, and an action. The
reference interpreter (``run``) runs each stage with its kernel's interpreter; ``to_pyspark`` emits the
PySpark function Spark runs (each stage's own code generator). Every stage is computed in full: Spark
computes every element of an RDD that feeds a DataFrame (the scan converts each one), so an error in
any element is the job's outcome; the generator keeps ``limit`` (which may stop a scan early) out of
relational stages. What the interpreter does not model it refuses with ``NotModelled`` rather than
guess (a float written into a STRING column is Java's ``Double.toString``, a nested tuple a struct...).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from sparklite import ast as A
from sparklite import codegen as rdd_codegen
from sparklite import effects
from sparklite.builtins import ProgramError
from sparklite.interpreter import EmptyReduceError, evaluate
from sparklite.relational import ast as R
from sparklite.relational import codegen as rel_codegen
from sparklite.relational import interpreter as rel_interpreter
from sparklite.relational.types import (
    BIGINT,
    BOOLEAN,
    DOUBLE,
    STRING,
    ArrayType,
    BooleanType,
    DoubleType,
    Field,
    IntegralType,
    Schema,
    SqlType,
    StringType,
)
from sparklite.relational.values import RelError, RelResult
from sparklite.values import Bag, observe_value

# ---------------------------------------------------------------------------------------------------
# Nodes
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RddStage:
    """An RDD transformation chain: ``program`` has one bag parameter (the stage's input) and a bag
    body (the stage's output)."""

    program: A.Program


@dataclass(frozen=True)
class ToDF:
    """``rdd.toDF(...)`` or ``spark.createDataFrame(rdd, ...)``: ``schema`` given (verified), or
    ``names`` (possibly empty: ``toDF()``) with the types inferred."""

    schema: Schema | None = None
    names: tuple[str, ...] = ()
    api: Literal["toDF", "createDataFrame"] = "toDF"


@dataclass(frozen=True)
class RelStage:
    """A DataFrame transformation: ``program`` has one table parameter, the stage's input DataFrame
    (its schema is the one the bridge before it produced), and a relation body."""

    program: R.RelProgram


@dataclass(frozen=True)
class ToRdd:
    """``df.rdd`` (``via="rdd"``) or ``sc.parallelize(df.collect())`` (``via="collect"``): Rows."""

    via: Literal["rdd", "collect"] = "rdd"


Stage = RddStage | ToDF | RelStage | ToRdd


@dataclass(frozen=True)
class MixedProgram:
    """``sc.parallelize(data)`` then ``stages`` then ``action`` (``collect`` or ``count``)."""

    name: str
    stages: tuple[Stage, ...]
    action: Literal["collect", "count"] = "collect"
    slices: int = 2


# ---------------------------------------------------------------------------------------------------
# Outcomes
# ---------------------------------------------------------------------------------------------------


class NotModelled(Exception):
    """A conversion whose Spark result the interpreter does not model (it refuses rather than guess)."""


@dataclass(frozen=True)
class MixedError:
    """The job raised: ``cls`` is the Python exception class PySpark raises (for an error in a worker,
    the class inside its ``PythonException``), ``condition`` Spark's error condition when it has one."""

    cls: str
    condition: str | None = None

    def __str__(self) -> str:
        return f"{self.cls} [{self.condition}]" if self.condition else self.cls


@dataclass(frozen=True)
class MixedRun:
    """The interpreter's answer: a ``Bag`` of elements (collect), an int (count) or a ``MixedError``;
    ``caveats`` are the relational stages' reasons Spark might show otherwise (``RelRun.caveats``)."""

    outcome: Any
    caveats: frozenset[str] = frozenset()
    pruned: Any = None


class Row(tuple):
    """A PySpark ``Row`` as a value: a tuple (equality, indexing, ``len``) that keeps its field names,
    which ``toDF()`` without names reads back."""

    names: tuple[str, ...]

    def __new__(cls, values: Sequence[Any], names: Sequence[str]) -> Row:
        row = super().__new__(cls, tuple(values))
        row.names = tuple(names)
        return row

    def __reduce__(self) -> Any:
        return (Row, (tuple(self), self.names))


class _Raised(Exception):
    """``eager``: raised by a job the bridge itself runs (schema inference's ``rdd.first()``), which
    no later optimisation can skip."""

    def __init__(self, error: MixedError, eager: bool = False) -> None:
        super().__init__(str(error))
        self.error = error
        self.eager = eager


# ---------------------------------------------------------------------------------------------------
# Python values -> rows (ToDF)
# ---------------------------------------------------------------------------------------------------

_RANGES = {32: (-(2**31), 2**31 - 1), 64: (-(2**63), 2**63 - 1)}
LONG_MIN, LONG_MAX = _RANGES[64]


def _raise(cls: str, condition: str) -> None:
    raise _Raised(MixedError(cls, condition))


def _as_string(v: Any) -> str:
    """A non-string Python value written into a STRING column: the JVM's ``toString`` of what the
    pickler made of it (``Long``/``Integer``: the digits; ``Boolean``: ``true``/``false``)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int) and LONG_MIN <= v <= LONG_MAX:
        return str(v)
    raise NotModelled(f"{type(v).__name__} value {v!r} written into a STRING column")


def _verify_value(v: Any, f: Field) -> Any:
    """PySpark's ``_make_type_verifier`` for one field (then the value the JVM stores)."""
    if v is None:
        if not f.nullable:
            _raise("PySparkValueError", "FIELD_NOT_NULLABLE_WITH_NAME")
        return None
    t = f.type
    if isinstance(t, IntegralType) and t.bits in _RANGES:
        if type(v) is not int:
            _raise("PySparkTypeError", "FIELD_DATA_TYPE_UNACCEPTABLE_WITH_NAME")
        lo, hi = _RANGES[t.bits]
        if not lo <= v <= hi:
            _raise("PySparkValueError", "VALUE_OUT_OF_BOUNDS")
        return v
    if isinstance(t, DoubleType):
        if type(v) is not float:
            _raise("PySparkTypeError", "FIELD_DATA_TYPE_UNACCEPTABLE_WITH_NAME")
        return v
    if isinstance(t, BooleanType):
        if type(v) is not bool:
            _raise("PySparkTypeError", "FIELD_DATA_TYPE_UNACCEPTABLE_WITH_NAME")
        return v
    if isinstance(t, StringType):
        return v if isinstance(v, str) else _as_string(v)
    raise NotModelled(f"a {t.simple} column in a schema given to toDF/createDataFrame")


def verify_row(element: Any, schema: Schema) -> tuple[Any, ...]:
    """One element under a given schema: verified field by field (positionally, also for a ``Row``),
    as PySpark does before the JVM sees it."""
    if not isinstance(element, tuple | list):
        _raise("PySparkTypeError", "FIELD_DATA_TYPE_UNACCEPTABLE")
    if len(element) != len(schema.fields):
        _raise("PySparkValueError", "FIELD_STRUCT_LENGTH_MISMATCH")
    return tuple(_verify_value(v, f) for v, f in zip(element, schema.fields, strict=True))


_NULL = "null"


def _infer_type(v: Any) -> SqlType | str:
    if v is None:
        return _NULL
    if isinstance(v, bool):
        return BOOLEAN
    if isinstance(v, int):
        return BIGINT  # also past the long range: the value then becomes NULL (checked on Spark)
    if isinstance(v, float):
        return DOUBLE
    if isinstance(v, str):
        return STRING
    raise NotModelled(f"inferring the Spark type of a {type(v).__name__} value")


def _names_of(element: Any, names: Sequence[str]) -> list[str]:
    own = list(element.names) if isinstance(element, Row) else [f"_{i + 1}" for i in range(len(element))]
    if len(names) > len(element):
        raise NotModelled("more names given to toDF than the first element has fields")
    return list(names) + own[len(names):]


def infer_schema(elements: Sequence[Any], names: Sequence[str]) -> Schema:
    """PySpark's ``_inferSchema`` of an RDD (``samplingRatio`` None): the first element's types, merged
    with the next elements' (of the first 100) while a column is still all None."""
    if not elements:  # rdd.first() on an empty RDD: a plain ValueError("RDD is empty")
        raise _Raised(MixedError("ValueError"))
    first = elements[0]
    if not isinstance(first, tuple | list):
        _raise("PySparkTypeError", "CANNOT_INFER_SCHEMA_FOR_TYPE")
    types = [_infer_type(v) for v in first]
    for e in elements[1:100]:
        if _NULL not in types:
            break
        if not isinstance(e, tuple | list) or len(e) != len(types):
            raise NotModelled("merging the inferred types of elements of different shapes")
        for i, v in enumerate(e):
            t = _infer_type(v)
            if types[i] == _NULL:
                types[i] = t
            elif t != _NULL and t != types[i]:
                _raise("PySparkTypeError", "CANNOT_MERGE_TYPE")
    if _NULL in types:
        _raise("PySparkValueError", "CANNOT_DETERMINE_TYPE")
    return Schema(tuple(Field(n, t, True) for n, t in zip(_names_of(first, names), types, strict=True)))  # type: ignore[arg-type]


def _convert_inferred(v: Any, t: SqlType) -> Any:
    """A value the JVM receives for a column of the inferred type, unverified: what does not fit is NULL
    (an ``int`` past the long range, a ``bool`` or ``float`` in a BIGINT column, an ``int`` in a DOUBLE
    column), except that a STRING column takes any value's ``toString``."""
    if v is None:
        return None
    if isinstance(t, StringType):
        return v if isinstance(v, str) else _as_string(v)
    if isinstance(t, IntegralType):
        return v if type(v) is int and LONG_MIN <= v <= LONG_MAX else None
    if isinstance(t, DoubleType):
        return v if type(v) is float else None
    if isinstance(t, BooleanType):
        return v if type(v) is bool else None
    raise NotModelled(f"converting to an inferred {t.simple} column")


def infer_rows(elements: Sequence[Any], schema: Schema) -> list[tuple[Any, ...]]:
    """The rows of an RDD under its inferred schema: an element of another length raises on the JVM
    (``STRUCT_ARRAY_LENGTH_MISMATCH``), a value that does not fit becomes NULL."""
    rows = []
    for e in elements:
        if not isinstance(e, tuple | list):
            raise NotModelled("a non-tuple element after the first, under an inferred schema")
        if len(e) != len(schema.fields):
            _raise("IllegalArgumentException", "STRUCT_ARRAY_LENGTH_MISMATCH")
        rows.append(tuple(_convert_inferred(v, f.type) for v, f in zip(e, schema.fields, strict=True)))
    return rows


def to_dataframe(elements: Sequence[Any], node: ToDF) -> tuple[Schema, list[tuple[Any, ...]]]:
    """The DataFrame ``node`` makes of ``elements`` (raises ``_Raised`` with Spark's error)."""
    if node.schema is not None:
        return node.schema, [verify_row(e, node.schema) for e in elements]
    try:
        schema = infer_schema(elements, node.names)
    except _Raised as raised:  # toDF runs rdd.first() (and take(100)) at once
        raise _Raised(raised.error, eager=True) from None
    return schema, infer_rows(elements, schema)


# ---------------------------------------------------------------------------------------------------
# The interpreter
# ---------------------------------------------------------------------------------------------------


def _rdd_stage(stage: RddStage, elements: list[Any]) -> list[Any]:
    program = stage.program
    (param,) = [p for p in program.params]
    try:
        return list(evaluate(program, {param.name: elements}).elements())
    except ZeroDivisionError:
        raise _Raised(MixedError(effects.ZERO_DIVISION)) from None
    except EmptyReduceError:
        raise _Raised(MixedError(effects.EMPTY_ACTION)) from None
    except ProgramError as exc:
        raise _Raised(MixedError(exc.kind)) from None


def _rel_stage(stage: RelStage, rows: list[tuple[Any, ...]], caveats: set[str]
               ) -> tuple[Schema, list[tuple[Any, ...]]]:
    program = stage.program
    (param,) = program.params
    relation = program.body.source if isinstance(program.body, R.Action) else program.body
    run = rel_interpreter.run(R.RelProgram(program.name, program.params, relation), {param.name: rows})
    caveats.update(run.caveats)
    if isinstance(run.outcome, RelError):
        raise _Raised(MixedError(run.outcome.cls, run.outcome.condition))
    assert isinstance(run.outcome, RelResult)
    result = run.outcome.rows
    groups = (result,) if isinstance(result, Bag) else result.groups
    return relation.schema, [tuple(r) for g in groups for r in g.items]


CAVEAT_PRUNED_SCAN = ("optimiser-dependent: Spark may prove a DataFrame stage's result empty without "
                      "reading its input, and then never computes the RDD before it")


def _pruned(rest: Sequence[Stage], action: str) -> Any:
    """What Spark shows instead of an error raised before ``rest`` when it never computes the RDD that
    raised: the next DataFrame stage's optimised plan may be an empty relation that reads nothing (a
    filter Spark's rules decide false: ``x != x`` on a non-nullable column, a cast compared with a
    literal out of its range; seen on Spark 4). Then the outcome is the rest of the job run on an
    empty input; None when no DataFrame stage follows before the job goes back to an RDD."""
    for j, stage in enumerate(rest):
        if isinstance(stage, RelStage):
            (param,) = stage.program.params
            state = _State(rows=[], schema=param.schema)
            try:
                _run_stages(rest[j:], state)
            except _Raised:
                return None
            return state.result(action)
        if isinstance(stage, ToRdd):
            return None
    return None


@dataclass
class _State:
    """Where a run is: the RDD's elements (``schema`` None) or the DataFrame's rows and schema."""

    elements: list[Any] = field(default_factory=list)
    rows: list[tuple[Any, ...]] = field(default_factory=list)
    schema: Schema | None = None
    caveats: set[str] = field(default_factory=set)
    at: int = 0

    def result(self, action: str) -> Any:
        schema = self.schema
        items = [python_row(r, schema) for r in self.rows] if schema is not None else self.elements
        if action == "count":
            return len(items)
        return Bag.of(observe_value(tuple(x) if isinstance(x, tuple) else x) for x in items)


def _python_cell(v: Any, t: SqlType) -> Any:
    """A DataFrame cell as ``collect()`` and ``df.rdd`` hand it to Python: an array is a ``list`` (the
    relational kernel keeps arrays as tuples, which Python keeps apart from lists)."""
    if v is not None and isinstance(t, ArrayType):
        return [_python_cell(x, t.element) for x in v]
    return v


def python_row(row: Sequence[Any], schema: Schema) -> tuple[Any, ...]:
    """A DataFrame row's cells as Python sees them (``_python_cell``)."""
    return tuple(_python_cell(v, f.type) for v, f in zip(row, schema.fields, strict=True))


def _run_stages(stages: Sequence[Stage], state: _State) -> None:
    for k, stage in enumerate(stages):
        state.at = k
        if isinstance(stage, RddStage):
            state.elements = _rdd_stage(stage, state.elements)
        elif isinstance(stage, ToDF):
            state.schema, state.rows = to_dataframe(state.elements, stage)
        elif isinstance(stage, RelStage):
            state.schema, state.rows = _rel_stage(stage, state.rows, state.caveats)
        else:
            assert state.schema is not None
            state.elements = [Row(python_row(r, state.schema), state.schema.names) for r in state.rows]
            state.schema = None


def run(program: MixedProgram, data: Sequence[Any]) -> MixedRun:
    """The outcome of ``program`` on ``data`` (the source RDD's elements), as Spark computes it, up to
    the order of a collected result (a ``Bag``). Raises ``NotModelled`` for what it does not model.
    An error raised before a DataFrame stage Spark may prove empty carries ``CAVEAT_PRUNED_SCAN`` and
    the outcome Spark shows then (``MixedRun.pruned``)."""
    state = _State(elements=list(data))
    try:
        _run_stages(program.stages, state)
    except _Raised as raised:
        pruned = None if raised.eager else _pruned(program.stages[state.at + 1:], program.action)
        if pruned is not None:
            state.caveats.add(CAVEAT_PRUNED_SCAN)
        return MixedRun(raised.error, frozenset(state.caveats), pruned)
    return MixedRun(state.result(program.action), frozenset(state.caveats))


# ---------------------------------------------------------------------------------------------------
# Code generation
# ---------------------------------------------------------------------------------------------------


def ddl(schema: Schema) -> str:
    """A schema as the DDL string ``toDF``/``createDataFrame`` read (names quoted, NOT NULL kept)."""
    return ", ".join(f"`{f.name}` {f.type.simple}{'' if f.nullable else ' NOT NULL'}" for f in schema.fields)


@dataclass
class _Code:
    defs: list[str] = field(default_factory=list)
    body: list[str] = field(default_factory=list)


def _stage_code(stage: Stage, i: int, var: str, out: _Code) -> str:
    new = f"x{i}"
    if isinstance(stage, RddStage):
        fn = f"rdd_stage_{i}"
        text = rdd_codegen.to_pyspark(stage.program)
        own = rdd_codegen.function_name(stage.program)
        out.defs.append(re.sub(rf"^def {re.escape(own)}\(", f"def {fn}(", text, flags=re.M))
        out.body.append(f"{new} = {fn}({var})")
    elif isinstance(stage, RelStage):
        fn = f"rel_stage_{i}"
        text = rel_codegen.to_pyspark(stage.program)
        out.defs.append(re.sub(rf"^def {rel_codegen.FUNCTION_NAME}\(", f"def {fn}(", text, flags=re.M))
        out.body.append(f"{new} = {fn}({var})")
    elif isinstance(stage, ToDF):
        if stage.schema is not None:
            arg = repr(ddl(stage.schema))
        else:
            arg = repr(list(stage.names)) if stage.names else ""
        if stage.api == "createDataFrame":
            out.body.append(f"{new} = spark.createDataFrame({var}{', ' + arg if arg else ''})")
        else:
            out.body.append(f"{new} = {var}.toDF({arg})")
    elif stage.via == "rdd":
        out.body.append(f"{new} = {var}.rdd")
    else:
        out.body.append(f"{new} = spark.sparkContext.parallelize({var}.collect(), 2)")
    return new


def to_pyspark(program: MixedProgram) -> str:
    """The module text defining ``<name>(spark, data)``: the job on Spark, returning what ``run``
    predicts (the collected list, or the count)."""
    out = _Code()
    var = "x0"
    out.body.append(f"x0 = spark.sparkContext.parallelize(data, {program.slices})")
    for i, stage in enumerate(program.stages, start=1):
        var = _stage_code(stage, i, var, out)
    out.body.append(f"return {var}.{program.action}()")
    header = '"""PySpark code generated by sparkeq from a mixed RDD/DataFrame program."""\n\n'
    body = "\n".join("    " + line for line in out.body)
    return header + "\n\n".join(out.defs) + f"\n\n\ndef {program.name}(spark, data):\n{body}\n"
