"""``upper(lower(x))`` as Spark runs it (``sparklite/relational/case_conversion.py``): Spark's optimiser
rewrites it to ``upper(x)`` over table columns and evaluates it exactly where it folds ``x`` to a
constant. The interpreter keeps the exact value with a caveat where the two differ; the prover collapses
the calls over base-table columns only."""

from __future__ import annotations

from pathlib import Path

import pytest
from sql_pairs import assert_not_proved, assert_proved, check_pair

from sparklite.relational import ast as R
from sparklite.relational import build, interpreter
from sparklite.relational.case_conversion import CAVEAT_CASE_CONVERSION, collapsed
from sparklite.relational.types import parse_ddl

SCHEMA = "CREATE TABLE dept (deptno INT NOT NULL PRIMARY KEY, name VARCHAR(10));\n"

PROVED = [
    ("SELECT UPPER(LOWER(name)) FROM dept", "SELECT UPPER(name) FROM dept"),  # SQLSolver pair 45
    ("SELECT deptno FROM dept WHERE lower(upper(name)) = 'a'",
     "SELECT deptno FROM dept WHERE lower(name) = 'a'"),
    ("SELECT upper(lower(upper(name))) FROM dept", "SELECT upper(name) FROM dept"),
]
TRAPS = [
    ("SELECT UPPER(LOWER(name)) FROM dept", "SELECT LOWER(name) FROM dept"),
    # a column a projection set to a literal: Spark folds it and evaluates exactly ('SS' against 'ẞ')
    ("SELECT upper(lower(s)) FROM (SELECT 'ẞ' AS s, deptno FROM dept) x",
     "SELECT upper(s) FROM (SELECT 'ẞ' AS s, deptno FROM dept) x"),
    ("SELECT upper(lower('ẞ')) FROM dept", "SELECT upper('ẞ') FROM dept"),
]


@pytest.mark.parametrize(("left", "right", "proved"),
                         [(*p, True) for p in PROVED] + [(*t, False) for t in TRAPS])
def test_collapsed_over_table_columns_only(left: str, right: str, proved: bool, tmp_path: Path) -> None:
    if proved:
        assert_proved(left, right, SCHEMA, tmp_path, "SimplifyCaseConversionExpressions")
    else:
        assert_not_proved(left, right, SCHEMA, tmp_path)


def test_the_search_does_not_refute_on_the_rewrite_alone(tmp_path: Path) -> None:
    """Without the proof, a difference resting on the rewrite waits for Spark (never definite)."""
    result = check_pair("SELECT upper(lower(s)) FROM (SELECT 'ẞ' AS s, deptno FROM dept) x",
                        "SELECT upper(s) FROM (SELECT 'ẞ' AS s, deptno FROM dept) x", SCHEMA, tmp_path)
    assert result.verdict == "unknown", result.reason


def test_collapsed_is_the_outer_call_of_the_innermost_argument() -> None:
    t = build.table("t", parse_ddl("s STRING"))
    s = build.columns_of(t)[0]
    nested = build.func("upper", [build.func("lower", [build.func("upper", [s])])])
    assert collapsed(nested) == build.func("upper", [s])
    assert collapsed(build.func("upper", [s])) is None
    assert collapsed(build.func("upper", [build.func("trim", [s])])) is None


def test_interpreter_caveat_where_the_rewrite_changes_the_value() -> None:
    t = build.table("t", parse_ddl("s STRING"))
    s = build.columns_of(t)[0]
    body = build.project(t, [build.func("upper", [build.func("lower", [s])])], ["u"])
    program = R.RelProgram("q", (R.TableParam("t", t.schema),), body, language="sql")
    assert CAVEAT_CASE_CONVERSION in interpreter.run(program, {"t": [("ẞ",)]}).caveats
    assert CAVEAT_CASE_CONVERSION not in interpreter.run(program, {"t": [("Ab",)]}).caveats


@pytest.mark.spark
def test_spark_rewrites_over_table_columns_only(spark_session) -> None:
    spark_session.createDataFrame([("ẞ",), ("ϴ",)], "name STRING").createOrReplaceTempView("cc_d")
    table = spark_session.sql("SELECT upper(lower(name)) a, lower(upper(name)) b FROM cc_d").collect()
    assert sorted((r.a, r.b) for r in table) == sorted([("ẞ", "ß"), ("ϴ", "θ")])
    values = spark_session.sql("SELECT upper(lower(s)) a FROM VALUES ('ẞ') AS v(s)").collect()
    assert [r.a for r in values] == ["SS"]
    folded = spark_session.sql("SELECT upper(lower(s)) a FROM (SELECT 'ẞ' AS s, name FROM cc_d) x").collect()
    assert [r.a for r in folded] == ["SS", "SS"]
