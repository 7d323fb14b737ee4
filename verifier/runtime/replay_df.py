"""Replay a DataFrame/SQL counterexample on Spark: the users' *original* programs, on its tables.

Each table becomes ``createDataFrame`` over an RDD with exactly the counterexample's partitions (one
partition when the counterexample gives none) and the table's schema. A DataFrame function is run as
written (only the function and what it references are loaded: ``verifier.runtime.extract``); a SQL query runs
through ``spark.sql`` over temporary views named like its tables. The result is observed as Spark shows
it: the rows with the column names and types of ``df.dtypes``; an exception is the ``RelError`` of its
class and error condition. A lost Python worker (a ``Py4JJavaError`` with no error condition, seen under
heavy load) is retried once rather than counted as the program's outcome.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from typing import Any

from sparklite.relational import ast as R
from sparklite.relational.types import Schema, ddl_type
from verifier.core.base import LoadedProgram
from verifier.core.services import DataFrameReplayError

Tables = Mapping[str, Sequence[tuple]]
Layout = Mapping[str, Sequence[Sequence[tuple]]]


def ddl(schema: Schema) -> str:
    """The schema as a Spark DDL string (backticked names, NOT NULL kept)."""
    return ", ".join(f"`{f.name.replace('`', '``')}` {ddl_type(f.type)}"
                     f"{'' if f.nullable else ' NOT NULL'}" for f in schema.fields)


def input_frames(spark: Any, params: Sequence[R.TableParam], tables: Tables, layout: Layout | None,
                 names: Mapping[str, str] | None = None) -> list[Any]:
    """One DataFrame per parameter of ``params``, in order. ``names`` maps a parameter's own name to the
    name its rows are stored under in ``tables`` (RIGHT's tables are named as LEFT's)."""
    from verifier.runtime.spark import exact_dataframe

    frames = []
    for tp in params:
        key = (names or {}).get(tp.name, tp.name)
        parts = (layout or {}).get(key) or (tuple(tables.get(key, ())),)
        frames.append(exact_dataframe(spark, [list(p) for p in parts], ddl(tp.schema)))
    return frames


def observe_frame(df: Any, reference: Any = None) -> Any:
    """A DataFrame's result as the interpreter observes it (a ``RelResult``); an ordered result is read
    through the reference's tie groups, so a different order among equal sort keys is no difference."""
    from sparklite.relational.nested import from_spark
    from sparklite.relational.values import RelResult
    from sparklite.values import Bag, Sorted, observe_like

    rows = [from_spark(tuple(r)) for r in df.collect()]
    columns = tuple((name, typ) for name, typ in df.dtypes)
    nullable = tuple(f.nullable for f in df.schema.fields)
    ref_rows = getattr(reference, "rows", None)
    if isinstance(ref_rows, Sorted):
        observed = observe_like(rows, ref_rows)
    else:
        observed = Bag.of(rows)
    return RelResult(columns, observed, nullable)


def _observe(value: Any, reference: Any) -> Any:
    from pyspark.sql import DataFrame, Row

    if isinstance(value, DataFrame):
        return observe_frame(value, reference)
    if isinstance(value, Row):  # first(): the Row's own field names (its values carry no Spark types)
        from sparklite.relational.values import RelRow

        return RelRow(tuple(value), tuple((n, "") for n in value.__fields__))
    if isinstance(value, list) and all(isinstance(r, Row) for r in value):
        from sparklite.relational.nested import from_spark
        from sparklite.relational.values import RelResult
        from sparklite.values import Bag, Sorted, observe_like

        rows = [from_spark(tuple(r)) for r in value]
        ref_rows = getattr(reference, "rows", None)
        observed = observe_like(rows, ref_rows) if isinstance(ref_rows, Sorted) else Bag.of(rows)
        columns = tuple((n, "") for n in value[0].__fields__) if value else \
            tuple(getattr(reference, "columns", ()))
        nullable = tuple(getattr(reference, "nullable", ()))
        return RelResult(columns, observed, nullable)
    return value


def run_on_spark(loaded: LoadedProgram, tables: Tables, layout: Layout | None, names: Mapping[str, str],
                 master: str, reference: Any = None) -> Any:
    """One program's outcome on Spark (retrying once on a lost Python worker)."""
    for attempt in (1, 2):
        try:
            return _run_once(loaded, tables, layout, names, master, reference)
        except _LostWorker as exc:
            if attempt == 2:
                raise DataFrameReplayError(f"Spark lost a Python worker twice: {exc}") from None
    raise AssertionError("unreachable")


class _LostWorker(Exception):
    pass


def _run_once(loaded: LoadedProgram, tables: Tables, layout: Layout | None, names: Mapping[str, str],
              master: str, reference: Any) -> Any:
    from sparklite.relational.values import rel_error_of_exception
    from verifier.runtime.spark import get_session

    program = loaded.program
    assert isinstance(program, R.RelProgram)
    spark = get_session(master)
    frames = input_frames(spark, program.params, tables, layout, names)
    with ExitStack() as stack:
        if loaded.language == "sql":
            for tp, frame in zip(program.params, frames, strict=True):
                frame.createOrReplaceTempView(tp.name)
            call = (lambda: spark.sql(loaded.source or ""))  # noqa: E731
        else:
            fn = _function(loaded, spark, stack)
            args = call_arguments(loaded, program.params, frames, spark)
            call = (lambda: fn(*args))  # noqa: E731
        try:
            return _observe(_component(call(), loaded.component), reference)
        except Exception as exc:  # the program's own failure is an outcome
            err = rel_error_of_exception(exc)
            if err is not None:
                return err
            text = str(exc)
            if "Py4JJavaError" in type(exc).__name__ and "condition" not in text.lower():
                raise _LostWorker(text.splitlines()[0] if text else type(exc).__name__) from None
            raise DataFrameReplayError(f"{type(exc).__name__}: {(text.splitlines() or [''])[0]}") from None


def _component(value: Any, index: int | None) -> Any:
    """The output replay compares: the function's result, or its position ``index`` when the function
    returns several (``frontend.dataframe.outputs``)."""
    if index is None:
        return value
    if not isinstance(value, (tuple, list)) or len(value) <= index:
        raise DataFrameReplayError(f"the function returned {type(value).__name__}, not the tuple of "
                                   f"results it was read as")
    return value[index]


def call_arguments(loaded: LoadedProgram, params: Sequence[R.TableParam], frames: Sequence[Any], spark: Any
                   ) -> list[Any]:
    """The arguments of the user's function, in its parameters' order: each DataFrame parameter's frame,
    and the replay's own session for a session parameter (``def f(spark: SparkSession, df)``, which the
    frontend reads as no input; it was called without it: TypeError, issue 25), and a scalar parameter's
    declared argument (``--schema 'name="NAME"'``). The tables the function
    reads from the catalog (``spark.table("emp")``, the parameters past its own) become temp views."""
    import ast

    by_name = {tp.name: frame for tp, frame in zip(params, frames, strict=True)}
    tree = ast.parse(loaded.source or "")
    fn = next((s for s in tree.body if isinstance(s, ast.FunctionDef) and s.name == loaded.function), None)
    if fn is None:
        return list(frames)
    own = [a.arg for a in fn.args.args]
    for name, frame in by_name.items():
        if name not in own:
            frame.createOrReplaceTempView(name)
    scalars = dict(getattr(loaded.program, "scalars", ()))  # declared arguments (frontend.dataframe.scalars)
    return [by_name[a] if a in by_name else scalars[a] if a in scalars else spark for a in own]


def _function(loaded: LoadedProgram, spark: Any, stack: ExitStack) -> Any:
    from verifier.runtime.extract import ExtractionError, loaded_function

    if loaded.source is None or loaded.function is None:
        raise DataFrameReplayError("the program has no source to run (built in memory)")
    filename = loaded.path or "<input>"
    try:
        return stack.enter_context(loaded_function(loaded.source, loaded.function, filename,
                                                   {"spark": spark, "sc": spark.sparkContext}))
    except ExtractionError as exc:
        raise DataFrameReplayError(str(exc)) from exc
    except Exception as exc:  # the selected top-level code itself failed
        raise DataFrameReplayError(f"{filename}: the code {loaded.function!r} needs cannot be loaded: "
                                   f"{type(exc).__name__}: {exc}") from exc
