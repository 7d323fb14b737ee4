"""LATERAL subqueries and scalar subqueries grouped by (``frontend/sql/lateral.py``): names, types and
rows against Spark 4 on tables where the correlated conditions match, the refusals, and the proofs of
SQLSolver's lateral pairs with mutations of them that must not be proved."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sql_pairs import check_pair, prove

from frontend.sql.translator import translate_query
from sparklite.errors import UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational import build, interpreter
from sparklite.relational.types import parse_ddl
from verifier.core.methods import rel_terms

TABLES: dict[str, tuple[str, list[tuple]]] = {
    "emp": (
        "empno INT NOT NULL, mgr INT, sal INT NOT NULL, deptno INT NOT NULL",
        [(1, None, 3, 10), (2, 3, 3, 10), (3, 3, 5, 20), (4, 5, 7, 20), (5, 9, 3, 30), (6, 7, 7, 10)],
    ),
    "dept": ("deptno INT NOT NULL, name STRING NOT NULL", [(10, "a"), (20, "b"), (40, "d")]),
}
CATALOG = {n: build.table(n, parse_ddl(ddl)) for n, (ddl, _) in TABLES.items()}
ROWS = {n: rows for n, (_, rows) in TABLES.items()}

QUERIES = [
    # a correlated global aggregate: one row per outer row, NULL where nothing matches
    "SELECT t1.empno, sub.m FROM emp t1 LEFT JOIN LATERAL "
    "(SELECT max(t2.deptno) AS m FROM emp t2 WHERE t1.mgr = t2.sal) sub",
    "SELECT t1.empno, sub.m, sub.s FROM emp t1 JOIN LATERAL "
    "(SELECT min(t2.empno) AS m, sum(t2.sal) + 1 AS s FROM emp t2 "
    "WHERE t2.sal = t1.mgr AND t2.empno > 1) sub",
    # count of no rows is 0 (Spark's count-bug handling), not NULL
    "SELECT t1.empno, sub.c FROM emp t1, LATERAL "
    "(SELECT count(*) AS c FROM emp t2 WHERE t1.mgr = t2.sal) sub",
    "SELECT t1.empno, c FROM emp t1 LEFT JOIN LATERAL "
    "(SELECT count(t2.mgr) c FROM emp t2 WHERE t1.mgr = t2.sal)",
    # rows filtered by a correlated condition, INNER and LEFT
    "SELECT * FROM emp INNER JOIN LATERAL (SELECT * FROM dept WHERE emp.deptno = dept.deptno) t0",
    "SELECT emp.empno, t0.name FROM emp LEFT JOIN LATERAL "
    "(SELECT dept.name FROM dept WHERE emp.deptno = dept.deptno AND dept.name <> 'b') t0",
    "SELECT e.empno, x.y FROM emp e JOIN LATERAL "
    "(SELECT d.deptno + e.sal AS y FROM dept d WHERE d.deptno < e.deptno) x",
    # uncorrelated: a derived table
    "SELECT * FROM emp INNER JOIN LATERAL (SELECT 1) t0",
    "SELECT emp.empno, t0.name FROM emp CROSS JOIN LATERAL (SELECT name FROM dept WHERE deptno = 40) t0",
    # a correlated scalar subquery grouped by (its alias), and its generated name
    "SELECT (SELECT max(t2.deptno) FROM emp t2 WHERE t1.mgr = t2.sal) AS sub, max(t1.empno) FROM emp t1 "
    "GROUP BY sub",
    "SELECT t1.empno, (SELECT max(t2.deptno) FROM emp t2 WHERE t1.mgr = t2.sal) FROM emp t1",
    "SELECT t1.empno, (SELECT max(t2.deptno) FROM emp t2 WHERE t1.mgr = t2.sal AND t1.deptno = t2.deptno) "
    "FROM emp t1",
]


def translate(q: str) -> R.Rel:
    return translate_query(q, CATALOG)


def run(q: str) -> Any:
    params = tuple(R.TableParam(n, CATALOG[n].schema) for n in TABLES)
    return interpreter.run(R.RelProgram("q", params, translate(q), language="sql"), ROWS)


@pytest.fixture(scope="module")
def views(spark_session):
    for name, (ddl, rows) in TABLES.items():
        spark_session.createDataFrame(rows, ddl).createOrReplaceTempView(name)
    return spark_session


@pytest.mark.spark
@pytest.mark.parametrize("q", QUERIES)
def test_lateral_schema_and_rows_match_spark(views, q: str) -> None:
    from sparklite.relational.values import RelResult, rel_outcomes_equal
    from sparklite.values import Bag

    df = views.sql(q)
    assert [(f.name, f.type.simple) for f in translate(q).schema.fields] == df.dtypes
    result = run(q)
    assert not result.caveats, result.caveats
    theirs = RelResult(tuple(df.dtypes), Bag.of(tuple(r) for r in df.collect()))
    assert rel_outcomes_equal(result.outcome, theirs), (result.outcome, theirs)


def test_the_data_exercises_matches_and_misses() -> None:
    """The first query meets outer rows with a matching group and without one (and a NULL key)."""
    rows = sorted(run(QUERIES[0]).outcome.rows.items, key=lambda r: r[0])
    assert [r[1] for r in rows] == [None, 30, 30, 20, None, 20]


@pytest.mark.parametrize(
    ("q", "construct"),
    [
        ("SELECT * FROM emp t1 JOIN LATERAL (SELECT t2.sal FROM emp t2 WHERE t1.mgr = t2.sal) s "
         "ON s.sal > 1",
         "an ON condition on a LATERAL join"),
        ("SELECT * FROM emp t1 LEFT JOIN LATERAL "
         "(SELECT t2.sal + 1 AS x FROM emp t2 WHERE t1.mgr = t2.sal) s",
         "a LEFT LATERAL subquery whose SELECT items are not columns of its FROM"),
        ("SELECT * FROM emp t1 JOIN LATERAL (SELECT t2.sal FROM emp t2 WHERE t1.mgr = t2.sal LIMIT 1) s",
         "LIMIT in a correlated LATERAL subquery"),
        ("SELECT * FROM emp t1 JOIN LATERAL (SELECT coalesce(max(t2.sal), 0) AS x FROM emp t2 "
         "WHERE t1.mgr = t2.sal) s", "a correlated LATERAL aggregate whose value is not NULL on no rows"),
        ("SELECT * FROM emp t1 RIGHT JOIN LATERAL (SELECT t2.sal FROM emp t2 WHERE t1.mgr = t2.sal) s",
         "RIGHT LATERAL join"),
    ],
)
def test_refusals_are_named(q: str, construct: str) -> None:
    with pytest.raises(UnsupportedError) as info:
        translate(q)
    assert info.value.construct == construct


# ---------------------------------------------------------------------------------------------------
# Proofs: SQLSolver's pairs 119-123, and mutations that must not be proved
# ---------------------------------------------------------------------------------------------------

SCHEMA = """CREATE TABLE emp (empno INT NOT NULL PRIMARY KEY, ename VARCHAR(20) NOT NULL, mgr INT,
  sal INT NOT NULL, deptno INT NOT NULL);
CREATE TABLE dept (deptno INT NOT NULL PRIMARY KEY, name VARCHAR(10) NOT NULL);
"""

PROVED = [
    ("SELECT t1.empno, t1.mgr FROM emp AS t1 WHERE t1.empno = (SELECT MAX(t2.deptno) FROM emp AS t2 "
     "WHERE t1.mgr = t2.sal)",
     "SELECT sub.a, sub.b FROM (SELECT t1.empno as a, t1.mgr as b, sub0.max_dno AS max_dno FROM emp AS t1 "
     "LEFT JOIN LATERAL (SELECT max(t2.deptno) as max_dno FROM emp AS t2 WHERE t1.mgr = t2.sal) sub0) sub "
     "WHERE sub.a = sub.max_dno"),
    ("SELECT t1.empno, (SELECT max(t2.deptno) FROM emp AS t2 WHERE t1.mgr = t2.sal) FROM emp AS t1",
     "SELECT t1.empno, sub.max_dno FROM emp AS t1 LEFT JOIN LATERAL (SELECT max(t2.deptno) as max_dno "
     "FROM emp AS t2 WHERE t1.mgr = t2.sal) sub"),
    ("SELECT (SELECT max(t2.deptno) FROM emp AS t2 WHERE t1.mgr = t2.sal) as sub, max(t1.empno) "
     "FROM emp AS t1 GROUP BY sub",
     "SELECT sub.max_dno, max(t1.empno) FROM emp AS t1 LEFT JOIN LATERAL (SELECT max(t2.deptno) as max_dno "
     "FROM emp AS t2 WHERE t1.mgr = t2.sal) sub GROUP BY sub.max_dno"),
    ("SELECT * FROM emp INNER JOIN LATERAL (SELECT * FROM dept WHERE emp.deptno = dept.deptno) t0",
     "SELECT * FROM emp INNER JOIN dept ON emp.deptno = dept.deptno"),
    ("SELECT * FROM emp INNER JOIN LATERAL (SELECT 1) t0", "SELECT emp.*, 1 FROM emp"),
]

TRAPS = [
    # the count bug: a count of no rows is 0 through LATERAL, NULL through a plain left join
    ("SELECT t1.empno, sub.c FROM emp t1 LEFT JOIN LATERAL (SELECT count(*) AS c FROM emp t2 "
     "WHERE t1.mgr = t2.sal) sub",
     "SELECT t1.empno, sub.c FROM emp t1 LEFT JOIN "
     "(SELECT t2.sal, count(*) AS c FROM emp t2 GROUP BY t2.sal) sub ON t1.mgr = sub.sal"),
    # INNER against LEFT: an employee of no department is dropped on one side only
    ("SELECT emp.empno, t0.name FROM emp JOIN LATERAL "
     "(SELECT name FROM dept WHERE emp.deptno = dept.deptno) t0",
     "SELECT emp.empno, t0.name FROM emp LEFT JOIN LATERAL (SELECT name FROM dept "
     "WHERE emp.deptno = dept.deptno) t0"),
    # another correlation column
    ("SELECT t1.empno, sub.m FROM emp t1 LEFT JOIN LATERAL (SELECT max(t2.deptno) AS m FROM emp t2 "
     "WHERE t1.mgr = t2.sal) sub",
     "SELECT t1.empno, sub.m FROM emp t1 LEFT JOIN LATERAL (SELECT max(t2.deptno) AS m FROM emp t2 "
     "WHERE t1.mgr = t2.empno) sub"),
    # the aggregate's value read where the grouped side has no row (max against min)
    ("SELECT t1.empno, (SELECT max(t2.deptno) FROM emp AS t2 WHERE t1.mgr = t2.sal) FROM emp AS t1",
     "SELECT t1.empno, sub.m FROM emp AS t1 LEFT JOIN LATERAL (SELECT min(t2.deptno) as m "
     "FROM emp AS t2 WHERE t1.mgr = t2.sal) sub"),
]


def _prove(left: str, right: str, tmp: Path) -> Any:
    return prove(left, right, SCHEMA, tmp)


@pytest.mark.parametrize(("left", "right"), PROVED)
def test_lateral_pairs_are_proved(left: str, right: str, tmp_path: Path) -> None:
    assert isinstance(_prove(left, right, tmp_path), rel_terms.RelProof)


@pytest.mark.parametrize(("left", "right"), TRAPS)
def test_lateral_mutations_are_not_proved(left: str, right: str, tmp_path: Path) -> None:
    assert not isinstance(_prove(left, right, tmp_path), rel_terms.RelProof)


@pytest.mark.parametrize(("left", "right"), TRAPS)
def test_lateral_mutations_are_refuted(left: str, right: str, tmp_path: Path) -> None:
    result = check_pair(left, right, SCHEMA, tmp_path)
    assert result.verdict == "not_equivalent", result.reason
