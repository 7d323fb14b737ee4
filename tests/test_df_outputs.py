"""DataFrame functions returning a fixed-length tuple (or list) of DataFrames
(``frontend.dataframe.outputs``, ``verifier.core.kinds.outputs``): compared position by position, the
length and container part of the comparison, a counterexample naming the position that differs. Without
Spark, except the last test (``spark``): the difference replays on Spark, on that position."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from frontend.dataframe.outputs import OutputsProgram
from frontend.dataframe.translator import translate_dataframe_source
from verifier import check

SCHEMA = ["a=id INT, name STRING, items ARRAY<INT>", "b=id INT, qty INT"]

FUNCTIONS = textwrap.dedent(
    """\
    from pyspark.sql import functions as F
    from pyspark.sql.functions import explode


    def split(a, b):
        items = a.select("*", explode("items").alias("item")).drop("items")
        big = b.filter(F.col("qty") > 10).select("id", "qty")
        return (items, big)


    def split_reordered(a, b):
        items = a.select("*", explode("items").alias("item")).drop("items")
        big = b.select("id", "qty").filter("qty > 10")
        return items, big


    def split_explode_selected(a, b):
        items = a.select("id", "name", explode("items").alias("item"))
        big = b.select("id", "qty").filter("qty > 10")
        return items, big


    def split_wrong_second(a, b):
        items = a.select("*", explode("items").alias("item")).drop("items")
        big = b.filter(F.col("qty") >= 10).select("id", "qty")
        return (items, big)


    def split_as_list(a, b):
        items = a.select("*", explode("items").alias("item")).drop("items")
        big = b.filter(F.col("qty") > 10).select("id", "qty")
        return [items, big]


    def split_three(a, b):
        items = a.select("*", explode("items").alias("item")).drop("items")
        big = b.filter(F.col("qty") > 10).select("id", "qty")
        return (items, big, b)


    def with_count(a, b):
        return (a.select("id"), b.count())


    def only_items(a, b):
        return a.select("*", explode("items").alias("item")).drop("items")
    """
)


@pytest.fixture
def functions(tmp_path: Path) -> str:
    path = tmp_path / "outputs.py"
    path.write_text(FUNCTIONS)
    return str(path)


def test_a_tuple_is_read_as_one_program_per_position():
    from sparklite.relational.types import parse_ddl

    schemas = {"a": parse_ddl("id INT, name STRING, items ARRAY<INT>"), "b": parse_ddl("id INT, qty INT")}
    program = translate_dataframe_source(FUNCTIONS, "split", "outputs.py", schemas)
    assert isinstance(program, OutputsProgram)
    assert len(program.outputs) == 2 and not program.is_list
    assert [p.name for p in program.params] == ["a", "b"]
    listed = translate_dataframe_source(FUNCTIONS, "split_as_list", "outputs.py", schemas)
    assert isinstance(listed, OutputsProgram) and listed.is_list


def test_equal_positions_are_proved(functions: str):
    result = check(f"{functions}::split", f"{functions}::split_reordered", replay=False, schema=SCHEMA)
    assert result.verdict == "equivalent", result.reason
    assert "result 2 of 2" in (result.explanation or "")


def test_an_undecided_position_is_named(functions: str):
    # the prover does not cover explode (a Generate relation): no proof, and no difference either
    result = check(f"{functions}::split", f"{functions}::split_explode_selected", replay=False, schema=SCHEMA,
                   timeout=20)
    assert result.verdict == "unknown", result.reason
    assert (result.reason or "").startswith("result 1 of 2 (index 0)")


def test_one_differing_position_is_refuted_and_named(functions: str):
    result = check(f"{functions}::split", f"{functions}::split_wrong_second", replay=False, schema=SCHEMA)
    assert result.verdict == "not_equivalent", result.reason
    assert result.counterexample is not None
    assert result.stats["outputs"] == {"index": 1, "count": 2}
    assert "result 2 of 2 (index 1)" in (result.explanation or "")
    assert (result.reason or "").startswith("result 2 of 2 (index 1)")
    # only qty = 10 tells > from >=: the second results differ on it
    assert any(row["qty"] == 10 for row in result.counterexample.inputs["b"])
    assert result.counterexample.left["rows"] != result.counterexample.right["rows"]


@pytest.mark.parametrize("other", ["split_as_list", "split_three", "only_items"])
def test_a_different_shape_cannot_be_compared(functions: str, other: str):
    result = check(f"{functions}::split", f"{functions}::{other}", replay=False, schema=SCHEMA)
    assert result.verdict == "error", result.reason
    assert "cannot be compared" in (result.reason or "")


def test_an_action_among_the_results_is_refused():
    from sparklite.errors import UnsupportedError
    from sparklite.relational.types import parse_ddl

    schemas = {"a": parse_ddl("id INT, name STRING, items ARRAY<INT>"), "b": parse_ddl("id INT, qty INT")}
    with pytest.raises(UnsupportedError, match="must return DataFrames"):
        translate_dataframe_source(FUNCTIONS, "with_count", "outputs.py", schemas)


@pytest.mark.spark
def test_the_differing_position_replays_on_spark(functions: str):
    result = check(f"{functions}::split", f"{functions}::split_wrong_second", replay=True, schema=SCHEMA)
    assert result.verdict == "not_equivalent", result.reason
    assert result.counterexample is not None and result.counterexample.replayed_on_spark
    assert result.stats["outputs"] == {"index": 1, "count": 2}
    assert result.stats.get("spark_left") is not None
    assert (result.reason or "").startswith("result 2 of 2 (index 1)")
