"""End to end: ``check`` and the CLI on DataFrame and SQL pairs (verifier.core.kinds.relational).

What must hold: a difference the interpreter shows without caveat is ``not_equivalent`` with rows as
JSON objects per table; a difference that rests on an error is reported only once Spark reproduces it
(``unknown`` without replay, ``not_equivalent`` after it); a proof is ``equivalent``, and a pair with
neither a proof nor a difference is ``unknown``; input problems are located errors (exit 3).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from verifier import check, replay_counterexample

REPO = Path(__file__).resolve().parent.parent

HEAD = '''from typing import Annotated
from pyspark.sql import DataFrame, functions as F

T = Annotated[DataFrame, "a INT, b INT"]

'''


def _df(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(HEAD + body)
    return str(path)


def _ret(expr: str, fn: str = "f", param: str = "t") -> str:
    return f"def {fn}({param}: T) -> DataFrame:\n    return {expr}\n"


def _sql(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / f"{name}.sql"
    path.write_text(text)
    return str(path)


SCHEMA = """CREATE TABLE emp (id INT NOT NULL, dept INT, sal BIGINT, PRIMARY KEY (id));
CREATE TABLE dept (id INT NOT NULL, budget BIGINT);
"""


@pytest.fixture
def schema_file(tmp_path: Path) -> str:
    path = tmp_path / "tables.sql"
    path.write_text(SCHEMA)
    return str(path)


def test_definite_difference_is_not_equivalent_with_rows_as_objects(tmp_path: Path) -> None:
    left = _df(tmp_path, "l", _ret("t.filter(F.col('a') > 1).select('a')"))
    right = _df(tmp_path, "r", _ret("t.filter(F.col('a') >= 1).select('a')"))
    result = check(left, right, timeout=20)
    assert result.verdict == "not_equivalent", result.reason
    cex = result.counterexample
    assert cex is not None and not cex.replayed_on_spark
    rows = cex.inputs["t"]
    assert rows and all(set(r) == {"a", "b"} for r in rows)
    assert any(r["a"] == 1 for r in rows)  # the boundary the two filters disagree on
    assert cex.left["columns"] == [["a", "int"]] and cex.right["columns"] == [["a", "int"]]
    assert cex.left["rows"] != cex.right["rows"]


def test_proved_pair_is_equivalent(tmp_path: Path) -> None:
    left = _df(tmp_path, "l", _ret("t.filter(F.col('a') > 1).select('a', 'b')"))
    right = _df(tmp_path, "r", _ret("t.where('a > 1')"))
    result = check(left, right)
    assert result.verdict == "equivalent" and result.method == "NoAgg", result.reason
    assert result.counterexample is None


def test_no_difference_and_no_proof_is_unknown(tmp_path: Path) -> None:
    # abs(abs(a)) is abs(a), but the prover treats abs as an uninterpreted function
    left = _df(tmp_path, "l", _ret("t.select(F.abs(F.abs('a')).alias('a'))"))
    right = _df(tmp_path, "r", _ret("t.select(F.abs('a').alias('a'))"))
    result = check(left, right)
    assert result.verdict == "unknown"
    assert "no proof" in result.reason and "candidate input" in result.reason


def test_error_difference_waits_for_spark_without_replay(tmp_path: Path) -> None:
    left = _df(tmp_path, "l", _ret("t.select((F.col('a') + 1 - 1).alias('a'))"))
    right = _df(tmp_path, "r", _ret("t.select(F.col('a').alias('a'))"))
    result = check(left, right)
    assert result.verdict == "unknown"
    assert "only Spark can confirm" in result.reason and "2147483647" in result.reason


@pytest.mark.spark
def test_error_difference_is_reported_once_spark_reproduces_it(tmp_path: Path, spark_session) -> None:
    left = _df(tmp_path, "l", _ret("t.select((F.col('a') + 1 - 1).alias('a'))"))
    right = _df(tmp_path, "r", _ret("t.select(F.col('a').alias('a'))"))
    pending = check(left, right)
    result = replay_counterexample(pending, left, right, timeout=60)
    assert result.verdict == "not_equivalent", result.reason
    assert result.counterexample.replayed_on_spark
    assert result.counterexample.left == {"error": "ArithmeticException [ARITHMETIC_OVERFLOW]"}
    direct = check(left, right, timeout=60, replay=True)
    assert direct.verdict == "not_equivalent" and direct.counterexample.replayed_on_spark


@pytest.mark.spark
def test_sql_not_in_differs_from_not_exists_on_spark(tmp_path: Path, schema_file: str, spark_session) -> None:
    q1 = _sql(tmp_path, "q1", "-- not in\nSELECT id FROM emp WHERE dept NOT IN (SELECT id FROM dept);\n")
    q2 = _sql(tmp_path, "q2",
              "SELECT id FROM emp e WHERE NOT EXISTS (SELECT 1 FROM dept d WHERE d.id = e.dept)")
    result = check(q1, q2, timeout=60, replay=True, schema=[schema_file])
    assert result.verdict == "not_equivalent", result.reason
    assert result.counterexample.replayed_on_spark
    assert set(result.counterexample.inputs) == {"emp", "dept"}


def test_sql_union_vs_union_all(tmp_path: Path, schema_file: str) -> None:
    q1 = _sql(tmp_path, "q1", "SELECT dept FROM emp UNION SELECT id FROM dept")
    q2 = _sql(tmp_path, "q2", "SELECT dept FROM emp UNION ALL SELECT id FROM dept")
    result = check(q1, q2, timeout=20, schema=schema_file)
    assert result.verdict == "not_equivalent"
    left_rows, right_rows = result.counterexample.left["rows"], result.counterexample.right["rows"]
    assert len(right_rows) > len(left_rows)


def test_schema_as_name_ddl_and_mapping(tmp_path: Path) -> None:
    q1 = _sql(tmp_path, "q1", "SELECT a % b AS r FROM t")
    q2 = _sql(tmp_path, "q2", "SELECT pmod(a, b) AS r FROM t")
    for schema in (["t=a INT NOT NULL, b INT NOT NULL"], {"t": "a INT NOT NULL, b INT NOT NULL"}):
        result = check(q1, q2, timeout=20, schema=schema)
        assert result.verdict in ("not_equivalent", "unknown"), result.reason
        if result.verdict == "not_equivalent":
            row = result.counterexample.inputs["t"][0]
            assert row["a"] < 0 or row["b"] < 0


def test_rename_is_a_difference_unless_ignore_names(tmp_path: Path) -> None:
    left = _df(tmp_path, "l", _ret("t.select(F.col('a').alias('x'))"))
    right = _df(tmp_path, "r", _ret("t.select(F.col('a').alias('y'))"))
    result = check(left, right)
    # a difference in names alone waits for Spark (sparkeq reproduces Spark's generated names by rule)
    assert result.verdict == "unknown" and "column names alone" in result.reason
    assert '"t": []' in result.reason  # the empty table already shows the names
    assert check(left, right, ignore_names=True).verdict == "equivalent"
    pending = check(left, right)
    assert "pending" in pending.stats


@pytest.mark.spark
def test_rename_is_reported_once_spark_shows_it(tmp_path: Path, spark_session) -> None:
    left = _df(tmp_path, "l", _ret("t.select(F.col('a').alias('x'))"))
    right = _df(tmp_path, "r", _ret("t.select(F.col('a').alias('y'))"))
    result = check(left, right, timeout=30, replay=True)
    assert result.verdict == "not_equivalent" and result.counterexample.replayed_on_spark
    assert result.counterexample.left["columns"] == [["x", "int"]]


def test_tables_match_by_position_with_different_parameter_names(tmp_path: Path) -> None:
    left = _df(tmp_path, "l", _ret("t.select('a')"))
    right = _df(tmp_path, "r", _ret("other.select('b').withColumnRenamed('b', 'a')", "g", "other"))
    result = check(left, right)
    assert result.verdict == "not_equivalent"
    assert set(result.counterexample.inputs) == {"t"}


def test_input_errors_are_located(tmp_path: Path, schema_file: str) -> None:
    q = _sql(tmp_path, "q", "SELECT id FROM nowhere")
    result = check(q, q, schema=schema_file)
    assert result.verdict == "error"
    assert f"{q}:1:" in result.reason and "nowhere" in result.reason
    other = tmp_path / "other.py"
    other.write_text(HEAD.replace("a INT, b INT", "a BIGINT, b INT")
                     + _ret("t.select('a')"))
    left = _df(tmp_path, "l", _ret("t.select('a')"))
    result = check(left, str(other))
    assert result.verdict == "error" and "same schema" in result.reason


def test_rdd_against_dataframe_of_another_arity_is_an_input_error(tmp_path: Path) -> None:
    # an RDD program against a DataFrame program is a migration check (issue 23, test_migration.py): the
    # inputs correspond by position, so an RDD of ints cannot read a table of two columns
    rdd = tmp_path / "rdd.py"
    rdd.write_text("def p(R):\n    return R.map(lambda x: x + 1)\n")
    left = _df(tmp_path, "l", _ret("t.select('a')"))
    result = check(str(rdd), left)
    assert result.verdict == "error" and "correspond by position" in result.reason


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "verifier.interfaces.cli", "check", *args],
                          capture_output=True, text=True, cwd=REPO, timeout=300)


def test_cli_json_and_exit_codes(tmp_path: Path, schema_file: str) -> None:
    from jsonschema import validate

    q1 = _sql(tmp_path, "q1", "SELECT dept FROM emp UNION SELECT id FROM dept")
    q2 = _sql(tmp_path, "q2", "SELECT dept FROM emp UNION ALL SELECT id FROM dept")
    done = _cli(q1, q2, "--schema", schema_file, "--json", "--no-replay", "--timeout", "20")
    assert done.returncode == 1, done.stderr
    out = json.loads(done.stdout)
    validate(out, json.loads((REPO / "docs" / "sparkeq.schema.json").read_text()))
    assert out["verdict"] == "not_equivalent" and isinstance(out["counterexample"]["inputs"]["dept"], list)
    missing = _cli(q1, q2, "--no-replay")
    assert missing.returncode == 3
    assert missing.stdout == "" and "Traceback" not in missing.stderr
    assert f"{q1}:1:" in missing.stderr and "--schema" in missing.stderr
