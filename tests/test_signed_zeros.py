"""Issue 26, family "Signed zeros are different outputs".

Spark returns ``-0.0`` and ``0.0`` as different values: they print and save differently and
``math.copysign``/``1 / x`` tell them apart (checked on Spark 4, ``docs/semantics-notes.md``). Outputs are
therefore compared by representation everywhere (``values.outcomes_equal``, ``encoder.basic.sym_eq``,
the relational ``smt.same``), while program comparisons (``x == 0.0``) keep Python's IEEE ``==`` and
shuffle keys keep Spark's hash-and-``==`` matching (``key_eq``: one key, the first seen is kept).

``WRONG`` pairs were proved ``equivalent`` (or the interpreter could not tell their outcomes apart) before
the fix; each test checks that the reference interpreter now shows the difference on the input given and
that the verdict is not ``equivalent``. ``PROVED`` pairs are truly equal and must stay provable.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
import z3

from sparklite.interpreter import run
from sparklite.parser import parse
from sparklite.values import Bag, DictValue, outcomes_equal
from verifier import check

F = "R: Bag[Float]"
FF = "R: Bag[Float], S: Bag[Float]"
KF = "R: Bag[(Str, Float)]"
KFF = "R: Bag[(Str, Float)], S: Bag[(Str, Float)]"


def prog(params: str, body: str):
    return parse(f"program P({params}) =\n{body}\n")


# (params, left, right, inputs, refuted): refuted -> a counterexample is expected, not just "not proved"
WRONG = {
    "x_plus_zero_vs_x": (F, "map(lambda x -> x + 0.0)(R)", "R", {"R": [-0.0]}, True),
    "abs_vs_conditional_negation": (
        F, "map(lambda x -> abs(x))(R)", "map(lambda x -> if x >= 0.0 then x else -x)(R)", {"R": [-0.0]},
        True),
    "zero_minus_x_vs_negation": (
        F, "map(lambda x -> 0.0 - x)(R)", "map(lambda x -> -x)(R)", {"R": [0.0]}, True),
    "signed_zero_nested_in_a_tuple": (
        F, "map(lambda x -> (1, x + 0.0))(R)", "map(lambda x -> (1, x))(R)", {"R": [-0.0]}, True),
    # sums of -0.0: a fold from -0.0 keeps the sign on an empty bag, Python's sum() starts from the int 0
    "fold_from_minus_zero_vs_from_zero": (
        F, "fold(-0.0, lambda (a, b) -> a + b)(R)", "fold(0.0, lambda (a, b) -> a + b)(R)", {"R": []}, False),
    "group_sum_vs_reduce_by_key_of_minus_zero": (
        KF, "groupByKey(sum)(R)", "reduceByKey(lambda (a, b) -> a + b)(R)", {"R": [("a", -0.0)]}, False),
    # max/min keep the first of -0.0 and 0.0: the order of the elements decides (NaN filtered out, so
    # that only the signed zeros can show it)
    "max_over_swapped_union": (
        FF, "max(filter(lambda x -> x == x)(union(R, S)))", "max(filter(lambda x -> x == x)(union(S, R)))",
        {"R": [-0.0], "S": [0.0]}, False),
    "min_over_swapped_union": (
        FF, "min(filter(lambda x -> x == x)(union(R, S)))", "min(filter(lambda x -> x == x)(union(S, R)))",
        {"R": [-0.0], "S": [0.0]}, False),
    "group_max_over_swapped_union": (
        KFF, "groupByKey(max)(filter(lambda kv -> kv[1] == kv[1])(union(R, S)))",
        "groupByKey(max)(filter(lambda kv -> kv[1] == kv[1])(union(S, R)))",
        {"R": [("a", -0.0)], "S": [("a", 0.0)]}, False),
    "reduce_max_swapped_arguments": (
        F, "reduce(lambda (a, b) -> max(a, b))(R)", "reduce(lambda (a, b) -> max(b, a))(R)",
        {"R": [0.0, -0.0]}, False),
}

PROVED = {
    "double_negation": (F, "map(lambda x -> -(-x))(R)", "R"),
    "abs_of_negation": (F, "map(lambda x -> abs(-x))(R)", "map(lambda x -> abs(x))(R)"),
    # inside a lambda == is Python's: -0.0 == 0.0, so both filters keep the same elements
    "program_equality_keeps_ieee": (F, "filter(lambda x -> x == 0.0)(R)", "filter(lambda x -> x == -0.0)(R)"),
}


@pytest.mark.parametrize("name", sorted(WRONG))
def test_signed_zero_pair_is_not_equivalent(name: str) -> None:
    params, left_src, right_src, inputs, refuted = WRONG[name]
    left, right = prog(params, left_src), prog(params, right_src)
    assert not outcomes_equal(run(left, inputs), run(right, inputs)), "the interpreter must tell them apart"
    result = check(left, right, replay=False, timeout=30)
    assert result.verdict != "equivalent", f"{name}: {result.explanation}"
    if refuted:
        assert result.verdict == "not_equivalent", f"{name}: {result.explanation}"


@pytest.mark.parametrize("name", sorted(PROVED))
def test_true_equivalence_with_signed_zeros_is_proved(name: str) -> None:
    params, left_src, right_src = PROVED[name]
    left, right = prog(params, left_src), prog(params, right_src)
    for xs in ([-0.0], [0.0, -0.0, 1.5], [float("nan"), -0.0]):
        assert outcomes_equal(run(left, {"R": xs}), run(right, {"R": xs}))
    assert check(left, right, replay=False, timeout=30).verdict == "equivalent"


def test_outputs_compare_by_representation_keys_by_python_equality() -> None:
    from encoder.basic import key_eq, sym_eq

    assert not outcomes_equal(0.0, -0.0) and outcomes_equal(-0.0, -0.0)
    assert outcomes_equal(float("nan"), float("nan"))
    assert not outcomes_equal(Bag.of([0.0, -0.0]), Bag.of([0.0, 0.0]))
    assert outcomes_equal(Bag.of([0.0, -0.0]), Bag.of([-0.0, 0.0]))
    assert not outcomes_equal(DictValue.of({"a": -0.0}), DictValue.of({"a": 0.0}))
    neg, pos, nan = (z3.FPVal(v, z3.Float64()) for v in (-0.0, 0.0, float("nan")))
    one = z3.IntVal(1)
    for formula, expected in ((sym_eq(neg, pos), False), (sym_eq(nan, nan), True), (sym_eq(neg, neg), True),
                              (key_eq(neg, pos), True), (sym_eq((neg, one), (pos, one)), False)):
        assert z3.is_true(z3.simplify(formula)) == expected


KEYED = "R: Bag[(Float, Int)]"


@pytest.mark.parametrize(("params", "body", "inputs", "parts", "expected"), [
    # checked on Spark 4 local[2] (docs/semantics-notes.md): one key, the first seen is the one kept
    (KEYED, "reduceByKey(lambda (a, b) -> a + b)(R)", [(-0.0, 1), (0.0, 2)], None, Bag(((-0.0, 3),))),
    (KEYED, "reduceByKey(lambda (a, b) -> a + b)(R)", [(0.0, 1), (-0.0, 2)], None, Bag(((0.0, 3),))),
    (KEYED, "reduceByKey(lambda (a, b) -> a + b)(R)", [(-0.0, 1), (0.0, 2)], (((-0.0, 1),), ((0.0, 2),)),
     Bag(((-0.0, 3),))),
    (F, "distinct(R)", [-0.0, 0.0], None, Bag((-0.0,))),
    (F, "distinct(R)", [0.0, -0.0], None, Bag((0.0,))),
    (F, "countByValue(R)", [-0.0, 0.0], None, DictValue(((-0.0, 2),))),
    (KEYED, "collectAsMap(R)", [(-0.0, 1), (0.0, 2)], None, DictValue(((-0.0, 2),))),
    ("R: Bag[(Float, Str)], S: Bag[(Float, Str)]", "join(R, S)", {"S": [(0.0, "b")]}, None,
     Bag(((-0.0, ("a", "b")),))),
    (F, "max(R)", [-0.0, 0.0], None, -0.0),
    (F, "max(R)", [0.0, -0.0], ((0.0,), (-0.0,)), 0.0),
    (F, "sum(R)", [-0.0, -0.0], None, 0.0),
])
def test_interpreter_keeps_the_first_signed_zero_key_as_spark(params, body, inputs, parts, expected) -> None:
    if isinstance(inputs, dict):
        inputs = {"R": [(-0.0, "a")], **inputs}
    else:
        inputs = {"R": inputs}
    out = run(prog(params, body), inputs, {"R": parts} if parts else None)
    assert outcomes_equal(out, expected), out


# ---- DataFrames ---------------------------------------------------------------------------------

HEAD = '''from typing import Annotated
from pyspark.sql import DataFrame, functions as F

T = Annotated[DataFrame, "k INT, x DOUBLE"]

'''

DF_WRONG = {
    "x_plus_zero": ("t.select((F.col('x') + 0.0).alias('x'))", "t.select(F.col('x').alias('x'))"),
    "abs": ("t.select(F.abs('x').alias('x'))",
            "t.select(F.when(F.col('x') >= 0, F.col('x')).otherwise(-F.col('x')).alias('x'))"),
    "zero_minus_x": ("t.select((F.lit(0.0) - F.col('x')).alias('x'))", "t.select((-F.col('x')).alias('x'))"),
    "sum_vs_max_of_minus_zero": ("t.groupBy('k').agg(F.sum('x').alias('s'))",
                                 "t.groupBy('k').agg(F.max('x').alias('s'))"),
}


def _df_pair(tmp: Path, left: str, right: str, params: str = "t: T") -> tuple[str, str]:
    for side, body in (("l", left), ("r", right)):
        (tmp / f"{side}.py").write_text(HEAD + f"def f({params}) -> DataFrame:\n    return {body}\n")
    return f"{tmp}/l.py::f", f"{tmp}/r.py::f"


@pytest.mark.parametrize("name", sorted(DF_WRONG))
def test_dataframe_signed_zero_column_is_a_different_output(name: str, tmp_path: Path) -> None:
    left, right = _df_pair(tmp_path, *DF_WRONG[name])
    result = check(left, right, replay=False, timeout=30)
    assert result.verdict == "not_equivalent", result.explanation
    cells = [row["x" if "x" in row else "s"] for t in result.counterexample.inputs.values() for row in t]
    assert any(c == 0.0 for c in cells)


def test_dataframe_distinct_normalises_so_plus_zero_under_it_is_proved(tmp_path: Path) -> None:
    left, right = _df_pair(tmp_path, "t.select('x').distinct()",
                           "t.select((F.col('x') + 0.0).alias('x')).distinct()")
    assert check(left, right, replay=False, timeout=30).verdict == "equivalent"


def test_sql_distinct_over_a_key_still_normalises_minus_zero(tmp_path: Path) -> None:
    # DISTINCT outputs -0.0 as 0.0 even when a primary key says there is nothing to remove
    (tmp_path / "s.sql").write_text("CREATE TABLE t (id INT NOT NULL, x DOUBLE, PRIMARY KEY (id));\n")
    (tmp_path / "l.sql").write_text("SELECT DISTINCT id, x FROM t")
    (tmp_path / "r.sql").write_text("SELECT id, x FROM t")
    result = check(str(tmp_path / "l.sql"), str(tmp_path / "r.sql"), schema=str(tmp_path / "s.sql"),
                   replay=False, timeout=30)
    assert result.verdict == "not_equivalent", result.explanation


def test_dataframe_max_min_of_doubles_states_the_order_assumption(tmp_path: Path) -> None:
    # Spark's max/min keep the first of -0.0 and 0.0 they meet: a union in the other order may differ.
    # The prover compares aggregates over equal bags, so the proof says what it assumes.
    for agg in ("max", "min"):
        left, right = _df_pair(tmp_path, f"t.union(u).groupBy('k').agg(F.{agg}('x').alias('m'))",
                               f"u.union(t).groupBy('k').agg(F.{agg}('x').alias('m'))", "t: T, u: T")
        result = check(left, right, replay=False, timeout=30)
        if result.verdict == "equivalent":
            assert any("-0.0" in a for a in result.assumptions), result.assumptions


# ---- replay on Spark ----------------------------------------------------------------------------


@pytest.mark.spark
def test_signed_zero_counterexamples_replay_on_spark(spark_session) -> None:
    left = prog(F, "map(lambda x -> abs(x))(R)")
    right = prog(F, "map(lambda x -> if x >= 0.0 then x else -x)(R)")
    result = check(left, right, replay=True, timeout=60)
    assert result.verdict == "not_equivalent", result.explanation
    assert result.counterexample.replayed_on_spark
    with tempfile.TemporaryDirectory() as tmp:
        lpath, rpath = _df_pair(Path(tmp), *DF_WRONG["x_plus_zero"])
        df = check(lpath, rpath, replay=True, timeout=60)
        assert df.verdict == "not_equivalent", df.explanation
        assert df.counterexample.replayed_on_spark


# ---- distinct over a plan of at most one row (issue 26, review 26) -----------------------------------
# Spark's OptimizeOneRowPlan removes a grouping-only Aggregate (distinct, dropDuplicates, SELECT DISTINCT)
# whose input has at most one row, so -0.0 survives it: on t = [(1, -0.0)] ``agg(min).distinct()`` is
# [-0.0] while the union-with-a-filter form (two rows bound) is [0.0]. Found wrongly proved.

MIN = "t.agg(F.min('x').alias('m'))"
ONE_ROW_WRONG_PROVED = {
    "min_distinct": (f"{MIN}.distinct()", f"{MIN}.union({MIN}.filter(F.col('m') > 0)).distinct()"),
    "orderby_limit1_distinct": (
        "t.select('x').orderBy('x').limit(1).distinct()",
        "t.select('x').orderBy('x').limit(1).union(t.select('x').orderBy('x').limit(1)"
        ".filter(F.col('x') > 0)).distinct()"),
    "max_drop_duplicates": (
        "t.agg(F.max('x').alias('m')).dropDuplicates()",
        "t.agg(F.max('x').alias('m')).union(t.agg(F.max('x').alias('m')).filter(F.col('m') > 0))"
        ".dropDuplicates()"),
}
# Spark gives -0.0 on both sides: a difference the interpreter shows must wait for Spark
ONE_ROW_NOT_DEFINITE = {
    "min_distinct_vs_min": (f"{MIN}.distinct()", MIN),
    "limit1_distinct_vs_limit1": ("t.select('x').orderBy('x').limit(1).distinct()",
                                  "t.select('x').orderBy('x').limit(1)"),
    "min_intersect_vs_min": (f"{MIN}.intersect({MIN})", MIN),
}
MINUS_ZERO_T = {"t": [(1, -0.0)]}


def _relational(path: str):
    from verifier.core.loading import load_relational  # noqa: PLC0415 - test-local helper

    return load_relational(path)


@pytest.mark.parametrize("name", sorted(ONE_ROW_WRONG_PROVED))
def test_distinct_over_one_row_plan_is_not_proved(name: str, tmp_path: Path) -> None:
    left, right = _df_pair(tmp_path, *ONE_ROW_WRONG_PROVED[name])
    result = check(left, right, replay=False, timeout=30)
    assert result.verdict != "equivalent", result.explanation


def test_distinct_over_a_join_is_not_proved_adaptive_execution_may_drop_it(tmp_path: Path) -> None:
    # with adaptive execution (Spark's default) the distinct over a join stage that ran with one row is
    # removed too: on t = u = [(1, -0.0)] the left keeps -0.0, the right shows 0.0
    join = "t.join(u, 'k').select(t['x'])"
    left, right = _df_pair(tmp_path, f"{join}.distinct()",
                           f"{join}.select((F.col('x') + 0.0).alias('x')).distinct()", "t: T, u: T")
    result = check(left, right, replay=False, timeout=30)
    assert result.verdict != "equivalent", result.explanation


def test_sql_select_distinct_over_a_global_aggregate_is_not_proved(tmp_path: Path) -> None:
    head = HEAD.replace("DataFrame, functions", "DataFrame, SparkSession, functions")
    inner = "SELECT min(x) AS m FROM tv"
    union = f"{inner} UNION ALL SELECT m FROM ({inner}) WHERE m > 0"
    for side, query in (("l", f"SELECT DISTINCT m FROM ({inner})"),
                        ("r", f"SELECT DISTINCT m FROM ({union})")):
        (tmp_path / f"{side}.py").write_text(
            head + "def f(spark: SparkSession, t: T) -> DataFrame:\n    t.createOrReplaceTempView('tv')\n"
            f"    return spark.sql({query!r})\n")
    result = check(f"{tmp_path}/l.py::f", f"{tmp_path}/r.py::f", replay=False, timeout=30)
    assert result.verdict != "equivalent", result.explanation


@pytest.mark.parametrize("name", sorted(ONE_ROW_NOT_DEFINITE))
def test_distinct_over_one_row_plan_is_not_refuted_without_spark(name: str, tmp_path: Path) -> None:
    left, right = _df_pair(tmp_path, *ONE_ROW_NOT_DEFINITE[name])
    result = check(left, right, replay=False, timeout=30)
    assert result.verdict != "not_equivalent", result.explanation


def test_interpreter_flags_a_distinct_spark_may_drop() -> None:
    from sparklite.relational import ast as R
    from sparklite.relational.interpreter import CAVEAT_KEPT_MINUS_ZERO
    from sparklite.relational.interpreter import run as rel_run
    from sparklite.relational.rows import max_rows
    from sparklite.relational.types import BIGINT, DOUBLE, Field, Schema

    t = R.Table("t", Schema((Field("k", BIGINT, True), Field("x", DOUBLE, True))))
    x = R.Col(1, "x", DOUBLE, True)
    m = R.Aggregate(t, (), (R.AggCall("min", (x,), DOUBLE, True),), Schema((Field("m", DOUBLE, True),)))
    xs = R.Project(t, (x,), Schema((Field("x", DOUBLE, True),)))
    limit1 = R.Limit(R.Sort(xs, (R.SortKey(R.Col(0, "x", DOUBLE, True)),)), 1)
    assert max_rows(t) is None and max_rows(m) == 1 and max_rows(limit1) == 1
    intersect = R.SetOp("intersect", False, m, m, m.schema)
    for rel in (R.Distinct(m), R.DropDuplicates(m, ()), R.Distinct(limit1), intersect):
        outcome = rel_run(R.RelProgram("P", (R.TableParam("t", t.schema),), rel), MINUS_ZERO_T)
        assert CAVEAT_KEPT_MINUS_ZERO in outcome.caveats, rel
    # adaptive execution: a distinct over a join (a query stage) that gave one row
    both = Schema(t.schema.fields + (Field("k2", BIGINT, True), Field("x2", DOUBLE, True)))
    on = R.Cmp("=", R.Col(0, "k", BIGINT, True), R.Col(2, "k2", BIGINT, True), True)
    joined = R.Join("inner", t, t, on, both)
    over_join = R.RelProgram("P", (R.TableParam("t", t.schema),), R.Distinct(joined))
    assert CAVEAT_KEPT_MINUS_ZERO in rel_run(over_join, MINUS_ZERO_T).caveats
    assert CAVEAT_KEPT_MINUS_ZERO not in rel_run(over_join, {"t": [(1, -0.0), (2, -0.0)]}).caveats
    # a distinct over an input table of unknown size normalises as modelled: no caveat
    plain = rel_run(R.RelProgram("P", (R.TableParam("t", t.schema),), R.Distinct(t)), MINUS_ZERO_T)
    assert CAVEAT_KEPT_MINUS_ZERO not in plain.caveats


@pytest.mark.spark
def test_distinct_over_one_row_plan_keeps_minus_zero_on_spark(spark_session) -> None:
    from pyspark.sql import functions as F  # noqa: N812

    t = spark_session.createDataFrame([("a", -0.0)], "k STRING, x DOUBLE")
    m = t.agg(F.min("x").alias("m"))
    kept = m.distinct().collect()[0][0]
    normalised = m.union(m.filter(F.col("m") > 0)).distinct().collect()[0][0]
    assert str(kept) == "-0.0" and str(normalised) == "0.0"
    lim = t.select("x").orderBy("x").limit(1)
    assert str(lim.distinct().collect()[0][0]) == "-0.0"
    assert str(m.intersect(m).collect()[0][0]) == "-0.0"
    assert str(m.exceptAll(m.filter(F.lit(False))).collect()[0][0]) == "0.0"
    # adaptive execution removes a distinct over a stage (here a join) that ran with one row
    u = spark_session.createDataFrame([("a", 1)], "k STRING, y INT")
    assert str(t.join(u, "k").select("x").distinct().collect()[0][0]) == "-0.0"
    assert str(t.select("x").distinct().collect()[0][0]) == "0.0"


# Spark's RemoveRedundantAggregates drops a distinct under an aggregate of duplicate-agnostic functions
# (min, max): on [-0.0], t.select("x").distinct().agg(min) is -0.0, the same with x + 0.0 is 0.0 (Spark 4
# local[2]); the first pair was proved equivalent before rows.under_aggregate.
UNDER_MIN = "t.select('x').distinct().agg(F.min('x').alias('m'))"


def test_distinct_under_a_min_is_not_proved(tmp_path: Path) -> None:
    left, right = _df_pair(tmp_path, UNDER_MIN,
                           "t.select((F.col('x') + 0.0).alias('x')).distinct().agg(F.min('x').alias('m'))")
    result = check(left, right, replay=False, timeout=30)
    assert result.verdict != "equivalent", result.explanation


def test_distinct_under_a_min_is_not_refuted_without_spark(tmp_path: Path) -> None:
    left, right = _df_pair(tmp_path, UNDER_MIN, "t.agg(F.min('x').alias('m'))")
    result = check(left, right, replay=False, timeout=30)
    assert result.verdict != "not_equivalent", result.explanation


@pytest.mark.spark
def test_distinct_under_a_min_keeps_minus_zero_on_spark(spark_session) -> None:
    from pyspark.sql import functions as F  # noqa: N812

    t = spark_session.createDataFrame([(1, -0.0)], "k INT, x DOUBLE")
    kept = t.select("x").distinct().agg(F.min("x").alias("m")).collect()[0][0]
    plus = t.select((F.col("x") + 0.0).alias("x")).distinct().agg(F.min("x").alias("m")).collect()[0][0]
    assert (str(kept), str(plus)) == ("-0.0", "0.0")
