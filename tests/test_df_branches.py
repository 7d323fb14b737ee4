"""A DataFrame function branching on a count (``frontend.dataframe.branches``): both outcomes modelled as
``A ⋉ (count holds) UNION ALL B ⋉ (count fails)``; refused where Python's one path cannot be kept (a branch
that may raise, a branch in a loop, paths returning other columns). Without Spark, except the last test
(``spark``): a difference found through such a branch replays on Spark."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from frontend.dataframe.translator import translate_dataframe_source
from sparklite.errors import UnsupportedError
from sparklite.relational.interpreter import run
from sparklite.relational.types import parse_ddl
from verifier import check

SCHEMA = "df=id INT, name STRING"

FUNCTIONS = textwrap.dedent(
    """\
    from pyspark.sql import functions as F


    def branchy(df):
        if df.filter(F.col("name") == "").count() > 0:
            return df.withColumn("name", F.when(F.col("name") == "", "x").otherwise(F.col("name")))
        elif df.filter(F.col("name").isNull()).count() > 0:
            return df.fillna(value="x", subset=["name"])
        return df


    def flat(df):
        blank = (F.col("name") == "") | F.col("name").isNull()
        return df.withColumn("name", F.when(blank, "x").otherwise(F.col("name")))


    def counted_first(df):
        n = df.filter(F.col("name") == "").count()
        if 0 < n:
            return df.withColumn("name", F.when(F.col("name") == "", "x").otherwise(F.col("name")))
        if not df.filter(F.col("name").isNull()).count():
            return df
        return df.fillna(value="x", subset=["name"])
    """
)


@pytest.fixture()
def functions(tmp_path: Path) -> str:
    path = tmp_path / "branches.py"
    path.write_text(FUNCTIONS)
    return str(path)


def _program(body: str):
    head = "from pyspark.sql import functions as F\n\n\ndef f(df):\n"
    src = head + textwrap.indent(textwrap.dedent(body), "    ")
    return translate_dataframe_source(src, "f", "f.py", {"df": parse_ddl("id INT, name STRING")})


@pytest.mark.parametrize("rows, expected", [
    ([(1, ""), (2, None)], [(1, "x"), (2, None)]),  # the first branch: "" replaced, NULL kept
    ([(1, "a"), (2, None)], [(1, "a"), (2, "x")]),  # the elif
    ([(1, "a")], [(1, "a")]),  # neither
    ([], []),
])
def test_the_interpreter_takes_the_branch_python_takes(functions: str, rows, expected):
    program = _program(FUNCTIONS.split("def branchy(df):\n")[1].split("\n\n\n")[0])
    out = run(program, {"df": rows})
    assert not out.caveats, out.caveats
    got = sorted((tuple(r) for r in _bag(out.outcome)), key=repr)
    assert got == sorted(expected, key=repr)


def _bag(outcome):
    rows = outcome.rows
    return list(getattr(rows, "items", rows))


def test_a_branch_is_equal_to_itself_and_differs_from_the_flat_rewrite(functions: str):
    same = check(f"{functions}::branchy", f"{functions}::branchy", replay=False, schema=[SCHEMA])
    assert same.verdict == "equivalent", same.reason
    other = check(f"{functions}::branchy", f"{functions}::flat", replay=False, schema=[SCHEMA])
    assert other.verdict == "not_equivalent"  # both "" and NULL present: branchy keeps the NULL
    names = {r.get("name") for r in other.counterexample.inputs["df"]}  # type: ignore[union-attr]
    assert {"", None} <= names


def test_an_equal_rewrite_is_never_refuted(functions: str):
    result = check(f"{functions}::branchy", f"{functions}::counted_first", replay=False, schema=[SCHEMA])
    assert result.verdict in ("equivalent", "unknown"), result.reason


@pytest.mark.parametrize("body, message", [
    ("""\
     if df.count() > 0:
         return df.select((F.col("id") / 0).alias("id"), "name")
     return df
     """, "may raise"),
    ("""\
     for c in ["a"]:
         if df.count() > 0:
             return df
     return df
     """, "decides this condition"),
    ("""\
     if df.count() > 0:
         return df.select("id")
     return df
     """, "different columns"),
    ("""\
     if df.count() > 0:
         return df
     """, "must return a DataFrame"),
])
def test_what_cannot_be_kept_is_refused_located(body: str, message: str):
    with pytest.raises(UnsupportedError, match=message) as info:
        _program(body)
    assert info.value.loc is not None and info.value.loc.line >= 5


@pytest.mark.spark
def test_the_difference_replays_on_spark(functions: str):
    result = check(f"{functions}::branchy", f"{functions}::flat", replay=True, schema=[SCHEMA])
    assert result.verdict == "not_equivalent", result.reason
    assert result.stats.get("spark_left") is not None


def test_may_raise_sees_literal_rows_and_aggregates():
    from frontend.dataframe.branches import rel_may_raise
    from sparklite.relational import ast as R
    from sparklite.relational import build
    from sparklite.relational.types import INT

    one = build.lit(1)
    raising = build.arith("/", one, build.lit(0))
    assert rel_may_raise(build.values([[one]], ["a"])) is False
    assert rel_may_raise(build.values([[raising]], ["a"])) is True
    table = build.table("t", parse_ddl("a INT"))
    total = build.aggregate(table, (), (), (build.agg("sum", (R.Col(0, "a", INT, True),)),), ("s",))
    assert rel_may_raise(total) is True  # an integral sum may overflow
