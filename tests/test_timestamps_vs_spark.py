"""Timestamps (``sparklite/relational/timestamps.py``, ``frontend/sql/timestamps.py``), checked against
Spark 4 on chosen rows: the interpreter's outcome of each query (rows, column names and types, or the
error) must be Spark's, with the session time zone UTC. The rows are the cases the facts in
``docs/semantics-notes.md`` ("Timestamps") are about: a fraction of a second, before 1970, the last
microsecond of a leap day, the end of a month, strings in every form the cast models, NULLs.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from frontend.sql.translator import translate_sql_file
from sparklite.relational.interpreter import run
from sparklite.relational.types import BIGINT, TIMESTAMP, parse_ddl
from sparklite.relational.values import RelError, rel_outcomes_equal, value_json

TS = datetime.datetime
D = datetime.date
SCHEMAS = {"t": parse_ddl("ts TIMESTAMP, d DATE, s STRING, n BIGINT, z TIMESTAMP_NTZ")}
T_ROWS = [
    (TS(2024, 2, 29, 23, 59, 59, 999999), D(2024, 3, 1), "2024-01-02 03:04:05", 0, TS(2024, 1, 1)),
    (TS(1969, 12, 31, 23, 59, 59, 500000), D(1970, 1, 1), "2024-1-2 3:4:5.12", -1, None),
    (TS(2024, 3, 31, 1, 2, 3), D(2024, 2, 29), " 2024-01-02T03:04 ", 1704164645, TS(2000, 6, 15, 12, 0)),
    (TS(1900, 1, 31, 6, 0), None, "2024", 86399, TS(1900, 1, 31, 6, 0)),
    (TS(2023, 12, 31, 12, 30, 5, 120000), D(2023, 12, 31), "2024-01", None, None),
    (None, D(2000, 1, 31), None, 951782400, TS(2024, 12, 31, 23, 59, 59)),
]
BAD_STRINGS = ["abc", "2024-02-30 00:00:00", "2024-01-02 24:00:00"]

QUERIES = [
    "SELECT ts, hour(ts), minute(ts), second(ts), year(ts), month(ts), dayofweek(ts), to_date(ts), "
    "extract(hour FROM ts), EXTRACT(MINUTE FROM ts) FROM t",
    "SELECT cast(ts AS string), cast(ts AS date), cast(ts AS bigint), cast(ts AS double), "
    "cast(d AS timestamp), cast(z AS timestamp), cast(ts AS timestamp_ntz), cast(z AS string) FROM t",
    "SELECT s, cast(s AS timestamp), to_timestamp(s), cast(s AS timestamp_ntz) FROM t",
    "SELECT date_format(ts, 'yyyy-MM-dd HH:mm:ss'), date_format(ts, 'd M yyyy H m s'), "
    "date_format(ts, 'yyyy-MM-dd''T''HH:mm:ss.SSS'), date_format(d, 'yyyy/MM/dd'), "
    "date_format(s, 'HH:mm') FROM t",
    "SELECT unix_timestamp(ts), unix_timestamp(d), from_unixtime(n), from_unixtime(n, 'yyyy-MM-dd') FROM t",
    "SELECT date_trunc('HOUR', ts), date_trunc('month', ts), date_trunc('week', ts), "
    "date_trunc('quarter', ts), "
    "date_trunc('year', ts), date_trunc('second', ts), date_trunc('bogus', ts) FROM t",
    "SELECT months_between(ts, TIMESTAMP '2024-01-01 00:00:00'), months_between(d, ts), "
    "months_between(ts, d, false), datediff(ts, d) FROM t",
    "SELECT ts FROM t WHERE ts > TIMESTAMP '2000-01-01 00:00:00' AND ts < '2024-03-01' OR ts = d",
    "SELECT TIMESTAMP '2024-01-02 03:04:05.5', TIMESTAMP_NTZ '2024-01-02 03:04:05', "
    "to_timestamp('02-01-2024 13:05', 'dd-MM-yyyy HH:mm'), unix_timestamp('2024/01/02', 'yyyy/MM/dd') FROM t",
    "SELECT hour(z), to_date(z), z < TIMESTAMP '2001-01-01 00:00:00', count(*) FROM t GROUP BY z ORDER BY z",
]


def _outcome(query: str, tables: dict[str, list[tuple]]) -> tuple[Any, Any]:
    from test_sql_dates_vs_spark import _outcome as sql_outcome

    return sql_outcome(query, tables, SCHEMAS)


@pytest.mark.spark
@pytest.mark.parametrize("query", QUERIES)
def test_timestamps_agree_with_spark(spark_session: Any, query: str) -> None:
    """Every row of ``T_ROWS``, no caveat, Spark's outcome."""
    expected, got = _outcome(query, {"t": T_ROWS})
    assert not expected.caveats and rel_outcomes_equal(expected.outcome, got), (expected, got)


@pytest.mark.spark
@pytest.mark.parametrize("bad", BAD_STRINGS)
@pytest.mark.parametrize("query", ["SELECT cast(s AS timestamp) FROM t", "SELECT hour(s) FROM t",
                                   "SELECT to_timestamp(s, 'yyyy-MM-dd') FROM t",
                                   "SELECT unix_timestamp(s) FROM t"])
def test_unparsable_strings_raise_as_on_spark(spark_session: Any, query: str, bad: str) -> None:
    """``CAST_INVALID_INPUT`` for the cast, ``CANNOT_PARSE_TIMESTAMP`` for a pattern."""
    expected, got = _outcome(query, {"t": [(None, None, bad, None, None)]})
    assert isinstance(expected.outcome, RelError) or expected.caveats
    if not expected.caveats:
        assert rel_outcomes_equal(expected.outcome, got), f"interpreter {expected.outcome!r}\nSpark {got!r}"


DF_SOURCE = '''
from typing import Annotated
from pyspark.sql import DataFrame
from pyspark.sql import functions as F


def stamps(t: Annotated[DataFrame, "ts TIMESTAMP, d DATE, s STRING, n BIGINT, z TIMESTAMP_NTZ"]):
    return t.select(F.hour("ts"), F.minute(t.ts), F.second("ts"), F.to_timestamp("s"),
                    F.to_timestamp(F.lit("2024/01/02"), "yyyy/MM/dd"), F.unix_timestamp("ts"),
                    F.from_unixtime("n"), F.date_format("ts", "yyyy/MM/dd"), F.date_trunc("hour", "ts"),
                    F.months_between("ts", "d"), F.col("s").cast("timestamp"), F.to_date("ts"))
'''

DF_NAMES = ["hour(ts)", "minute(ts)", "second(ts)", "to_timestamp(s)", "to_timestamp(2024/01/02, yyyy/MM/dd)",
            "unix_timestamp(ts, yyyy-MM-dd HH:mm:ss)", "from_unixtime(n, yyyy-MM-dd HH:mm:ss)",
            "date_format(ts, yyyy/MM/dd)", "date_trunc(hour, ts)", "months_between(ts, d, true)", "s",
            "to_date(ts)"]


def test_dataframe_timestamp_functions_read(tmp_path: Any) -> None:
    from verifier.core.loading import load

    path = tmp_path / "stamps.py"
    path.write_text(DF_SOURCE, encoding="utf-8")
    program = load(f"{path}::stamps").program
    assert [f.name for f in program.body.schema.fields] == DF_NAMES


@pytest.mark.spark
def test_dataframe_timestamp_functions_agree_with_spark(spark_session: Any, tmp_path: Any) -> None:
    from verifier.core.loading import load
    from verifier.runtime.replay_df import run_on_spark

    path = tmp_path / "stamps.py"
    path.write_text(DF_SOURCE, encoding="utf-8")
    loaded = load(f"{path}::stamps")
    expected = run(loaded.program, {"t": T_ROWS})
    got = run_on_spark(loaded, {"t": T_ROWS}, None, {}, "local[2]", reference=expected.outcome)
    assert not expected.caveats
    assert rel_outcomes_equal(expected.outcome, got), f"interpreter {expected.outcome!r}\nSpark {got!r}"


def test_timestamp_values_seen_on_spark() -> None:
    """Values PySpark 4 showed (docs/semantics-notes.md, "Timestamps")."""
    from sparklite.relational import timestamps as X
    from sparklite.relational.sqlerror import SqlError

    assert X.parse_timestamp("2024-01-02T03:04:05.123456789") == TS(2024, 1, 2, 3, 4, 5, 123456)
    assert X.parse_timestamp("2024") == TS(2024, 1, 1)
    assert X.parse_timestamp("2024-01-02 03") == TS(2024, 1, 2, 3)
    assert X.parse_timestamp(" 2024-01-02 03:04 ") == TS(2024, 1, 2, 3, 4)
    for bad in ("abc", "2024-02-30 00:00:00", "2024-01-02 24:00:00"):
        with pytest.raises(SqlError) as info:
            X.parse_timestamp(bad)
        assert not isinstance(info.value, X.OutsideModel)
    for unmodelled in ("2024-01-02T", "03:04:05", "T03:04:05", "2024-01-02 03:04:05Z",
                       "2024-01-02 03:04:05 UTC"):
        with pytest.raises(X.OutsideModel):
            X.parse_timestamp(unmodelled)
    assert X.format_default(TS(2024, 1, 2, 3, 4, 5, 120000)) == "2024-01-02 03:04:05.12"
    assert X.micros(TS(1969, 12, 31, 23, 59, 59, 500000)) // 1_000_000 == -1  # CAST(ts AS BIGINT) floors
    before_1970 = TS(1969, 12, 31, 23, 59, 59, 500000)
    assert X.FUNCTIONS_BY_NAME["unix_timestamp"][2]([before_1970], [TIMESTAMP], BIGINT) == 0  # truncates
    assert X.months_between(TS(2024, 3, 2, 23, 4, 5), TS(2024, 1, 1, 1), True) == 2.06191943
    assert X.months_between(TS(2024, 3, 31), TS(2024, 2, 29), True) == 1.0
    assert X.months_between(TS(2024, 3, 15), TS(2024, 2, 1), False) == 1.4516129032258065
    assert X.truncate("week", TS(2024, 1, 3, 3, 4, 5)) == TS(2024, 1, 1)
    assert X.truncate("bogus", TS(2024, 1, 3)) is None
    assert X.parse_pattern("02-01-2024 13:05", "dd-MM-yyyy HH:mm") == TS(2024, 1, 2, 13, 5)
    with pytest.raises(SqlError):
        X.parse_pattern("2024/1/2 x", "yyyy/MM/dd")
    with pytest.raises(X.OutsideModel):
        X.parse_pattern("2024/1/2", "yyyy/MM/dd")  # Spark raises; Java's resolver is not modelled
    assert value_json(TS(2024, 1, 2, 3, 4, 5)) == {"timestamp": "2024-01-02 03:04:05", "time_zone": "UTC"}


def test_unmodelled_patterns_and_literals_are_located_refusals() -> None:
    from sparklite.errors import UnsupportedError

    for query in ("SELECT date_format(ts, 'EEE') FROM t",
                  "SELECT to_timestamp(s, 'yyyyMMdd HH:mm:ss.SSS') FROM t",
                  "SELECT to_timestamp(s, s) FROM t", "SELECT TIMESTAMP '2024-01-02 03:04:05+01:00' FROM t",
                  "SELECT unix_timestamp() FROM t"):
        with pytest.raises(UnsupportedError) as info:
            translate_sql_file(query, SCHEMAS, filename="q.sql")
        assert info.value.loc is not None, query


PROVER_SOURCE = '''
from typing import Annotated
from pyspark.sql import DataFrame, functions as F

S = "id INT, t TIMESTAMP, s STRING"
START = F.lit("2024-01-01").cast("timestamp")


def both(df: Annotated[DataFrame, S]):
    return df.filter((F.col("t") > START) & (F.col("id") > 1)).select("id", F.hour("t").alias("h"))


def chained(df: Annotated[DataFrame, S]):
    return df.filter(F.col("id") > 1).filter(F.col("t") > START).select("id", F.hour("t").alias("h"))


def inclusive(df: Annotated[DataFrame, S]):
    return df.filter(F.col("id") > 1).filter(F.col("t") >= START).select("id", F.hour("t").alias("h"))
'''


def test_timestamp_programs_are_proved_and_refuted(tmp_path: Any) -> None:
    """Timestamps are microseconds to the prover; the search draws the program's own instants (the
    string it casts), so ``>`` against ``>=`` is refuted at exactly 2024-01-01 00:00, shown in UTC."""
    from verifier.core.check import check

    path = tmp_path / "stamps.py"
    path.write_text(PROVER_SOURCE, encoding="utf-8")
    proved = check(f"{path}::both", f"{path}::chained", timeout=60)
    assert proved.verdict == "equivalent", proved.reason
    refuted = check(f"{path}::both", f"{path}::inclusive", timeout=60)
    assert refuted.verdict == "not_equivalent", refuted.reason
    assert refuted.counterexample is not None
    assert "'time_zone': 'UTC'" in str(refuted.counterexample.inputs)
