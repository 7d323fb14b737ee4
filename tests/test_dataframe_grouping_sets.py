"""``rollup``/``cube`` (``frontend/dataframe/grouping.py``): one aggregation per grouping set, unioned;
the empty set yields no row on an empty input; a NULL key of the data and a rolled-up key stay apart.
The interpreter's rows are compared with Spark's (marked ``spark``), and the translation is proved equal
to its spelled-out union."""

from __future__ import annotations

from typing import Any

import pytest

from frontend.dataframe.grouping import cube_sets, rollup_sets
from frontend.dataframe.translator import translate_dataframe_source
from sparklite.relational.interpreter import run

S = "a STRING, b INT, v INT"
ROWS = [(None, None, None), ("x", 1, 5), ("x", None, 2), (None, 1, 3)]
CALLS = [
    't.rollup("a", "b").agg(F.sum("v").alias("s"))',
    't.cube("a", "b").count()',
    't.rollup("a").sum("v")',
    't.cube(F.col("a"), (F.col("b") + 1).alias("b1")).agg(F.max("v"))',
    't.rollup("a", "b").agg(F.sum("v").alias("amount"), F.grouping_id().alias("gid"))',
    't.cube("a", "b").agg(F.grouping("a"), F.grouping_id("a", "b"), F.max("v"), F.var_pop("b"))',
]
HEAD = f"from typing import Annotated\nfrom pyspark.sql import DataFrame, functions as F\nS = {S!r}\n"


def _program(body: str) -> Any:
    src = HEAD + f"def f(t: Annotated[DataFrame, S]):\n    return {body}\n"
    return translate_dataframe_source(src, "f", "<t>")


def _rows(outcome: Any) -> list[tuple[Any, ...]]:
    return sorted((tuple(r) for r in outcome.rows.items), key=repr)


def test_sets_are_sparks() -> None:
    assert rollup_sets(2) == ((0, 1), (0,), ())
    assert cube_sets(2) == ((0, 1), (0,), (1,), ())


def test_rollup_rows() -> None:
    out = run(_program(CALLS[0]), {"t": ROWS}).outcome
    assert [c[0] for c in out.columns] == ["a", "b", "s"]
    assert _rows(out) == sorted([(None, None, None), ("x", 1, 5), ("x", None, 2), (None, 1, 3),  # (a, b)
                                 ("x", None, 7), (None, None, 3),  # (a): x and the data's NULL
                                 (None, None, 10)], key=repr)  # ()


def test_empty_input_has_no_grand_total() -> None:
    for body in ('t.rollup("a", "b").count()', 't.cube("a").agg(F.sum("v"))'):
        assert _rows(run(_program(body), {"t": []}).outcome) == []


def test_rollup_is_proved_equal_to_its_union() -> None:
    import verifier

    union = ('t.groupBy("a", "b").agg(F.sum("v").alias("s")).union(t.groupBy("a").agg(F.sum("v").alias("s"))'
             '.select("a", F.lit(None).cast("int").alias("b"), "s")).union(t.groupBy(F.lit(0)).agg('
             'F.sum("v").alias("s")).select(F.lit(None).cast("string").alias("a"), F.lit(None).cast("int")'
             '.alias("b"), "s"))')
    src = HEAD + f"def f(t: Annotated[DataFrame, S]):\n    return {CALLS[0]}\n" \
                 f"def g(t: Annotated[DataFrame, S]):\n    return {union}\n"
    r = verifier.check((src, "f"), (src, "g"))
    assert r.verdict == "equivalent", r.reason


@pytest.mark.spark
def test_interpreter_agrees_with_spark(spark_session: Any) -> None:
    from pyspark.sql import functions as F

    for rows in (ROWS, []):
        t = spark_session.createDataFrame(rows, S)
        for body in CALLS:
            got = eval(body, {"t": t, "F": F})  # noqa: S307 - our own test strings
            out = run(_program(body), {"t": rows}).outcome
            assert got.columns == [c[0] for c in out.columns], body
            assert sorted((tuple(r) for r in got.collect()), key=repr) == _rows(out), body
