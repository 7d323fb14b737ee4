"""The DataFrame frontend (``frontend.dataframe``): translation details and rejections, without Spark.

Split from ``test_dataframe_frontend.py`` (the corpus run against Spark), whose ``HEADER`` these tests
share: the shapes of translated programs, the entry points, and every construct outside the fragment
as a located ``InputError``; translating never runs the user's module.
"""

from __future__ import annotations

import ast

import pytest

from frontend.dataframe.module import is_dataframe_function
from frontend.dataframe.translator import translate_dataframe_source
from sparklite.errors import AnnotationNeededError, InputError, NameResolutionError, UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational.build import AnalysisError
from sparklite.relational.types import parse_ddl
from tests.test_dataframe_frontend import HEADER

# ---------------------------------------------------------------------------------------------------
# Translation details (no Spark)
# ---------------------------------------------------------------------------------------------------


def _tr(body: str, header: str = HEADER, schemas=None) -> R.RelProgram:
    return translate_dataframe_source(header + "\n" + body, "f", "job.py", schemas)


def test_interface_example_with_type_alias() -> None:
    src = """
from typing import Annotated
from pyspark.sql import DataFrame, functions as F

Emp = Annotated[DataFrame, "id INT NOT NULL, dept INT, sal BIGINT, name STRING"]

def left(emp: Emp, dept: Annotated[DataFrame, "id INT, budget BIGINT"]) -> DataFrame:
    return emp.join(dept, emp.dept == dept.id).filter(F.col("sal") > 1000).select("name")
"""
    p = translate_dataframe_source(src, None, "jobs/old.py")
    assert p.name == "left" and [tp.name for tp in p.params] == ["emp", "dept"]
    assert p.params[0].schema == parse_ddl("id INT NOT NULL, dept INT, sal BIGINT, name STRING")
    assert isinstance(p.body, R.Project) and p.body.schema.names == ("name",)
    join = p.body.source.source
    assert isinstance(join, R.Join) and join.kind == "inner"
    assert join.cond == R.Cmp(
        "=",
        R.Col(1, "dept", join.left.schema.fields[1].type, True),
        R.Col(4, "id", join.right.schema.fields[0].type, True),
        True,
    )


def test_schema_from_schemas_mapping_and_missing_schema() -> None:
    body = "def f(emp: DataFrame):\n    return emp.select('id')\n"
    p = _tr(body, schemas={"emp": parse_ddl("id INT, x STRING")})
    assert p.params[0].schema.names == ("id", "x")
    with pytest.raises(AnnotationNeededError) as e:
        _tr(body)
    assert "emp" in e.value.message and "Annotated[DataFrame" in e.value.message
    assert (e.value.loc.file, e.value.loc.line) == ("job.py", HEADER.count("\n") + 2)
    with pytest.raises(AnnotationNeededError):
        _tr("def f(emp):\n    return emp.select('id')\n")


def test_session_parameter_is_not_a_table() -> None:
    p = _tr("def f(spark, t: T):\n    return t.select('a')\n")
    assert [tp.name for tp in p.params] == ["t"]


def test_faithful_translation_keeps_spark_expression_shape() -> None:
    p = _tr("def f(t: T):\n    return t.select(1 + F.col('a'), (t.a + 1) - 1, t.a != 1)\n")
    e1, e2, e3 = p.body.exprs
    assert isinstance(e1, R.Arith) and isinstance(e1.left, R.Col) and isinstance(e1.right, R.Lit)
    assert isinstance(e2, R.Arith) and e2.op == "-" and isinstance(e2.left, R.Arith)  # not folded to a
    assert isinstance(e3, R.Not) and isinstance(e3.operand, R.Cmp) and e3.operand.op == "="
    assert p.body.schema.names == ("(a + 1)", "((a + 1) - 1)", "(NOT (a = 1))")


def test_between_evaluates_the_column_twice() -> None:
    p = _tr("def f(t: T):\n    return t.filter(t.a.between(1, 3))\n")
    pred = p.body.pred
    assert isinstance(pred, R.And) and pred.left.op == ">=" and pred.right.op == "<="


def test_using_join_output_columns() -> None:
    p = _tr("def f(lf: L, rt: Rt):\n    return lf.join(rt, 'k', 'right')\n")
    assert isinstance(p.body, R.Project) and p.body.schema.names == ("k", "lv", "rv")
    assert p.body.exprs[0] == R.Col(2, "k", p.body.exprs[0].type, True)  # the right key
    p = _tr("def f(lf: L, rt: Rt):\n    return lf.join(rt, 'k', 'leftsemi')\n")
    assert isinstance(p.body, R.Join) and p.body.kind == "semi"


def test_groupby_projection_only_when_needed() -> None:
    p = _tr("def f(t: T):\n    return t.groupBy('s').agg(F.sum('a').alias('x'), F.count('*'))\n")
    assert isinstance(p.body, R.Aggregate) and p.body.schema.names == ("s", "x", "count(1)")
    p = _tr("def f(t: T):\n    return t.groupBy('s').agg(F.sum('a') / F.count('a'))\n")
    assert isinstance(p.body, R.Project) and isinstance(p.body.source, R.Aggregate)
    assert p.body.schema.names == ("s", "(sum(a) / count(a))")


def test_distinct_is_dropduplicates_of_all_columns() -> None:
    a = _tr("def f(t: T):\n    return t.distinct()\n")
    b = _tr("def f(t: T):\n    return t.dropDuplicates()\n")
    assert a.body == b.body and isinstance(a.body, R.Distinct)
    c = _tr("def f(t: T):\n    return t.dropDuplicates(['s'])\n")
    assert isinstance(c.body, R.DropDuplicates) and c.body.columns == (2,)


def test_actions() -> None:
    for text, kind, n in (
        ("count()", "count", None),
        ("collect()", "collect", None),
        ("first()", "first", None),
        ("head()", "first", None),
        ("head(3)", "take", 3),
        ("take(2)", "take", 2),
    ):
        p = _tr(f"def f(t: T):\n    return t.{text}\n")
        assert isinstance(p.body, R.Action) and (p.body.kind, p.body.count) == (kind, n)


def test_views_and_spark_sql() -> None:
    pytest.importorskip("frontend.sql.translator")
    p = _tr(
        "def f(spark, t: T):\n    t.createOrReplaceTempView('tv')\n"
        "    return spark.sql('SELECT a, s FROM tv WHERE a > 1')\n"
    )
    assert p.body.schema.names == ("a", "s") and [tp.name for tp in p.params] == ["t"]
    p = _tr(
        "def f(spark, t: T):\n    t.createOrReplaceTempView('tv')\n    return spark.table('TV').select('a')\n"
    )
    assert p.body.schema.names == ("a",)


def test_sql_over_a_catalog_table_from_schemas() -> None:
    pytest.importorskip("frontend.sql.translator")
    p = _tr(
        "def f(spark):\n    return spark.sql('SELECT id FROM people')\n",
        schemas={"people": parse_ddl("id INT, name STRING")},
    )
    assert [tp.name for tp in p.params] == ["people"]


def test_is_dataframe_function() -> None:
    src = (
        HEADER
        + """
def a(t: T):
    return t

def b(rdd):
    return rdd.map(lambda x: x + 1).filter(lambda x: x > 0)

def c(df):
    return df.withColumn("x", F.lit(1))

def d(df):
    return df.filter(col("a") > 1)

def e(spark):
    return spark.sql("select 1")

def g(df):
    return df.filter(df.a > 1).count()

def h(rdd):
    return rdd.filter(lambda x: x > 1).count()
"""
    )
    tree = ast.parse(
        src.replace(
            "from pyspark.sql import DataFrame, functions as F",
            "from pyspark.sql import DataFrame, functions as F\nfrom pyspark.sql.functions import col",
        )
    )
    fns = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert {n for n, fn in fns.items() if is_dataframe_function(fn, tree)} == {"a", "c", "d", "e", "g"}


# ---------------------------------------------------------------------------------------------------
# Rejections: located errors, never tracebacks
# ---------------------------------------------------------------------------------------------------

ERRORS = [
    # (body, error class, line of the function body (1-based, from the def), column, text in the message)
    ("def f(t: T):\n    return t.select(F.col('a') // 2)\n", UnsupportedError, 2, 21, "//"),
    ("def f(t: T):\n    return t.select('nope')\n", AnalysisError, 2, 14, "nope"),
    (
        "def f(lf: L, rt: Rt):\n    return lf.join(rt, lf.k == rt.k).select('k')\n",
        AnalysisError,
        2,
        38,
        "AMBIGUOUS_REFERENCE",
    ),
    (
        "def f(t: T):\n    return t.select((t.a + 1).alias('a')).select(t.a)\n",
        AnalysisError,
        2,
        52,
        "MISSING_ATTRIBUTES",
    ),
    (
        "def f(t: T):\n    return t.groupBy('s').agg(F.col('a'))\n",
        AnalysisError,
        2,
        31,
        "MISSING_AGGREGATION",
    ),
    ("def f(t: T):\n    return t.select(F.sum('a'), 'b')\n", AnalysisError, 2, 14, "MISSING_GROUP_BY"),
    ("def f(t: T):\n    return t.filter((t.a > 1) and (t.b > 2))\n", InputError, 2, 21, "ValueError"),
    # explode of an int column: Spark's analysis error (arrays are read since issue 21)
    ("def f(t: T):\n    return t.select(F.explode('a'))\n", AnalysisError, 2, 21, "explode needs an array"),
    ("def f(t: T):\n    return t.rdd.map(lambda r: r)\n", UnsupportedError, 2, 14, "rdd"),
    ("def f(t: T):\n    t.show()\n    return t\n", UnsupportedError, 2, 7, "show"),
    ("def f(t: T, n: int):\n    return t.limit(n)\n", UnsupportedError, 1, 13, "scalar"),
    ("def f(t: T):\n    return t.join(t, 'a', 'sideways')\n", AnalysisError, 2, 14, "UNSUPPORTED_JOIN_TYPE"),
    ("def f(t: T):\n    return t.select(F.sum(F.sum('a')))\n", AnalysisError, 2, 27, "aggregate"),
    ("def f(t: T):\n    return t.filter(F.count('a') > 1)\n", AnalysisError, 2, 21, "aggregate"),
    ("def f(t: T):\n    return t.select(t.nope)\n", InputError, 2, 23, "nope"),
    ("def f(t: T):\n    return undefined_helper(t)\n", NameResolutionError, 2, 12, "undefined_helper"),
    ("def f(t: T):\n    while True:\n        pass\n", UnsupportedError, 2, 5, "While"),
    ("def f(t: T):\n    return t.select(F.col('a').cast('float'))\n", UnsupportedError, 2, 32, "float"),
    ("def f(t: T):\n    return t.select(t.a.over())\n", UnsupportedError, 2, 25, "window"),
    ("def f(t: T):\n    return t.union(t.select('a'))\n", AnalysisError, 2, 14, "columns"),
    ("def f(t: T):\n    return t.unionByName(t.select('a'))\n", AnalysisError, 2, 14, "Cannot resolve"),
    # F.sum of a string column is accepted by Spark 4 (cast to double); of a boolean it is not
    ("def f(t: T):\n    return t.select(F.sum(F.col('a') > 1))\n", AnalysisError, 2, 21, "numeric"),
    ("def f(t: T):\n    return t.groupBy('s').sum('s')\n", AnalysisError, 2, 27, "numeric"),
    ("def f(t: T):\n    return t.join(t, [])\n", InputError, 2, 14, "IndexError"),
    ("def f(t: T):\n    return t.dropDuplicates('a')\n", InputError, 2, 14, "list or tuple"),
    ("def f(lf: L):\n    return lf.join(lf, lf.k == lf.k).select(lf.k)\n", AnalysisError, 2, 48, "self-join"),
    ("def f(t: T):\n    return t.filter(F.col('a') > 0).count() + 1\n", UnsupportedError, 2, 12, "operator"),
    ("def f(t: T):\n    return t.select(F.col('a').otherwise(1))\n", InputError, 2, 32, "when()"),
    (
        "def f(t: T):\n    return t.select('a').union(t.select('a')).filter(F.col('b') > 1)\n",
        AnalysisError,
        2,
        54,
        "UNRESOLVED_COLUMN",
    ),
    ("def f(lf: L, rt: Rt):\n    return lf.join(rt, 'k').select(rt.k)\n", UnsupportedError, 2, 39, "USING"),
    ("def f(t: T):\n    return t.withColumn('x', 1)\n", InputError, 2, 14, "Column"),
    ("def f(t: T):\n    return t.sample(0.5)\n", UnsupportedError, 2, 14, "random"),
]


@pytest.mark.parametrize("body,cls,line,col,text", ERRORS, ids=[f"err{i}" for i in range(len(ERRORS))])
def test_rejections_are_located(body: str, cls: type, line: int, col: int, text: str) -> None:
    offset = HEADER.count("\n") + 1
    with pytest.raises(cls) as e:
        _tr(body)
    err = e.value
    assert isinstance(err, InputError)
    assert err.loc is not None and err.loc.file == "job.py"
    assert (err.loc.line - offset, err.loc.col) == (line, col), str(err)
    assert text.lower() in err.message.lower(), err.message


def test_syntax_error_is_located() -> None:
    with pytest.raises(InputError) as e:
        translate_dataframe_source("def f(t:\n", None, "bad.py")
    assert e.value.loc.file == "bad.py" and e.value.loc.line == 1


def test_translation_never_runs_the_module(tmp_path) -> None:
    marker = tmp_path / "side_effect.txt"
    src = f"""
import pathlib
pathlib.Path({str(marker)!r}).write_text("imported")
from typing import Annotated
from pyspark.sql import DataFrame, functions as F

WRITE = pathlib.Path({str(marker)!r} + ".2").write_text("x")

def helper(df, n=pathlib.Path({str(marker)!r} + ".3").write_text("default")):
    return df.filter(F.col("a") > 1)

def f(t: Annotated[DataFrame, "a INT"]):
    return helper(t, 1).select("a")

if __name__ == "__main__":
    pathlib.Path({str(marker)!r} + ".4").write_text("main")
"""
    program = translate_dataframe_source(src, None, str(tmp_path / "job.py"))
    assert program.name == "f"
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(UnsupportedError):  # a helper default that calls something is not run either
        translate_dataframe_source(src.replace("helper(t, 1)", "helper(t)"), None, "job.py")
    assert list(tmp_path.iterdir()) == []
