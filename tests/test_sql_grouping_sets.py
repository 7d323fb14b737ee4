"""SQL ``GROUP BY ROLLUP/CUBE/GROUPING SETS``, ``WITH ROLLUP``, ``grouping()``/``grouping_id()``,
``GROUP BY ALL`` and the statistics aggregates (``stddev``... ``var_pop``): the translation
(``frontend/sql/grouping.py``, ``sparklite/relational/grouping_sets.py``, ``moments.py``) checked
against Spark 4's schema and rows (marked ``spark``), Spark's analysis errors, and the prover."""

from __future__ import annotations

import math
from typing import Any

import pytest
from test_sql_frontend import _as_bag_outcome

from frontend.sql.translator import translate_query
from sparklite.relational import ast as R
from sparklite.relational import build
from sparklite.relational.grouping_sets import cube_sets, rollup_sets
from sparklite.relational.interpreter import run
from sparklite.relational.moments import moment
from sparklite.relational.types import parse_ddl

DDL = "a INT, b INT, x DOUBLE, s STRING"
ROWS = [(1, None, 10.0, "p"), (1, 2, 20.0, "q"), (None, 2, 5.0, None), (3, 3, None, "p"), (1, 2, 1.5, "q")]
U_DDL = "c INT, d INT"
CATALOG = {"t": build.table("t", parse_ddl(DDL)), "e": build.table("e", parse_ddl(DDL)),
           "u": build.table("u", parse_ddl(U_DDL))}
TABLES = {"t": ROWS, "e": [], "u": [(1, 1), (None, 2), (1, 3), (3, None)]}
DDLS = {"t": DDL, "e": DDL, "u": U_DDL}

QUERIES = [
    "SELECT a, b, sum(x), grouping(a), grouping(b), grouping_id(), grouping_id(a, b) FROM t "
    "GROUP BY ROLLUP(a, b)",
    "SELECT a, b, count(*) FROM e GROUP BY ROLLUP(a, b)",
    "SELECT a, b, count(*) FROM e GROUP BY CUBE(a, b)",
    "SELECT sum(x) FROM e GROUP BY GROUPING SETS (())",
    "SELECT sum(x) FROM t GROUP BY GROUPING SETS (())",
    "SELECT sum(x) FROM t GROUP BY GROUPING SETS ((), ())",
    "SELECT sum(x) FROM e GROUP BY GROUPING SETS ((), ())",
    "SELECT sum(x) FROM e GROUP BY ALL",
    "SELECT a, b, sum(x), grouping_id() FROM t GROUP BY CUBE(a, b)",
    "SELECT a, b, s, count(x), grouping_id() FROM t GROUP BY CUBE(a, b, s)",
    "SELECT a, b, sum(x), grouping_id() FROM t GROUP BY a, ROLLUP(b)",
    "SELECT a, b, sum(x) FROM t GROUP BY a, b WITH ROLLUP",
    "SELECT a, b, sum(x) FROM t GROUP BY a, b WITH CUBE",
    "SELECT a, b, sum(x) FROM t GROUP BY GROUPING SETS ((a, b), (a), (a), ())",
    "SELECT a, s, max(b) FROM t GROUP BY GROUPING SETS (a, s)",
    # Hive's spelling (a real corpus unit): the keys are the GROUP BY list; one in no set is always NULL
    "SELECT a, b, sum(x), grouping_id() FROM t GROUP BY a, b GROUPING SETS ((a, b), (a)) "
    "ORDER BY a DESC NULLS LAST, b ASC NULLS LAST",
    "SELECT a, b, sum(x) FROM t GROUP BY a, b GROUPING SETS ((b))",
    "SELECT a + 1, sum(a) FROM t GROUP BY ROLLUP(a)",
    "SELECT a, b, sum(x) AS t1 FROM t GROUP BY ROLLUP(a, b) HAVING sum(x) > 6 ORDER BY a, b",
    "SELECT a, grouping(a) + grouping(b) AS h, avg(x) FROM t GROUP BY ROLLUP(a, b) ORDER BY h, a",
    "SELECT CASE WHEN grouping(s) = 0 THEN s ELSE 'all' END AS k, count(*) FROM t GROUP BY ROLLUP(s)",
    "SELECT a, sum(x) FROM t GROUP BY ALL",
    "SELECT a, b + 1, sum(x) FROM t GROUP BY ALL",
    "SELECT sum(x), count(*) FROM t GROUP BY ALL",
    "SELECT a, sum(x) AS s FROM t GROUP BY 1",
    "SELECT stddev_samp(x), stddev(x), std(x), stddev_pop(x), variance(x), var_samp(x), var_pop(x) "
    "FROM t WHERE a = 3",
    "SELECT stddev_samp(x), stddev_pop(x), var_samp(x), var_pop(x) FROM t WHERE b = 2 AND a IS NULL",
    "SELECT a, stddev(x), var_pop(b) FROM t GROUP BY a",
    "SELECT stddev_samp(x) FROM e",
    "SELECT stddev(CAST(a AS DECIMAL(10, 2))), variance(s) FROM t WHERE a = 3",
    "SELECT var_pop(s) FROM t WHERE s IS NULL",
    # the TPC-DS q41 and q45 subquery shapes (subqueries.py)
    "SELECT * FROM t WHERE b = 3 OR a IN (SELECT c FROM u)",
    "SELECT * FROM t WHERE (b = 3 OR a IN (SELECT d FROM u)) AND x > 1",
    "SELECT * FROM t WHERE b IN (SELECT d FROM u WHERE c = 1) OR (x > 6 AND a IN (SELECT c FROM u))",
    "SELECT a, (SELECT count(*) FROM u WHERE (c = t.a AND d > 1) OR (c = t.a AND d < 2)) AS n FROM t",
    "SELECT * FROM t WHERE (SELECT count(d) FROM u WHERE u.c = t.a) = 0",
    "SELECT DISTINCT a FROM t WHERE (SELECT count(*) AS k FROM u WHERE (c = t.a AND d = 1) OR (c = t.a)) > 0",
]

ERRORS = [
    ("SELECT * FROM t WHERE NOT (b = 3 OR a IN (SELECT c FROM u))", "not a top-level AND-ed"),
    ("SELECT grouping(a) FROM t GROUP BY a", "UNSUPPORTED_GROUPING_EXPRESSION"),
    ("SELECT a, grouping(b) FROM t GROUP BY ROLLUP(a)", "GROUPING_COLUMN_MISMATCH"),
    ("SELECT grouping_id(b) FROM t GROUP BY ROLLUP(a, b)", "GROUPING_ID_COLUMN_MISMATCH"),
]


def translate(q: str) -> R.Rel:
    return translate_query(q, CATALOG)


def _run(rel: R.Rel) -> Any:
    params = tuple(R.TableParam(n, CATALOG[n].schema) for n in CATALOG)  # type: ignore[union-attr]
    return run(R.RelProgram("q", params, rel, language="sql"), TABLES)


def test_sets_in_sparks_order() -> None:
    assert rollup_sets([[0], [1]]) == [[0, 1], [0], []]
    assert rollup_sets([[0, 1], [2]]) == [[0, 1, 2], [0, 1], []]
    # Spark's cubeExprs: with the first element, then without it (not by size)
    assert cube_sets([[0], [1], [2]]) == [[0, 1, 2], [0, 1], [0, 2], [0], [1, 2], [1], [2], []]


def test_rollup_rows_and_grouping_ids() -> None:
    out = _run(translate(QUERIES[0])).outcome
    rows = sorted(out.rows.items, key=repr)
    # (1, NULL) of the data (grouping_id 0) and (1, rolled-up) (grouping_id 1) stay apart
    assert (1, None, 10.0, 0, 0, 0, 0) in rows
    assert (1, None, 31.5, 0, 1, 1, 1) in rows
    assert (None, None, 36.5, 1, 1, 3, 3) in rows
    assert [c for c, _ in out.columns] == ["a", "b", "sum(x)", "grouping(a)", "grouping(b)", "grouping_id()",
                                           "grouping_id(a, b)"]
    assert [t for _, t in out.columns][3:] == ["tinyint", "tinyint", "bigint", "bigint"]


def test_empty_input_has_no_grand_total() -> None:
    for q in QUERIES[1:3]:
        assert list(_run(translate(q)).outcome.rows.items) == []
    # but GROUPING SETS (()) alone is a global aggregation in Spark 4: one row
    assert list(_run(translate(QUERIES[3])).outcome.rows.items) == [(None,)]
    # two empty sets are two aggregations by the grouping id: nothing on an empty table, two rows else
    assert list(_run(translate(QUERIES[6])).outcome.rows.items) == []
    assert list(_run(translate(QUERIES[5])).outcome.rows.items) == [(36.5,), (36.5,)]


@pytest.mark.parametrize("q,code", ERRORS)
def test_analysis_errors(q: str, code: str) -> None:
    from sparklite.errors import InputError

    with pytest.raises(InputError, match=code):
        translate(q)


def test_moments_one_value_and_none() -> None:
    assert moment("stddev_samp", []) == (None, False)
    assert moment("var_samp", [[4.0]]) == (None, False)  # Spark 4: NULL (legacy: NaN)
    assert moment("var_pop", [[4.0]]) == (0.0, False)
    assert moment("stddev_pop", [[], [4.0]]) == (0.0, False)
    value, flagged = moment("var_pop", [[math.inf]])
    assert math.isnan(value) and not flagged  # type: ignore[arg-type]
    value, flagged = moment("var_samp", [[10.0], [20.0, 5.0]])
    assert value == 58.333333333333336 and flagged  # Spark's value for these partitions (semantics-notes)


def test_stddev_distinct_is_refused() -> None:
    from sparklite.errors import UnsupportedError

    with pytest.raises(UnsupportedError, match=r"stddev\(DISTINCT"):
        translate("SELECT stddev(DISTINCT x) FROM t")


def test_rollup_proved_equal_to_itself_renamed(tmp_path: Any) -> None:
    """The prover's congruence covers the union-of-aggregations lowering; a different set is not it."""
    import verifier

    q1 = "SELECT a, b, sum(x) AS v, grouping_id() AS g, stddev(x) AS d FROM t GROUP BY ROLLUP(a,b)"
    q2 = ("SELECT u.a, u.b, sum(u.x) AS v, grouping_id() AS g, std(u.x) AS d FROM t u "
          "GROUP BY a, b WITH ROLLUP")
    q3 = "SELECT a, b, sum(x) AS v, grouping_id() AS g, stddev(x) AS d FROM t GROUP BY CUBE(a, b)"
    schema = tmp_path / "schema.sql"
    schema.write_text(f"CREATE TABLE t ({DDL});\n")
    paths = []
    for i, q in enumerate((q1, q2, q3)):
        p = tmp_path / f"q{i}.sql"
        p.write_text(q + "\n")
        paths.append(str(p))
    assert verifier.check(paths[0], paths[1], schema=str(schema), replay=False).verdict == "equivalent"
    assert verifier.check(paths[0], paths[2], schema=str(schema), replay=False).verdict != "equivalent"


@pytest.fixture(scope="module")
def views(spark_session: Any) -> Any:
    for name, rows in TABLES.items():
        spark_session.createDataFrame(rows, DDLS[name]).createOrReplaceTempView(name)
    return spark_session


@pytest.mark.spark
@pytest.mark.parametrize("q", QUERIES)
def test_schema_and_rows_match_spark(views: Any, q: str) -> None:
    from sparklite.relational.values import RelResult, rel_error_of_exception, rel_outcomes_equal
    from sparklite.values import Bag

    rel = translate(q)
    df = views.sql(q)
    assert [(f.name, f.type.simple) for f in rel.schema.fields] == df.dtypes
    result = _run(rel)
    theirs: Any
    try:
        theirs = RelResult(tuple(df.dtypes), Bag.of(tuple(r) for r in df.collect()))
    except Exception as exc:  # noqa: BLE001 - Spark's errors are outcomes
        theirs = rel_error_of_exception(exc)
        assert theirs is not None, exc
        assert rel_outcomes_equal(result.outcome, theirs), (result.outcome, theirs)
        return
    mine = _as_bag_outcome(result.outcome)
    if result.caveats:  # stddev/variance of two values or more: Spark's order decides the last bits
        assert all("stddev/variance" in c for c in result.caveats), result.caveats
        assert len(mine.rows.items) == len(theirs.rows.items)
        return
    assert rel_outcomes_equal(mine, theirs), (mine, theirs)


@pytest.mark.spark
@pytest.mark.parametrize("q,code", ERRORS[1:])
def test_spark_raises_the_same_errors(views: Any, q: str, code: str) -> None:
    with pytest.raises(Exception, match=code):
        views.sql(q).collect()


DF_HEAD = ("from typing import Annotated\nfrom pyspark.sql import DataFrame, functions as F\n"
           f"S = {DDL!r}\n")
DF_CALLS = [
    't.agg({"x": "stddev"})',
    't.groupBy("a").agg({"x": "std"})',
    't.groupBy("a").agg({"x": "variance"})',
    't.groupBy("a").agg(F.stddev("x"), F.std("x"), F.stddev_pop("x"), F.var_samp("x"), F.var_pop("x"))',
]


def _df_program(body: str) -> Any:
    from frontend.dataframe.translator import translate_dataframe_source

    return translate_dataframe_source(DF_HEAD + f"def f(t: Annotated[DataFrame, S]):\n    return {body}\n",
                                      "f", "<t>")


@pytest.mark.spark
@pytest.mark.parametrize("body", DF_CALLS)
def test_dataframe_statistics_names_types_and_rows(views: Any, body: str) -> None:
    """``F.stddev``... and ``agg({col: "stddev"})``: Spark's names and types; rows when exact."""
    from pyspark.sql import functions as F

    got = eval(body, {"t": views.table("t"), "F": F})  # noqa: S307 - our own test strings
    result = run(_df_program(body), {"t": ROWS})
    assert [tuple(c) for c in result.outcome.columns] == [tuple(d) for d in got.dtypes]
    if not result.caveats:
        assert sorted(map(tuple, result.outcome.rows.items), key=repr) == sorted(
            (tuple(r) for r in got.collect()), key=repr)
