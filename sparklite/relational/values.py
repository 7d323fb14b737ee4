"""The observable outcomes of a relational (DataFrame or SQL) program, as Spark 4 shows them.

A relational program ends in one of: a result (``RelResult``: named, typed columns and a bag of rows, or
a ``Sorted`` sequence of tie groups after ``orderBy``), a count (an ``int``), one row (``first()``: a
``RelRow`` or None), or an error (``RelError``: the exception class and Spark's error condition).

Why a module of its own rather than ``sparklite.values``: a DataFrame result has a *schema*, which is
part of what the user observes (``int`` and ``bigint`` columns print the same Python ints but are
different results), while its *nullability* is not compared (equivalent rewrites may differ only in it,
``dataframe-semantics.md``): ``RelResult`` keeps both and compares the first only. Row values compare as
the values ``collect()`` returns (``sparklite.values.outcomes_equal``): NaN equals NaN, ``-0.0`` differs
from ``0.0`` (Spark's ``=`` equates them, but ``collect()``, ``show()`` and ``write`` keep the sign; only
grouping and ``distinct`` normalise it), and a Python ``1`` differs from ``1.0`` and from ``True`` (the
column types differ too). Rows themselves are stored with ``sparklite.values.Bag``
and ``Sorted`` so that the RDD and relational halves share one notion of "a bag modulo ties".

An error is identified by the class PySpark raises (``ArithmeticException``, ``NumberFormatException``,
``DateTimeException``, ``SparkRuntimeException``...) and the condition Spark reports
(``DIVIDE_BY_ZERO``, ``NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION``...): both are what a user can
catch, and both are stable across Spark's message wording.
"""

from __future__ import annotations

import datetime
import decimal
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sparklite.values import Bag, Sorted, float_json, outcomes_equal


@dataclass(frozen=True)
class RelError:
    """A Spark exception as an outcome: ``cls`` is PySpark's exception class name (the JVM class minus
    its ``Spark`` prefix, e.g. ``ArithmeticException``), ``condition`` Spark's error condition."""

    cls: str
    condition: str | None

    def __str__(self) -> str:
        return f"{self.cls} [{self.condition}]" if self.condition else self.cls


# The errors the interpreter produces (each checked against Spark 4 in tests/test_relational_interpreter.py).
ARITHMETIC_OVERFLOW = RelError("ArithmeticException", "ARITHMETIC_OVERFLOW")
# tinyint/smallint arithmetic reports this condition instead (``CAST(127 AS TINYINT) + CAST(1 AS TINYINT)``)
BINARY_ARITHMETIC_OVERFLOW = RelError("ArithmeticException", "BINARY_ARITHMETIC_OVERFLOW")
DIVIDE_BY_ZERO = RelError("ArithmeticException", "DIVIDE_BY_ZERO")
REMAINDER_BY_ZERO = RelError("ArithmeticException", "REMAINDER_BY_ZERO")
CAST_OVERFLOW = RelError("ArithmeticException", "CAST_OVERFLOW")
# decimal overflow, in arithmetic and in casts (``CAST(99.99 AS DECIMAL(3,1))``)
DECIMAL_OVERFLOW = RelError("ArithmeticException", "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION")
# an unparsable string: the class depends on the target type
CAST_INVALID_NUMBER = RelError("NumberFormatException", "CAST_INVALID_INPUT")
CAST_INVALID_BOOLEAN = RelError("SparkRuntimeException", "CAST_INVALID_INPUT")
CAST_INVALID_DATE = RelError("DateTimeException", "CAST_INVALID_INPUT")

_GENERIC_CLASSES = {"CapturedException", "UnknownException", "PySparkException"}


def rel_error_of_exception(exc: BaseException) -> RelError | None:
    """The ``RelError`` a PySpark exception stands for, or None when it is not a program outcome.

    PySpark converts a JVM exception that carries an error condition into a class of its own
    (``pyspark.errors.exceptions.captured.ArithmeticException`` for ``SparkArithmeticException``...);
    ``getCondition()`` gives the condition. A ``Py4JJavaError`` without a condition (a lost Python
    worker under load, ``dataframe-semantics.md``) is None: replay should retry such a run rather than
    count it as the program's outcome. ``AnalysisException`` and ``PythonException`` (a UDF) are
    outcomes too and are read the same way."""
    condition = None
    getter = getattr(exc, "getCondition", None) or getattr(exc, "getErrorClass", None)  # PySpark 4, 3
    if callable(getter):
        try:
            condition = getter()
        except Exception:  # pragma: no cover - a broken py4j bridge
            condition = None
    cls = type(exc).__name__
    java_exc = getattr(exc, "java_exception", None)
    if not condition and java_exc is not None:  # a Py4JJavaError whose JVM exception has a condition
        try:  # (SCALAR_SUBQUERY_TOO_MANY_ROWS arrives so: org.apache.spark.SparkException)
            condition = java_exc.getCondition()
            cls = str(java_exc.getClass().getSimpleName()) if condition else cls
        except Exception:  # noqa: BLE001 - not a SparkThrowable, or a broken bridge: no outcome
            condition = None
    if cls in _GENERIC_CLASSES:  # no Python class for this JVM exception: use the JVM's name
        java = _java_class_name(exc)
        if java:
            cls = java.removeprefix("Spark") if java.startswith("Spark") and java.endswith(
                ("ArithmeticException", "NumberFormatException", "DateTimeException")) else java
    if cls == "PythonException":
        return RelError(cls, condition)
    if not condition:
        return None
    return RelError(cls, condition)


def _java_class_name(exc: BaseException) -> str | None:
    origin = getattr(exc, "_origin", None)
    if origin is None:
        return None
    try:
        return str(origin.getClass().getSimpleName())
    except Exception:  # pragma: no cover - no JVM object
        return None


class RelRow(tuple):
    """``first()``'s row: a plain tuple of values that also knows its columns' (name, type) pairs, so
    that it prints as a Spark ``Row`` would (``{"name": value}``). Equality is the tuple's; compare
    outcomes with ``rel_outcomes_equal``, which also compares the columns."""

    columns: tuple[tuple[str, str], ...]

    def __new__(cls, values: Sequence[Any], columns: Sequence[tuple[str, str]]) -> RelRow:
        row = super().__new__(cls, tuple(values))
        row.columns = tuple((str(n), str(t)) for n, t in columns)
        return row

    def __reduce__(self) -> Any:
        return (RelRow, (tuple(self), self.columns))


@dataclass(frozen=True, eq=False)
class RelResult:
    """A DataFrame (or a SQL query's) result: ``columns`` are (name, Spark ``simpleString`` type) pairs,
    ``rows`` a ``Bag`` of row tuples (or a ``Sorted`` after ``orderBy``), ``nullable`` what Spark's
    schema says of each column. Equality (``==``, ``rel_outcomes_equal``) compares the columns and the
    rows observationally and ignores ``nullable``: nullability is only warned about."""

    columns: tuple[tuple[str, str], ...]
    rows: Bag | Sorted
    nullable: tuple[bool, ...] = field(default=())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RelResult):
            return NotImplemented
        return rel_outcomes_equal(self, other)

    def __hash__(self) -> int:  # consistent with __eq__: equal results have equal columns
        return hash(self.columns)


RelOutcome = Any  # RelResult | RelError | int (count) | RelRow | None (first on an empty result)


@dataclass(frozen=True)
class RelRun:
    """The interpreter's answer for one input: ``outcome`` and the reasons (``caveats``) Spark might
    show something else for the same input (a latent error the optimiser may evaluate after all, a
    partition-dependent sum, a nondeterministic ``limit``...). No caveats: exactly what Spark shows."""

    outcome: RelOutcome
    caveats: frozenset[str] = frozenset()


def rel_outcomes_equal(a: RelOutcome, b: RelOutcome) -> bool:
    """Observational equality of two outcomes: results by columns (names and types) and rows as bags
    (or tie groups) of rows whose values compare as Spark compares them; errors by class and condition;
    counts as ints; ``first()`` rows by columns and values."""
    if isinstance(a, RelError) or isinstance(b, RelError):
        return isinstance(a, RelError) and isinstance(b, RelError) and a == b
    if isinstance(a, RelResult) or isinstance(b, RelResult):
        if not (isinstance(a, RelResult) and isinstance(b, RelResult)):
            return False
        return a.columns == b.columns and outcomes_equal(a.rows, b.rows)
    if isinstance(a, RelRow) or isinstance(b, RelRow):
        if not (isinstance(a, RelRow) and isinstance(b, RelRow)):
            return False
        return a.columns == b.columns and outcomes_equal(tuple(a), tuple(b))
    if isinstance(a, tuple) and isinstance(b, tuple):
        return outcomes_equal(tuple(a), tuple(b))
    if a is None or b is None:
        return a is None and b is None
    return type(a) is type(b) and a == b


# ---------------------------------------------------------------------------------------------------
# JSON
# ---------------------------------------------------------------------------------------------------


def value_json(v: Any) -> Any:
    """One cell: NULL as null, non-finite doubles as ``{"float": ...}``, decimals as ``{"decimal": "1.50"}``
    (a string keeps the scale), dates as ``{"date": "2024-01-31"}``."""
    if isinstance(v, float):
        return float_json(v)
    if isinstance(v, decimal.Decimal):
        return {"decimal": format(v, "f")}
    if isinstance(v, datetime.datetime):  # a timestamp (either type), in the session time zone UTC
        return {"timestamp": v.isoformat(sep=" "), "time_zone": "UTC"}
    if isinstance(v, datetime.date):
        return {"date": v.isoformat()}
    if isinstance(v, tuple):  # an array (or a struct): its elements in order
        return [value_json(x) for x in v]
    return v


def _value_key(v: Any) -> tuple:
    """A total order on cells for a canonical JSON row order (NULLs first, NaN above every double,
    -0.0 just before 0.0, then by type)."""
    if v is None:
        return (0,)
    if isinstance(v, bool):
        return (1, int(v))
    if isinstance(v, int):
        return (2, v)
    if isinstance(v, float):
        return (3, 1, 0.0, 0.0) if math.isnan(v) else (3, 0, v, math.copysign(1.0, v))
    if isinstance(v, decimal.Decimal):
        return (4, v)
    if isinstance(v, str):
        return (5, v)
    if isinstance(v, datetime.datetime):
        return (6, v.toordinal(), v.time())
    if isinstance(v, datetime.date):
        return (6, v.toordinal())
    if isinstance(v, tuple):
        return (7, tuple(_value_key(x) for x in v))
    return (8, repr(v))


def _row_key(row: Sequence[Any]) -> tuple:
    return tuple(_value_key(v) for v in row)


def _unique_names(columns: Sequence[tuple[str, str]]) -> list[str]:
    """JSON object keys for the columns: a repeated name (``select('k', 'k')``, a join's two ``k``) gets
    ``#2``, ``#3``... so that no value is lost."""
    seen: dict[str, int] = {}
    names = []
    for name, _ in columns:
        seen[name] = seen.get(name, 0) + 1
        names.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return names


def _rows_json(rows: Sequence[Sequence[Any]], names: list[str]) -> list[dict[str, Any]]:
    return [{n: value_json(v) for n, v in zip(names, row, strict=True)}
            for row in sorted(rows, key=_row_key)]


def rel_to_json(outcome: RelOutcome) -> Any:
    """The JSON form of an outcome: a result as ``{"columns": [[name, type], ...], "rows": [{name: value},
    ...]}`` with rows in a canonical order, an ordered one as ``{"columns": ..., "sorted": [[rows of a
    tie group], ...], "taken": n | null}``, an error as ``{"error": "ArithmeticException [DIVIDE_BY_ZERO]"}``,
    a count as an int, ``first()`` as a row object or null."""
    if isinstance(outcome, RelError):
        return {"error": str(outcome)}
    if isinstance(outcome, RelResult):
        names = _unique_names(outcome.columns)
        cols = [[n, t] for n, t in outcome.columns]
        if isinstance(outcome.rows, Sorted):
            return {"columns": cols,
                    "sorted": [_rows_json(g.items, names) for g in outcome.rows.groups],
                    "taken": outcome.rows.taken}
        return {"columns": cols, "rows": _rows_json(outcome.rows.items, names)}
    if isinstance(outcome, RelRow):
        names = _unique_names(outcome.columns)
        return {n: value_json(v) for n, v in zip(names, outcome, strict=True)}
    if isinstance(outcome, tuple):
        return [value_json(v) for v in outcome]
    if outcome is None or isinstance(outcome, int):
        return outcome
    return value_json(outcome)
