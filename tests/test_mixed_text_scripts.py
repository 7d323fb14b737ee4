"""Mixed scripts over a text file (issue 23, ``frontend/script/mixed_text.py``): ``sc.textFile(p).map(parse)``
made a DataFrame with ``createDataFrame``/``toDF``, as the corpus's Frank Kane ``spark-sql.py`` does.

Fast tests: the reading (a source of kind ``rdd`` with the schema Spark infers), congruence proofs, and
``unknown`` (never a proof, never a refutation) for any other pair with such a source. The Spark test
checks the reading against Spark: for each parser, the schema sparkeq infers is Spark's, and the rows the
SparkLite program and the conversion give are the rows Spark collects.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import verifier
from frontend.script.df_script import is_df_script, translate_df_script
from sparklite.errors import InputError

ROOT = Path(__file__).resolve().parent.parent
SPARK_SQL = (Path("/work/shared/corpora/realworld")
             / "PacktPublishing__Frank-Kanes-Taming-Big-Data-with-Apache-Spark-and-Python" / "spark-sql.py")

HEAD = '''from pyspark.sql import Row, SparkSession
spark = SparkSession.builder.getOrCreate()
'''

PARSERS = {  # name -> (module code, the RDD expression over `lines`, how it becomes a DataFrame)
    "row_def": ('''
def mapper(line):
    fields = line.split(",")
    return Row(ID=int(fields[0]), name=str(fields[1].encode("utf-8")), age=int(fields[2]))
''', "lines.map(mapper)", "spark.createDataFrame({rdd})"),
    "row_lambda_ws_split": ("", "lines.map(lambda x: Row(movieID=int(x.split()[1])))",
                            "spark.createDataFrame({rdd})"),
    "tuple_names": ("", "lines.map(lambda l: l.split(',')).filter(lambda f: len(f) > 2)"
                        ".map(lambda f: (f[1], int(f[2]) * 2, float(f[0]), f[1] == 'b'))",
                    "{rdd}.toDF(['name', 'twice'])"),
    "tuple_no_names": ("", "lines.flatMap(lambda l: l.split(',')).map(lambda w: (w, len(w)))",
                       "spark.createDataFrame({rdd})"),
}
LINES = ["1,b,30", "2,Déanna,17", "3,a,-4", "10,O'Neil,5"]
DATA = {"row_lambda_ws_split": ["196\t242\t3", "186 302 3", " 22  242 1"]}  # whitespace-separated


def script(name: str, path: str = "people.txt") -> str:
    code, rdd, df = PARSERS[name]
    return (HEAD + code + f"lines = spark.sparkContext.textFile({path!r})\n"
            + f"df = {df.format(rdd=rdd)}\n" + "df.show()\nprint(df.count())\n")


@pytest.mark.parametrize("name", PARSERS)
def test_reads_as_a_dataframe_source_made_by_rdd_code(name: str) -> None:
    source = script(name)
    assert is_df_script(source)
    sp = translate_df_script(source, "job.py")
    (src,) = sp.sources
    assert src.kind == "rdd" and src.path == "'people.txt'" and src.rdd is not None


def test_schemas_inferred_as_spark_infers_them() -> None:
    def schema(name: str) -> str:
        return str(translate_df_script(script(name), "job.py").sources[0].schema)

    assert schema("row_def") == "ID BIGINT, name STRING, age BIGINT"
    assert schema("row_lambda_ws_split") == "movieID BIGINT"
    assert schema("tuple_names") == "name STRING, twice BIGINT, _3 DOUBLE, _4 BOOLEAN"
    assert schema("tuple_no_names") == "_1 STRING, _2 BIGINT"


@pytest.mark.skipif(not SPARK_SQL.exists(), reason="the real-world corpus is not present")
def test_corpus_spark_sql_reads_and_is_proved_equal_to_itself() -> None:
    result = verifier.check(str(SPARK_SQL), str(SPARK_SQL), replay=False)
    assert result.verdict == "equivalent", result.reason
    assert result.method == "congruence"
    assert any("warehouse" in i["construct"] for i in result.ignored_statements)  # listed, not dropped


def test_renamed_script_is_congruent_and_a_changed_one_unknown(tmp_path: Path) -> None:
    left = tmp_path / "left.py"
    left.write_text(script("row_def"))
    renamed = tmp_path / "renamed.py"
    renamed.write_text(script("row_def").replace("fields", "parts").replace("mapper", "parse"))
    result = verifier.check(str(left), str(renamed), replay=False)
    assert (result.verdict, result.method) == ("equivalent", "congruence"), result.reason
    for old, new in (("int(fields[2])", "int(fields[0])"), ("'people.txt'", "'other.txt'"),
                     ("df.count()", "df.filter(df.age > 1).count()")):
        other = tmp_path / "other.py"
        other.write_text(script("row_def").replace(old, new))
        result = verifier.check(str(left), str(other), replay=False)
        assert result.verdict in ("unknown", "error"), (old, result.verdict, result.reason)
        if result.verdict == "unknown":
            assert "congruence" in result.reason or "same up to renaming" in result.reason, result.reason


@pytest.mark.parametrize("body, words", [
    ("rdd = lines.map(lambda x: Row(a=int(x)))\ndf = spark.createDataFrame(rdd, 'a INT')\n", "schema"),
    ("rdd = lines.map(lambda x: (x, None))\ndf = rdd.toDF()\n", "never None"),
    ("rdd = lines.map(lambda x: int(x))\ndf = rdd.toDF()\n", "tuples or Rows"),
    ("k = 3\nrdd = lines.map(lambda x: (x, k))\ndf = rdd.toDF()\n", "k"),
    ("def main():\n    f = lambda x: (x,)\n    return spark.createDataFrame(lines.map(f))\ndf = main()\n",
     "inside a function"),
    ("print(lines.count())\ndf = lines.map(lambda x: (x,)).toDF()\n", "count"),
])
def test_refused_with_a_location(body: str, words: str) -> None:
    source = HEAD + "lines = spark.sparkContext.textFile('p.txt')\n" + body + "df.show()\n"
    with pytest.raises(InputError) as info:
        translate_df_script(source, "job.py")
    assert words in str(info.value), str(info.value)
    assert info.value.loc is not None


def test_warehouse_dir_is_refused_when_the_script_reads_catalog_tables() -> None:
    source = ('# sparkeq: schema emp = "id INT"\nfrom pyspark.sql import SparkSession\n'
              'spark = SparkSession.builder.config("spark.sql.warehouse.dir", "/tmp/w").getOrCreate()\n'
              'spark.table("emp").show()\n')
    with pytest.raises(InputError, match="warehouse"):
        translate_df_script(source, "job.py", schemas=None)


def test_utf8_repr_builtin_is_pythons() -> None:
    from sparklite.builtins import BUILTINS

    fn = BUILTINS["str.utf8_repr"].impl
    for s in ("Will", "Déanna", "O'Neil", 'say "hi"', ""):
        assert fn(s) == str(s.encode("utf-8"))


# ---------------------------------------------------------------------------------------------------
# Against Spark: the schema and the rows
# ---------------------------------------------------------------------------------------------------


def _predicted(source: str, lines: list[str]) -> tuple[str, list[tuple[Any, ...]]]:
    from sparklite import mixed as M
    from sparklite.interpreter import run
    from sparklite.values import Bag

    src = translate_df_script(source, "job.py").sources[0]
    out = run(src.rdd, {"lines": lines})
    assert isinstance(out, Bag), out
    elements = list(out.items)
    rows = M.infer_rows(elements, src.schema)
    return str(src.schema), sorted(rows, key=repr)


@pytest.mark.spark
@pytest.mark.parametrize("name", PARSERS)
def test_reading_agrees_with_spark(name: str, spark_session: Any, tmp_path: Path) -> None:
    data = tmp_path / "people.txt"
    lines = DATA.get(name, LINES)
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, rdd, df = PARSERS[name]
    namespace: dict[str, Any] = {}
    exec(compile("from pyspark.sql import Row\n" + code, "<parser>", "exec"), namespace)  # noqa: S102
    namespace["lines"] = spark_session.sparkContext.textFile(str(data))
    namespace["spark"] = spark_session
    actual = eval(df.format(rdd=rdd), namespace)  # noqa: S307 - the test's own code
    schema, rows = _predicted(script(name), lines)
    spark_schema = ", ".join(f"{f.name} {f.dataType.simpleString()}" for f in actual.schema.fields)
    names = {"bigint": "BIGINT", "string": "STRING", "double": "DOUBLE", "boolean": "BOOLEAN"}
    for low, up in names.items():
        spark_schema = spark_schema.replace(f" {low}", f" {up}")
    assert schema == spark_schema
    assert all(f.nullable for f in actual.schema.fields)
    assert rows == sorted((tuple(r) for r in actual.collect()), key=repr)


def test_a_parameter_named_like_a_driver_variable_is_the_parameter() -> None:
    source = (HEAD + "x = 7\nlines = spark.sparkContext.textFile('p.txt')\n"
              "df = lines.map(lambda x: (x, len(x))).toDF()\nprint(df.count())\n")
    assert str(translate_df_script(source, "job.py").sources[0].schema) == "_1 STRING, _2 BIGINT"


@pytest.mark.parametrize("driver", ["len = abs\n", "def mapper(line):\n    return (line,)\nmapper = str\n"])
def test_a_rebound_builtin_or_function_is_refused(driver: str) -> None:
    source = (HEAD + "def mapper(line):\n    return (line, len(line))\n" + driver
              + "lines = spark.sparkContext.textFile('p.txt')\n"
              "df = lines.map(lambda l: mapper(l)).toDF()\nprint(df.count())\n")
    with pytest.raises(InputError):
        translate_df_script(source, "job.py")
