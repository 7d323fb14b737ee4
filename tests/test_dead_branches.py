"""Congruence once dead ``CASE`` branches are dropped (``sparklite/relational/conditionals.py``):
SQLSolver's pair 33 (checked on Spark: both sides give the same rows and the same CAST_INVALID_INPUT),
and what must stay apart."""

from __future__ import annotations

from pathlib import Path

import pytest
from sql_pairs import check_pair

from sparklite.relational import build
from sparklite.relational.conditionals import without_dead_branches
from sparklite.relational.types import parse_ddl

SCHEMA = "CREATE TABLE dept (deptno INT NOT NULL PRIMARY KEY, name VARCHAR(10) NOT NULL);\n"

CONGRUENT = [
    ("SELECT CASE WHEN deptno = 1 THEN deptno WHEN TRUE THEN name WHEN deptno = 10 THEN 10 "
     "ELSE deptno + 1 END FROM dept",
     "SELECT CASE WHEN deptno = 1 THEN deptno WHEN TRUE THEN name END FROM dept"),
    ("SELECT CASE WHEN FALSE THEN deptno + 1 WHEN deptno > 2 THEN deptno ELSE 0 END FROM dept",
     "SELECT CASE WHEN deptno > 2 THEN deptno ELSE 0 END FROM dept"),
    ("SELECT CASE WHEN NULL THEN 5 WHEN TRUE THEN deptno END FROM dept", "SELECT deptno FROM dept"),
]
APART = [
    # a constant that may raise in the dead part: Spark may fold it (and raise) first
    ("SELECT CASE WHEN deptno = 1 THEN deptno WHEN TRUE THEN 2 ELSE 1 / 0 END FROM dept",
     "SELECT CASE WHEN deptno = 1 THEN deptno WHEN TRUE THEN 2 END FROM dept"),
    # a live branch changed
    ("SELECT CASE WHEN deptno = 1 THEN deptno WHEN TRUE THEN name END FROM dept",
     "SELECT CASE WHEN deptno = 2 THEN deptno WHEN TRUE THEN name END FROM dept"),
    # a condition that is not a literal
    ("SELECT CASE WHEN deptno > 0 THEN 1 ELSE 2 END FROM dept", "SELECT 1 FROM dept"),
]


@pytest.mark.parametrize(("left", "right"), CONGRUENT)
def test_congruent_once_dead_branches_are_dropped(left: str, right: str, tmp_path: Path) -> None:
    result = check_pair(left, right, SCHEMA, tmp_path)
    assert result.verdict == "equivalent" and result.method == "congruence", result.reason
    assert any("SimplifyConditionals" in w for w in result.warnings)


@pytest.mark.parametrize(("left", "right"), APART)
def test_not_congruent(left: str, right: str, tmp_path: Path) -> None:
    result = check_pair(left, right, SCHEMA, tmp_path)
    assert result.method != "congruence", result.reason


def test_the_true_branch_becomes_the_else() -> None:
    t = build.table("t", parse_ddl("a INT NOT NULL"))
    a = build.columns_of(t)[0]
    one = build.lit(1)
    case = build.case([(build.compare("=", a, one), a), (build.lit(True), one)], build.arith("+", a, one))
    out = without_dead_branches(case)
    assert out.branches == ((build.compare("=", a, one), a),) and out.orelse == one
    assert not out.nullable
    assert without_dead_branches(build.case([(build.lit(True), a)], None)) == a
