"""DataFrame window functions (``frontend/dataframe/windows.py``): ``Window.partitionBy/orderBy/
rowsBetween/rangeBetween`` and ``F.<function>().over(w)`` in ``select``/``withColumn``, their column
names and types as Spark 4 gives them, and the interpreter's rows against Spark's (``local[2]``)."""

from __future__ import annotations

from typing import Any

import pytest

from frontend.dataframe.translator import translate_dataframe_source
from sparklite.errors import UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational import interpreter
from sparklite.relational.types import parse_ddl
from sparklite.relational.windows import CAVEAT_WINDOW_TIES

DDL = "k INT, o INT, v INT"
ROWS = [(1, 1, 10), (1, 2, None), (1, 3, 5), (2, None, 7), (None, 3, 1), (2, 4, -3)]
HEAD = "from pyspark.sql import DataFrame, Window\nfrom pyspark.sql import functions as F\n\n\n"

BODIES = [
    # every function over one ordered window
    'w = Window.partitionBy("k").orderBy("o")\n'
    '    return df.select("k", "o", "v", F.row_number().over(w), F.rank().over(w), F.dense_rank().over(w),\n'
    '                     F.percent_rank().over(w), F.cume_dist().over(w), F.ntile(2).over(w),\n'
    '                     F.lag("v").over(w), F.lead("v", 2, 0).over(w), F.first("v").over(w),\n'
    '                     F.last("v", True).over(w), F.nth_value("v", 2).over(w))',
    # aggregates over default, ROWS and RANGE frames, and over the whole table
    'w = Window.partitionBy("k").orderBy(F.desc("o"))\n'
    '    return df.select("k", F.sum("v").over(w), F.avg("v").over(w.rowsBetween(-1, 1)),\n'
    '                     F.min("v").over(w.rangeBetween(Window.unboundedPreceding, Window.currentRow)),\n'
    '                     F.max("v").over(Window.partitionBy("k")), F.count("*").over(w),\n'
    '                     F.count("v").over(w.rowsBetween(Window.currentRow, Window.unboundedFollowing)),\n'
    '                     F.sum("v").over(Window.partitionBy()))',
    # top-1 per group, the most common use
    'w = Window.partitionBy("k").orderBy(F.col("o").desc_nulls_last())\n'
    '    return df.withColumn("rn", F.row_number().over(w)).filter(F.col("rn") == 1).drop("rn")',
    # a window expression inside another expression, with an alias
    'return df.select("k", (F.col("v") - F.avg("v").over(Window.partitionBy("k"))).alias("dev"))',
]


def program(body: str) -> R.RelProgram:
    src = HEAD + f"def f(df: DataFrame) -> DataFrame:\n    {body}\n"
    return translate_dataframe_source(src, "f", "w.py", {"df": parse_ddl(DDL)})


@pytest.mark.spark
@pytest.mark.parametrize("body", BODIES)
def test_names_types_and_rows_match_spark(spark_session: Any, body: str) -> None:
    from sparklite.relational.values import RelResult, rel_outcomes_equal
    from sparklite.values import Bag

    prog = program(body)
    env: dict[str, Any] = {}
    exec(HEAD + f"def f(df: DataFrame) -> DataFrame:\n    {body}\n", env)  # noqa: S102 - the test's own code
    df = env["f"](spark_session.createDataFrame(ROWS, DDL))
    rel = prog.body
    assert isinstance(rel, R.Project | R.Filter)
    assert [(f.name, f.type.simple) for f in rel.schema.fields] == df.dtypes
    run = interpreter.run(prog, {"df": ROWS})
    assert run.caveats <= {CAVEAT_WINDOW_TIES}, run.caveats
    if run.caveats:
        return
    theirs = RelResult(tuple(df.dtypes), Bag.of(tuple(r) for r in df.collect()))
    assert rel_outcomes_equal(run.outcome, theirs), (run.outcome, theirs)


def test_a_window_is_an_operator_under_the_projection() -> None:
    prog = program(BODIES[3])
    rel = prog.body
    assert isinstance(rel, R.Project) and isinstance(rel.source, R.Window)
    (call,) = rel.source.calls
    assert call.name == "avg" and call.frame == R.Frame("rows", None, None)


def test_ties_under_row_number_are_a_caveat() -> None:
    prog = program('return df.select("v", F.row_number().over(Window.orderBy("k")))')
    assert CAVEAT_WINDOW_TIES in interpreter.run(prog, {"df": ROWS}).caveats
    prog = program('return df.select("v", F.rank().over(Window.orderBy("k")))')
    assert CAVEAT_WINDOW_TIES not in interpreter.run(prog, {"df": ROWS}).caveats


@pytest.mark.parametrize("body, construct", [
    ('return df.select(F.sum("v").over(Window.orderBy("o").rangeBetween(-1, 0)))', "window RANGE offset"),
    ('return df.select(F.row_number().over(Window.partitionBy("k")))', "window row_number"),
    ('return df.groupBy("k").agg(F.rank().over(Window.orderBy("k")))', "over"),
    ('return df.select(F.first("v"))', "first"),
])
def test_refusals_are_located(body: str, construct: str) -> None:
    with pytest.raises(UnsupportedError) as info:
        program(body)
    assert info.value.construct == construct
    assert info.value.loc is not None
