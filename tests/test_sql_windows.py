"""SQL window functions (``frontend/sql/windows.py``, ``sparklite/relational/windows.py``): the kernel
they read into, the names and types Spark 4 gives their columns, and the rows the interpreter computes,
each query checked against Spark on ``local[2]`` (the tables of ``test_sql_frontend``)."""

from __future__ import annotations

from typing import Any

import pytest
from test_sql_frontend import (
    CATALOG,
    TABLE_ROWS,
    TABLES,
    _as_bag_outcome,
    simple_schema,
    translate,
    views,  # noqa: F401 - the fixture registering the tables as views
)

from sparklite.errors import UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational import interpreter
from sparklite.relational.windows import CAVEAT_WINDOW_TIES

QUERIES = [
    "SELECT a, b, row_number() OVER (PARTITION BY a ORDER BY b) AS rn FROM t",
    "SELECT a, row_number() OVER (PARTITION BY a ORDER BY b) FROM t",
    "SELECT a, rank() OVER (ORDER BY b DESC), dense_rank() OVER (ORDER BY b), sum(b) OVER (PARTITION BY a) "
    "FROM t",
    "SELECT a, sum(sum(b)) OVER (PARTITION BY a) tot, sum(b) FROM t GROUP BY a, s",
    "SELECT a, lag(b, 1, 0) OVER w, lead(b) OVER w FROM t WINDOW w AS (PARTITION BY a ORDER BY b)",
    "SELECT a, lag(b) OVER (PARTITION BY a ORDER BY b, s) FROM t",
    "SELECT a, avg(b) OVER (ORDER BY a ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS m FROM t",
    "SELECT a, sum(b) OVER (ORDER BY a ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS m FROM t",
    "SELECT a, count(*) OVER (PARTITION BY s), "
    "count(b) OVER (ORDER BY a RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM t",
    "SELECT a, cume_dist() OVER (ORDER BY a), ntile(3) OVER (ORDER BY a), percent_rank() OVER (ORDER BY a) "
    "FROM t",
    "SELECT a, min(s) OVER (PARTITION BY b ORDER BY a DESC NULLS FIRST), max(d) OVER (ORDER BY n) FROM t",
    "SELECT a, first(s) OVER (ORDER BY a), last(b) OVER (PARTITION BY a ORDER BY b) FROM t",
    "SELECT DISTINCT a, sum(b) OVER (PARTITION BY a) AS x FROM t ORDER BY x",
    "SELECT a, k, sum(k) OVER (PARTITION BY a) FROM t",
    "SELECT c, row_number() OVER (ORDER BY c) rn FROM u WHERE a IS NOT NULL ORDER BY rn",
    "SELECT k, rank() OVER (ORDER BY k) FROM e",
    # a failing argument fails the window even where no frame reads it (Spark computes the arguments
    # of every row below the window): a row whose value no other row's lag or frame reads
    "SELECT a, lag(a + 1) OVER (PARTITION BY a ORDER BY b) FROM t",
    "SELECT a, first(b / (b + 1)) OVER (PARTITION BY s ORDER BY a ROWS BETWEEN 1 PRECEDING AND 1 PRECEDING) "
    "FROM t",
    "SELECT a, nth_value(b, 2) OVER (ORDER BY a, b), "
    "nth_value(s, 1) IGNORE NULLS OVER (PARTITION BY b ORDER BY a) AS nv FROM t",
    # IGNORE NULLS: the n-th non-NULL value before/after the row, else the default (b has a NULL)
    "SELECT a, lag(b) IGNORE NULLS OVER (ORDER BY a, s) AS l, "
    "lead(b, 2, -1) IGNORE NULLS OVER (ORDER BY a, s) AS m, "
    "lag(b, 0) IGNORE NULLS OVER (ORDER BY a, s) AS z, "
    "lead(b) IGNORE NULLS OVER (PARTITION BY s IS NULL ORDER BY a DESC, s) AS n FROM t",
    "SELECT a, lead(b, 1) IGNORE NULLS OVER (ORDER BY a, s) FROM t",
    "SELECT a, b, row_number() OVER (PARTITION BY a ORDER BY b) AS rn FROM t QUALIFY rn = 1",
    "SELECT a, b FROM t QUALIFY rank() OVER (ORDER BY b) <= 2",
    "SELECT a, b AS bb FROM t QUALIFY bb > 1 AND dense_rank() OVER (ORDER BY a) > 1",
]


def run(q: str) -> interpreter.RelRun:
    params = tuple(R.TableParam(n, CATALOG[n].schema) for n in TABLES)  # type: ignore[union-attr]
    return interpreter.run(R.RelProgram("q", params, translate(q), language="sql"), TABLE_ROWS)


@pytest.mark.spark
@pytest.mark.usefixtures("views")
@pytest.mark.parametrize("q", QUERIES)
def test_window_schema_and_rows_match_spark(spark_session, q: str) -> None:
    from sparklite.relational.values import RelResult, rel_error_of_exception, rel_outcomes_equal
    from sparklite.values import Bag

    df = spark_session.sql(q)
    assert simple_schema(translate(q)) == df.dtypes
    result = run(q)
    assert all(c == CAVEAT_WINDOW_TIES or c.startswith("partition-dependent") for c in result.caveats), (
        result.caveats
    )
    if result.caveats:
        return  # one of Spark's possible answers: not comparable row for row
    mine = _as_bag_outcome(result.outcome)
    try:
        theirs: Any = RelResult(tuple(df.dtypes), Bag.of(tuple(r) for r in df.collect()))
    except Exception as exc:  # noqa: BLE001 - Spark's errors are outcomes
        theirs = rel_error_of_exception(exc)
        assert theirs is not None, exc
    assert rel_outcomes_equal(mine, theirs), (mine, theirs)


def test_the_window_node_sits_between_the_aggregate_and_the_projection() -> None:
    rel = translate("SELECT a, sum(sum(b)) OVER (PARTITION BY a) tot FROM t GROUP BY a, s")
    assert isinstance(rel, R.Project) and isinstance(rel.source, R.Window)
    assert isinstance(rel.source.source, R.Aggregate)
    (call,) = rel.source.calls
    assert call.name == "sum" and call.frame == R.Frame("rows", None, None)


def test_ties_under_row_number_are_a_caveat() -> None:
    # u has two rows with a = 1 ('one', 'uno'): which gets 1 is Spark's choice
    assert CAVEAT_WINDOW_TIES in run("SELECT c, row_number() OVER (ORDER BY a) FROM u").caveats
    # rank gives peers one value: no caveat
    assert CAVEAT_WINDOW_TIES not in run("SELECT c, rank() OVER (ORDER BY a) FROM u").caveats
    # identical tied rows: swapping them changes nothing
    assert CAVEAT_WINDOW_TIES not in run("SELECT a, row_number() OVER (ORDER BY a) FROM t").caveats


@pytest.mark.parametrize(
    "q, construct",
    [
        ("SELECT row_number() OVER (PARTITION BY a) FROM t", "window row_number"),
        (
            "SELECT sum(b) OVER (ORDER BY a RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t",
            "window RANGE offset",
        ),
        (
            "SELECT row_number() OVER (ORDER BY a ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t",
            "window frame",
        ),
    ],
)
def test_refusals_are_located(q: str, construct: str) -> None:
    with pytest.raises(UnsupportedError) as info:
        translate(q)
    assert info.value.construct == construct
    assert info.value.loc is not None
