"""Arrays, maps and structs (issue 21): types, the array functions and generators in the kernel, the
DataFrame and SQL frontends, and the facts they rest on, checked on Spark (``docs/semantics-notes.md``,
"Arrays").

The semantic facts are asserted against the interpreter without Spark, and the same programs run on
Spark (through codegen, ``spark`` mark) must give the same outcomes: Spark is the ground truth.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sparklite.relational import ast as R
from sparklite.relational import build as B
from sparklite.relational.interpreter import run
from sparklite.relational.nested import CAVEAT_COLLECT_ORDER, java_split, split
from sparklite.relational.types import STRING, ArrayType, MapType, StructType, parse_ddl
from sparklite.relational.values import RelError

T = parse_ddl("s STRING, i INT")


def _program(body: R.Rel | R.Action, schema: Any = T) -> R.RelProgram:
    return R.RelProgram("p", (R.TableParam("t", schema),), body)


def _table(schema: Any = T) -> R.Table:
    return B.table("t", schema)


def _rows(outcome: Any) -> list[tuple]:
    return sorted(outcome.rows.items, key=repr)


# -- types -------------------------------------------------------------------------------------------


def test_ddl_reads_nested_types() -> None:
    s = parse_ddl("a ARRAY<STRING>, m map<string, int> NOT NULL, st struct<x:int,y:array<bigint>>")
    assert s.fields[0].type == ArrayType(STRING)
    assert isinstance(s.fields[1].type, MapType) and not s.fields[1].nullable
    assert isinstance(s.fields[2].type, StructType)
    assert s.fields[2].type.simple == "struct<x:int,y:array<bigint>>"
    assert str(s) == "a array<string>, m map<string,int> NOT NULL, st struct<x:int,y:array<bigint>>"


# -- split: Java's String.split with Spark's limit ------------------------------------------------------


@pytest.mark.parametrize(("s", "pattern", "limit", "want"), [
    ("a,b,,c,,", ",", -1, ("a", "b", "", "c", "", "")),  # trailing empty strings kept
    ("a,b,,c,,", ",", 0, ("a", "b", "", "c", "", "")),  # 0 is -1 in Spark (not Java's 0)
    ("a,b,,c,,", ",", 2, ("a", "b,,c,,")),
    ("a,b,,c,,", ",", 1, ("a,b,,c,,",)),
    ("x.y", ".", -1, ("", "", "", "")),  # a regex: '.' matches every character
    ("", ",", -1, ("",)),
    ("abc", "", -1, ("a", "b", "c")),  # an empty pattern splits into characters
    ("abc", "", 2, ("a", "bc")),
])
def test_split_is_javas_with_sparks_limit(s: str, pattern: str, limit: int, want: tuple) -> None:
    assert split(s, pattern, limit) == want


def test_java_split_drops_a_leading_empty_piece_of_a_zero_width_match() -> None:
    from sparklite.relational.javaregex import translate

    assert java_split(translate("x*"), "abc", -1) == ("a", "b", "c", "")


# -- functions and generators in the interpreter ---------------------------------------------------------


def _arr() -> R.Expr:
    t = _table()
    return B.func("split", [B.columns_of(t)[0], B.lit(","), B.lit(-1)])


def test_array_functions_types_names_and_values() -> None:
    t = _table()
    arr = _arr()
    exprs = [B.func("size", [arr]), B.func("get_item", [arr, B.lit(0)]),
             B.func("element_at", [arr, B.lit(-1)]),
             B.func("array_contains", [arr, B.lit("b")]), B.func("sort_array", [arr, B.lit(False)]),
             B.func("array_distinct", [arr]), B.func("concat_ws", [B.lit("-"), arr])]
    assert arr.type == ArrayType(STRING, False)
    prog = _program(B.project(t, exprs, [f"c{i}" for i in range(len(exprs))]))
    out = run(prog, {"t": [("a,b,,a", 1), (None, 2)]}).outcome
    assert _rows(out) == sorted([
        (4, "a", "a", True, ("b", "a", "a", ""), ("a", "b", ""), "a-b--a"),
        (None, None, None, None, None, None, ""),  # size(NULL) is NULL under ANSI; concat_ws skips it
    ], key=repr)


@pytest.mark.parametrize(("func", "index", "error"), [
    ("get_item", 5, RelError("ArrayIndexOutOfBoundsException", "INVALID_ARRAY_INDEX")),
    ("get_item", -1, RelError("ArrayIndexOutOfBoundsException", "INVALID_ARRAY_INDEX")),
    ("element_at", 5, RelError("ArrayIndexOutOfBoundsException", "INVALID_ARRAY_INDEX_IN_ELEMENT_AT")),
    ("element_at", 0, RelError("SparkRuntimeException", "INVALID_INDEX_OF_ZERO")),
])
def test_index_errors(func: str, index: int, error: RelError) -> None:
    prog = _program(B.project(_table(), [B.func(func, [_arr(), B.lit(index)])], ["x"]))
    assert run(prog, {"t": [("a,b", 1)]}).outcome == error
    assert run(prog, {"t": [(None, 1)]}).outcome.rows.items == ((None,),)  # a NULL array: NULL, no error


@pytest.mark.parametrize(("outer", "position", "want"), [
    (False, False, [("a,b", 1, "a"), ("a,b", 1, "b")]),
    (True, False, [("a,b", 1, "a"), ("a,b", 1, "b"), (None, 2, None)]),
    (False, True, [("a,b", 1, 0, "a"), ("a,b", 1, 1, "b")]),
    (True, True, [("a,b", 1, 0, "a"), ("a,b", 1, 1, "b"), (None, 2, None, None)]),
])
def test_generate(outer: bool, position: bool, want: list[tuple]) -> None:
    g = B.generate(_table(), _arr(), outer, position)
    assert g.schema.names[2:] == (("pos", "col") if position else ("col",))
    assert [f.nullable for f in g.schema.fields[2:]] == ([outer, outer] if position else [outer])
    out = run(_program(g), {"t": [("a,b", 1), (None, 2)]}).outcome
    assert _rows(out) == sorted(want, key=repr)


def test_generate_demands_the_array_even_under_count() -> None:
    t = _table()
    bad = B.func("get_item", [B.func("array", [B.func("array", [B.columns_of(t)[1]])]), B.lit(3)])
    prog = _program(R.Action("count", B.generate(t, bad, False, False)))
    assert run(prog, {"t": [("a", 1)]}).outcome == RelError("ArrayIndexOutOfBoundsException",
                                                             "INVALID_ARRAY_INDEX")


def test_collect_list_order_is_a_caveat() -> None:
    t = _table()
    s = B.columns_of(t)[0]
    agg = B.aggregate(t, [B.columns_of(t)[1]], ["i"], [B.agg("collect_list", [s]), B.agg("collect_set", [s])],
                      ["l", "s"])
    assert agg.schema.fields[1].type == ArrayType(STRING, False) and not agg.schema.fields[1].nullable
    one = run(_program(agg), {"t": [("a", 1), ("a", 1), (None, 1)]})
    assert _rows(one.outcome) == [(1, ("a", "a"), ("a",))] and CAVEAT_COLLECT_ORDER not in one.caveats
    two = run(_program(agg), {"t": [("a", 1), ("b", 1)]})
    assert CAVEAT_COLLECT_ORDER in two.caveats


# -- frontends -------------------------------------------------------------------------------------------

DF_SOURCE = '''
from typing import Annotated
from pyspark.sql import DataFrame, functions as F

def names(df: Annotated[DataFrame, "s STRING, i INT"]):
    a = df.withColumn("a", F.split(F.col("s"), ","))
    return a.select(F.size("a"), a.a[0], F.col("a").getItem(1), F.element_at("a", -1), F.sort_array("a"),
                    F.array_contains("a", "b"), F.array("i", "i"), F.explode("a"))

def pos(df: Annotated[DataFrame, "s STRING, i INT"]):
    return df.select("i", F.posexplode_outer(F.split("s", "[.]")))

def with_column(df: Annotated[DataFrame, "s STRING, i INT"]):
    return df.withColumn("w", F.explode(F.split("s", ","))).groupBy("w").agg(F.collect_set("i"))

def two_generators(df: Annotated[DataFrame, "s STRING, i INT"]):
    return df.select(F.explode(F.split("s", ",")), F.explode(F.split("s", ".")))
'''


def _translate(tmp_path: Path, source: str, name: str) -> R.RelProgram:
    from verifier.core.loading import load

    path = tmp_path / "prog.py"
    path.write_text(source)
    return load(f"{path}::{name}").program  # type: ignore[return-value]


def test_dataframe_names_as_spark(tmp_path: Path) -> None:
    from sparklite.relational.rows import relations

    prog = _translate(tmp_path, DF_SOURCE, "names")
    assert prog.body.schema.names == (  # type: ignore[union-attr]
        "size(a)", "a[0]", "a[1]", "element_at(a, -1)", "sort_array(a, true)", "array_contains(a, b)",
        "array(i, i)", "col")
    assert any(isinstance(r, R.Generate) for r in relations(prog.body))
    assert _translate(tmp_path, DF_SOURCE, "pos").body.schema.names == ("i", "pos", "col")  # type: ignore[union-attr]
    assert _translate(tmp_path, DF_SOURCE, "with_column").body.schema.names == (  # type: ignore[union-attr]
        "w", "collect_set(i)")


def test_two_generators_are_an_analysis_error(tmp_path: Path) -> None:
    from sparklite.errors import InputError

    with pytest.raises(InputError, match="MULTI_GENERATOR"):
        _translate(tmp_path, DF_SOURCE, "two_generators")


def test_sql_lateral_view_and_array_names() -> None:
    from frontend.sql.translator import translate_query
    from sparklite.relational.printer import show

    catalog = {"t": _table()}
    q = translate_query("SELECT i, split(s, ','), split(s, ',')[0], size(split(s, ',')) FROM t", catalog)
    assert q.schema.names == ("i", "split(s, ,, -1)", "split(s, ,, -1)[0]", "size(split(s, ,, -1))")
    q = translate_query("SELECT t.i, x.w FROM t LATERAL VIEW OUTER posexplode(split(s, ',')) x AS p, w",
                        catalog)
    assert q.schema.names == ("i", "w")
    assert "Generate posexplode_outer" in show(_program(q))


# -- Spark: the same programs, run through codegen --------------------------------------------------------


@pytest.mark.spark
def test_the_facts_on_spark(spark_session: Any) -> None:
    """Every program above, on Spark: the interpreter's outcome (values, errors, names and types) is
    Spark's, through ``tests/test_relational_vs_spark.py``'s machinery."""
    from test_relational_vs_spark import AGREE, CAVEATED, Case, Report, check_case

    t = _table()
    arr = _arr()
    programs = [
        B.project(t, [B.func("size", [arr]), B.func("get_item", [arr, B.lit(0)]),
                      B.func("element_at", [arr, B.lit(-1)]), B.func("array_contains", [arr, B.lit("b")]),
                      B.func("sort_array", [arr, B.lit(False)]), B.func("array_distinct", [arr]),
                      B.func("concat_ws", [B.lit("-"), arr]),
                      B.func("split", [B.columns_of(t)[0], B.lit("."), B.lit(-1)]),
                      B.func("split", [B.columns_of(t)[0], B.lit(""), B.lit(2)]),
                      B.func("split", [B.columns_of(t)[0], B.lit(","), B.lit(0)])],
                  [f"c{i}" for i in range(10)]),
        B.project(t, [B.func("get_item", [arr, B.lit(2)])], ["x"]),
        B.project(t, [B.func("element_at", [arr, B.lit(0)])], ["x"]),
        B.project(t, [B.func("element_at", [arr, B.lit(9)])], ["x"]),
        *(B.generate(t, arr, o, p) for o in (False, True) for p in (False, True)),
        R.Action("count", B.generate(t, arr, False, False)),
        B.aggregate(t, [B.columns_of(t)[1]], ["i"], [B.agg("collect_list", [B.columns_of(t)[0]])], ["l"]),
    ]
    tables = {"t": [("a,b,,a,,", 1), (None, 2), ("", 3), ("x.y", 1)]}
    report = Report()
    for i, body in enumerate(programs):
        check_case(spark_session, Case(i, _program(body), tables, {"t": (tuple(tables["t"]),)}), report)
    assert report.counts[AGREE] + report.counts[CAVEATED] == len(programs), (
        report.summary() + "\n".join(report.disagreements + report.type_mismatches))
