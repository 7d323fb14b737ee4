"""``df.repartition(n | cols)`` and ``df.coalesce(n)`` (``frontend.dataframe.partitioning``): the same bag of
rows (checked on Spark 4, docs/semantics-notes.md), so an identity on an unsorted DataFrame, whose rows
are compared as a bag; refused after a sort (a shuffle loses the order), errors where Spark raises.
Without Spark, except the last test (marked ``spark``), which checks the bag on Spark."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from frontend.dataframe.translator import translate_dataframe_source
from frontend.script.df_script import translate_df_script
from sparklite.errors import InputError, UnsupportedError
from sparklite.relational.types import parse_ddl
from verifier import check

SCHEMAS = {"df": parse_ddl("k INT, v STRING")}

FUNCTIONS = textwrap.dedent(
    """\
    from pyspark.sql import functions as F


    def plain(df):
        return df.filter(F.col("k") > 1)


    def repartitioned(df):
        return df.repartition(4).filter(F.col("k") > 1)


    def by_column(df):
        return df.repartition("k").filter(F.col("k") > 1).repartition(3, "k", F.col("v"))


    def coalesced(df):
        return df.coalesce(1).filter(F.col("k") > 1)


    def sorted_then_coalesced(df):
        return df.orderBy("v").coalesce(1)


    def sorted_plain(df):
        return df.orderBy("v")
    """
)


def _fn(body: str):
    src = "from pyspark.sql import functions as F\n\n\ndef f(df):\n    return " + body + "\n"
    return translate_dataframe_source(src, "f", "f.py", SCHEMAS)


@pytest.fixture()
def functions(tmp_path: Path) -> str:
    path = tmp_path / "parts.py"
    path.write_text(FUNCTIONS)
    return str(path)


@pytest.mark.parametrize("other", ["repartitioned", "by_column", "coalesced"])
def test_repartitioning_keeps_the_rows(functions: str, other: str):
    result = check(f"{functions}::plain", f"{functions}::{other}", replay=False,
                   schema=["df=k INT, v STRING"])
    assert result.verdict == "equivalent", result.reason


def test_coalesce_keeps_the_order_of_a_sorted_dataframe(functions: str):
    result = check(f"{functions}::sorted_plain", f"{functions}::sorted_then_coalesced", replay=False,
                   schema=["df=k INT, v STRING"])
    assert result.verdict == "equivalent", result.reason


def test_repartition_of_a_sorted_dataframe_is_refused():
    with pytest.raises(UnsupportedError, match="repartition\\(\\) of a sorted DataFrame"):
        _fn('df.orderBy("v").repartition(2)')
    _fn('df.repartition(2).orderBy("v")')  # sorting after the shuffle is read


@pytest.mark.parametrize("body, message", [
    ("df.repartition(0)", "must be positive"),
    ("df.coalesce(-1)", "must be positive"),
    ('df.repartition("nope")', "nope"),
    ("df.repartition()", "needs a number of partitions"),
    ("df.coalesce(1, 2)", "takes one argument"),
])
def test_what_spark_refuses_is_an_input_error(body: str, message: str):
    with pytest.raises(InputError, match=message):
        _fn(body)


def test_a_partition_count_must_be_an_int_constant():
    with pytest.raises(UnsupportedError, match="must be an int constant"):
        _fn("df.repartition(2.5)")


def test_scripts_read_repartition_as_the_same_rows():
    script = textwrap.dedent(
        """\
        from pyspark.sql import SparkSession
        spark = SparkSession.builder.getOrCreate()
        df = spark.read.csv("in.csv", schema="k INT, v STRING")
        df.repartition(1).write.csv("out")
        df.coalesce(1).show()
        """
    )
    sp = translate_df_script(script, "job.py")
    assert [k.kind for k in sp.sinks][-2:] == ["write", "show"]


@pytest.mark.spark
def test_on_spark_repartitioning_keeps_the_bag(spark_session):
    rows = [(i % 5, f"s{i}") for i in range(60)] + [(None, None)]
    df = spark_session.createDataFrame(rows, "k INT, v STRING")
    bag = sorted(map(tuple, df.collect()), key=repr)
    for d in (df.repartition(4), df.repartition("k"), df.repartition(3, "k", "v"), df.coalesce(1)):
        assert sorted(map(tuple, d.collect()), key=repr) == bag
    with pytest.raises(Exception, match="must be positive"):
        df.repartition(0).count()
