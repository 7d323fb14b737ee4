"""``df.schema`` in DataFrame functions (issue 20, ``frontend.dataframe.schema_values``): known statically,
read as PySpark shows it (the class hierarchy checked against PySpark 4's ``__mro__``), refused located
where it is not modelled."""

from __future__ import annotations

import pytest

from frontend.dataframe.schema_values import TypeV, classes_of
from frontend.dataframe.translator import translate_dataframe_source
from sparklite.ast import Loc
from sparklite.errors import UnsupportedError
from sparklite.relational import types as T
from verifier.core.loading import load_schemas

HEAD = '''from pyspark.sql.functions import col, flatten
from pyspark.sql.types import ArrayType, NumericType, LongType, StringType, IntegralType
'''
SEL = "def f(df):\n    return df.select("
SCHEMAS = load_schemas(["df=a BIGINT, b STRING, c DOUBLE, d INT NOT NULL"])


def _columns(body: str) -> list[str]:
    prog = translate_dataframe_source(HEAD + body, "f", "f.py", SCHEMAS)
    return [f.name for f in prog.body.schema.fields]


@pytest.mark.parametrize(("body", "columns"), [
    (SEL + "[x.name for x in df.schema.fields if isinstance(x.dataType, NumericType)])\n",
     ["a", "c", "d"]),
    (SEL + "[x.name for x in df.schema if isinstance(x.dataType, (LongType, StringType))])\n",
     ["a", "b"]),
    (SEL + "[x.name for x in df.schema.fields if not x.nullable])\n", ["d"]),
    (SEL + "df.schema.names[1], df.schema.fieldNames()[0])\n", ["b", "a"]),
    (SEL + "[x.name for x in df.schema.fields if x.dataType.typeName() == 'integer'])\n",
     ["d"]),
    (SEL + "[x.name for x in df.schema.fields if x.dataType.simpleString() == 'bigint'])\n",
     ["a"]),
    (SEL + "df.columns[:len(df.schema)])\n", ["a", "b", "c", "d"]),
    # a select's schema is the new DataFrame's: the alias, the cast's type
    ("def f(df):\n    s = df.select(col('d').cast('bigint').alias('e')).schema\n"
     "    return df.select([x.name for x in df.schema.fields if x.dataType == s.fields[0].dataType])\n",
     ["a"]),
])
def test_the_schema_is_read_as_pyspark_shows_it(body: str, columns: list[str]) -> None:
    assert _columns(body) == columns


def test_a_walk_that_finds_no_array_column_keeps_the_dataframe() -> None:
    body = '''def arrays(df):
    out = []
    for field in df.schema.fields:
        if isinstance(field.dataType, ArrayType):
            out.append(field.name)
    return out

def f(df):
    for name in arrays(df):
        df = df.withColumn(name, flatten(col(name)))
    return df
'''
    assert _columns(body) == ["a", "b", "c", "d"]


def test_the_class_hierarchy_is_pyspark_s() -> None:
    import pyspark.sql.types as P

    pairs = [(T.IntegralType(8), P.ByteType), (T.IntegralType(16), P.ShortType), (T.INT, P.IntegerType),
             (T.BIGINT, P.LongType), (T.DoubleType(), P.DoubleType), (T.DecimalType(10, 2), P.DecimalType),
             (T.StringType(), P.StringType), (T.BooleanType(), P.BooleanType), (T.DateType(), P.DateType),
             (T.NullType(), P.NullType)]
    for ours, theirs in pairs:
        mro = tuple(c.__name__ for c in theirs.__mro__ if c.__module__.startswith("pyspark"))
        assert classes_of(TypeV(ours), Loc("f", 1, 1)) == mro
        assert TypeV(ours).type.simple == theirs().simpleString() or isinstance(ours, T.DecimalType)


@pytest.mark.parametrize(("body", "col", "text"), [
    (SEL + "[x.name for x in df.schema.fields if isinstance(x, col)])\n", 57,
     "pyspark.sql.types"),
    (SEL + "df.schema.fields[0].metadata)\n", 22, "StructField.metadata"),
    (SEL + "df.schema.fields[0].dataType.simpleString(1))\n", 22, "with arguments"),
])
def test_what_is_not_modelled_is_refused_located(body: str, col: int, text: str) -> None:
    with pytest.raises(UnsupportedError) as err:
        translate_dataframe_source(HEAD + body, "f", "f.py", SCHEMAS)
    assert err.value.loc is not None and err.value.loc.line == 4, str(err.value)
    assert text in str(err.value)


def test_a_function_returning_a_type_says_what_it_returns() -> None:
    body = "def f(df):\n    return df.select('a').schema.fields[0].dataType\n"
    with pytest.raises(UnsupportedError) as err:
        translate_dataframe_source(HEAD + body, "f", "f.py", SCHEMAS)
    assert "not a column type (DataType)" in str(err.value)


@pytest.mark.spark
def test_a_select_built_from_the_schema_replays(tmp_path, spark_session) -> None:
    from verifier import check

    src = HEAD + (
        "def numeric(df):\n"
        "    return df.select([x.name for x in df.schema.fields if isinstance(x.dataType, NumericType)])\n"
        "def longs(df):\n"
        "    return df.select([x.name for x in df.schema if isinstance(x.dataType, LongType)])\n")
    path = tmp_path / "f.py"
    path.write_text(src)
    result = check(f"{path}::numeric", f"{path}::longs", schema=["df=a BIGINT, b STRING, c DOUBLE"],
                   replay=True, timeout=120)
    assert result.verdict == "not_equivalent", result.reason
    assert result.counterexample.replayed_on_spark, result.warnings
