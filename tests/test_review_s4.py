"""Adversarial review of session 4's new code (windows, grouping sets, nested types, timestamps, UDFs,
script mode, the bridge).

Each finding is a pair of programs on which sparkeq's verdict or counterexample was wrong against what
Spark 4 (local[2]) computes; the docstrings say what was wrong and what Spark prints.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from verifier import check

_SPLIT_SCRIPT = """\
import sys
from pyspark.sql import SparkSession
from pyspark.sql import functions as F
spark = SparkSession.builder.appName("x").getOrCreate()
df = spark.read.csv(sys.argv[1], header=True, schema="name STRING, dept STRING, salary INT")
res = (df.filter(F.col("name").isNotNull() & ~F.col("name").contains(",") & ~F.col("name").contains("'")
                 & ~F.col("name").contains("\\\\"))
       .select("name", F.split("name", ",").alias("w")).orderBy("name"))
for r in res.collect():
    PRINT
spark.stop()
"""


def _check(tmp_path: Path, left: str, right: str):
    a, b = tmp_path / "left.py", tmp_path / "right.py"
    a.write_text(textwrap.dedent(left))
    b.write_text(textwrap.dedent(right))
    return check(str(a), str(b), replay=False)


def test_printed_array_cell_is_a_python_list(tmp_path: Path) -> None:
    """``print(r["w"])`` of an array column prints a Python list on Spark (``['a']``: collect() gives
    arrays as lists, as the Row ``Row(k=1, collect_set(d)=[0.0, nan])`` printed by PySpark 4 shows).
    The script search printed the interpreter's tuple, ``('a',)``, so these two scripts, which print the
    same line for every name Spark keeps, were ``not equivalent`` with a counterexample Spark refutes."""
    left = _SPLIT_SCRIPT.replace("PRINT", 'print(r["w"])')
    right = _SPLIT_SCRIPT.replace("PRINT", "print(f\"['{r['name']}']\")")
    r = _check(tmp_path, left, right)
    assert r.verdict != "not_equivalent", r.reason


def test_printed_row_with_array_cell(tmp_path: Path) -> None:
    """The same for ``print(r)``: PySpark prints ``Row(name='a', w=['a'])``, not ``w=('a',)``."""
    left = _SPLIT_SCRIPT.replace("PRINT", "print(r)")
    right = _SPLIT_SCRIPT.replace("PRINT", "print(f\"Row(name={r['name']!r}, w=[{r['name']!r}])\")")
    r = _check(tmp_path, left, right)
    assert r.verdict != "not_equivalent", r.reason


def test_python_value_of_nested_cells() -> None:
    """The interpreter's tuples as collect() returns them: lists, dicts and Rows."""
    from verifier.core.df_script_search import python_value

    assert python_value(("a", "b"), "array<string>") == ["a", "b"]
    assert repr(python_value((("a", 1),), "map<string,int>")) == "{'a': 1}"
    assert repr(python_value((1, (2.5,)), "struct<a:int,b:array<double>>")) == "Row(a=1, b=[2.5])"
    assert python_value(None, "array<int>") is None


def test_collect_set_outputs_normalized_zero(tmp_path: Path) -> None:
    """Spark 4: ``SELECT k, collect_set(d) FROM t WHERE d = 0 GROUP BY k`` on a group holding only -0.0
    gives ``[0.0]``, the same as ``collect_set(d + 0.0)``. The interpreter kept the first value seen,
    ``[-0.0]``, and called the pair ``not equivalent`` with a counterexample Spark refutes."""
    from verifier import check as check_

    a, b = tmp_path / "left.sql", tmp_path / "right.sql"
    a.write_text("SELECT k, collect_set(d) AS x FROM t WHERE d = 0 GROUP BY k\n")
    b.write_text("SELECT k, collect_set(d + 0.0) AS x FROM t WHERE d = 0 GROUP BY k\n")
    r = check_(str(a), str(b), replay=False, schema=["t=k INT, v INT, d DOUBLE, s STRING"])
    assert r.verdict != "not_equivalent", r.reason


_WIN_HEAD = """\
from typing import Annotated
from pyspark.sql import DataFrame, Window
from pyspark.sql import functions as F
T = Annotated[DataFrame, "k INT, v INT, d DOUBLE, s STRING"]

def f(t: T) -> DataFrame:
"""


def test_filter_on_double_partition_key_is_not_moved_below_window(tmp_path: Path) -> None:
    """A window partitions -0.0 with 0.0; a filter on ``cast(d AS string)`` tells them apart. On
    t = [(1, 1, 0.0, 'a'), (1, 2, -0.0, 'b')] Spark 4 prints ``Row(d=0.0, c=2)`` for the filter above
    a cached window (``select(...).cache().filter(...)``: the optimizer does not move a filter into a
    cached plan) and ``Row(d=0.0, c=1)`` for the filter below it. The prover moved the filter below the
    window and called them ``equivalent``. (Without cache() Spark moves the filter itself and prints
    c=1 for both; the kernel drops cache(), so neither form is proved now.)"""
    right = _WIN_HEAD + (
        '    return t.filter(F.col("d").cast("string") == "0.0")'
        '.select("d", F.count("*").over(Window.partitionBy("d")).alias("c"))\n'
    )
    for cache in ("", ".cache()"):
        left = _WIN_HEAD + (
            f'    w = t.select("d", F.count("*").over(Window.partitionBy("d")).alias("c")){cache}\n'
            '    return w.filter(F.col("d").cast("string") == "0.0")\n'
        )
        a, b = tmp_path / f"left{cache[1:6]}.py", tmp_path / "right.py"
        a.write_text(left)
        b.write_text(right)
        r = check(f"{a}::f", f"{b}::f", replay=False)
        assert r.verdict != "equivalent", (cache, r.reason)


def test_filter_on_string_partition_key_still_moves(tmp_path: Path) -> None:
    """The fix keeps the sound case: a filter on a string partition key is still moved (proved)."""
    a, b = tmp_path / "left.sql", tmp_path / "right.sql"
    a.write_text("SELECT * FROM (SELECT s, count(*) OVER (PARTITION BY s) AS c FROM t) WHERE s = 'a'\n")
    b.write_text("SELECT s, count(*) OVER (PARTITION BY s) AS c FROM t WHERE s = 'a'\n")
    r = check(str(a), str(b), replay=False, schema=["t=k INT, v INT, d DOUBLE, s STRING"])
    assert r.verdict == "equivalent", r.reason


_SHOW_SCRIPT = """\
import sys
from pyspark.sql import SparkSession
from pyspark.sql import functions as F
spark = SparkSession.builder.appName("x").getOrCreate()
df = spark.read.csv(sys.argv[1], header=True, schema="name STRING, dept STRING, salary INT")
df = df.filter(F.col("name").isNotNull() & ~F.col("name").contains(","))
df.select("name", COLUMN.alias("w")).orderBy("name").show()
spark.stop()
"""


def test_show_of_array_cell_is_sparks_text(tmp_path: Path) -> None:
    """``show()`` prints an array as ``[a, b]`` (Spark 4 showed ``|[a, b]|[1.0, NULL, 1.0E20]|``); the
    script search printed Python's tuple ``('a',)``, so showing ``split(name, ',')`` against the string
    ``'[' || name || ']'`` (the same text on Spark for names without a comma) was ``not equivalent``."""
    left = _SHOW_SCRIPT.replace("COLUMN", 'F.split("name", ",")')
    right = _SHOW_SCRIPT.replace("COLUMN", 'F.concat(F.lit("["), F.col("name"), F.lit("]"))')
    r = _check(tmp_path, left, right)
    assert r.verdict != "not_equivalent", r.reason


def test_show_string_of_nested_and_timestamp_cells() -> None:
    """Spark 4's show() text (seen on PySpark 4.3): ``2024-01-02 03:04:05.12`` (not isoformat's ``T``),
    ``[1.0, NULL, 1.0E20]``, ``{k -> 1.0}``, ``{a,b, 1.0}``."""
    import datetime

    from verifier.core.df_script_search import show_string

    ts = datetime.datetime(2024, 1, 2, 3, 4, 5, 120000)
    assert show_string(ts, "timestamp") == "2024-01-02 03:04:05.12"
    assert show_string((1.0, None, 1e20), "array<double>") == "[1.0, NULL, 1.0E20]"
    assert show_string((("k", 1.0),), "map<string,double>") == "{k -> 1.0}"
    assert show_string(("a,b", 1.0), "struct<s:string,d:double>") == "{a,b, 1.0}"


_WRITE_SCRIPT = """\
import sys
from pyspark.sql import SparkSession
from pyspark.sql import functions as F
spark = SparkSession.builder.appName("x").getOrCreate()
df = spark.read.csv(sys.argv[1], header=True, schema="name STRING, dept STRING, salary INT")
df.select(COLUMN.alias("u")).write.mode("overwrite").FORMAT(sys.argv[2])
spark.stop()
"""


def test_writing_timestamp_or_array_columns_is_refused(tmp_path: Path) -> None:
    """Spark 4's CSV writer refuses an array column (UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE) and writes a
    timestamp as ``2023-12-31T23:59:59.999Z``; the script search wrote ``('a',)`` and
    ``2023-12-31T23:59:59.999000`` and refuted pairs with those texts. Now a located refusal."""
    cases = [
        ('F.to_timestamp("dept")', """F.date_format(F.to_timestamp("dept"), "yyyy-MM-dd'T'HH:mm:ss")"""),
        ('F.split("dept", ",")', 'F.concat(F.lit("["), F.col("dept"), F.lit("]"))'),
    ]
    for fmt in ("csv", "json"):
        for left_col, right_col in cases:
            left = _WRITE_SCRIPT.replace("COLUMN", left_col).replace("FORMAT", fmt)
            right = _WRITE_SCRIPT.replace("COLUMN", right_col).replace("FORMAT", fmt)
            r = _check(tmp_path, left, right)
            assert r.verdict == "error" and "is not modelled" in (r.reason or ""), (fmt, left_col, r.reason)


def test_filter_on_double_group_key_above_aggregate_waits_for_spark(tmp_path: Path) -> None:
    """Spark's optimizer moves a filter on a grouping key below the aggregate, where -0.0 is not yet
    0.0: on t = [-0.0] Spark 4 gives no row for ``groupBy(d).count().filter(cast(d AS string) = '0.0')``
    (and on [0.0, -0.0, -0.0] the same rows filter above or below: c=1 for '0.0', c=2 for '-0.0'). The
    interpreter grouped first and kept ``(0.0, 1)``, so the pair was ``not equivalent`` with a
    counterexample Spark refutes. Now such a difference waits for Spark (a caveat), never a verdict."""
    body = 'def f(t: T) -> DataFrame:\n    return {}\n'
    p = 'F.col("d").cast("string") == "0.0"'
    head = _WIN_HEAD.split("def f")[0]
    left = head + body.format(f't.groupBy("d").agg(F.count("*").alias("c")).filter({p})')
    right = head + body.format(f't.filter({p}).groupBy("d").agg(F.count("*").alias("c"))')
    a, b = tmp_path / "left.py", tmp_path / "right.py"
    a.write_text(left)
    b.write_text(right)
    r = check(f"{a}::f", f"{b}::f", replay=False)
    assert r.verdict == "unknown", r.reason
