"""The DataFrame frontend (``frontend.dataframe.translator``) against a real Spark.

Each corpus entry is a small PySpark DataFrame function, written as people write them. The test
translates it (reading the source only) and runs the *original* function on Spark (exec'ing the test's
own corpus is fine here) over small tables with NULLs, INT boundaries and duplicate rows: the
translation's output columns (names and types) must be Spark's ``df.dtypes``, and, once the
relational interpreter is there, the interpreter's outcome on the translation must be Spark's
(rows as bags, or tie groups after ``orderBy``; errors by class and condition) whenever the
interpreter reports no caveat. The translation details and the rejections (every construct outside
the fragment is a located ``InputError``, and translating never runs the user's module) are in
``test_dataframe_frontend_details.py``.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from typing import Any

import pytest

from frontend.dataframe.translator import translate_dataframe_source
from sparklite.relational import ast as R

HEADER = """\
from typing import Annotated
from pyspark.sql import DataFrame, functions as F
from pyspark.sql.types import IntegerType, LongType, StringType, DoubleType, DecimalType

T = Annotated[DataFrame, "a INT, b BIGINT, s STRING, d DOUBLE"]
L = Annotated[DataFrame, "k INT, lv STRING"]
Rt = Annotated[DataFrame, "k INT, rv STRING"]
Emp = Annotated[DataFrame, "id INT NOT NULL, dept INT, sal BIGINT, name STRING"]
Dept = Annotated[DataFrame, "id INT, budget BIGINT"]
R2 = Annotated[DataFrame, "K BIGINT, rv STRING"]
"""

T_ROWS = [
    (1, 10, "x", 1.5),
    (2, None, "y", -0.0),
    (None, 5, None, None),
    (3, 7, "x", 2.0),
    (1, 10, "x", 1.5),
    (-4, -2, "", float("nan")),
    (2, 7, "Y", 0.0),
]
L_ROWS = [(1, "a"), (1, "b"), (None, "n"), (2, "c")]
R_ROWS = [(1, "x"), (1, "y"), (None, "m"), (3, "z")]
EMP_ROWS = [
    (1, 10, 1000, "ann"),
    (2, 10, 2500, "bob"),
    (3, 20, None, "cy"),
    (4, None, 700, None),
    (5, 30, 5000, "dee"),
]
DEPT_ROWS = [(10, 100000), (20, None), (40, 5)]
DEFAULT_ROWS = {
    "r2": [(1, "x"), (None, "m"), (3, "z"), (3, "w")],
    "t": T_ROWS,
    "u": T_ROWS[2:],
    "lf": L_ROWS,
    "rt": R_ROWS,
    "emp": EMP_ROWS,
    "dept": DEPT_ROWS,
}


@dataclass(frozen=True)
class Case:
    name: str
    body: str
    tables: dict[str, list[tuple]] = field(default_factory=dict)
    header: str = HEADER

    @property
    def source(self) -> str:
        return self.header + "\n\n" + self.body.strip("\n") + "\n"


def case(name: str, body: str, header: str = HEADER, **tables: list[tuple]) -> Case:
    return Case(name, body, tables, header)


CORPUS: list[Case] = [
    # --- select and column expressions -----------------------------------------------------------------
    case(
        "select_names",
        """
def f(t: T):
    return t.select("a", F.col("b"), t.s, t["d"], F.column("A"))
""",
    ),
    case(
        "select_arith",
        """
def f(t: T):
    return t.select(F.col("a") + 1, 1 + F.col("a"), 10 - t.a, t.a * 2, 2 * t.a, t.a / 2, t.a % 3, 7 % t.a,
                    -t.a, t.a + t.b, t.d + 1)
""",
    ),
    case(
        "select_literals",
        """
def f(t: T):
    return t.select(F.lit(1), F.lit(2**31), F.lit(1.5), F.lit("x"), F.lit(None), F.lit(True), F.lit(1e20),
                    F.lit(1e-5), F.lit(0.1), F.lit(-1), F.lit(123456.0))
""",
    ),
    case(
        "select_comparisons",
        """
def f(t: T):
    return t.select(t.a == 1, t.a != 1, t.a < t.b, t.a.eqNullSafe(1), ~(t.a > 1), (t.a > 1) & (t.b < 8),
                    (t.a > 1) | (t.b < 8), 1 < t.a, t.s == "x", t.a >= 2, t.a <= 2)
""",
    ),
    case(
        "select_nulls_in",
        """
def f(t: T):
    return t.select(t.a.isNull(), t.a.isNotNull(), t.a.isin(1, 2), t.a.isin([1, None]), t.a.between(1, 3),
                    F.isnull("s"), t.s.isin("x", "y"))
""",
    ),
    case(
        "select_when",
        """
def f(t: T):
    return t.select(F.when(t.a > 1, 1).otherwise(0), F.when(t.a > 1, "big"),
                    F.when(t.a > 1, t.b).when(t.a.isNull(), F.lit(None)).otherwise(t.a * 2).alias("w"))
""",
    ),
    case(
        "select_casts",
        """
def f(t: T):
    return t.select(t.a.cast("string"), t.a.cast(LongType()), (t.a + 1).cast("bigint"), t.s.try_cast("int"),
                    (t.a * 2).cast(DoubleType()), t.a.cast(DecimalType(12, 2)), t.d.cast("int").alias("di"),
                    t.a.astype("double"))
""",
        t=[(1, 10, "x", 1.5), (2, None, "12", -0.0), (None, 5, None, None), (3, 7, " 7 ", 2.9)],
    ),
    case(
        "select_functions",
        """
def f(t: T):
    return t.select(F.coalesce("a", F.lit(0)), F.greatest("a", "b"), F.least(t.a, F.lit(0)), F.abs("a"),
                    F.pmod("a", F.lit(3)), F.pmod(t.b, 4), F.try_add("a", "b"), F.try_divide(t.a, F.lit(0)),
                    F.try_multiply("a", "b"), F.try_subtract("b", "a"))
""",
    ),
    case(
        "select_null_functions",
        """
def f(t: T):
    return t.select(F.nanvl("d", F.lit(0.0)), F.ifnull("a", F.lit(1)), F.nvl(t.a, t.b),
                    F.nullif("a", F.lit(1)), F.signum("a"), F.isnan(t.d), F.nullif(t.s, F.lit("x")))
""",
    ),
    case(
        "select_strings",
        """
def f(t: T):
    return t.select(F.upper("s"), F.lower(t.s), F.length("s"), F.trim("s"), F.concat("s", F.lit("!")),
                    F.concat_ws("-", "s", "s"), F.substring("s", 1, 2), t.s.substr(2, 1), F.ltrim("s"),
                    F.rtrim("s"))
""",
    ),
    case(
        "select_round",
        """
def f(t: T):
    return t.select(F.round("d"), F.round("d", 1), F.bround(t.d), F.floor("d"), F.ceil(t.d), F.round("a", -1))
""",
        t=[(15, 1, "a", 2.5), (-25, 2, "b", -2.5), (None, None, None, None), (7, 3, "c", 0.125)],
    ),
    case(
        "select_aliases",
        """
def f(t: T):
    return t.select(t.a.alias("z"), F.col("b").name("y"), (t.a + 1).alias("a1"), t.s.alias("S"))
""",
    ),
    case(
        "select_star",
        """
def f(t: T):
    return t.select("*", (t.a * 10).alias("a10"))
""",
    ),
    case(
        "select_list",
        """
def f(t: T):
    cols = ["a", "s"]
    return t.select(cols)
""",
    ),
    case(
        "select_comprehension",
        """
def f(t: T):
    return t.select([F.col(c).alias(c.upper()) for c in t.columns if c != "d"])
""",
    ),
    case(
        "reflected_and_python_constants",
        """
LIMIT = 3
SCALE = LIMIT * 2 + 1

def f(t: T):
    return t.select((SCALE - t.a).alias("r"), (t.a * (LIMIT + 1)).alias("m"), (True & (t.a > 1)).alias("c"))
""",
    ),
    # --- withColumn & co -------------------------------------------------------------------------------
    case(
        "with_column",
        """
def f(t: T):
    return t.withColumn("e", t.a + t.b).withColumn("A", F.col("a") * 2).withColumn("f", F.lit("k"))
""",
    ),
    case(
        "with_columns",
        """
def f(t: T):
    return t.withColumns({"z": F.lit(1), "a": F.col("a") * 2, "w": F.col("a") + 100})
""",
    ),
    case(
        "with_column_renamed",
        """
def f(t: T):
    renamed = t.withColumnRenamed("A", "x").withColumnRenamed("nope", "q")
    return renamed.withColumnsRenamed({"b": "y", "s": "S2"})
""",
    ),
    case(
        "drop",
        """
def f(t: T):
    return t.drop("A", "nope").drop(F.col("b")).drop(t.d)
""",
    ),
    case(
        "to_df",
        """
def f(t: T):
    return t.toDF("w", "x", "y", "z").filter(F.col("w") > 0)
""",
    ),
    case(
        "chained_variables",
        """
def f(t: T):
    df = t.filter(t.a.isNotNull())
    df = df.withColumn("twice", df.a * 2)
    big = F.col("twice") > 2
    df = df.filter(big)
    return df.select("a", "twice")
""",
    ),
    # --- filter / where --------------------------------------------------------------------------------
    case(
        "filter_where",
        """
def f(t: T):
    return t.filter(t.a > 1).where((F.col("b") != 7) | F.col("s").isNull())
""",
    ),
    case(
        "filter_three_valued",
        """
def f(t: T):
    return t.filter(~(t.b > 6))
""",
    ),
    case(
        "filter_between_isin",
        """
def f(t: T):
    return t.where(t.a.between(0, 2) & ~t.s.isin("y", None))
""",
    ),
    case(
        "filter_lazy_and",
        """
def f(t: T):
    return t.filter((t.a != 0) & (100 / t.a > 10))
""",
        t=[(0, 1, "z", 0.0), (5, 2, "a", 1.0), (20, 3, "b", 2.0)],
    ),
    case(
        "filter_on_new_column",
        """
def f(t: T):
    return t.withColumn("b2", t.b * 2).filter(F.col("b2") > 10).select("a", "b2")
""",
    ),
    # --- helpers ---------------------------------------------------------------------------------------
    case(
        "missing_reference_readded",
        """
def f(t: T):
    picked = t.select("a", (t.b * 2).alias("b2"))
    return picked.filter(F.col("s") == "x").orderBy(t.d.desc(), "b")
""",
    ),
    case(
        "missing_reference_two_levels",
        """
def f(t: T):
    narrow = t.select("a", "b", "s").withColumn("one", F.lit(1)).select("a", "one")
    return narrow.filter((F.col("d") > 0) | F.col("d").isNull()).orderBy("s", "a", "b").filter("b > 1")
""",
    ),
    case(
        "missing_reference_same_name",
        """
def f(t: T):
    return t.select((t.a * 10).alias("a")).orderBy(t.a, "a")
""",
    ),
    case(
        "missing_reference_through_distinct",
        """
def f(t: T):
    return t.select("s").distinct().filter(F.col("a") > 0)
""",
        t=[(1, 10, "x", 1.5), (2, None, "y", -0.0), (None, 5, None, None), (3, 7, "x", 2.0)],
    ),
    case(
        "helper_column",
        """
def net(c, rate=2):
    return c - F.col("b") * rate

def f(t: T):
    return t.select(net(F.col("a")).alias("n"), net(t.a, rate=3))
""",
    ),
    case(
        "helper_dataframe",
        """
def only_positive(df, col="a"):
    return df.filter(F.col(col) > 0)

def add_flag(df):
    return df.withColumn("flag", F.when(F.col("b") > 6, True).otherwise(False))

def f(t: T):
    return add_flag(only_positive(t)).transform(only_positive, "b")
""",
    ),
    case(
        "loop_over_columns",
        """
def f(t: T):
    for c in ["a", "b"]:
        t = t.withColumn(c, F.col(c) * 2)
    return t
""",
    ),
    case(
        "sum_of_columns",
        """
def f(t: T):
    return t.select(sum([F.col(c) for c in ["a", "b"]]).alias("total"))
""",
    ),
    # --- aggregation -----------------------------------------------------------------------------------
    case(
        "group_agg",
        """
def f(t: T):
    return t.groupBy("s").agg(F.sum("a"), F.count("*"), F.count("a"), F.min("d"), F.max("b"), F.avg("a"))
""",
    ),
    case(
        "group_agg_alias_expr",
        """
def f(t: T):
    return t.groupBy(t.s).agg(F.sum("b").alias("total"), (F.max("a") - F.min("a")).alias("spread"),
                              F.sum(F.col("a") * 2))
""",
    ),
    case(
        "group_agg_key_expr",
        """
def f(t: T):
    return t.groupBy("s").agg(F.col("s"), F.count(F.lit(1)), F.mean("b"))
""",
    ),
    case(
        "group_count",
        """
def f(t: T):
    return t.groupBy("s", "a").count()
""",
    ),
    case(
        "group_shortcuts",
        """
def f(t: T):
    return t.groupBy("S").sum("a", "b")
""",
    ),
    case(
        "group_avg_max",
        """
def f(t: T):
    return t.groupBy("s").avg("b").join(t.groupBy("s").max("a"), "s")
""",
    ),
    case(
        "group_expression_key",
        """
def f(t: T):
    return t.groupBy((t.a % 2).alias("parity")).agg(F.countDistinct("s"), F.sum_distinct("b"))
""",
    ),
    case(
        "group_by_expr_name",
        """
def f(t: T):
    return t.groupBy(F.col("a") % 2).min("b")
""",
    ),
    case(
        "group_dict_agg",
        """
def f(t: T):
    return t.groupBy("s").agg({"a": "max", "b": "mean", "*": "count"})
""",
    ),
    case(
        "global_agg",
        """
def f(t: T):
    return t.agg(F.sum("a").alias("sa"), F.count("*"), F.countDistinct("a", "s"), F.max("s"))
""",
    ),
    case(
        "global_agg_empty",
        """
def f(t: T):
    return t.filter(t.a > 100).agg(F.sum("a"), F.count("a"), F.avg("d"), F.count("*"))
""",
    ),
    case(
        "select_of_aggregates",
        """
def f(t: T):
    return t.select(F.sum("b"), F.max(t.a) + 1)
""",
    ),
    case(
        "group_sum_all",
        """
def f(t: T):
    return t.groupBy("s").sum()
""",
    ),
    case(
        "agg_then_filter",
        """
def f(emp: Emp):
    totals = emp.groupBy("dept").agg(F.sum("sal").alias("total"), F.count("*").alias("n"))
    return totals.filter(F.col("total") > 1000).orderBy(F.desc("total"))
""",
    ),
    case(
        "groupby_ordinal",
        """
def f(t: T):
    return t.groupBy(3).agg(F.sumDistinct("a"))
""",
    ),
    # --- joins -----------------------------------------------------------------------------------------
    case(
        "join_using_inner",
        """
def f(lf: L, rt: Rt):
    return lf.join(rt, "k")
""",
    ),
    case(
        "join_using_kinds",
        """
def f(lf: L, rt: Rt):
    a = lf.join(rt, ["k"], "left").select("k", "lv", "rv")
    b = lf.join(rt, "k", "right_outer").select("k", "lv", "rv")
    c = lf.join(rt, "k", "full")
    return a.union(b).union(c)
""",
    ),
    case(
        "join_using_semi_anti",
        """
def f(lf: L, rt: Rt):
    return lf.join(rt, "k", "leftsemi").union(lf.join(rt, ["k"], "left_anti"))
""",
    ),
    case(
        "join_condition",
        """
def f(lf: L, rt: Rt):
    return lf.join(rt, lf.k == rt.k)
""",
    ),
    case(
        "join_condition_select_lineage",
        """
def f(lf: L, rt: Rt):
    j = lf.join(rt, lf.k == rt.k, "full_outer")
    return j.select(lf.k, rt["k"].alias("rk"), "lv", "rv")
""",
    ),
    case(
        "join_condition_list",
        """
def f(lf: L, rt: Rt):
    return lf.join(rt, [lf.k == rt.k, lf.lv != rt.rv], "left")
""",
    ),
    case(
        "join_null_safe",
        """
def f(lf: L, rt: Rt):
    return lf.join(rt, lf.k.eqNullSafe(rt.k), "inner").select(lf.k, "lv", "rv")
""",
    ),
    case(
        "join_anti_condition",
        """
def f(lf: L, rt: Rt):
    return lf.join(rt, lf.k == rt.k, "anti")
""",
    ),
    case(
        "join_aliases",
        """
def f(lf: L, rt: Rt):
    l, r = lf.alias("l"), rt.alias("r")
    return l.join(r, F.col("l.k") == F.col("r.k"), "inner").select("l.k", F.col("r.k").alias("rk"), "r.rv")
""",
    ),
    case(
        "join_using_mixed_key_types",
        """
def f(lf: L, r2: R2):
    inner = lf.join(r2, "K").select("k", "lv", "rv")
    right = lf.join(r2, "k", "right").select("K", "lv", "rv")
    full = lf.join(r2, ["k"], "outer")
    return inner.union(right).union(full)
""",
    ),
    case(
        "module_level_column_and_sql_key",
        """
HIGH = F.col("sal") > 1000
BY = ["dept"]

def f(emp: Emp):
    return emp.filter(HIGH).groupBy(*BY).agg(F.expr("max(sal) - min(sal)").alias("spread")
                                                 if False else F.max("sal")).orderBy(F.expr("dept % 7"))
""",
    ),
    case(
        "cross_join",
        """
def f(lf: L, rt: Rt):
    return lf.crossJoin(rt.select("rv"))
""",
    ),
    case(
        "join_no_condition",
        """
def f(lf: L, rt: Rt):
    return lf.join(rt.select("rv"))
""",
    ),
    case(
        "self_join",
        """
def f(lf: L):
    return lf.join(lf, "k")
""",
    ),
    case(
        "self_join_condition",
        """
def f(lf: L):
    other = lf.withColumnRenamed("lv", "lv2")
    return lf.join(other, lf.k == other.k).select("lv", "lv2")
""",
    ),
    case(
        "emp_dept",
        """
def f(emp: Emp, dept: Dept) -> DataFrame:
    return emp.join(dept, emp.dept == dept.id).filter(F.col("sal") > 1000).select("name", "budget")
""",
    ),
    case(
        "join_then_group",
        """
def f(emp: Emp, dept: Dept):
    j = emp.join(dept, emp.dept == dept.id, "left")
    return j.groupBy(emp.dept).agg(F.sum("sal").alias("s"), F.max("budget"))
""",
    ),
    # --- set operations, distinct, sort, limit ---------------------------------------------------------
    case(
        "set_ops",
        """
def f(t: T, u: T):
    return t.union(u).unionAll(u).intersect(t).subtract(u.limit(0))
""",
    ),
    case(
        "set_ops_all",
        """
def f(t: T, u: T):
    return t.intersectAll(t.union(u)).exceptAll(u)
""",
    ),
    case(
        "union_widening",
        """
def f(t: T):
    return t.select("a", "s").union(t.select("b", "s"))
""",
    ),
    case(
        "union_by_name",
        """
def f(lf: L, rt: Rt):
    return lf.unionByName(rt.withColumnRenamed("rv", "LV").select("LV", "k"))
""",
    ),
    case(
        "union_by_name_missing",
        """
def f(lf: L, rt: Rt):
    return lf.unionByName(rt, allowMissingColumns=True)
""",
    ),
    case(
        "distinct_drop_duplicates",
        """
def f(t: T):
    return t.select("a", "s").distinct().union(t.dropDuplicates().select("a", "s"))
""",
    ),
    case(
        "drop_duplicates_subset_count",
        """
def f(t: T):
    return t.dropDuplicates(["a", "S"]).count()
""",
    ),
    case(
        "order_by",
        """
def f(t: T):
    return t.orderBy(F.desc("a"), t.b.asc_nulls_last(), "s")
""",
    ),
    case(
        "sort_ascending_list",
        """
def f(t: T):
    return t.sort(["s", "a"], ascending=[False, True]).select("s", "a")
""",
    ),
    case(
        "order_by_ordinal_limit",
        """
def f(t: T):
    return t.select("a", "b").distinct().orderBy(-1, 2).limit(3)
""",
    ),
    case(
        "order_desc_nulls",
        """
def f(t: T):
    return t.orderBy(t.d.desc_nulls_first(), F.asc("a"), ascending=True).select("d", "a")
""",
    ),
    # --- actions ---------------------------------------------------------------------------------------
    case(
        "action_count",
        """
def f(t: T):
    return t.filter(t.a > 0).count()
""",
    ),
    case(
        "action_collect",
        """
def f(t: T):
    return t.select("a", "s").collect()
""",
    ),
    case(
        "action_first_sorted",
        """
def f(t: T):
    return t.filter(t.a.isNotNull()).orderBy(F.col("a").desc()).first()
""",
    ),
    case(
        "action_first_empty",
        """
def f(t: T):
    return t.filter(F.lit(False)).head()
""",
    ),
    case(
        "action_take",
        """
def f(t: T):
    return t.select("a").orderBy("a").take(2)
""",
    ),
    # --- errors Spark raises at run time ---------------------------------------------------------------
    case(
        "overflow_int",
        """
def f(t: T):
    return t.select((t.a + 1).alias("a1"))
""",
        t=[(2147483647, 1, "x", 1.0), (1, 2, "y", 2.0)],
    ),
    case(
        "overflow_not_demanded",
        """
def f(t: T):
    return t.withColumn("b1", t.a + 1).filter(t.a < 0)
""",
        t=[(2147483647, 1, "x", 1.0), (-1, 2, "y", 2.0)],
    ),
    case(
        "divide_by_zero",
        """
def f(t: T):
    return t.select((t.b / t.a).alias("q"))
""",
        t=[(0, 1, "x", 1.0)],
    ),
    case(
        "cast_invalid_input",
        """
def f(t: T):
    return t.filter(F.col("s") == 1)
""",
        t=[(1, 1, "1", 1.0), (2, 2, "x", 2.0)],
    ),
    case(
        "sum_int_widens",
        """
def f(t: T):
    return t.agg(F.sum("a"), F.sum("b"))
""",
        t=[(2147483647, 1, "a", 0.0), (1, 2, "b", 0.0)],
    ),
    case(
        "try_add_at_max",
        """
def f(t: T):
    return t.select(F.try_add("a", F.lit(1)), t.a.try_cast("string"))
""",
        t=[(2147483647, 1, "a", 0.0), (-2147483648, 2, "b", 0.0)],
    ),
    # --- SQL text: strings in filter, F.expr, selectExpr, spark.sql over temp views --------------------
    case(
        "sql_string_filter",
        """
def f(t: T):
    return t.filter("a > 1 AND s IS NOT NULL").where("b < 10")
""",
    ),
    case(
        "sql_expr_column",
        """
def f(t: T):
    return t.select(F.expr("a div 2"), (F.expr("b % 3") + 1).alias("m"), F.expr("upper(s)"), "d")
""",
    ),
    case(
        "select_expr",
        """
def f(t: T):
    return t.selectExpr("a + 1", "b AS z", "s")
""",
    ),
    case(
        "spark_sql_views",
        """
def f(spark, emp: Emp, dept: Dept):
    emp.createOrReplaceTempView("emp")
    dept.filter(F.col("budget") > 10).createOrReplaceTempView("rich")
    joined = spark.sql('''
        SELECT e.name, r.budget, e.sal FROM emp e JOIN rich r ON e.dept = r.id WHERE e.sal > 900
    ''')
    return joined.withColumn("ratio", F.col("sal") / F.col("budget"))
""",
    ),
    case(
        "spark_sql_aggregate_table",
        """
def f(spark, emp: Emp):
    emp.createOrReplaceTempView("people")
    return spark.table("people").groupBy("dept").count().orderBy("dept")
""",
    ),
    # --- other spellings of the imports ----------------------------------------------------------------
    case(
        "import_module_alias",
        """
import pyspark.sql.functions as fn
from typing import Annotated
from pyspark.sql import DataFrame

def f(t: Annotated[DataFrame, "a INT, b BIGINT, s STRING, d DOUBLE"]):
    return t.select(fn.col("a") + fn.lit(1), fn.upper("s"))
""",
        header="",
    ),
    case(
        "import_names",
        """
from pyspark.sql.functions import col, lit, sum as _sum, max as spark_max, when, countDistinct
from typing import Annotated
import pyspark.sql

Frame = Annotated[pyspark.sql.DataFrame, "a INT, b BIGINT, s STRING, d DOUBLE"]

def f(t: Frame):
    return (t.filter(col("a").isNotNull())
             .groupBy("s")
             .agg(_sum("b").alias("total"), spark_max(col("a")), countDistinct(when(col("a") > 1, lit(1)))))
""",
        header="",
    ),
    case(
        "module_session_and_helper_sql",
        """
from typing import Annotated
from pyspark.sql import DataFrame, functions as F
from pyspark.sql.session import SparkSession

spark = SparkSession.builder.appName("jobs").getOrCreate()
Frame = Annotated[DataFrame, "a INT, b BIGINT, s STRING, d DOUBLE"]

def totals(view):
    return spark.sql(f"SELECT s, SUM(b) AS total FROM {view} GROUP BY s")

def f(t: Frame):
    t.createOrReplaceTempView("frame_view")
    return totals("frame_view").join(t.groupBy("s").count(), "s", "left")
""",
        header="",
    ),
    case(
        "string_annotation",
        """
from __future__ import annotations
from typing import Annotated
from pyspark.sql import DataFrame
from pyspark.sql import functions as F

def f(t: "Annotated[DataFrame, 'a INT, b BIGINT, s STRING, d DOUBLE']") -> "DataFrame":
    return t.select(F.col("a").alias("x"))
""",
        header="",
    ),
]


# ---------------------------------------------------------------------------------------------------
# Running a corpus function on Spark and its translation on the interpreter
# ---------------------------------------------------------------------------------------------------


def _ddl(schema) -> str:
    return ", ".join(
        f"`{f.name}` {f.type.simple.upper()}{'' if f.nullable else ' NOT NULL'}" for f in schema.fields
    )


def _tables_for(c: Case, program: R.RelProgram) -> dict[str, list[tuple]]:
    out = {}
    for p in program.params:
        rows = c.tables.get(p.name, DEFAULT_ROWS[p.name])
        width = len(p.schema.fields)
        out[p.name] = [tuple(r[:width]) for r in rows]
    return out


def _run_spark(spark, c: Case, program: R.RelProgram, tables: dict[str, list[tuple]]) -> Any:
    """The original function's value on Spark: a DataFrame, or an action's value (an exception raised
    by the action is returned)."""
    import inspect

    namespace: dict[str, Any] = {"__name__": "corpus_" + c.name}
    exec(compile(c.source, f"<corpus {c.name}>", "exec"), namespace)  # noqa: S102 - the test's own code
    fn = namespace[program.name]
    frames = {p.name: spark.createDataFrame(tables[p.name], _ddl(p.schema)) for p in program.params}
    args = [frames.get(name, spark) for name in inspect.signature(fn).parameters]
    try:
        return fn(*args)
    except Exception as exc:  # noqa: BLE001 - an action that raised: its error is the outcome
        return exc


def _spark_outcome(value: Any, reference: Any) -> Any:
    """Spark's value as the interpreter observes outcomes (``sparklite.relational.values``)."""
    from pyspark.sql import DataFrame, Row

    from sparklite.relational.values import RelResult, RelRow, rel_error_of_exception
    from sparklite.values import Bag, Sorted, observe_like

    def rows_of(rows: list[tuple]) -> Any:
        ref_rows = getattr(reference, "rows", None)
        return observe_like(rows, ref_rows) if isinstance(ref_rows, Sorted) else Bag.of(rows)

    if isinstance(value, BaseException):
        return rel_error_of_exception(value)
    if isinstance(value, DataFrame):
        try:
            rows = [tuple(r) for r in value.collect()]
        except Exception as exc:  # noqa: BLE001 - the error Spark raised is the outcome
            return rel_error_of_exception(exc)
        return RelResult(tuple(value.dtypes), rows_of(rows), tuple(f.nullable for f in value.schema.fields))
    if isinstance(value, Row):
        columns = getattr(reference, "columns", tuple((n, "?") for n in value.__fields__))
        return RelRow(tuple(value), columns)
    if isinstance(value, list):
        return RelResult(
            tuple(getattr(reference, "columns", ())),
            rows_of([tuple(r) for r in value]),
            tuple(getattr(reference, "nullable", ())),
        )
    return value


def _interpreter():
    try:
        from sparklite.relational import interpreter
    except ImportError:
        return None
    return interpreter


def _translate(c: Case) -> R.RelProgram:
    if (
        any(word in c.body for word in ("spark.sql", "spark.table", "F.expr", "selectExpr", 'filter("'))
        and importlib.util.find_spec("frontend.sql.translator") is None
    ):
        pytest.skip("SQL text needs the SQL frontend (frontend/sql/translator.py)")
    return translate_dataframe_source(c.source, "f", f"<corpus {c.name}>")


def _schema_of(program: R.RelProgram) -> list[tuple[str, str]]:
    body = program.body
    rel = body.source if isinstance(body, R.Action) else body
    return [(f.name, f.type.simple) for f in rel.schema.fields]


def test_corpus_is_large_and_named_uniquely() -> None:
    names = [c.name for c in CORPUS]
    assert len(names) == len(set(names))
    assert len(CORPUS) >= 60


@pytest.mark.parametrize("c", CORPUS, ids=lambda c: c.name)
def test_corpus_translates(c: Case) -> None:
    program = _translate(c)
    assert program.language == "dataframe"
    assert program.name == "f"
    assert all(isinstance(p, R.TableParam) for p in program.params)


@pytest.mark.spark
@pytest.mark.parametrize("c", CORPUS, ids=lambda c: c.name)
def test_corpus_agrees_with_spark(spark_session, c: Case) -> None:
    from pyspark.sql import DataFrame

    program = _translate(c)
    tables = _tables_for(c, program)
    value = _run_spark(spark_session, c, program, tables)
    if isinstance(value, DataFrame):
        assert _schema_of(program) == list(value.dtypes)
    elif (
        isinstance(program.body, R.Action)
        and program.body.kind in ("collect", "take", "first")
        and not isinstance(value, BaseException)
    ):
        rows = value if isinstance(value, list) else [value] if value is not None else []
        for row in rows:
            assert list(row.__fields__) == [n for n, _ in _schema_of(program)]
    interp = _interpreter()
    if interp is None:
        pytest.skip("no relational interpreter yet: schema checked, rows not compared")
    run = interp.run(program, tables)
    if run.caveats:
        pytest.skip(f"interpreter caveats: {sorted(run.caveats)}")
    from sparklite.relational.values import rel_outcomes_equal

    spark_outcome = _spark_outcome(value, run.outcome)
    assert rel_outcomes_equal(run.outcome, spark_outcome), (run.outcome, spark_outcome)
