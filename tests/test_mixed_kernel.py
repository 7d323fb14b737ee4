"""The bridge between the kernels (sparklite.mixed): Python values to rows as Spark converts an RDD
(toDF / createDataFrame: verified under a given schema, inferred from the first element otherwise),
rows back to Rows (df.rdd), the interpreter over chains of stages, and the routing of mixed scripts.
Each expected value below was seen on Spark 4 (docs/semantics-notes.md, "RDD <-> DataFrame"); the
Spark-marked test re-checks them through the generated code."""

from __future__ import annotations

from typing import Any

import pytest

from frontend.script.df_script import is_df_script, translate_df_script
from sparklite import mixed as M
from sparklite.errors import InputError
from sparklite.parser import parse
from sparklite.relational import build
from sparklite.relational.ast import RelProgram, TableParam
from sparklite.relational.types import BIGINT, DOUBLE, INT, STRING, Field, Schema, parse_ddl
from sparklite.values import Bag


def ddl(text: str) -> Schema:
    return parse_ddl(text)


def err(cls: str, condition: str | None = None) -> M.MixedError:
    return M.MixedError(cls, condition)


# (data, the bridge, the outcome Spark 4 gives for collect())
FACTS: list[tuple[list[Any], M.ToDF, Any]] = [
    ([(2**31, "x")], M.ToDF(ddl("a int, b string")), err("PySparkValueError", "VALUE_OUT_OF_BOUNDS")),
    ([(-(2**31), "x")], M.ToDF(ddl("a int, b string")), Bag.of([(-(2**31), "x")])),
    ([(2**63,)], M.ToDF(ddl("a bigint")), err("PySparkValueError", "VALUE_OUT_OF_BOUNDS")),
    ([(None, "x")], M.ToDF(ddl("a int not null, b string")),
     err("PySparkValueError", "FIELD_NOT_NULLABLE_WITH_NAME")),
    ([("1", "x")], M.ToDF(ddl("a int, b string")),
     err("PySparkTypeError", "FIELD_DATA_TYPE_UNACCEPTABLE_WITH_NAME")),
    ([(True, "x")], M.ToDF(ddl("a int, b string")),
     err("PySparkTypeError", "FIELD_DATA_TYPE_UNACCEPTABLE_WITH_NAME")),
    ([(1,)], M.ToDF(ddl("a double")), err("PySparkTypeError", "FIELD_DATA_TYPE_UNACCEPTABLE_WITH_NAME")),
    ([(1, 2)], M.ToDF(ddl("a int, b string")), Bag.of([(1, "2")])),
    ([(True,)], M.ToDF(ddl("a string")), Bag.of([("true",)])),
    ([(1, "x", 3)], M.ToDF(ddl("a int, b string")), err("PySparkValueError", "FIELD_STRUCT_LENGTH_MISMATCH")),
    ([(1,), ("a",)], M.ToDF(names=("x",)), Bag.of([(1,), (None,)])),
    ([(1,), (2.5,)], M.ToDF(names=("x",)), Bag.of([(1,), (None,)])),
    ([(1.5,), (2,)], M.ToDF(names=("x",)), Bag.of([(1.5,), (None,)])),
    ([(1,), (2**63,)], M.ToDF(names=("x",)), Bag.of([(1,), (None,)])),
    ([("a",), (2,)], M.ToDF(names=("x",)), Bag.of([("a",), ("2",)])),
    ([(None, 1), (3, 2)], M.ToDF(names=("x", "y")), Bag.of([(None, 1), (3, 2)])),
    ([(None, 1), (None, 2)], M.ToDF(names=("x", "y")), err("PySparkValueError", "CANNOT_DETERMINE_TYPE")),
    ([], M.ToDF(names=("x", "y")), err("ValueError")),
    ([(1, 2), (3,)], M.ToDF(names=("x", "y")),
     err("IllegalArgumentException", "STRUCT_ARRAY_LENGTH_MISMATCH")),
]


def _program(bridge: M.ToDF) -> M.MixedProgram:
    return M.MixedProgram("fact", (bridge,))


@pytest.mark.parametrize("data,bridge,expected", FACTS)
def test_conversion_facts(data, bridge, expected):
    assert M.run(_program(bridge), data).outcome == expected


def test_inferred_schema_names_and_types():
    assert M.infer_schema([(1, "x", 1.5, True)], ()) == Schema(
        (Field("_1", BIGINT), Field("_2", STRING), Field("_3", DOUBLE), Field("_4", M.BOOLEAN)))
    assert M.infer_schema([(1, 2)], ("x",)).names == ("x", "_2")
    assert M.infer_schema([M.Row((1, "a"), ("age", "name"))], ()).names == ("age", "name")
    assert M.infer_schema([M.Row((1, "a"), ("age", "name"))], ("p", "q")).names == ("p", "q")


def test_a_job_crossing_both_ways():
    """parallelize -> map (RDD) -> toDF(schema) -> filter (DataFrame) -> df.rdd -> map -> toDF()."""
    rdd = M.RddStage(parse("program S(R: Bag[(Int, Str)]) = map(lambda (r) -> (r[0] * 2, r[1]))(R)"))
    schema = Schema((Field("a", INT, False), Field("b", STRING)))
    t = build.table("T", schema)
    kept = build.filter_(t, build.compare(">", build.columns_of(t)[0], build.lit(2)))
    rel = M.RelStage(RelProgram("f", (TableParam("T", schema),), kept))
    back = M.RddStage(parse("program B(R: Bag[(Int, Option[Str])]) = map(lambda (r) -> (r[1], r[0] + 1))(R)"))
    program = M.MixedProgram("job", (rdd, M.ToDF(schema), rel, M.ToRdd(), back, M.ToDF(names=("s", "n"))))
    assert M.run(program, [(1, "a"), (2, None), (3, "c")]).outcome == Bag.of([(None, 5), ("c", 7)])
    assert M.run(program, [(2**30, "a")]).outcome == err("PySparkValueError", "VALUE_OUT_OF_BOUNDS")
    code = M.to_pyspark(program)
    compile(code, "<job>", "exec")
    assert ".toDF('`a` int NOT NULL, `b` string')" in code and "x4 = x3.rdd" in code


def test_rows_keep_their_names_through_df_rdd():
    schema = Schema((Field("name", STRING), Field("age", INT)))
    t = build.table("T", schema)
    rel = M.RelStage(RelProgram("f", (TableParam("T", schema),), t))
    program = M.MixedProgram("job", (M.ToDF(schema), rel, M.ToRdd(), M.ToDF()))
    run = M.run(program, [("ann", 3)])
    assert run.outcome == Bag.of([("ann", 3)])


def test_mixed_scripts_are_read_as_dataframe_scripts():
    head = "from pyspark.sql import SparkSession\nspark = SparkSession.builder.getOrCreate()\n"
    made = "df = spark.sparkContext.parallelize([(1, 'a')]).toDF(['n', 's'])\ndf.show()\n"
    assert is_df_script(head + made)
    assert is_df_script(head + "df = spark.createDataFrame([(1, 'a')])\nprint(df.rdd.count())\n")
    # Spark's idiom for a text file stays an RDD script (a text source)
    idiom = "lines = spark.read.text('p').rdd.map(lambda r: r[0])\nprint(lines.count())\n"
    assert not is_df_script(head + idiom)
    # a text file made a DataFrame is a mixed DataFrame script (frontend.script.mixed_text); a DataFrame
    # of bare strings cannot be inferred (Spark raises), so it is refused there, located
    text_df = "sc = spark.sparkContext\nprint(sc.textFile('p').toDF().count())\n"
    assert is_df_script(head + text_df)
    with pytest.raises(InputError, match="only tuples or Rows"):
        translate_df_script(head + text_df, "job.py")


@pytest.mark.spark
def test_conversion_facts_on_spark(spark_session):
    from tests.test_mixed_vs_spark import run_on_spark

    for data, bridge, expected in FACTS:
        assert run_on_spark(spark_session, _program(bridge), data) == expected, (data, bridge)
