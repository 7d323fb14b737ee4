"""DataFrame scripts as people write them (issue 20): statements that are modelled exactly, shown not to
matter, or excluded diagnostics (frontend/script/df_script.py; docs/scripts.md).

Without Spark: printSchema()'s tree string, str(df), df.columns/dtypes and literal data printed as
Python prints them; a collected list printed after text; the SparkSession printed (an opaque field,
excluded with a warning); sys.argv[i] printed as the same text on both sides; spark.stop(),
setLogLevel, logging, stderr prints and df.explain() listed in ``ignored_statements`` (JSON checked
against docs/sparkeq.schema.json); a job after spark.stop() refused. With Spark (slow): a pair that
differs only in a printed path replays, every other line (schema text, reprs, the session's masked
address) as predicted.
"""

from __future__ import annotations

import textwrap

import pytest
from schema_util import validate

from frontend.script.df_script import translate_df_script
from sparklite.errors import InputError
from verifier import check

HEAD = "import sys\nfrom pyspark.sql import SparkSession\nspark = SparkSession.builder.getOrCreate()\n"

JOB = HEAD + textwrap.dedent(
    """\
    print("spark=", spark)
    data = [("alex", "Ames", 20), ("mary", None, 35)]
    print("data =", data)
    df = spark.createDataFrame(data, ["name", "city", "age"])
    print("df.collect():", df.collect())
    df.printSchema()
    print(df.columns)
    print(df.dtypes)
    print("df=", df)
    df.explain()
    spark.sparkContext.setLogLevel("WARN")
    print("path: {}".format(sys.argv[1]), file=sys.stderr)
    print("path: {}".format(sys.argv[1]))
    spark.stop()
    """
)


def _texts(sp):
    return ["".join(p.text for p in k.parts) for k in sp.sinks]


def test_static_text_is_modelled_exactly():
    sp = translate_df_script(JOB, "job.py")
    kinds = [k.kind for k in sp.sinks]
    assert kinds == ["print", "print", "print_collection", "print", "print", "print", "print", "print"]
    texts = _texts(sp)
    assert texts[0] == "spark= <pyspark.sql.session.SparkSession object at 0x…>\n"
    assert texts[1] == "data = [('alex', 'Ames', 20), ('mary', None, 35)]\n"
    assert texts[2] == "df.collect(): "
    assert texts[3] == (
        "root\n |-- name: string (nullable = true)\n |-- city: string (nullable = true)\n"
        " |-- age: long (nullable = true)\n\n"
    )
    assert texts[4] == "['name', 'city', 'age']\n"
    assert texts[5] == "[('name', 'string'), ('city', 'string'), ('age', 'bigint')]\n"
    assert texts[6] == "df= DataFrame[name: string, city: string, age: bigint]\n"
    assert [p.kind for p in sp.sinks[7].parts] == ["lit", "arg", "lit"]
    assert sp.opaque and sp.opaque[0][1].line == 4


def test_statements_shown_not_to_matter_are_listed():
    sp = translate_df_script(JOB, "job.py")
    assert [(i.construct, i.loc.line) for i in sp.ignored] == [
        ("df.explain()", 13),
        ("sparkContext.setLogLevel()", 14),
        ("print(..., file=sys.stderr)", 15),
        ("spark.stop()", 17),
    ]
    assert "excluded diagnostic" in sp.ignored[0].why


def test_explain_is_refused_when_diagnostics_are_compared():
    with pytest.raises(InputError) as info:
        translate_df_script(JOB, "job.py", compare_diagnostics=True)
    assert (info.value.loc.line, info.value.loc.col) == (13, 1)
    assert "--compare-diagnostics" in str(info.value)


def test_self_comparison_is_proved_and_reports_ignored_statements(tmp_path):
    path = tmp_path / "job.py"
    path.write_text(JOB)
    result = check(str(path), str(path))
    assert result.verdict == "equivalent", result.reason
    out = validate(result.to_json())
    assert {(i["side"], i["construct"]) for i in out["ignored_statements"]} >= {
        ("left", "df.explain()"),
        ("right", "spark.stop()"),
    }
    assert any("nondeterministic output excluded" in w for w in result.warnings)


def test_a_different_printed_path_text_is_found(tmp_path):
    left, right = tmp_path / "a.py", tmp_path / "b.py"
    left.write_text(JOB)
    right.write_text(JOB.replace('print("path: {}".format(sys.argv[1]))\n', 'print("in: " + sys.argv[1])\n'))
    result = check(str(left), str(right))
    assert result.verdict == "not_equivalent", result.reason
    assert result.counterexample.left["stdout"][-1] == "path: sys.argv[1]"
    assert result.counterexample.right["stdout"][-1] == "in: sys.argv[1]"


def test_a_job_after_stop_is_refused():
    with pytest.raises(InputError) as info:
        translate_df_script(HEAD + "df = spark.range(3)\nspark.stop()\ndf.show()\n", "job.py")
    assert info.value.loc.line == 6
    assert "after spark.stop()" in str(info.value)


@pytest.mark.spark
@pytest.mark.slow
def test_printed_path_difference_replays_with_every_other_line_as_predicted(tmp_path):
    left, right = tmp_path / "a.py", tmp_path / "b.py"
    left.write_text(JOB)
    right.write_text(JOB.replace('print("path: {}"', 'print("input: {}"'))
    result = check(str(left), str(right), replay=True)
    assert result.verdict == "not_equivalent", result.reason
    assert result.counterexample.replayed_on_spark, result.warnings


# --- sources read without a schema: declared, checked to be what Spark infers -------------------------

SOURCES = HEAD + textwrap.dedent(
    """\
    # sparkeq: schema sys.argv[2] = "age BIGINT, name STRING"
    lines = spark.read.text(sys.argv[1])
    print(lines.filter(lines.value != "a").count())
    people = spark.read.json(sys.argv[2])
    people.show()
    emp = spark.read.csv(sys.argv[3], header=True, inferSchema=True)
    emp.groupBy("dept").count().show()
    """
)


def test_text_json_and_inferred_csv_sources_with_declared_schemas():
    with pytest.raises(InputError) as info:
        translate_df_script(SOURCES, "job.py")
    assert info.value.loc.line == 9 and "# sparkeq: schema sys.argv[3] = " in str(info.value)
    sp = translate_df_script(SOURCES, "job.py", schemas={"emp": _ddl("dept STRING, salary INT")})
    assert [(s.kind, s.path, s.inferred) for s in sp.sources] == [
        ("text", "sys.argv[1]", False),
        ("json", "sys.argv[2]", True),
        ("csv", "sys.argv[3]", True),
    ]
    assert str(sp.sources[0].schema) == "value STRING"


@pytest.mark.parametrize(
    "declaration, text",
    [
        ('"name STRING, age BIGINT"', "alphabetically"),
        ('"age INT, name STRING"', "not age int"),
    ],
)
def test_a_declared_schema_spark_cannot_infer_is_refused(declaration, text):
    with pytest.raises(InputError) as info:
        translate_df_script(SOURCES.replace('"age BIGINT, name STRING"', declaration), "job.py",
                            schemas={"emp": _ddl("dept STRING, salary INT")})
    assert text in str(info.value)


def test_an_inferred_source_is_an_assumption_of_the_proof(tmp_path):
    path = tmp_path / "job.py"
    path.write_text(SOURCES)
    result = check(str(path), str(path), schema=["emp=dept STRING, salary INT"])
    assert result.verdict == "equivalent", result.reason
    assert any("sys.argv[3] is read without a schema" in a for a in result.assumptions)


def _ddl(text):
    from sparklite.relational.types import parse_ddl

    return parse_ddl(text, None)


# --- data written in the script --------------------------------------------------------------------------

DATA = HEAD.replace("import SparkSession", "import Row, SparkSession") + textwrap.dedent(
    """\
    from pyspark.sql.types import StructType, StructField, IntegerType, StringType
    s = StructType([StructField("id", IntegerType(), False), StructField("n", StringType(), True)])
    print("schema=", s)
    df = spark.createDataFrame([(1, "a", 2.5), (2, None, 1.0)])
    print(df.schema)
    d = {"a": 1, "b": [1, 2]}
    print("d=", d)
    rows = [Row(name="alex", age=20), Row(name="mary", age=None)]
    df2 = spark.createDataFrame(rows)
    df3 = spark.createDataFrame([{"name": "a", "age": 1}, {"name": "b", "age": None}])
    P = Row("name", "age")
    df5 = spark.createDataFrame([P("a", 1), P("b", 2)])
    df5.show()
    """
)


def test_literal_data_rows_dicts_and_structs():
    sp = translate_df_script(DATA, "job.py")
    texts = _texts(sp)
    assert texts[0] == (
        "schema= StructType([StructField('id', IntegerType(), False), "
        "StructField('n', StringType(), True)])\n"
    )
    assert texts[1].startswith("StructType([StructField('_1', LongType(), True), StructField('_2', ")
    assert texts[2] == "d= {'a': 1, 'b': [1, 2]}\n"
    schemas = [str(s.schema) for s in sp.sources]
    assert schemas == [
        "_1 BIGINT, _2 STRING, _3 DOUBLE",
        "name STRING, age BIGINT",
        "age BIGINT, name STRING",  # dict keys: PySpark sorts them
        "name STRING, age BIGINT",
    ]


def test_scripts_with_different_literal_data_are_compared_by_their_outputs(tmp_path):
    left, right = tmp_path / "a.py", tmp_path / "b.py"
    left.write_text(DATA)
    right.write_text(DATA.replace('P("b", 2)', 'P("b", 3)'))
    result = check(str(left), str(right))
    assert result.verdict == "not_equivalent", result.reason
    assert result.counterexample.inputs == {}


# --- notebooks and shell code: the session is given -------------------------------------------------------


def _notebook(path, cells):
    import json

    cells = [{"cell_type": "code", "metadata": {}, "source": c, "outputs": [], "execution_count": None}
             for c in cells]
    cells.append({"cell_type": "markdown", "metadata": {}, "source": ["# notes"]})
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    return str(path)


NB_CELLS = [
    "%matplotlib inline\n",
    "from pyspark.sql import functions as F\n",
    "df = spark.createDataFrame([(1, 'a'), (2, 'b'), (3, 'a')], ['id', 'k'])\n",
    "!echo hi\ndf.groupBy('k').agg(F.sum('id').alias('s')).orderBy('k').show()\n",
]


def test_a_notebook_is_its_code_cells_with_a_given_session(tmp_path):
    left = _notebook(tmp_path / "a.ipynb", NB_CELLS)
    right = _notebook(tmp_path / "b.ipynb", [c.replace("F.sum", "F.max") for c in NB_CELLS])
    assert check(left, left).verdict == "equivalent"
    result = check(left, right)
    assert result.verdict == "not_equivalent", result.reason
    assert result.counterexample.left["stdout"][3] == "|  a|  4|"


def test_shell_code_using_a_predefined_spark_is_a_script(tmp_path):
    path = tmp_path / "shell.py"
    path.write_text("df = spark.range(3)\nprint(df.count())\n")
    result = check(str(path), str(path))
    assert result.verdict == "equivalent", result.reason


def test_a_notebook_is_never_run(tmp_path):
    """Code in a notebook's cells (a class body writing a file, a shell escape, a cell magic) is read,
    never executed: the markers are not created."""
    marker, shell, magic = tmp_path / "marker.txt", tmp_path / "shell.txt", tmp_path / "magic.txt"
    path = _notebook(tmp_path / "nb.ipynb", [
        f"class Config:\n    opened = open({str(marker)!r}, 'w').write('ran')\n",
        f"!touch {shell}\n",
        f"%%bash\ntouch {magic}\n",
        "df = spark.range(3)\nprint(df.count())\n",
    ])
    assert check(path, path).verdict == "equivalent"
    assert not marker.exists() and not shell.exists() and not magic.exists()


@pytest.mark.spark
@pytest.mark.slow
def test_a_notebook_pair_replays(tmp_path):
    left = _notebook(tmp_path / "a.ipynb", NB_CELLS)
    right = _notebook(tmp_path / "b.ipynb", [c.replace("F.sum", "F.max") for c in NB_CELLS])
    result = check(left, right, replay=True)
    assert result.verdict == "not_equivalent" and result.counterexample.replayed_on_spark, result.warnings


def test_compare_diagnostics_from_the_command_line(tmp_path, capsys):
    from verifier.interfaces.cli import main

    path = tmp_path / "job.py"
    path.write_text(JOB)
    assert main(["check", str(path), str(path), "--no-replay", "--compare-diagnostics"]) == 3
    assert "job.py:13:1: df.explain()" in capsys.readouterr().err


def test_a_star_import_of_another_module_is_refused_only_where_a_name_from_it_is_used():
    body = "from delta import *\ndf = spark.range(2)\nprint(df.count())\n"
    sp = translate_df_script(HEAD + body, "job.py")
    assert [i.construct for i in sp.ignored] == ["from delta import *"]
    with pytest.raises(InputError) as info:
        translate_df_script(HEAD + body + "t = DeltaTable.forPath(spark, 'p')\n", "job.py")
    assert info.value.loc.line == 7 and "from delta import *" in str(info.value)


def test_len_under_a_types_star_import_is_the_builtin():
    body = "from pyspark.sql.types import *\ndf = spark.range(2)\nprint(len(df.columns))\n"
    sp = translate_df_script(HEAD + body, "job.py")
    assert "".join(p.text for p in sp.sinks[0].parts) == "1\n"
