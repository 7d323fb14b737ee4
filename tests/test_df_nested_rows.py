"""Rows of literal data holding Rows and lists (frontend/script/df_nested.py): PySpark 4's inferred
struct and array columns, Python's repr of nested Rows, nested fields read by driver code and Spark's
nested printSchema() tree (each checked on PySpark 4.3: docs/semantics-notes.md)."""

from __future__ import annotations

import pytest

from frontend.script.df_script import translate_df_script
from sparklite.errors import UnsupportedError
from verifier.core.df_script_search import observe

HEAD = "from pyspark.sql import Row, SparkSession\nspark = SparkSession.builder.getOrCreate()\n"
DATA = (
    "E = Row('first', 'salary')\n"
    "d = Row(id='100', name='CS')\n"
    "r1 = Row(department=d, employees=[E('alex', 1), E(None, 2)])\n"
    "r2 = Row(department=Row(id='200', name='ME'), employees=[E('bob', None)])\n"
)


def _stdout(body: str) -> str:
    """The predicted output's lines (rows of an unsorted show() in a canonical order)."""
    return "\n".join(observe(translate_df_script(HEAD + DATA + body, "t.py"), {}).to_json()["stdout"])


def test_inferred_struct_and_array_columns_and_their_tree():
    sp = translate_df_script(HEAD + DATA + "df = spark.createDataFrame([r1, r2])\ndf.printSchema()\n", "t.py")
    assert [f.type.simple for f in sp.sources[0].schema.fields] == [
        "struct<id:string,name:string>", "array<struct<first:string,salary:bigint>>"]
    assert _stdout("spark.createDataFrame([r1, r2]).printSchema()\n").splitlines() == [
        "root",
        " |-- department: struct (nullable = true)",
        " |    |-- id: string (nullable = true)",
        " |    |-- name: string (nullable = true)",
        " |-- employees: array (nullable = true)",
        " |    |-- element: struct (containsNull = true)",
        " |    |    |-- first: string (nullable = true)",
        " |    |    |-- salary: long (nullable = true)",
    ]


def test_nested_rows_print_as_python_and_their_fields_are_read():
    out = _stdout("print('r1=', r1)\nprint(r1.employees[1].salary, r2.department.name)\n"
                  "spark.range(1).show()\n")
    assert out.splitlines()[:2] == [
        "r1= Row(department=Row(id='100', name='CS'), employees=[Row(first='alex', salary=1), "
        "Row(first=None, salary=2)])",
        "2 ME",
    ]


def test_show_prints_structs_and_arrays_as_spark():
    out = _stdout("spark.createDataFrame([r1, r2]).show(truncate=False)\n")
    assert "|{100, CS} |[{alex, 1}, {NULL, 2}]|" in out.splitlines()


def test_types_that_do_not_merge_and_given_schemas_are_refused():
    with pytest.raises(UnsupportedError, match="bigint and double in one column are not modelled"):
        translate_df_script(HEAD + "spark.createDataFrame([Row(a=[1]), Row(a=[2.5])]).show()\n", "t.py")
    with pytest.raises(UnsupportedError, match="not modelled"):  # PySpark makes it an array<string>
        translate_df_script(HEAD + "spark.createDataFrame([Row(a=[1, 'x'])]).show()\n", "t.py")
    with pytest.raises(UnsupportedError, match="all None"):
        translate_df_script(HEAD + "spark.createDataFrame([Row(a=[None])]).show()\n", "t.py")
    with pytest.raises(UnsupportedError, match="given schema"):
        translate_df_script(HEAD + "spark.createDataFrame([Row(a=[1])], 'a ARRAY<BIGINT>').show()\n", "t.py")
