"""Adversarial review of the DataFrame/SQL support (``sparkeq check`` on DataFrame functions and .sql files).

Each failing test is one bug, with a minimal reproducer and a comment saying what Spark 4 does and what
sparkeq does. The worst kind is a ``not_equivalent`` (computed with ``replay=False``) whose counterexample
does *not* make the two original programs differ on Spark: those tests run the originals on the
counterexample's tables with PySpark, independently of ``verifier.runtime.replay_df``, and compare
``df.dtypes`` and the rows as bags (or what a Python caller sees, for actions). The passing tests pin
tricky cases that are right today.

Expected to fail today (marked xfail; bugs, see each test's comment):
  test_df_agg_dict_orders_columns_as_spark (test_sql_window_function_error_message passes since
  window functions are read, issue 21).
"""

from __future__ import annotations

import decimal
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from verifier import check

HEAD = """from typing import Annotated
from pyspark.sql import DataFrame, functions as F
"""


def _py(tmp_path: Path, name: str, body: str, head: str = HEAD) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(head + body)
    return str(path)


def _sql(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / f"{name}.sql"
    path.write_text(text)
    return str(path)


def _fn(ddl: str, expr: str, extra: str = "") -> str:
    return f'def f(t: Annotated[DataFrame, "{ddl}"]):\n{extra}    return {expr}\n'


def _check(left: str, right: str, **options: Any) -> Any:
    options.setdefault("timeout", 20)
    return check(left, right, replay=False, **options)


# ---------------------------------------------------------------------------------------------------
# Running the ORIGINAL programs on Spark (independent of verifier.runtime.replay_df)
# ---------------------------------------------------------------------------------------------------


def _cell(v: Any) -> Any:
    if isinstance(v, dict) and "decimal" in v:
        return decimal.Decimal(v["decimal"])
    if isinstance(v, dict) and "float" in v:
        return float(v["float"])
    return v


def _tables(result: Any, ddls: dict[str, str]) -> dict[str, tuple[str, list[tuple]]]:
    """The counterexample's tables as (DDL, rows in DDL column order)."""
    out = {}
    for name, ddl in ddls.items():
        cols = [c.strip().split()[0].strip("`") for c in ddl.split(",")]
        rows = [tuple(_cell(r[c]) for c in cols) for r in result.counterexample.inputs.get(name, [])]
        out[name] = (ddl, rows)
    return out


def _frames(spark: Any, tables: dict[str, tuple[str, list[tuple]]]) -> dict[str, Any]:
    from verifier.runtime.spark import exact_dataframe

    return {name: exact_dataframe(spark, [rows], ddl) for name, (ddl, rows) in tables.items()}


def _observe(thunk: Any) -> Any:
    """What a caller sees: a DataFrame's dtypes and bag of rows; a collected list or Row as Python values;
    an exception as (class, condition)."""
    from pyspark.sql import DataFrame, Row

    try:
        value = thunk()
        if isinstance(value, DataFrame):
            return ("dataframe", tuple(value.dtypes), Counter(tuple(r) for r in value.collect()))
        if isinstance(value, Row):
            return ("row", tuple(value.__fields__), tuple(value))
        if isinstance(value, list):
            return ("list", [(tuple(r.__fields__), tuple(r)) for r in value])
        return ("value", value)
    except Exception as exc:  # an error is an outcome
        getter = getattr(exc, "getCondition", None)
        return ("error", type(exc).__name__, getter() if callable(getter) else None)


def _run_df(spark: Any, path: str, tables: dict[str, tuple[str, list[tuple]]], fn: str = "f") -> Any:
    namespace: dict[str, Any] = {"spark": spark}
    exec(compile(Path(path).read_text(), path, "exec"), namespace)
    frames = _frames(spark, tables)
    return _observe(lambda: namespace[fn](*frames.values()))


def _run_sql(spark: Any, path: str, tables: dict[str, tuple[str, list[tuple]]]) -> Any:
    for name, frame in _frames(spark, tables).items():
        frame.createOrReplaceTempView(name)
    return _observe(lambda: spark.sql(Path(path).read_text()))


def _run(spark: Any, path: str, tables: dict[str, tuple[str, list[tuple]]]) -> Any:
    return _run_sql(spark, path, tables) if path.endswith(".sql") else _run_df(spark, path, tables)


def _assert_cex_real(spark: Any, result: Any, left: str, right: str, ddls: dict[str, str]) -> None:
    """A not_equivalent verdict must come with tables on which Spark shows the originals differ."""
    if result.verdict != "not_equivalent":
        return
    tables = _tables(result, ddls)
    lo, ro = _run(spark, left, tables), _run(spark, right, tables)
    cex = result.counterexample
    assert lo != ro, (f"sparkeq says not_equivalent on {json.dumps(cex.inputs)}: LEFT {cex.left} "
                      f"RIGHT {cex.right}, but Spark gives {lo} for both")


# ---------------------------------------------------------------------------------------------------
# Output names (part of the result): wrong names are wrong not_equivalent verdicts
# ---------------------------------------------------------------------------------------------------


@pytest.mark.spark
def test_sql_round_without_scale_is_named_with_scale(tmp_path: Path, spark_session: Any) -> None:
    # Spark names SQL round(b) "round(b, 0)" (and bround(d) "bround(d, 0)"), exactly as round(b, 0).
    # sparkeq names it "round(b)" (frontend/sql/translator.py, function():
    # pretty = f"{called}({names})"), so the
    # pair below is not_equivalent on the empty table although Spark shows one result.
    ddl = "b BIGINT"
    left = _sql(tmp_path, "l", "SELECT round(b) FROM t")
    right = _sql(tmp_path, "r", "SELECT round(b, 0) FROM t")
    result = _check(left, right, schema=[f"t={ddl}"])
    _assert_cex_real(spark_session, result, left, right, {"t": ddl})


@pytest.mark.spark
def test_sql_floor_ceil_signum_are_named_in_capitals(tmp_path: Path, spark_session: Any) -> None:
    # Spark: SQL floor(v), ceil(v), signum(v) are named FLOOR(v), CEIL(v), SIGNUM(v) (as the DataFrame
    # F.floor/F.ceil/F.signum, which sparkeq names right). sparkeq's SQL frontend lower-cases them, so
    # the SQL and DataFrame spellings of one query are not_equivalent.
    ddl = "v BIGINT"
    left = _py(tmp_path, "l", _fn(ddl, 't.select(F.floor("v"), F.ceil("v"), F.signum("v"))'))
    right = _sql(tmp_path, "r", "SELECT floor(v), ceil(v), signum(v) FROM t")
    result = _check(left, right, schema=[f"t={ddl}"])
    _assert_cex_real(spark_session, result, left, right, {"t": ddl})


@pytest.mark.spark
def test_df_cast_inside_an_expression_keeps_cast_in_name(tmp_path: Path, spark_session: Any) -> None:
    # Spark keeps a column's name under a *top-level* cast only: t.k.cast("bigint") + 1 is named
    # "(CAST(k AS BIGINT) + 1)", F.sum(t.k.cast("bigint")) "sum(CAST(k AS BIGINT))". sparkeq drops the
    # CAST inside any expression ("(k + 1)", "sum(k)"): frontend/dataframe/columns.py pretty() applies the
    # top-level rule (is_named -> output_name) to every nested Cast. The SQL spelling is named right.
    ddl = "k INT"
    left = _py(tmp_path, "l", _fn(ddl, 't.select(t.k.cast("bigint") + 1)'))
    right = _sql(tmp_path, "r", "SELECT CAST(k AS BIGINT) + 1 FROM t")
    result = _check(left, right, schema=[f"t={ddl}"])
    _assert_cex_real(spark_session, result, left, right, {"t": ddl})


@pytest.mark.xfail(strict=True, reason="open bug found by review, listed in issue 10's note")
@pytest.mark.spark
def test_df_agg_dict_orders_columns_as_spark(tmp_path: Path, spark_session: Any) -> None:
    # PySpark passes agg({...}) to the JVM as a java.util.HashMap: the output columns come in the map's
    # hash order, not the dict's order. agg({"v": "avg", "s": "max"}) gives k, max(s), avg(v), the same as
    # agg(F.max("s"), F.avg("v")). sparkeq keeps the dict order (k, avg(v), max(s)) and reports a
    # difference Spark does not show.
    ddl = "k INT, v BIGINT, s STRING"
    left = _py(tmp_path, "l", _fn(ddl, 't.groupBy("k").agg({"v": "avg", "s": "max"})'))
    right = _py(tmp_path, "r", _fn(ddl, 't.groupBy("k").agg(F.max("s"), F.avg("v"))'))
    result = _check(left, right)
    _assert_cex_real(spark_session, result, left, right, {"t": ddl})


@pytest.mark.spark
def test_sql_unary_plus_is_named(tmp_path: Path, spark_session: Any) -> None:
    # Spark names +(a) "(+ a)" (and +(a + 1) "(+ (a + 1))"), like positive(a). sparkeq drops the unary
    # plus before a parenthesis and names it "a", so the two spellings are not_equivalent.
    ddl = "a INT"
    left = _sql(tmp_path, "l", "SELECT +(a) FROM t")
    right = _sql(tmp_path, "r", "SELECT positive(a) FROM t")
    result = _check(left, right, schema=[f"t={ddl}"])
    _assert_cex_real(spark_session, result, left, right, {"t": ddl})


@pytest.mark.spark
def test_unary_minus_of_null_is_double(tmp_path: Path, spark_session: Any) -> None:
    # Spark types SQL -NULL (and DataFrame -F.lit(None), named negative(NULL)) as DOUBLE; sparkeq as INT
    # (build.neg: NullType -> INT). -NULL vs CAST(NULL AS DOUBLE) is the same result on Spark.
    ddl = "a INT"
    left = _sql(tmp_path, "l", "SELECT -NULL AS x FROM t")
    right = _sql(tmp_path, "r", "SELECT CAST(NULL AS DOUBLE) AS x FROM t")
    result = _check(left, right, schema=[f"t={ddl}"])
    _assert_cex_real(spark_session, result, left, right, {"t": ddl})


@pytest.mark.spark
def test_df_top_level_cast_names_are_right(tmp_path: Path, spark_session: Any) -> None:
    # Passing: a top-level cast of a column (or of a cast of a column) keeps the column's name, and the
    # DataFrame and SQL spellings agree (no false difference).
    ddl = "k INT, s STRING"
    left = _py(tmp_path, "l", _fn(ddl, 't.select(t.k.cast("string").cast("int"), t.s.cast("double"))'))
    right = _sql(tmp_path, "r", "SELECT CAST(CAST(k AS STRING) AS INT), CAST(s AS DOUBLE) FROM t")
    result = _check(left, right, schema=[f"t={ddl}"])
    _assert_cex_real(spark_session, result, left, right, {"t": ddl})


# ---------------------------------------------------------------------------------------------------
# Actions: collected rows and first() are Python values (no Spark types)
# ---------------------------------------------------------------------------------------------------


@pytest.mark.spark
def test_collect_of_int_vs_bigint_is_the_same_python_value(tmp_path: Path, spark_session: Any) -> None:
    # collect() returns a list of Rows: an int and a bigint column give the same Python ints. sparkeq
    # compares the columns' Spark types of collected rows and says not_equivalent on the EMPTY table,
    # where both programs return []. Replay does not catch it: verifier/runtime/replay_df._observe gives a
    # collected list the *interpreter's* columns, so even replay=True reports this as "replayed on Spark".
    ddl = "k INT"
    left = _py(tmp_path, "l", _fn(ddl, 't.select(t.k.cast("bigint")).collect()'))
    right = _py(tmp_path, "r", _fn(ddl, 't.select(t.k).collect()'))
    result = _check(left, right)
    _assert_cex_real(spark_session, result, left, right, {"t": ddl})


@pytest.mark.spark
def test_first_row_of_int_vs_bigint_is_the_same_row(tmp_path: Path, spark_session: Any) -> None:
    # first() returns a Row of Python values: Row(k=None) for both. sparkeq compares Spark types of the
    # row (RelRow columns) and says not_equivalent; replay turns Spark's Row into a bare tuple and then
    # calls the difference "a bug in sparkeq's model".
    ddl = "k INT"
    left = _py(tmp_path, "l", _fn(ddl, 't.select(t.k.cast("bigint")).first()'))
    right = _py(tmp_path, "r", _fn(ddl, 't.select(t.k).first()'))
    result = _check(left, right)
    _assert_cex_real(spark_session, result, left, right, {"t": ddl})


@pytest.mark.spark
def test_order_only_difference_needs_rows_that_differ(tmp_path: Path, spark_session: Any) -> None:
    # t.orderBy("k").select("v") vs t.select("v"): the counterexample sparkeq shrinks to is two rows with
    # v = NULL, on which both programs return [Row(v=None), Row(v=None)]: no order can show a
    # difference. rel_outcomes_equal treats any sorted result as different from any bag; replay cannot
    # refute it because replay_df observes Spark's rows through the interpreter's reference shape.
    ddl = "k INT, v BIGINT"
    left = _py(tmp_path, "l", _fn(ddl, 't.orderBy("k").select("v")'))
    right = _py(tmp_path, "r", _fn(ddl, 't.select("v")'))
    result = _check(left, right)
    if result.verdict == "not_equivalent":
        tables = _tables(result, {"t": ddl})
        from verifier.runtime.spark import exact_dataframe

        def ordered(path: str) -> list[tuple]:
            ns: dict[str, Any] = {}
            exec(compile(Path(path).read_text(), path, "exec"), ns)
            frame = exact_dataframe(spark_session, [tables["t"][1]], ddl)
            return [tuple(r) for r in ns["f"](frame).collect()]

        assert ordered(left) != ordered(right), f"identical lists on {result.counterexample.inputs}"


@pytest.mark.spark
def test_actions_that_are_right(tmp_path: Path, spark_session: Any) -> None:
    # Passing: orderBy().take(n) vs orderBy().limit(n).collect(), and count() of a projection whose
    # column would overflow (the column is pruned: 1 on Spark) vs count() of the table.
    ddl = "k INT, v BIGINT"
    for a, b in (('t.orderBy("k", "v").take(2)', 't.orderBy("k", "v").limit(2).collect()'),
                 ('t.select((F.col("k") + 1).alias("x")).count()', 't.count()')):
        left = _py(tmp_path, "l", _fn(ddl, a))
        right = _py(tmp_path, "r", _fn(ddl, b))
        result = _check(left, right, timeout=8)
        assert result.verdict in ("equivalent", "unknown"), result.reason  # never refuted


# ---------------------------------------------------------------------------------------------------
# Errors Spark raises while optimising (constant folding), on every input
# ---------------------------------------------------------------------------------------------------


@pytest.mark.spark
def test_constant_error_is_raised_by_spark_even_on_empty_tables(tmp_path: Path, spark_session: Any) -> None:
    # Spark's optimiser folds constant expressions (ConstantFolding) and raises their errors whatever the
    # data: "WHERE a > 2147483647 + 1" raises ARITHMETIC_OVERFLOW even on an empty table (so do
    # F.lit(1) / 0 in a filter, CAST('x' AS INT), s IN ('a', 1), and "(k > 5) & (F.lit(1)/0 > 0)" even where
    # k > 5 is false). The interpreter only evaluates such a poison per row, so on empty tables the two
    # counts below are 0 and 1 (a *definite* difference, no caveat), while Spark raises the same error for
    # both programs on every input.
    ddl = "a INT"
    left = _sql(tmp_path, "l", "SELECT count(*) AS c FROM t WHERE a > 2147483647 + 1")
    right = _sql(tmp_path, "r", "SELECT count(*) + 1 AS c FROM t WHERE a > 2147483647 + 1")
    result = _check(left, right, schema=[f"t={ddl}"])
    _assert_cex_real(spark_session, result, left, right, {"t": ddl})


@pytest.mark.spark
def test_constant_error_in_dataframe_filter(tmp_path: Path, spark_session: Any) -> None:
    # The DataFrame spelling of the same bug (DIVIDE_BY_ZERO folded by Spark on an empty table).
    ddl = "a INT"
    left = _py(tmp_path, "l", _fn(ddl, 't.filter(F.col("a") > F.lit(1) / 0).agg(F.count("*").alias("c"))'))
    right = _py(tmp_path, "r", _fn(ddl, 't.filter(F.col("a") > F.lit(1) / 0)'
                                        '.agg((F.count("*") + 1).alias("c"))'))
    result = _check(left, right)
    _assert_cex_real(spark_session, result, left, right, {"t": ddl})


@pytest.mark.spark
def test_pruned_constant_error_is_not_raised(tmp_path: Path, spark_session: Any) -> None:
    # Passing: a failing constant in a column nobody reads is pruned before folding (Spark returns rows).
    ddl = "a INT"
    left = _py(tmp_path, "l", _fn(ddl, 't.select("a", (F.lit(1) / 0).alias("z")).select("a")'))
    right = _py(tmp_path, "r", _fn(ddl, 't.select("a")'))
    assert _check(left, right, timeout=8).verdict in ("equivalent", "unknown")


# ---------------------------------------------------------------------------------------------------
# Literals and values
# ---------------------------------------------------------------------------------------------------


@pytest.mark.spark
def test_sql_doubled_quote_in_string_literal(tmp_path: Path, spark_session: Any) -> None:
    # Spark reads 'it''s' as the string it's (a doubled quote escapes the quote). sqlglot's Spark
    # dialect tokenizes it as two adjacent literals 'it' 's' (a Concat), so sparkeq computes "its": a
    # wrong value, and a wrong not_equivalent against "it's".
    ddl = "a INT"
    left = _sql(tmp_path, "l", "SELECT 'it''s' AS x FROM t")
    right = _sql(tmp_path, "r", "SELECT \"it's\" AS x FROM t")
    result = _check(left, right, schema=[f"t={ddl}"])
    _assert_cex_real(spark_session, result, left, right, {"t": ddl})


@pytest.mark.spark
def test_unicode_digit_string_cast_to_decimal(tmp_path: Path, spark_session: Any) -> None:
    # Spark's string -> decimal cast (java.math.BigDecimal) accepts non-ASCII digits: CAST('١' AS
    # DECIMAL(5,2)) is 1.00. The interpreter (functions.cast_value, _DEC_RE = [0-9]) says invalid input
    # (NULL under TRY_CAST). The pool picks the query's own literal '١', so this is a definite difference.
    ddl = "s STRING"
    left = _sql(tmp_path, "l", "SELECT TRY_CAST(s AS DECIMAL(5,2)) AS x FROM t WHERE s = '\u0661'")
    right = _sql(tmp_path, "r", "SELECT CAST(1 AS DECIMAL(5,2)) AS x FROM t WHERE s = '\u0661'")
    result = _check(left, right, schema=[f"t={ddl}"])
    _assert_cex_real(spark_session, result, left, right, {"t": ddl})


def test_decimal_column_with_scale_28_crashes(tmp_path: Path) -> None:
    # A DECIMAL(38,30) column (any scale >= 28) crashes check() with decimal.InvalidOperation:
    # verifier/core/relational_search.value_pool quantizes 1 to 30 places in the default 28-digit context.
    ddl = "m DECIMAL(38,30)"
    left = _py(tmp_path, "l", _fn(ddl, 't.select((F.col("m") + 1).alias("x"))'))
    right = _py(tmp_path, "r", _fn(ddl, 't.select((F.col("m") + 2).alias("x"))'))
    result = _check(left, right)
    assert result.verdict in ("not_equivalent", "unknown")


def test_decimal_literal_with_many_digits_crashes(tmp_path: Path) -> None:
    # A literal of more than 28 digits against a decimal column crashes check() the same way
    # (value_pool: Decimal(v).quantize(q) raises InvalidOperation instead of skipping the literal).
    schema = ["t=m DECIMAL(5,2)"]
    left = _sql(tmp_path, "l", "SELECT m FROM t WHERE m < 123456789012345678901234567890")
    right = _sql(tmp_path, "r", "SELECT m FROM t")
    result = _check(left, right, schema=schema)
    assert result.verdict in ("not_equivalent", "unknown")


# ---------------------------------------------------------------------------------------------------
# Joins of DataFrames that share lineage
# ---------------------------------------------------------------------------------------------------


@pytest.mark.spark
def test_self_join_of_derived_frame_with_non_equality_condition(tmp_path: Path, spark_session: Any) -> None:
    # t2 = t.select("k"); t.join(t2, t.k != t2.k): Spark resolves t2.k to the right side (the column
    # carries its Dataset's id) and returns the pairs of different keys. sparkeq only models Dataset.join's
    # rewrite of an *equality* of a column with itself (frontend/dataframe/joins._self_join_condition); for
    # != (or <) it reads both sides as the left k, so the condition is always false and the result empty.
    # (Where both sides are the same Dataset, t.join(t, t.k < t.k), Spark raises an AnalysisException about
    # an ambiguous self-join, and sparkeq again computes an empty result.)
    ddl = "k INT, v BIGINT"
    left = _py(tmp_path, "l", _fn(ddl, 't.join(t2, t.k != t2.k)', '    t2 = t.select("k")\n'))
    right = _py(tmp_path, "r", _fn(ddl, 't.join(t2, t.k != t2.k)',
                                   '    t2 = t.select(F.col("k").alias("k"))\n'))
    result = _check(left, right)
    _assert_cex_real(spark_session, result, left, right, {"t": ddl})


@pytest.mark.spark
def test_joins_that_are_right(tmp_path: Path, spark_session: Any) -> None:
    # Passing: USING joins (key from the left for left joins, coalesce for full joins), self-join by
    # equality, and NOT IN with a NULL in the subquery vs NOT EXISTS (a real difference, on Spark too).
    ddl_t, ddl_u = "k INT, v BIGINT", "k INT, w DOUBLE"
    two = 'def f(t: Annotated[DataFrame, "%s"], u: Annotated[DataFrame, "%s"]):\n    return %s\n'
    left = _py(tmp_path, "l", two % (ddl_t, ddl_u, 't.join(u, "k", "full")'))
    right = _sql(tmp_path, "r", "SELECT coalesce(t.k, u.k) AS k, v, w FROM t FULL JOIN u ON t.k = u.k")
    verdict = _check(left, right, schema=[f"t={ddl_t}", f"u={ddl_u}"], timeout=8).verdict
    assert verdict in ("equivalent", "unknown")
    left = _sql(tmp_path, "l2", "SELECT k FROM t WHERE k NOT IN (SELECT k FROM u)")
    right = _sql(tmp_path, "r2", "SELECT k FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.k = t.k)")
    result = _check(left, right, schema=[f"t={ddl_t}", f"u={ddl_u}"])
    assert result.verdict == "not_equivalent"
    _assert_cex_real(spark_session, result, left, right, {"t": ddl_t, "u": ddl_u})
    left = _py(tmp_path, "l3", _fn(ddl_t, 'a.join(t, a.k == t.k)', '    a = t.filter(t.v > 0)\n'))
    right = _py(tmp_path, "r3", _fn(ddl_t, 'a.join(b, a.k == b.k)',
                                    '    a = t.filter(t.v > 0)\n'
                                    '    b = t.select(F.col("k").alias("k"), F.col("v").alias("v"))\n'))
    assert _check(left, right, timeout=8).verdict in ("equivalent", "unknown")


# ---------------------------------------------------------------------------------------------------
# Schemas and table alignment
# ---------------------------------------------------------------------------------------------------


def test_schema_file_column_named_key_is_dropped(tmp_path: Path) -> None:
    # CREATE TABLE kv (key INT, value STRING): frontend/sql/schema._table_item takes a leading bare
    # "key" (also "index", "check", "fulltext", "spatial") for a MySQL index definition and silently skips
    # the column. The table then has the one column `value`; SELECT key FROM kv is "cannot be resolved".
    from frontend.sql.schema import parse_schema_file

    tables = parse_schema_file("CREATE TABLE kv (key INT, value STRING);\n", "s.sql")
    assert [f.name for f in tables["kv"].fields] == ["key", "value"]
    tables = parse_schema_file("CREATE TABLE t (a INT, index INT, b STRING);\n", "s.sql")
    assert [f.name for f in tables["t"].fields] == ["a", "index", "b"]


def test_sql_queries_over_one_schema_reading_different_tables(tmp_path: Path) -> None:
    # Two .sql queries over one --schema file are comparable on the schema's tables even when one of
    # them does not read every table (removing a join is the classic rewrite). sparkeq answers "error:
    # LEFT reads 2 table(s) ... cannot be compared on the same inputs"
    # (verifier/core/relational_search.align).
    # The pair is not equivalent (an employee whose dept has no row in dept).
    schema = _sql(tmp_path, "schema", "CREATE TABLE emp (id INT NOT NULL, dept INT, PRIMARY KEY (id));\n"
                                      "CREATE TABLE dept (id INT NOT NULL, PRIMARY KEY (id));\n")
    left = _sql(tmp_path, "l", "SELECT e.id FROM emp e JOIN dept d ON e.dept = d.id")
    right = _sql(tmp_path, "r", "SELECT id FROM emp WHERE dept IS NOT NULL")
    result = _check(left, right, schema=[schema])
    assert result.verdict == "not_equivalent", result.reason


@pytest.mark.spark
def test_right_side_not_null_is_ignored_and_replay_counts_input_failure(tmp_path: Path, spark_session: Any
                                                                        ) -> None:
    # LEFT declares a nullable column, RIGHT the same column NOT NULL. align() compares names and types
    # only and the search draws inputs from LEFT's declarations, so the counterexample feeds a NULL into
    # RIGHT's NOT NULL column. Replay then builds RIGHT's frame with "a INT NOT NULL"; createDataFrame's
    # verification fails in a Python worker, and replay_df counts that PythonException as RIGHT's outcome:
    # the verdict stays not_equivalent "replayed on Spark" on an input RIGHT declares impossible.
    # (Likewise RIGHT's PRIMARY KEY is neither respected nor listed in the assumptions.)
    left = _py(tmp_path, "l", _fn("a INT", 't.select("a")'))
    right = _py(tmp_path, "r", _fn("a INT NOT NULL", 't.select(F.coalesce("a", F.lit(0)).alias("a"))'))
    result = check(left, right, replay=True, timeout=60)
    if result.verdict == "not_equivalent":
        inputs = result.counterexample.inputs
        assert all(r["a"] is not None for r in inputs["t"]), inputs
        assert "PythonException" not in json.dumps(result.counterexample.right)


def test_schema_files_that_are_read_right(tmp_path: Path) -> None:
    # Passing: a MySQL dump (backticks, int(11), DEFAULT, COMMENT, keys, ENGINE trailer) and comments.
    from frontend.sql.schema import parse_schema_file

    text = """-- dump
CREATE TABLE `emp` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `name` varchar(20) DEFAULT NULL COMMENT 'the name',
  `sal` decimal(10,2) NOT NULL DEFAULT '0.00',
  `dept` int DEFAULT -1, /* inline */
  PRIMARY KEY (`id`),
  KEY `idx_dept` (`dept`),
  UNIQUE KEY `uk_name` (`name`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
"""
    emp = parse_schema_file(text, "s.sql")["emp"]
    assert [(f.name, f.type.simple, f.nullable) for f in emp.fields] == [
        ("id", "int", False), ("name", "string", True), ("sal", "decimal(10,2)", False),
        ("dept", "int", True)]
    assert sorted(c.kind for c in emp.constraints) == ["primary", "unique"]


# ---------------------------------------------------------------------------------------------------
# Replay of the original code
# ---------------------------------------------------------------------------------------------------


@pytest.mark.spark
def test_replay_honours_star_import_of_builtin_names(tmp_path: Path, spark_session: Any) -> None:
    # "from pyspark.sql.functions import *" makes sum/max/min Spark's functions, in Python and in
    # sparkeq's translation. Replay (verifier/runtime/extract.py) only reaches for a star import when a needed
    # name is *not* a builtin, so t.agg(sum("v")) runs Python's builtin sum and replay fails with a
    # TypeError: "counterexample not replayed on Spark".
    star = ("from typing import Annotated\nfrom pyspark.sql import DataFrame\n"
            "from pyspark.sql.functions import *\n")
    ddl = "k INT, v BIGINT"
    left = _py(tmp_path, "l", _fn(ddl, 't.agg(sum("v"), max("k"))'), head=star)
    right = _py(tmp_path, "r", _fn(ddl, 't.agg(sum("v"), max("v"))'), head=star)
    result = check(left, right, replay=True, timeout=60)
    assert result.verdict == "not_equivalent"
    assert result.counterexample.replayed_on_spark, result.warnings


# ---------------------------------------------------------------------------------------------------
# Located errors for code Spark accepts
# ---------------------------------------------------------------------------------------------------


def test_spark_sql_with_format_kwargs_is_valid_pyspark(tmp_path: Path) -> None:
    # spark.sql("SELECT * FROM {t} WHERE k > {x}", t=t, x=1) is PySpark's documented string formatting
    # (pyspark.sql.SparkSession.sql(sqlQuery, args=None, **kwargs)). sparkeq says "sql() got an unexpected
    # or repeated keyword argument 'x' (Python raises TypeError)", which is false.
    head = HEAD + "from pyspark.sql import SparkSession\nspark = SparkSession.builder.getOrCreate()\n"
    ddl = "k INT"
    left = _py(tmp_path, "l", _fn(ddl, 'spark.sql("SELECT k FROM {t} WHERE k > {x}", t=t, x=1)'), head=head)
    right = _py(tmp_path, "r", _fn(ddl, 't.filter("k > 1").select("k")'), head=head)
    result = _check(left, right, timeout=8)
    assert result.verdict != "error", result.reason
    assert "TypeError" not in (result.reason or "")


@pytest.mark.parametrize("expr", [
    "coalesce(s, m)",           # Spark: double (string meets decimal)
    "coalesce(dt, s)",          # Spark: date
    "z = 'true'",               # Spark: (z = true), the string cast to boolean
    "substring(s, '1')",        # Spark: the position cast to int
    "trim(BOTH ' ' FROM s)",    # Spark: TRIM(BOTH   FROM s); sparkeq: "trim takes 1 argument(s), got 2"
])
def test_valid_spark_code_is_not_an_analysis_error(tmp_path: Path, expr: str) -> None:
    # sparkeq reports these as AnalysisError ("what Spark's analyser rejects"), but Spark 4.3 analyses and
    # runs each of them. An unsupported construct should be an UnsupportedError, not a claim that Spark
    # rejects the program.
    from sparklite.relational.build import AnalysisError
    from verifier.core.loading import load, load_schemas

    path = _sql(tmp_path, "q", f"SELECT {expr} FROM t")
    try:
        load(path, schemas=load_schemas(["t=s STRING, m DECIMAL(5,2), z BOOLEAN, dt DATE"]))
    except AnalysisError as exc:
        pytest.fail(f"Spark accepts SELECT {expr}; sparkeq says: {exc}")
    except Exception:
        pass  # unsupported is an acceptable answer


def test_sql_window_function_error_message(tmp_path: Path) -> None:
    # SELECT a, sum(b) OVER (PARTITION BY a) FROM t is valid Spark; sparkeq answers an AnalysisError
    # "column 'a' is read outside an aggregate function ... (MISSING_GROUP_BY)" instead of saying window
    # functions are not supported.
    from sparklite.relational.build import AnalysisError
    from verifier.core.loading import load, load_schemas

    # Since issue 21 window functions are read; a RANGE frame with a value offset is still refused, and
    # the refusal names the window construct.
    path = _sql(tmp_path, "q", "SELECT a, sum(b) OVER (PARTITION BY a ORDER BY b RANGE BETWEEN 1 PRECEDING "
                               "AND CURRENT ROW) FROM t")
    with pytest.raises(Exception) as info:
        load(path, schemas=load_schemas(["t=a INT, b BIGINT"]))
    assert not isinstance(info.value, AnalysisError), str(info.value)
    assert "window" in str(info.value).lower()
    load(_sql(tmp_path, "q2", "SELECT a, sum(b) OVER (PARTITION BY a) FROM t"),
         schemas=load_schemas(["t=a INT, b BIGINT"]))


@pytest.mark.parametrize("body", [
    't.select(F.sum("k").over(Window.orderBy("k").rangeBetween(-1, 0)))',  # RANGE offsets: not yet
    't.select(F.pandas_udf(lambda x: x, "int")("k"))',  # Python UDFs are read since issue 21
    't.select(F.regexp_replace("s", r"\\bx", "b"))',  # Java's word boundary is not Python's: refused
    't.select(F.col("k") // 2)',
    't.na.replace(1, 2)',
    't.rdd.map(lambda r: r)',
    't.select(F.expr("sum(k) over (order by k range between 1 preceding and current row)"))',
    't.where("s ilike \'a%\'")',  # LIKE is read since issue 21; ILIKE is not
])
def test_constructs_outside_the_fragment_are_located_errors(tmp_path: Path, body: str) -> None:
    # Passing: windows, UDFs, regexes outside the Java/Python common subset, // on a Column, df.na.replace,
    # df.rdd: located input errors.
    head = HEAD + "from pyspark.sql import Window\n"
    left = _py(tmp_path, "l", _fn("k INT, s STRING", body), head=head)
    result = _check(left, left, timeout=5)
    assert result.verdict == "error"
    assert f"{left}:" in result.reason and "Traceback" not in result.reason


# ---------------------------------------------------------------------------------------------------
# Tricky semantics that are right today
# ---------------------------------------------------------------------------------------------------


@pytest.mark.spark
def test_tricky_semantics_that_are_right(tmp_path: Path, spark_session: Any) -> None:
    # NaN and -0.0 grouping, int overflow of a + 1 - 1, SQL decimal 0.1 + 0.2, and ordinals in orderBy.
    ddl = "k INT, d DOUBLE"
    left = _py(tmp_path, "l", _fn(ddl, 't.groupBy("d").count()'))
    right = _sql(tmp_path, "r", "SELECT d, count(*) AS count FROM t GROUP BY d")
    assert _check(left, right, schema=[f"t={ddl}"], timeout=8).verdict in ("equivalent", "unknown")
    left = _py(tmp_path, "l2", _fn(ddl, 't.select((F.col("k") + 1 - 1).alias("k"))'))
    right = _py(tmp_path, "r2", _fn(ddl, 't.select("k")'))
    result = check(left, right, replay=True, timeout=60)
    assert result.verdict == "not_equivalent" and result.counterexample.replayed_on_spark
    assert result.counterexample.left == {"error": "ArithmeticException [ARITHMETIC_OVERFLOW]"}
    left = _sql(tmp_path, "l3", "SELECT k FROM t WHERE 0.1 + 0.2 = 0.3")
    right = _sql(tmp_path, "r3", "SELECT k FROM t")
    assert _check(left, right, schema=[f"t={ddl}"], timeout=8).verdict in ("equivalent", "unknown")
    left = _py(tmp_path, "l4", _fn(ddl, "t.orderBy(-1)"))
    right = _py(tmp_path, "r4", _fn(ddl, 't.orderBy(F.desc("k"))'))
    assert _check(left, right, timeout=8).verdict in ("equivalent", "unknown")
    left = _py(tmp_path, "l5", _fn(ddl, 't.select(F.col("d") % 2)'))
    right = _py(tmp_path, "r5", _fn(ddl, 't.select(F.col("d") % 3)'))
    result = _check(left, right)
    assert result.verdict == "not_equivalent"
    _assert_cex_real(spark_session, result, left, right, {"t": ddl})
