"""The DataFrame/SQL prover (``verifier.core.methods.rel_terms`` over ``encoder.relational``), method level.

Two kinds of test: refactorings it must prove (with what it assumed), and the traps of
``dataframe-semantics.md`` it must *not* prove (NULLs, ANSI errors, bags vs sets, keys that were not
declared, order and limit). A trap that is "proved" is the worst bug sparkeq can have; every trap here
is also refuted by the interpreter's search (checked in ``test_traps_are_refuted_end_to_end``), so
none of them is vacuous.
"""

from __future__ import annotations

import time

import pytest

from verifier.core.loading import load_python_source
from verifier.core.methods import rel_terms
from verifier.core.relational_search import align

HEAD = """from typing import Annotated
from pyspark.sql import DataFrame, functions as F

T = Annotated[DataFrame, "a INT, b INT, s STRING"]
N = Annotated[DataFrame, "k INT NOT NULL, v BIGINT, d DOUBLE"]
Emp = Annotated[DataFrame, "id INT PRIMARY KEY, dept INT, sal INT"]
Dept = Annotated[DataFrame, "did INT PRIMARY KEY, name STRING"]
Loose = Annotated[DataFrame, "did INT, name STRING"]
Keyed = Annotated[DataFrame, "id INT PRIMARY KEY, v INT"]

"""


def _program(body: str, params: str):
    src = HEAD + f"def f({params}) -> DataFrame:\n    return {body}\n"
    return load_python_source(src, "f").program


def prove(left: str, right: str, params: str = "t: T", ignore_names: bool = False):
    lp, rp = _program(left, params), _program(right, params)
    lp, rp, _ = align(lp, rp)
    return rel_terms.run(lp, rp, timeout_s=5.0, until=time.monotonic() + 20, ignore_names=ignore_names)


PROVED = [
    # (left, right, params, method)
    (
        "t.filter((F.col('a') > 1) & (F.col('b') < 3))",
        "t.filter(F.col('b') < 3).filter(F.col('a') > 1)",
        "t: T",
        "NoAgg",
    ),
    (
        "t.filter(~((F.col('a') > 1) | F.col('b').isNull()))",
        "t.filter((F.col('a') <= 1) & F.col('b').isNotNull())",
        "t: T",
        "NoAgg",
    ),
    ("t.select('b', 'a').select('a', 'b')", "t.select('a', 'b')", "t: T", "NoAgg"),
    (
        "t.withColumn('c', F.col('a') + 1).withColumn('d', F.col('c') * 2).select('d')",
        "t.select(((F.col('a') + 1) * 2).alias('d'))",
        "t: T",
        "NoAgg",
    ),
    (
        "t.select(F.coalesce('a', F.lit(0)).alias('a'))",
        "t.select(F.when(F.col('a').isNull(), 0).otherwise(F.col('a')).alias('a'))",
        "t: T",
        "NoAgg",
    ),
    (
        "e.join(d, e.dept == d.did).filter(F.col('sal') > 10)",
        "e.filter(F.col('sal') > 10).join(d, e.dept == d.did)",
        "e: Emp, d: Dept",
        "NoAgg",
    ),
    (
        "e.join(d, e.dept == d.did, 'left').filter(F.col('sal') > 10)",
        "e.filter(F.col('sal') > 10).join(d, e.dept == d.did, 'left')",
        "e: Emp, d: Dept",
        "NoAgg",
    ),
    (
        "e.join(d, e.dept == d.did, 'left').filter(F.col('name') == 'x')",
        "e.join(d, e.dept == d.did).filter(F.col('name') == 'x')",
        "e: Emp, d: Dept",
        "NoAgg",
    ),
    (
        "e.join(d, e.dept == d.did).select('id', 'name')",
        "d.join(e, d.did == e.dept).select('id', 'name')",
        "e: Emp, d: Dept",
        "NoAgg",
    ),
    (
        "e.join(d, e.dept == d.did, 'left_semi')",
        "e.join(d, e.dept == d.did).select('id', 'dept', 'sal')",
        "e: Emp, d: Dept",
        "NoAgg",
    ),
    (
        "e.join(d, e.dept == d.did, 'left_semi')",
        "e.join(d, e.dept == d.did).select(e.id, e.dept, e.sal).distinct()",
        "e: Emp, d: Loose",
        "NoAgg",
    ),
    (
        "n.groupBy('k').agg(F.count('*').alias('c'))",
        "n.groupBy('k').agg(F.sum(F.lit(1)).alias('c'))",
        "n: N",
        "byKey",
    ),
    (
        "n.groupBy('k').agg(F.sum('v').alias('s'), F.max('d').alias('m'))",
        "n.groupBy('k').agg(F.sum('v').alias('s')).join(n.groupBy('k').agg(F.max('d').alias('m')), 'k')",
        "n: N",
        "byKey",
    ),
    (
        "n.groupBy('k').agg(F.sum('v').alias('s')).filter(F.col('k') > 3)",
        "n.filter(F.col('k') > 3).groupBy('k').agg(F.sum('v').alias('s'))",
        "n: N",
        "byKey",
    ),
    ("t.select('a').distinct()", "t.groupBy('a').count().drop('count')", "t: T", "NoAgg"),
    (
        "t.select(F.pmod('a', F.lit(7)).alias('m'))",
        "t.select((((F.col('a') % 7) + 7) % 7).alias('m'))",
        "t: T",
        "NoAgg",
    ),
    (
        "t.select('a').intersect(u.select('a'))",
        "t.select('a').distinct().join(u, t.a.eqNullSafe(u.a), 'left_semi')",
        "t: T, u: T",
        "NoAgg",
    ),
    ("t.orderBy('a').select('a', 'b')", "t.select('a', 'b').orderBy('a')", "t: T", "NoAgg"),
    # distinct of a union of a keyed table with itself is the table (set equality across the programs)
    ("k.union(k).distinct()", "k.distinct()", "k: Keyed", "NoAgg"),
    ("k.groupBy('id', 'v').count().select('id', 'v')", "k", "k: Keyed", "NoAgg"),
    ("t.orderBy(F.lit('x'), 'a').select('a')", "t.orderBy('a').select('a')", "t: T", "NoAgg"),
    ("t.limit(0)", "t.filter(F.lit(False))", "t: T", "NoAgg"),
    (
        "t.select(F.concat(F.lit('a'), F.concat('s', F.lit('b'))).alias('c'))",
        "t.select(F.concat(F.lit('a'), 's', F.lit('b')).alias('c'))",
        "t: T",
        "NoAgg",
    ),
    # the overflow of a + 5 cannot happen where a = 3: errors compared, no assumption
    (
        "t.filter((F.col('a') == 3) & (F.col('b') == F.col('a') + 5))",
        "t.filter((F.col('a') == 3) & (F.col('b') == 8))",
        "t: T",
        "NoAgg",
    ),
]


@pytest.mark.parametrize("left,right,params,method", PROVED, ids=[p[0][:50] for p in PROVED])
def test_proves_refactoring(left: str, right: str, params: str, method: str) -> None:
    out = prove(left, right, params)
    assert isinstance(out, rel_terms.RelProof), out
    assert out.method == method


def test_key_used_is_listed_in_assumptions() -> None:
    out = prove(
        "e.join(d, e.dept == d.did, 'left_semi')",
        "e.join(d, e.dept == d.did).select('id', 'dept', 'sal')",
        "e: Emp, d: Dept",
    )
    assert isinstance(out, rel_terms.RelProof)
    assert any("PRIMARY KEY (did)" in a for a in out.assumptions), out.assumptions


def test_sum_overflow_is_listed_in_assumptions() -> None:
    out = prove(
        "n.groupBy('k').agg(F.sum('v').alias('s')).filter(F.col('k') > 3)",
        "n.filter(F.col('k') > 3).groupBy('k').agg(F.sum('v').alias('s'))",
        "n: N",
    )
    assert isinstance(out, rel_terms.RelProof)
    assert any("overflow" in a for a in out.assumptions)


TRAPS = [
    # NULLs
    ("t.filter(F.col('a') > 1).union(t.filter(~(F.col('a') > 1)))", "t", "t: T"),
    ("t.filter(F.col('a') != 1)", "t.filter(~F.col('a').eqNullSafe(1))", "t: T"),
    ("t.groupBy('b').agg(F.count('a').alias('c'))", "t.groupBy('b').agg(F.count('*').alias('c'))", "t: T"),
    ("t.agg(F.count('*').alias('c'))", "t.agg(F.sum(F.lit(1)).alias('c'))", "t: T"),
    (
        "t.select(F.greatest('a', 'b').alias('g'))",
        "t.select(F.when(F.col('a') > F.col('b'), F.col('a')).otherwise(F.col('b')).alias('g'))",
        "t: T",
    ),
    # ANSI errors
    ("t.select((F.col('a') + 1 - 1).alias('a'))", "t.select('a')", "t: T"),
    ("t.select((F.col('a') % 7).alias('m'))", "t.select(F.pmod('a', F.lit(7)).alias('m'))", "t: T"),
    # a constant that raises: Spark folds it and raises on every input, even behind a false AND
    ("t.filter(F.lit(False) & (F.lit(1) / 0 > 0))", "t.filter(F.lit(False))", "t: T"),
    # joins
    (
        "e.join(d, e.dept == d.did, 'left').filter(F.col('name') == 'x')",
        "e.join(d.filter(F.col('name') == 'x'), e.dept == d.did, 'left')",
        "e: Emp, d: Dept",
    ),
    (
        "e.join(d, e.dept == d.did, 'left_semi')",
        "e.join(d, e.dept == d.did).select('id', 'dept', 'sal')",
        "e: Emp, d: Loose",
    ),
    ("e.join(d, e.dept == d.did, 'left')", "e.join(d, e.dept == d.did)", "e: Emp, d: Dept"),
    (
        "n.groupBy('k').agg(F.sum('v').alias('s'), F.max('d').alias('m'))",
        "n.groupBy('k').agg(F.sum('v').alias('s')).join(n.groupBy('k').agg(F.max('d').alias('m')), 'k')"
        ".select('k', 's', 'm')",
        "n: Annotated[DataFrame, 'k INT, v BIGINT, d DOUBLE']",
    ),
    # bags, sets, order
    ("t.union(t)", "t.union(t).distinct()", "t: T"),
    ("t.select('a', 'b').distinct()", "t.select('a', 'b').dropDuplicates(['a'])", "t: T"),
    ("t.orderBy('a').limit(1)", "t.limit(1)", "t: T"),
    (
        "t.select('a', 'b').union(u.select('b', 'a'))",
        "t.select('a', 'b').unionByName(u.select('b', 'a'))",
        "t: T, u: T",
    ),
]


@pytest.mark.parametrize("left,right,params", TRAPS, ids=[p[0][:50] for p in TRAPS])
def test_does_not_prove_trap(left: str, right: str, params: str) -> None:
    out = prove(left, right, params)
    assert not isinstance(out, rel_terms.RelProof), f"proved a trap: {out}"
    assert out.reason


@pytest.mark.parametrize(
    "left,right,params", TRAPS[:3] + TRAPS[8:11], ids=[p[0][:50] for p in TRAPS[:3] + TRAPS[8:11]]
)
def test_traps_are_refuted_end_to_end(tmp_path, left: str, right: str, params: str) -> None:
    """The traps really differ: the interpreter's search finds a difference for them."""
    from verifier import check

    paths = []
    for name, body in (("l", left), ("r", right)):
        p = tmp_path / f"{name}.py"
        p.write_text(HEAD + f"def f({params}) -> DataFrame:\n    return {body}\n")
        paths.append(f"{p}::f")
    result = check(paths[0], paths[1], replay=False, timeout=10)
    assert result.verdict == "not_equivalent", result.reason


def test_errors_compared_row_by_row() -> None:
    # both raise exactly on a = MAX: no assumption needed
    out = prove("t.select((F.col('a') + 1).alias('x'))", "t.select((F.lit(1) + F.col('a')).alias('x'))")
    assert isinstance(out, rel_terms.RelProof), out
    assert not out.assumptions


def test_error_inside_join_condition_is_not_proved() -> None:
    out = prove(
        "e.join(d, (e.dept + 1) == d.did)",
        "d.join(e, d.did == (e.dept + 1)).select('id', 'dept', 'sal', 'did', 'name')",
        "e: Emp, d: Dept",
    )
    assert not isinstance(out, rel_terms.RelProof)
    assert "may raise" in out.reason


def test_names_differ_is_not_applicable_unless_ignored() -> None:
    out = prove("t.select(F.col('a').alias('x'))", "t.select(F.col('a').alias('y'))")
    assert not isinstance(out, rel_terms.RelProof) and "names" in out.reason
    out = prove("t.select(F.col('a').alias('x'))", "t.select(F.col('a').alias('y'))", ignore_names=True)
    assert isinstance(out, rel_terms.RelProof)


AGG = "Annotated[DataFrame, 'k INT NOT NULL, a BIGINT, b BIGINT']"


def test_aggregate_whose_argument_may_raise_is_proved_equal_to_itself_filtered_alike() -> None:
    body = "g.groupBy('k').agg(F.sum(F.col('a') + F.col('b')).alias('s'), F.count('*').alias('c'))"
    out = prove(f"{body}.filter(F.col('c') > 1)", f"{body}.filter(F.col('c') > 1)", f"g: {AGG}")
    assert isinstance(out, rel_terms.RelProof), out


def test_reading_an_aggregate_that_may_raise_on_one_side_only_is_not_proved() -> None:
    # s IS NULL OR s IS NOT NULL is always true, but reading s raises where a + b overflows
    body = "g.groupBy('k').agg(F.sum(F.col('a') + F.col('b')).alias('s'), F.count('*').alias('c'))"
    out = prove(
        f"{body}.filter(F.col('s').isNull() | F.col('s').isNotNull()).select('k')",
        f"{body}.select('k')",
        f"g: {AGG}",
    )
    assert not isinstance(out, rel_terms.RelProof), out


def test_aggregate_argument_errors_are_compared_row_by_row() -> None:
    # a + 1 - 1 equals a wherever it does not raise: the sums agree, the errors do not
    out = prove(
        "g.groupBy('k').agg(F.sum(F.col('a') + 1 - 1).alias('s'))",
        "g.groupBy('k').agg(F.sum('a').alias('s'))",
        f"g: {AGG}",
    )
    assert not isinstance(out, rel_terms.RelProof), out


def test_literal_relations_are_sums_of_terms_without_variables(tmp_path) -> None:
    from verifier import check

    def sql(name: str, text: str) -> str:
        p = tmp_path / f"{name}.sql"
        p.write_text(text)
        return str(p)

    same = check(
        sql("l", "SELECT * FROM (VALUES (1, 2), (3, 3)) AS t0(c1, c2) WHERE t0.c1 = t0.c2"),
        sql("r", "SELECT * FROM (VALUES (3, 3)) AS t0(c1, c2)"),
        replay=False,
        timeout=10,
    )
    assert same.verdict == "equivalent", same.reason
    other = check(
        sql("l2", "SELECT * FROM (VALUES (1, 2), (3, 3)) AS t0(c1, c2) WHERE t0.c1 <= t0.c2"),
        sql("r2", "SELECT * FROM (VALUES (3, 3)) AS t0(c1, c2)"),
        replay=False,
        timeout=10,
    )
    assert other.verdict == "not_equivalent", other.reason
