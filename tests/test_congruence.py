"""Congruence (issue 22): programs that are the same kernel term up to renaming of bound names are
proved at once, in every kind; mutations that change what is observed are never proved by congruence.

Every pair here is checked without replay. A pair that is not congruent may still be proved by another
method (or refuted): what these tests pin is that ``congruence`` never claims it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from verifier import check

METHOD = "congruence"

# ---------------------------------------------------------------------------------------------------
# RDD programs
# ---------------------------------------------------------------------------------------------------

RDD_BASE = '''
def half(x):
    return x // 2

def f(r, s):
    a = r.map(half).filter(lambda v: v > 1)
    pairs = a.map(lambda w: (w % 3, w))
    return pairs.reduceByKey(lambda p, q: p + q).join(s.map(lambda z: (z, 1)))
'''

RDD_RENAMED = '''
def halve(value):
    return value // 2

def g(left, right):
    kept = left.map(halve).filter(lambda n: n > 1)
    keyed = kept.map(lambda e: (e % 3, e))
    return keyed.reduceByKey(lambda acc, y: acc + y).join(right.map(lambda k: (k, 1)))
'''


def _py(tmp_path: Path, name: str, text: str, fn: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(text)
    return f"{path}::{fn}"


def test_rdd_program_equal_to_itself_and_to_a_renaming(tmp_path: Path) -> None:
    base = _py(tmp_path, "base", RDD_BASE, "f")
    same = check(base, base, timeout=10)
    assert (same.verdict, same.method) == ("equivalent", METHOD)
    assert "the same" in (same.reason or "")
    renamed = check(base, _py(tmp_path, "renamed", RDD_RENAMED, "g"), timeout=10)
    assert (renamed.verdict, renamed.method) == ("equivalent", METHOD)
    assert "renaming" in (renamed.reason or "") and "half -> halve" in (renamed.reason or "")
    # it may raise (x // 2 of a non-int never happens, but ``reduceByKey`` over ints is fine): the
    # program holds no raising operation, so no caveat about error sets
    assert renamed.to_json()["method"] == METHOD


@pytest.mark.parametrize("mutant", [
    RDD_RENAMED.replace("// 2", "// 3"),                                 # a changed constant
    RDD_RENAMED.replace("lambda acc, y: acc + y", "lambda acc, y: y + acc"),  # operands swapped
    RDD_RENAMED.replace("lambda acc, y: acc + y", "lambda y, acc: acc + y"),  # parameters swapped
    RDD_RENAMED.replace("def g(left, right)", "def g(right, left)"),     # inputs swapped
    RDD_RENAMED.replace("n > 1", "n >= 1"),
])
def test_rdd_mutations_are_not_congruent(tmp_path: Path, mutant: str) -> None:
    result = check(_py(tmp_path, "base", RDD_BASE, "f"), _py(tmp_path, "mutant", mutant, "g"), timeout=5)
    assert result.method != METHOD


def test_rdd_program_that_may_raise_lists_error_sets(tmp_path: Path) -> None:
    text = "def f(r, d):\n    return r.map(lambda x: 10 // (x - d)).reduce(lambda a, b: a + b)\n"
    other = "def f(r, d):\n    return r.map(lambda y: 10 // (y - d)).reduce(lambda u, v: u + v)\n"
    result = check(_py(tmp_path, "a", text, "f"), _py(tmp_path, "b", other, "f"), timeout=10)
    assert (result.verdict, result.method) == ("equivalent", METHOD)
    assert any("sets of possible errors" in a for a in result.assumptions)


def test_shadowing_a_helper_is_not_renaming(tmp_path: Path) -> None:
    """A lambda parameter named like a helper, calling it: which one is called must not be guessed."""
    left = "def inc(x):\n    return x + 1\n\ndef f(r):\n    return r.map(lambda v: inc(v))\n"
    right = "def inc(x):\n    return x + 2\n\ndef f(r):\n    return r.map(lambda v: inc(v))\n"
    result = check(_py(tmp_path, "a", left, "f"), _py(tmp_path, "b", right, "f"), timeout=5)
    assert result.method != METHOD


# ---------------------------------------------------------------------------------------------------
# DataFrame / SQL programs
# ---------------------------------------------------------------------------------------------------

SCHEMA = "CREATE TABLE t (a INT, b INT, s STRING);\nCREATE TABLE u (a INT, b INT, s STRING);\n"


@pytest.fixture
def schema(tmp_path: Path) -> str:
    path = tmp_path / "tables.sql"
    path.write_text(SCHEMA)
    return str(path)


def _sql(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / f"{name}.sql"
    path.write_text(text)
    return str(path)


SQL_BASE = ("WITH c AS (SELECT a, b AS bb, CAST(s AS INT) AS n FROM t WHERE a > 1) "
            "SELECT x.a AS out_a, SUM(x.n) AS total FROM c x JOIN u ON x.bb = u.b "
            "WHERE u.a NOT IN (SELECT a FROM t WHERE b = 0) GROUP BY x.a")
SQL_RENAMED = ("WITH renamed AS (SELECT a, b AS k, CAST(s AS INT) AS m FROM t WHERE a > 1) "
               "SELECT y.a AS out_a, SUM(y.m) AS total FROM renamed y JOIN u ON y.k = u.b "
               "WHERE u.a NOT IN (SELECT a FROM t WHERE b = 0) GROUP BY y.a")


def test_sql_equal_to_itself_and_to_a_renaming(tmp_path: Path, schema: str) -> None:
    base = _sql(tmp_path, "base", SQL_BASE)
    same = check(base, base, timeout=10, schema=schema)
    assert (same.verdict, same.method) == ("equivalent", METHOD)
    renamed = check(base, _sql(tmp_path, "renamed", SQL_RENAMED), timeout=10, schema=schema)
    assert (renamed.verdict, renamed.method) == ("equivalent", METHOD)
    assert "bb -> k" in (renamed.reason or "")
    # CAST(s AS INT) and SUM may raise: errors are compared as sets, and the result says so
    assert any("sets of possible errors" in a for a in renamed.assumptions)


def test_sql_inlined_cte_is_congruent(tmp_path: Path, schema: str) -> None:
    inlined = ("SELECT y.a AS out_a, SUM(y.m) AS total FROM (SELECT a, b AS k, CAST(s AS INT) AS m FROM t "
               "WHERE a > 1) y JOIN u ON y.k = u.b WHERE u.a NOT IN (SELECT a FROM t WHERE b = 0) "
               "GROUP BY y.a")
    base = _sql(tmp_path, "base", SQL_BASE)
    result = check(base, _sql(tmp_path, "inl", inlined), timeout=10, schema=schema)
    assert (result.verdict, result.method) == ("equivalent", METHOD)


@pytest.mark.parametrize("mutant", [
    SQL_RENAMED.replace("a > 1", "a > 2"),                # a changed constant
    SQL_RENAMED.replace("AS total", "AS sum_m"),          # a changed output name
    SQL_RENAMED.replace("FROM t WHERE a > 1", "FROM u WHERE a > 1"),  # another table read
    SQL_RENAMED.replace("y.k = u.b", "y.k = u.a"),
    SQL_RENAMED.replace("NOT IN", "IN"),
])
def test_sql_mutations_are_not_congruent(tmp_path: Path, schema: str, mutant: str) -> None:
    result = check(_sql(tmp_path, "base", SQL_BASE), _sql(tmp_path, "m", mutant), timeout=5, schema=schema)
    assert result.method != METHOD


def test_output_names_count_unless_ignored(tmp_path: Path, schema: str) -> None:
    left = _sql(tmp_path, "l", "SELECT a AS x, b FROM t")
    right = _sql(tmp_path, "r", "SELECT a AS y, b FROM t")
    assert check(left, right, timeout=5, schema=schema).method != METHOD
    by_position = check(left, right, timeout=5, schema=schema, ignore_names=True)
    assert (by_position.verdict, by_position.method) == ("equivalent", METHOD)


def test_limit_without_order_is_a_set_of_outcomes(tmp_path: Path, schema: str) -> None:
    q = _sql(tmp_path, "q", "SELECT a FROM t LIMIT 2")
    result = check(q, q, timeout=5, schema=schema)
    assert (result.verdict, result.method) == ("equivalent", METHOD)
    assert any("limit" in a and "same set of possible outcomes" in a for a in result.assumptions)


def test_dataframe_function_renaming(tmp_path: Path) -> None:
    head = 'from typing import Annotated\nfrom pyspark.sql import DataFrame, functions as F\n' \
           'T = Annotated[DataFrame, "a INT, b INT"]\n'
    left = head + ("def f(t: T, v: T) -> DataFrame:\n    x = t.withColumn('c', F.col('a') + 1)\n"
                   "    return x.join(v, 'a').groupBy('a').agg(F.sum('c').alias('s'))\n")
    right = head + ("def g(p: T, q: T) -> DataFrame:\n    tmp = p.withColumn('c', F.col('a') + 1)\n"
                    "    return tmp.join(q, 'a').groupBy('a').agg(F.sum('c').alias('s'))\n")
    swapped = right.replace("def g(p: T, q: T)", "def g(q: T, p: T)")
    result = check(_py(tmp_path, "l", left, "f"), _py(tmp_path, "r", right, "g"), timeout=10)
    assert (result.verdict, result.method) == ("equivalent", METHOD)
    other = check(_py(tmp_path, "l", left, "f"), _py(tmp_path, "s", swapped, "g"), timeout=5)
    assert other.method != METHOD


# ---------------------------------------------------------------------------------------------------
# Whole scripts
# ---------------------------------------------------------------------------------------------------

RDD_SCRIPT = '''import sys
from pyspark import SparkContext

sc = SparkContext(appName="totals")
lines = sc.textFile(sys.argv[1])
pairs = lines.map(lambda line: line.split(",")).map(lambda f: (f[0], int(f[1])))
totals = pairs.reduceByKey(lambda a, b: a + b)
for key, total in totals.collect():
    print("%s: %d" % (key, total))
'''

RDD_SCRIPT_RENAMED = '''import sys
from pyspark import SparkContext

context = SparkContext(appName="other name")
path = sys.argv[1]
text = context.textFile(path)
kv = text.map(lambda l: l.split(",")).map(lambda fields: (fields[0], int(fields[1])))
sums = kv.reduceByKey(lambda x, y: x + y)
for k, v in sums.collect():
    print("%s: %d" % (k, v))
'''


def _script(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(text)
    return str(path)


def test_rdd_script_equal_to_itself_and_to_a_renaming(tmp_path: Path) -> None:
    base = _script(tmp_path, "base", RDD_SCRIPT)
    same = check(base, base, timeout=10)
    assert (same.verdict, same.method) == ("equivalent", METHOD)
    assert any("command-line argument" in a for a in same.assumptions)
    renamed = check(base, _script(tmp_path, "renamed", RDD_SCRIPT_RENAMED), timeout=10)
    assert (renamed.verdict, renamed.method) == ("equivalent", METHOD)


@pytest.mark.parametrize("mutant", [
    RDD_SCRIPT_RENAMED.replace("path = sys.argv[1]", "path = 'data/in.txt'"),   # another file
    RDD_SCRIPT_RENAMED.replace('"%s: %d"', '"%s = %d"'),                        # other printed text
    RDD_SCRIPT_RENAMED.replace("fields[1]", "fields[2]"),
    RDD_SCRIPT_RENAMED.replace("text = context.textFile(path)",
                               "text = context.textFile(path)\ntext.saveAsTextFile('out')"),
])
def test_rdd_script_mutations_are_not_congruent(tmp_path: Path, mutant: str) -> None:
    base = _script(tmp_path, "base", RDD_SCRIPT)
    result = check(base, _script(tmp_path, "mutant", mutant), timeout=5)
    assert result.method != METHOD


def test_rdd_scripts_reading_different_argument_files(tmp_path: Path) -> None:
    two = RDD_SCRIPT.replace("lines = sc.textFile(sys.argv[1])",
                             "lines = sc.textFile(sys.argv[1])\nother = sc.textFile(sys.argv[2])\n"
                             "print(other.count())")
    swapped = two.replace("sc.textFile(sys.argv[1])", "sc.textFile(sys.argv[@])") \
        .replace("sc.textFile(sys.argv[2])", "sc.textFile(sys.argv[1])").replace("[@]", "[2]")
    result = check(_script(tmp_path, "a", two), _script(tmp_path, "b", swapped), timeout=5)
    assert result.method != METHOD


DF_SCRIPT = '''import sys
from pyspark.sql import SparkSession, functions as F

spark = SparkSession.builder.getOrCreate()
emp = spark.read.csv(sys.argv[1], header=True, schema="name STRING, dept STRING, salary INT")
by_dept = emp.groupBy("dept").agg(F.sum("salary").alias("total"))
by_dept.orderBy("dept").show()
by_dept.write.csv(sys.argv[2])
'''

DF_SCRIPT_RENAMED = '''import sys
from pyspark.sql import SparkSession, functions as F

session = SparkSession.builder.appName("x").getOrCreate()
people = session.read.csv(sys.argv[1], header=True, schema="name STRING, dept STRING, salary INT")
people.createOrReplaceTempView("staff")
grouped = session.sql("SELECT dept, SUM(salary) AS total FROM staff s GROUP BY s.dept")
grouped.orderBy("dept").show()
grouped.write.csv(sys.argv[2])
'''


def test_df_script_equal_to_itself_and_to_a_renaming(tmp_path: Path) -> None:
    base = _script(tmp_path, "base", DF_SCRIPT)
    same = check(base, base, timeout=10)
    assert (same.verdict, same.method) == ("equivalent", METHOD)
    renamed = check(base, _script(tmp_path, "renamed", DF_SCRIPT_RENAMED), timeout=10)
    assert renamed.verdict == "equivalent"


@pytest.mark.parametrize("mutant", [
    DF_SCRIPT.replace("by_dept.write.csv(sys.argv[2])", "by_dept.write.csv('out')"),  # another path
    DF_SCRIPT.replace('alias("total")', 'alias("sum")'),                            # a printed name
    DF_SCRIPT.replace(".show()", ".show(5)"),
    DF_SCRIPT.replace('orderBy("dept")', 'orderBy("total")'),
])
def test_df_script_mutations_are_not_congruent(tmp_path: Path, mutant: str) -> None:
    result = check(_script(tmp_path, "base", DF_SCRIPT), _script(tmp_path, "mutant", mutant), timeout=5)
    assert result.method != METHOD


# ---------------------------------------------------------------------------------------------------
# Fuzz: renamings are proved by congruence, renamed mutations are never proved wrongly
# (``tests/fuzz_congruence.py``; ``scripts/fuzz_nightly.py --flavor congruence|rel-congruence``)
# ---------------------------------------------------------------------------------------------------

FUZZ_PAIRS = 60


def _renamings_proved(campaign: Any) -> None:
    renamed = [r for r in campaign.checked if r.steps == ("rename",)]
    assert renamed, campaign.summary()
    missed = [r for r in renamed if (r.verdict, r.method) != ("equivalent", METHOD)]
    assert not missed, [(r.index, r.verdict, r.method) for r in missed]


def test_fuzz_rdd_renamings_and_mutations() -> None:
    from test_soundness_fuzz import SEED, assert_sound, run_campaign

    campaign = run_campaign(SEED, FUZZ_PAIRS, flavor="congruence")
    assert_sound(campaign, FUZZ_PAIRS)
    _renamings_proved(campaign)


def test_fuzz_relational_renamings_and_variants() -> None:
    from test_rel_soundness_fuzz import SEED, check_pair, summary
    from test_soundness_fuzz import assert_sound, run_campaign

    campaign = run_campaign(SEED, FUZZ_PAIRS, timeout_s=0.5, flavor="rel-congruence", pair_fn=check_pair)
    print(summary(campaign))
    assert_sound(campaign, FUZZ_PAIRS)
    _renamings_proved(campaign)
