"""Proof rules of issue 22 for SQLSolver's pairs, each with mutations that must not be proved:

- limits pushed through UNION ALL and to the preserved side of an outer join, undone
  (``sparklite/relational/limit_rules.py``; same *sets* of possible outcomes, flagged nondeterministic);
- ``DISTINCT`` in an aggregate over at most one row (``limit_rules.one_row_aggregate``);
- an unread variable over ``limit 1`` as ``EXISTS`` (``normal.unread_single_row_as_exists``): an
  uncorrelated ``(SELECT 1 .. LIMIT 1) IS NOT NULL`` against ``EXISTS``;
- ``nth_value(x, 1)`` as ``first_value(x)`` over the same frame (``normal._first_for_nth``).

The Spark facts behind them are in docs/semantics-notes.md ("Limits, EXISTS and nth_value").
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sql_pairs import assert_not_proved, assert_proved, check_pair, prove

from sparklite.relational import ast as R
from sparklite.relational import build
from sparklite.relational.limit_rules import at_most_one_row, one_row_aggregate, unpushed_limit
from sparklite.relational.types import parse_ddl
from verifier.core.methods import rel_terms

SCHEMA = """CREATE TABLE dept (deptno INT NOT NULL PRIMARY KEY, name VARCHAR(10) NOT NULL);
CREATE TABLE emp (empno INT NOT NULL PRIMARY KEY, ename VARCHAR(20) NOT NULL, mgr INT, sal INT NOT NULL,
  deptno INT NOT NULL);
CREATE TABLE T (F0_C1 INT NOT NULL, F1_C0 INT, F1_C2 INT NOT NULL);
"""

PROVED = [
    # SQLSolver pair 61
    ("(SELECT deptno FROM dept) UNION ALL (SELECT deptno FROM dept) LIMIT 10",
     "(SELECT deptno FROM dept LIMIT 10) UNION ALL (SELECT deptno FROM dept LIMIT 10) LIMIT 10"),
    # a larger pushed limit, one operand only
    ("(SELECT deptno FROM dept) UNION ALL (SELECT empno FROM emp) LIMIT 3",
     "(SELECT deptno FROM dept) UNION ALL (SELECT empno FROM emp LIMIT 7) LIMIT 3"),
    # SQLSolver pair 62
    ("SELECT * FROM (dept AS T1 LEFT OUTER JOIN dept AS T2 on T1.deptno = T2.deptno) LIMIT 10",
     "SELECT * FROM ((SELECT * FROM dept LIMIT 10) AS T1 LEFT OUTER JOIN dept AS T2 "
     "on T1.deptno = T2.deptno) LIMIT 10"),
    ("SELECT * FROM (emp RIGHT JOIN dept ON emp.deptno = dept.deptno) LIMIT 2",
     "SELECT * FROM (emp RIGHT JOIN (SELECT * FROM dept LIMIT 2) d ON emp.deptno = d.deptno) LIMIT 2"),
    # SQLSolver pair 55
    ("SELECT SUM(DISTINCT F0_C1) FROM (SELECT F0_C1 FROM T LIMIT 1) T0 GROUP BY F0_C1",
     "SELECT SUM(F0_C1) FROM (SELECT F0_C1 FROM T LIMIT 1) T0 GROUP BY F0_C1"),
    ("SELECT COUNT(DISTINCT F1_C0) FROM (SELECT F1_C0 FROM T LIMIT 1) T0",
     "SELECT COUNT(F1_C0) FROM (SELECT F1_C0 FROM T LIMIT 1) T0"),
    # SQLSolver pair 47
    ("SELECT * FROM dept WHERE EXISTS (SELECT F0_C1 FROM T WHERE F1_C2 > 10)",
     "SELECT * FROM dept WHERE (SELECT 1 FROM (SELECT F0_C1 FROM T WHERE F1_C2 > 10) t0 "
     "LIMIT 1) IS NOT NULL"),
    # SQLSolver pair 127, and another frame with IGNORE NULLS
    ("SELECT FIRST_VALUE(emp.deptno) OVER(PARTITION BY emp.empno ORDER BY emp.ename ROWS BETWEEN UNBOUNDED "
     "PRECEDING AND CURRENT ROW) FROM emp",
     "SELECT NTH_VALUE(emp.deptno, 1) OVER(PARTITION BY emp.empno ORDER BY emp.ename ROWS BETWEEN UNBOUNDED "
     "PRECEDING AND CURRENT ROW) FROM emp"),
    ("SELECT first_value(mgr) IGNORE NULLS OVER (PARTITION BY deptno ORDER BY empno ROWS BETWEEN 1 FOLLOWING "
     "AND 2 FOLLOWING) FROM emp",
     "SELECT nth_value(mgr, 1) IGNORE NULLS OVER (PARTITION BY deptno ORDER BY empno "
     "ROWS BETWEEN 1 FOLLOWING AND 2 FOLLOWING) FROM emp"),
]

# LimitPushDownThroughWindow (SQLSolver pair 51): what Spark runs for a limit over row_number()
WINDOW_PROVED = [
    ("SELECT *, ROW_NUMBER() OVER(ORDER BY F0_C1) AS rn FROM T LIMIT 5",
     "SELECT *, ROW_NUMBER() OVER(ORDER BY F0_C1) AS rn FROM (SELECT * FROM T ORDER BY F0_C1 LIMIT 5) t0"),
    ("SELECT F1_C2, rank() OVER (ORDER BY F1_C2 DESC) r, dense_rank() OVER (ORDER BY F1_C2 DESC) d "
     "FROM T LIMIT 3",
     "SELECT F1_C2, rank() OVER (ORDER BY F1_C2 DESC) r, dense_rank() OVER (ORDER BY F1_C2 DESC) d "
     "FROM (SELECT * FROM T ORDER BY F1_C2 DESC LIMIT 3) t0"),
]
WINDOW_TRAPS = [
    # PARTITION BY: the rule does not apply, the limit keeps any rows
    ("SELECT *, ROW_NUMBER() OVER(PARTITION BY F1_C2 ORDER BY F0_C1) AS rn FROM T LIMIT 5",
     "SELECT *, ROW_NUMBER() OVER(PARTITION BY F1_C2 ORDER BY F0_C1) AS rn "
     "FROM (SELECT * FROM T ORDER BY F0_C1 LIMIT 5) t0"),
    # the other direction
    ("SELECT *, ROW_NUMBER() OVER(ORDER BY F0_C1) AS rn FROM T LIMIT 5",
     "SELECT *, ROW_NUMBER() OVER(ORDER BY F0_C1) AS rn "
     "FROM (SELECT * FROM T ORDER BY F0_C1 DESC LIMIT 5) t0"),
    # not a ranking function
    ("SELECT *, sum(F0_C1) OVER(ORDER BY F0_C1) AS s FROM T LIMIT 5",
     "SELECT *, sum(F0_C1) OVER(ORDER BY F0_C1) AS s FROM (SELECT * FROM T ORDER BY F0_C1 LIMIT 5) t0"),
]

TRAPS = [
    # a pushed limit smaller than the outer one: fewer rows
    ("(SELECT deptno FROM dept) UNION ALL (SELECT empno FROM emp) LIMIT 10",
     "(SELECT deptno FROM dept) UNION ALL (SELECT empno FROM emp LIMIT 5) LIMIT 10"),
    # a pushed limit over a sorted operand keeps its first rows, not any
    ("(SELECT deptno FROM dept) UNION ALL (SELECT empno FROM emp) LIMIT 2",
     "(SELECT deptno FROM dept) UNION ALL (SELECT empno FROM emp ORDER BY empno LIMIT 2) LIMIT 2"),
    # a limit pushed below an inner join: rows without a match are lost
    ("SELECT * FROM (dept AS T1 JOIN emp AS T2 on T1.deptno = T2.deptno) LIMIT 2",
     "SELECT * FROM ((SELECT * FROM dept LIMIT 2) AS T1 JOIN emp AS T2 on T1.deptno = T2.deptno) LIMIT 2"),
    # ... or to the side a left join pads
    ("SELECT * FROM (emp LEFT JOIN dept ON emp.deptno = dept.deptno) LIMIT 2",
     "SELECT * FROM (emp LEFT JOIN (SELECT * FROM dept LIMIT 2) d ON emp.deptno = d.deptno) LIMIT 2"),
    # below a limit, rows that may raise (10 / 0)
    ("(SELECT 10 / F1_C0 FROM T) UNION ALL (SELECT 10 / F1_C0 FROM T) LIMIT 1",
     "(SELECT 10 / F1_C0 FROM T LIMIT 1) UNION ALL (SELECT 10 / F1_C0 FROM T LIMIT 1) LIMIT 1"),
    # DISTINCT over two rows
    ("SELECT SUM(DISTINCT F0_C1) FROM (SELECT F0_C1 FROM T LIMIT 2) T0",
     "SELECT SUM(F0_C1) FROM (SELECT F0_C1 FROM T LIMIT 2) T0"),
    # the scalar subquery's row may hold a NULL: not EXISTS
    ("SELECT * FROM dept WHERE EXISTS (SELECT F1_C0 FROM T WHERE F1_C2 > 10)",
     "SELECT * FROM dept WHERE (SELECT F1_C0 FROM (SELECT F1_C0 FROM T WHERE F1_C2 > 10) t0 "
     "LIMIT 1) IS NOT NULL"),
    # a limit of two rows: more than one row raises
    ("SELECT * FROM dept WHERE EXISTS (SELECT F0_C1 FROM T WHERE F1_C2 > 10)",
     "SELECT * FROM dept WHERE (SELECT 1 FROM (SELECT F0_C1 FROM T WHERE F1_C2 > 10) t0 "
     "LIMIT 2) IS NOT NULL"),
    # NOT EXISTS is not EXISTS
    ("SELECT * FROM dept WHERE NOT EXISTS (SELECT F0_C1 FROM T WHERE F1_C2 > 10)",
     "SELECT * FROM dept WHERE (SELECT 1 FROM (SELECT F0_C1 FROM T WHERE F1_C2 > 10) t0 "
     "LIMIT 1) IS NOT NULL"),
    # the second row of the frame, and IGNORE NULLS on one side only
    ("SELECT first_value(mgr) OVER (PARTITION BY deptno ORDER BY empno) FROM emp",
     "SELECT nth_value(mgr, 2) OVER (PARTITION BY deptno ORDER BY empno) FROM emp"),
    ("SELECT first_value(mgr) OVER (PARTITION BY deptno ORDER BY empno) FROM emp",
     "SELECT nth_value(mgr, 1) IGNORE NULLS OVER (PARTITION BY deptno ORDER BY empno) FROM emp"),
]


@pytest.mark.parametrize(("left", "right"), PROVED)
def test_rules_prove(left: str, right: str, tmp_path: Path) -> None:
    assert_proved(left, right, SCHEMA, tmp_path)


REFUTED = (5, 6, 8, 9, 10)  # the traps test_deterministic_mutations_are_refuted refutes (so: not proved)


@pytest.mark.parametrize(("left", "right"), [t for i, t in enumerate(TRAPS) if i not in REFUTED])
def test_mutations_are_not_proved(left: str, right: str, tmp_path: Path) -> None:
    assert_not_proved(left, right, SCHEMA, tmp_path)


@pytest.mark.parametrize(("left", "right"), [TRAPS[i] for i in REFUTED])
def test_deterministic_mutations_are_refuted(left: str, right: str, tmp_path: Path) -> None:
    """The traps whose difference does not rest on which rows a limit keeps are refuted by the
    interpreter (the others wait for Spark: a limit's choice, or SCALAR_SUBQUERY_TOO_MANY_ROWS)."""
    result = check_pair(left, right, SCHEMA, tmp_path)
    assert result.verdict == "not_equivalent", result.reason
    assert "columns differ" not in result.reason  # by position: the rows are what differs


@pytest.mark.parametrize(("left", "right"), WINDOW_PROVED)
def test_limit_through_a_ranking_window_is_proved(left: str, right: str, tmp_path: Path) -> None:
    assert_proved(left, right, SCHEMA, tmp_path, "LimitPushDownThroughWindow")


@pytest.mark.parametrize(("left", "right"), WINDOW_TRAPS)
def test_limit_through_other_windows_is_not_proved(left: str, right: str, tmp_path: Path) -> None:
    assert_not_proved(left, right, SCHEMA, tmp_path)


def test_nondeterministic_proofs_say_so(tmp_path: Path) -> None:
    proof = prove(*PROVED[0], SCHEMA, tmp_path)
    assert isinstance(proof, rel_terms.RelProof)
    assert any("nondeterministic" in w for w in proof.warnings), proof.warnings


def _t() -> R.Rel:
    return build.table("t", parse_ddl("a INT NOT NULL, b INT"))


def test_unpushed_limit_keeps_a_sorted_operand() -> None:
    t = _t()
    cols = build.columns_of(t)
    sorted_ = build.limit(build.sort(t, [R.SortKey(cols[0], True, True)]), 5)
    lim = build.limit(build.set_op("union", True, t, sorted_), 5)
    assert unpushed_limit(lim) is None
    lim2 = build.limit(build.set_op("union", True, t, build.limit(t, 5)), 5)
    assert unpushed_limit(lim2) == build.limit(build.set_op("union", True, t, t), 5)


def test_one_row_aggregate() -> None:
    t = _t()
    b = build.columns_of(t)[1]
    one = build.aggregate(build.limit(t, 1), [], [], [build.agg("sum_distinct", [b])], ["s"])
    two = build.aggregate(build.limit(t, 2), [], [], [build.agg("sum_distinct", [b])], ["s"])
    assert at_most_one_row(build.limit(t, 1)) and not at_most_one_row(build.limit(t, 2))
    fixed = one_row_aggregate(one)
    assert fixed is not None and fixed.aggs[0].name == "sum"
    assert one_row_aggregate(two) is None


@pytest.mark.spark
def test_the_spark_facts_behind_the_rules(spark_session) -> None:
    """nth_value(x, 1) = first_value(x) over frames with and without IGNORE NULLS; EXISTS against the
    LIMIT 1 scalar subquery; a limit over row_number() keeps rows 1..n (LimitPushDownThroughWindow)."""
    spark_session.createDataFrame(
        [(1, 1, None), (1, 2, 5), (1, 3, None), (1, 4, 7), (2, 1, 9), (2, 2, None), (3, 1, None)],
        "p INT, o INT, x INT").createOrReplaceTempView("lr_w")
    for frame in ("ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW",
                  "ROWS BETWEEN 1 FOLLOWING AND 2 FOLLOWING",
                  "RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"):
        for ignore in ("", " IGNORE NULLS"):
            rows = spark_session.sql(
                f"SELECT first_value(x){ignore} OVER (PARTITION BY p ORDER BY o {frame}) a, "
                f"nth_value(x, 1){ignore} OVER (PARTITION BY p ORDER BY o {frame}) b FROM lr_w").collect()
            assert all(r.a == r.b for r in rows), (frame, ignore)
    spark_session.createDataFrame([(1,), (2,)], "deptno INT").createOrReplaceTempView("lr_d")
    for data in ([(1,), (20,)], [(1,)], []):
        spark_session.createDataFrame(data, "F1_C2 INT").createOrReplaceTempView("lr_t")
        a = spark_session.sql("SELECT * FROM lr_d WHERE EXISTS (SELECT 1 FROM lr_t WHERE F1_C2 > 10)")
        b = spark_session.sql("SELECT * FROM lr_d WHERE (SELECT 1 FROM "
                              "(SELECT F1_C2 FROM lr_t WHERE F1_C2 > 10) t0 LIMIT 1) IS NOT NULL")
        assert sorted(a.collect()) == sorted(b.collect())
    spark_session.createDataFrame([(i % 4, i) for i in range(20)], "k INT, v INT").repartition(3) \
        .createOrReplaceTempView("lr_k")
    rows = spark_session.sql("SELECT *, row_number() OVER (ORDER BY k) rn FROM lr_k LIMIT 5").collect()
    assert sorted(r.rn for r in rows) == [1, 2, 3, 4, 5]
