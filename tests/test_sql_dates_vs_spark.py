"""Dates, ``LIKE`` and the scalar subqueries of ``frontend/sql/dates.py`` and ``subqueries.py``, checked
against Spark 4 on chosen rows: the interpreter's outcome of each query must be Spark's (rows, column
names and types, or the error). The rows are the boundary cases the facts in
``docs/semantics-notes.md`` ("Dates", "LIKE", "Scalar subqueries") are about: a leap day, the ends of
months, ISO week 53, Sunday, NULLs; patterns with ``_``, ``%``, an escape and a newline; correlated
groups that are missing, NULL keys, and subqueries of zero, one and two rows.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from frontend.sql.translator import translate_sql_file
from sparklite.relational.interpreter import run
from sparklite.relational.types import parse_ddl
from sparklite.relational.values import RelError, rel_outcomes_equal
from verifier.core.base import LoadedProgram

D = datetime.date
SCHEMAS = {
    "t": parse_ddl("d DATE, e DATE, s STRING, p STRING, n INT"),
    "u": parse_ddl("k INT, v INT"),
    "w": parse_ddl("k INT, x INT"),
}
T_ROWS = [
    (D(2024, 2, 29), D(2024, 3, 1), "abc", "a%", 1),
    (D(2021, 1, 1), D(2020, 12, 31), "a\nb", "a_b", -1),
    (D(2024, 12, 30), D(1970, 1, 1), "", "%", 12),
    (D(2000, 1, 31), D(2000, 3, 31), "ABC", "\\%", 0),
    (D(1900, 3, 1), None, "%x", "_", -13),
    (D(2023, 1, 1), D(2023, 1, 1), None, None, None),
    (None, D(1999, 12, 31), "2000-01-05", "2000%", 31),
]
U_ROWS = [(1, 10), (1, 20), (2, 5), (None, 7), (3, None)]
W_ROWS = [(1, 12), (1, 30), (2, 1), (4, 9), (None, 100)]

QUERIES = [
    "SELECT d, year(d), month(d), day(d), dayofmonth(d), quarter(d), dayofweek(d), dayofyear(d), "
    "weekofyear(d), extract(year FROM d), EXTRACT(DOW FROM d), extract(quarter from d) FROM t",
    "SELECT date_add(d, n), date_sub(d, n), add_months(d, n), datediff(d, e), d + interval '1' month, "
    "d - interval '30' days, d + INTERVAL 14 DAYS, d - interval '1' year, e + interval '-2' day FROM t",
    "SELECT s, s LIKE 'a%', s LIKE '%b', s LIKE 'a_b', s NOT LIKE '%C', s LIKE '' FROM t",
    "SELECT s, p, s LIKE p FROM t",
    "SELECT d FROM t WHERE d BETWEEN DATE '2000-01-01' AND DATE '2023-12-31' + INTERVAL '1' MONTH",
    "SELECT to_date(s), year(s) FROM t WHERE s LIKE '2%'",
    "SELECT n, count(*) FROM t WHERE d >= DATE '2021-01-01' - interval '3' month GROUP BY n ORDER BY n",
    # correlated scalar subqueries: missing groups and NULL keys read NULL
    "SELECT k, x FROM w WHERE x > (SELECT avg(v) FROM u WHERE u.k = w.k)",
    "SELECT k, x, (SELECT 0.5 * sum(v) FROM u WHERE u.k = w.k) AS half FROM w",
    "SELECT k, x FROM w WHERE x >= (SELECT max(v) FROM u WHERE w.k = u.k AND v < 20)",
    # HAVING with an uncorrelated scalar subquery
    "SELECT k, sum(x) AS s FROM w GROUP BY k HAVING sum(x) > (SELECT avg(v) FROM u)",
    # EXISTS inside a condition: an existence join on the correlation equalities
    "SELECT k, x FROM w WHERE x > 20 OR EXISTS (SELECT * FROM u WHERE u.k = w.k AND v > 6)",
    "SELECT k FROM w WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.k = w.k) OR x = 1",
    # scalar subqueries that may return several rows: none, one, two
    "SELECT k FROM w WHERE x > (SELECT v FROM u WHERE k = 2)",
    "SELECT k FROM w WHERE x > (SELECT v FROM u WHERE k = 9)",
    "SELECT k FROM w WHERE x > (SELECT v FROM u WHERE k = 1)",
]


def _outcome(query: str, tables: dict[str, list[tuple]],
             schemas: dict[str, Any] = SCHEMAS) -> tuple[Any, Any]:
    """The interpreter's run of ``query`` and Spark's outcome (``tests/test_timestamps_vs_spark.py`` too)."""
    from verifier.runtime.replay_df import run_on_spark

    program = translate_sql_file(query, schemas, filename="q.sql")
    expected = run(program, tables)
    loaded = LoadedProgram(program, "sql", path="q.sql", source=query)
    got = run_on_spark(loaded, tables, None, {}, "local[2]", reference=expected.outcome)
    return expected, got


@pytest.mark.spark
@pytest.mark.parametrize("query", QUERIES)
def test_dates_like_and_subqueries_agree_with_spark(spark_session: Any, query: str) -> None:
    tables = {"t": T_ROWS, "u": U_ROWS, "w": W_ROWS}
    expected, got = _outcome(query, tables)
    assert not expected.caveats, expected.caveats
    assert rel_outcomes_equal(expected.outcome, got), f"interpreter {expected.outcome!r}\nSpark {got!r}"


@pytest.mark.spark
def test_invalid_like_pattern_in_a_row_raises(spark_session: Any) -> None:
    """A computed pattern with an escape before another character raises when a row reaches it."""
    tables: dict[str, list[tuple]] = {"t": [(None, None, "ab", "a\\b", 1)], "u": [], "w": []}
    expected, got = _outcome("SELECT s LIKE p FROM t", tables)
    assert isinstance(expected.outcome, RelError)
    assert rel_outcomes_equal(expected.outcome, got), f"interpreter {expected.outcome!r}\nSpark {got!r}"


def test_function_table_is_documented() -> None:
    """``docs/dataframes.md`` lists every function of the registry (the table is driven from it)."""
    import re
    from pathlib import Path

    from sparklite.relational.functions import FUNCTIONS

    doc = (Path(__file__).resolve().parents[1] / "docs" / "dataframes.md").read_text(encoding="utf-8")
    section = doc.split("## Scalar functions", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"`(\w+)`", section))
    missing = sorted(set(FUNCTIONS) - listed)
    assert not missing, f"functions missing from docs/dataframes.md's table: {missing}"


DF_SOURCE = '''
from typing import Annotated
from pyspark.sql import DataFrame
from pyspark.sql import functions as F


def dates(t: Annotated[DataFrame, "d DATE, e DATE, s STRING, p STRING, n INT"]):
    return t.select(F.year("d"), F.month(t.d), F.dayofweek("d"), F.weekofyear("d"), F.quarter("d"),
                    F.date_add("d", 3), F.date_sub(F.col("d"), t.n), F.datediff("d", "e"),
                    F.add_months("d", 1), F.col("s").like("a%"), t.s.like("%b"))
'''


def test_dataframe_date_functions_read() -> None:
    """``F.year``... and ``Column.like`` read as the SQL spellings do, with Spark's column names
    (``Column.like`` takes a str only: with a Column PySpark 4 raises ``NOT_ITERABLE``, seen on Spark)."""
    import tempfile
    from pathlib import Path

    from verifier.core.loading import load

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "dates.py"
        path.write_text(DF_SOURCE, encoding="utf-8")
        program = load(f"{path}::dates").program
    assert [f.name for f in program.body.schema.fields] == [
        "year(d)", "month(d)", "dayofweek(d)", "weekofyear(d)", "quarter(d)", "date_add(d, 3)",
        "date_sub(d, n)", "datediff(d, e)", "add_months(d, 1)", "s LIKE a%", "s LIKE %b"]


@pytest.mark.spark
def test_dataframe_date_functions_agree_with_spark(spark_session: Any, tmp_path: Any) -> None:
    from verifier.core.loading import load
    from verifier.runtime.replay_df import run_on_spark

    path = tmp_path / "dates.py"
    path.write_text(DF_SOURCE, encoding="utf-8")
    loaded = load(f"{path}::dates")
    rows = T_ROWS
    expected = run(loaded.program, {"t": rows})
    got = run_on_spark(loaded, {"t": rows}, None, {}, "local[2]", reference=expected.outcome)
    assert not expected.caveats
    assert rel_outcomes_equal(expected.outcome, got), f"interpreter {expected.outcome!r}\nSpark {got!r}"


def test_date_values_seen_on_spark() -> None:
    """Values PySpark 4 showed (docs/semantics-notes.md, "Dates, LIKE and scalar subqueries")."""
    from sparklite.relational.dates import like_regex, plus_days, plus_months
    from sparklite.relational.functions import FUNCTIONS, DateOutOfRange, SqlError

    def f(name: str, *args: Any) -> Any:
        return FUNCTIONS[name].evaluate(list(args), [], None)  # type: ignore[arg-type]

    assert f("dayofweek", D(2024, 2, 25)) == 1 and f("dayofweek", D(2024, 3, 2)) == 7
    assert f("dayofweek", D(1998, 12, 1)) == 3 and f("dayofyear", D(1998, 12, 1)) == 335
    assert f("weekofyear", D(2021, 1, 1)) == 53 and f("weekofyear", D(1998, 12, 1)) == 49
    assert f("quarter", D(2024, 4, 1)) == 2 and f("dayofyear", D(2024, 12, 31)) == 366
    assert plus_months(D(2000, 1, 31), 1) == D(2000, 2, 29)
    assert plus_months(D(2000, 3, 31), -1) == D(2000, 2, 29)
    assert plus_months(D(2000, 2, 29), 12) == D(2001, 2, 28)
    assert plus_months(D(1998, 12, 1), 3) == D(1999, 3, 1)
    assert plus_days(D(1998, 12, 1), -90) == D(1998, 9, 2)
    assert f("datediff", D(2000, 1, 1), D(1999, 1, 1)) == 365
    for bad in (lambda: plus_days(D(9999, 12, 31), 1), lambda: plus_months(D(9999, 12, 1), 1)):
        with pytest.raises(DateOutOfRange):
            bad()
    assert like_regex("a%b").fullmatch("a\nb") and like_regex("a_b").fullmatch("a\nb")
    assert like_regex("\\%").fullmatch("%") and not like_regex("\\%").fullmatch("x")
    assert like_regex("\\_").fullmatch("_") and not like_regex("a%").fullmatch("ABC")
    for pattern in ("a\\", "a\\b"):
        with pytest.raises(SqlError):
            like_regex(pattern)
