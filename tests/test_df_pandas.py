"""pandas DataFrames of literal data in DataFrame scripts (frontend/script/df_pandas.py): the Spark table
``createDataFrame(frame)`` makes, with the names, order, types and nullability Spark 4 gives (checked on
PySpark 4.3 with pandas 3.1, Arrow on and off: docs/semantics-notes.md); pandas' printed text kept as an
opaque value, equal only for the same frame; anything else refused with a location."""

from __future__ import annotations

import pytest

from frontend.script.df_script import translate_df_script
from sparklite.errors import UnsupportedError
from verifier import check

HEAD = ("import pandas as pd\nfrom pyspark.sql import SparkSession\n"
        "spark = SparkSession.builder.getOrCreate()\n")
UNIT = (
    "p = pd.DataFrame(data={'integers': [2, 5], 'floats': [1.2, -2.0], 'int_arrays': [[6], [1, 2]]})\n"
    "print('p = \\n', p)\n"
    "df = spark.createDataFrame(p)\n"
    "df.show()\n"
    "print('back = \\n', df.toPandas())\n"
)


def _source(body: str):
    sp = translate_df_script(HEAD + body, "t.py")
    (src,) = [s for s in sp.sources if s.kind == "literal"]
    return src


def test_a_dict_of_lists_is_the_table_spark_makes():
    src = _source(UNIT)
    assert [(f.name, f.type.simple, f.nullable) for f in src.schema.fields] == [
        ("integers", "bigint", True), ("floats", "double", True), ("int_arrays", "array<bigint>", True),
    ]  # the dict's order, not sorted as a dict row would be
    assert src.schema.fields[2].type.contains_null
    assert src.rows == ((2, 1.2, (6,)), (5, -2.0, (1, 2)))


def test_rows_with_columns_and_strings():
    src = _source("p = pd.DataFrame([[1, 'a'], [2, 'b']], columns=['n', 's'])\n"
                  "spark.createDataFrame(p).show()\n")
    assert [(f.name, f.type.simple, f.nullable) for f in src.schema.fields] == [
        ("n", "bigint", True), ("s", "string", True)]
    assert src.rows == ((1, "a"), (2, "b"))


@pytest.mark.parametrize("data, why", [
    ("{'a': [1, None]}", "column 'a'"),  # None / NaN: depends on the pandas version and Arrow
    ("{'a': [1.0, float('nan')]}", "column 'a'"),
    ("{'a': [1, 2.5]}", "column 'a'"),  # mixed kinds
    ("{'a': [True, False]}", "column 'a'"),
    ("{'a': [[]]}", "column 'a'"),
    ("{'a': [1, 2], 'b': [1]}", "same length"),
    ("[[1, 2]]", "dict of lists"),
])
def test_other_data_is_refused_with_a_location(data, why):
    with pytest.raises(UnsupportedError, match=why) as exc:
        translate_df_script(HEAD + f"p = pd.DataFrame({data})\nspark.createDataFrame(p).show()\n", "t.py")
    assert exc.value.loc is not None and exc.value.loc.line == 4


def test_dtype_and_a_schema_over_a_frame_are_refused():
    with pytest.raises(UnsupportedError, match="dtype"):
        translate_df_script(HEAD + "p = pd.DataFrame({'a': [1]}, dtype='int32')\n", "t.py")
    with pytest.raises(UnsupportedError, match="without a schema"):
        translate_df_script(HEAD + "p = pd.DataFrame({'a': [1]})\nspark.createDataFrame(p, 'a int').show()\n",
                            "t.py")


def _verdict(tmp_path, left: str, right: str):
    lp, rp = tmp_path / "left.py", tmp_path / "right.py"
    lp.write_text(HEAD + left)
    rp.write_text(HEAD + right)
    return check(str(lp), str(rp))


def test_the_same_frame_printed_is_equivalent(tmp_path):
    result = _verdict(tmp_path, UNIT, UNIT.replace("print('p", "print( 'p"))
    assert result.verdict == "equivalent", result.reason
    flat = UNIT.replace(", 'int_arrays': [[6], [1, 2]]", "")  # the prover has no array<bigint> values
    result = _verdict(tmp_path, flat, flat.replace("df.toPandas()", "df.select('*').toPandas()"))
    assert result.verdict == "equivalent", result.reason
    assert any("str(df.toPandas()) is not modelled" in a for a in result.assumptions), result.assumptions


def test_a_frame_in_another_order_is_not_proved_equal(tmp_path):
    """Same bag of rows, another order: pandas prints them differently, and its text is not computed."""
    other = UNIT.replace("[2, 5]", "[5, 2]").replace("[1.2, -2.0]", "[-2.0, 1.2]").replace(
        "[[6], [1, 2]]", "[[1, 2], [6]]")
    result = _verdict(tmp_path, UNIT, other)
    assert result.verdict == "unknown", result.reason


def test_another_frame_only_printed_is_unknown_and_shown_is_a_difference(tmp_path):
    printed = "p = pd.DataFrame({'a': [1.0000001]})\nprint(p)\nspark.range(1).show()\n"
    result = _verdict(tmp_path, printed, printed.replace("1.0000001", "1.0000002"))
    assert result.verdict == "unknown", result.reason  # pandas prints both as 1.0
    shown = "p = pd.DataFrame({'a': [1]})\nspark.createDataFrame(p).show()\n"
    result = _verdict(tmp_path, shown, shown.replace("[1]", "[2]"))
    assert result.verdict == "not_equivalent", result.reason
