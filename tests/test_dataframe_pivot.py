"""``groupBy(...).pivot(col, values)`` (``frontend/dataframe/pivot.py``): Spark's two-aggregation plan
(a listed value no row has is NULL, even under ``count``), its output names, and located refusals for
what is not modelled. The interpreter's rows and names are compared with Spark's (marked ``spark``)."""

from __future__ import annotations

from typing import Any

import pytest
from test_dataframe_grouping_sets import _rows

from frontend.dataframe.translator import translate_dataframe_source
from sparklite.errors import UnsupportedError
from sparklite.relational.interpreter import run

S = "k INT, p STRING, x INT"
ROWS = [(1, "a", 10), (1, "b", None), (2, "a", 5), (2, None, 7), (1, "a", 3), (3, "c", 1)]
CALLS = [
    't.groupBy("k").pivot("p", ["a", "b", None]).agg(F.sum("x"))',
    't.groupBy("k").pivot("p", ["a"]).agg(F.sum("x").alias("s"), F.max(F.col("x") + 1))',
    't.groupBy("k").pivot("x", [10, 5]).count()',
    't.groupBy().pivot("p", ["a", "z"]).agg(F.max("x"))',
    't.groupBy("k").pivot("p", ["a", "a"]).agg(F.avg("x"), F.min("x"))',
    't.groupBy("p").pivot("k", values=[1, 2]).sum("x")',
    # the aggregate is computed for every (k, p) group, listed or not: p = 'c' raises
    't.groupBy("k").pivot("p", ["a"]).agg(F.sum("x") / (F.count("x") - 1))',
]


def _program(body: str) -> Any:
    """``body`` as the return value of a function of one DataFrame ``t`` of schema ``S``."""
    src = (f"from typing import Annotated\nfrom pyspark.sql import DataFrame, functions as F\n"
           f"def f(t: Annotated[DataFrame, {S!r}]):\n    return {body}\n")
    return translate_dataframe_source(src, "f", "<t>")


def test_a_value_no_row_has_is_null_even_for_count() -> None:
    out = run(_program(CALLS[2]), {"t": ROWS}).outcome
    assert [c for c in out.columns] == [("k", "int"), ("10", "bigint"), ("5", "bigint")]
    assert _rows(out) == sorted([(1, 1, None), (2, None, 1), (3, None, None)], key=repr)


def test_names_with_several_aggregates() -> None:
    out = run(_program(CALLS[1]), {"t": ROWS}).outcome
    assert [c[0] for c in out.columns] == ["k", "a_s", "a_max((x + 1))"]


@pytest.mark.parametrize(
    "body",
    [
        't.groupBy("k").pivot("p").sum("x")',  # values depend on the data
        't.groupBy("k").pivot("p", ["a"]).agg(F.collect_list("x"))',  # Spark's other plan
        't.groupBy("k").pivot("x", ["10"]).count()',  # a value Spark casts
        't.groupBy("k").pivot("p", ["a"]).sum()',
        't.rollup("k").pivot("p", ["a"]).sum("x")',
        't.groupBy("k").pivot("p", []).count()',
        't.groupBy("k").pivot("k", [1]).sum("x")',
    ],
)
def test_refusals_are_located(body: str) -> None:
    with pytest.raises(UnsupportedError) as info:
        _program(body)
    assert info.value.loc is not None and info.value.construct == "pivot"


@pytest.mark.spark
def test_interpreter_agrees_with_spark(spark_session: Any) -> None:
    from pyspark.sql import functions as F

    from sparklite.relational.values import RelError, rel_error_of_exception

    for rows in (ROWS, ROWS[:5], []):
        t = spark_session.createDataFrame(rows, S)
        for body in CALLS:
            got = eval(body, {"t": t, "F": F})  # noqa: S307 - our own test strings
            out = run(_program(body), {"t": rows}).outcome
            if isinstance(out, RelError):
                with pytest.raises(Exception) as info:  # noqa: PT011 - compared just below
                    got.collect()
                assert rel_error_of_exception(info.value) == out, (body, info.value)
                continue
            assert [(c, ty) for c, ty in got.dtypes] == list(out.columns), body
            assert _rows(out) == sorted((tuple(r) for r in got.collect()), key=repr), body
