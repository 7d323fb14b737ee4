"""``df.crosstab(col1, col2)`` in DataFrame scripts (frontend/script/df_crosstab.py): computed while the
script is read when its rows are written in the script, with the names, column order, types and counts
Spark 4 gives (checked on Spark 4.3: docs/semantics-notes.md); refused with a location otherwise."""

from __future__ import annotations

import pytest

from frontend.script.df_script import translate_df_script
from sparklite.errors import UnsupportedError

HEAD = "from pyspark.sql import SparkSession\nspark = SparkSession.builder.getOrCreate()\n"


def _table(body: str):
    sp = translate_df_script(HEAD + body, "t.py")
    src = [s for s in sp.sources if s.reader == "crosstab"]
    assert len(src) == 1
    return src[0]


def test_names_types_order_and_counts_as_spark():
    src = _table(
        "df = spark.createDataFrame([(9, 10), (10, 9), (None, -1), (2, None), (9, 10)],"
        " 'key int, value bigint')\n"
        "df.crosstab('KEY', 'Value').show()\n"
    )
    assert [(f.name, f.type.simple, f.nullable) for f in src.schema.fields] == [
        ("KEY_Value", "string", True),  # the arguments as written; NULL keys read 'null'
        ("-1", "bigint", False), ("10", "bigint", False), ("9", "bigint", False), ("null", "bigint", False),
    ]  # sorted as strings: '10' before '9'
    assert sorted(src.rows) == sorted([("9", 0, 2, 0, 0), ("10", 0, 0, 1, 0), ("2", 0, 0, 0, 1),
                                       ("null", 1, 0, 0, 0)])


def test_backticks_are_removed_before_values_are_merged():
    src = _table(
        "df = spark.createDataFrame([('x', 'b`'), ('x', 'b'), (None, 'a')], 'k string, v string')\n"
        "df.crosstab('k', 'v').show()\n"
    )
    assert [f.name for f in src.schema.fields] == ["k_v", "a", "b"]
    assert sorted(src.rows) == [("null", 1, 0), ("x", 0, 2)]


def test_booleans_read_true_and_false_and_an_empty_input_has_the_first_column_only():
    src = _table(
        "df = spark.createDataFrame([(True, False), (False, None)], 'a boolean, b boolean')\n"
        "df.crosstab('a', 'b').show()\n"
    )
    assert [f.name for f in src.schema.fields] == ["a_b", "false", "null"]
    assert sorted(src.rows) == [("false", 0, 1), ("true", 1, 0)]
    empty = _table(
        "df = spark.createDataFrame([(1, 2)], 'a int, b int').filter('a > 5')\n"
        "df.crosstab('a', 'b').show()\n"
    )
    assert [f.name for f in empty.schema.fields] == ["a_b"] and empty.rows == ()


def test_a_file_source_or_a_double_column_is_refused_with_a_location():
    with pytest.raises(UnsupportedError, match="crosstab over data read from a file") as exc:
        translate_df_script(HEAD + "import sys\ndf = spark.read.csv(sys.argv[1], schema='a INT, b INT')\n"
                            "df.crosstab('a', 'b').show()\n", "t.py")
    assert exc.value.loc.line == 5
    with pytest.raises(UnsupportedError, match="crosstab of a double column"):
        translate_df_script(HEAD + "df = spark.createDataFrame([(1.5, 2)], 'a double, b int')\n"
                            "df.crosstab('a', 'b').show()\n", "t.py")
