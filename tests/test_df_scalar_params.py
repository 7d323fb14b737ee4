"""Scalar parameters of DataFrame functions (issue 20, ``frontend.dataframe.scalars``): a column name or a
list of renames both functions are called with, declared as ``--schema 'name=LITERAL'``, read as that
constant, listed in ``assumptions``, and passed to the function on replay."""

from __future__ import annotations

from pathlib import Path

import pytest

from frontend.dataframe.scalars import ScalarArg, scalar_declaration, split_declarations
from frontend.dataframe.translator import translate_dataframe_source
from sparklite.errors import InputError
from verifier import check
from verifier.core.base import LoadedProgram
from verifier.core.loading import load_schemas
from verifier.runtime.replay_df import call_arguments

SOURCE = '''
def rename_columns(df, rename_tuples=None):
    for old, new in rename_tuples:
        df = df.withColumnRenamed(old, new)
    return df

def pick(df, column_name):
    return df.select(column_name)

def pick_by_index(df, column_name):
    return df.select(df[column_name])

def pick_positive(df, column_name):
    return df.filter(df[column_name] > 1).select(column_name)
'''
DF = "df=NAME STRING, TBL_ID BIGINT"


@pytest.mark.parametrize(("text", "value"), [
    ("'NAME'", "NAME"), ('"a b"', "a b"), ("5", 5), ("None", None), ("[('a', 'b')]", [("a", "b")]),
    ("(1, 2.5)", (1, 2.5)),
])
def test_a_python_literal_declares_a_scalar(text: str, value: object) -> None:
    arg = scalar_declaration(text)
    assert arg is not None and arg.value == value


@pytest.mark.parametrize("text", ["id INT, name STRING", "a", "`x` INT", "", "{'a': 1}", "f(1)"])
def test_ddl_and_other_text_are_not_scalars(text: str) -> None:
    assert scalar_declaration(text) is None


def test_load_schemas_keeps_tables_and_scalars_apart() -> None:
    tables, scalars = split_declarations(load_schemas([DF, "column_name='TBL_ID'"]))
    assert list(tables) == ["df"] and scalars == {"column_name": ScalarArg("TBL_ID", "'TBL_ID'")}


def test_a_declared_list_of_renames_is_read_and_assumed() -> None:
    schemas = load_schemas([DF, "rename_tuples=[('NAME', 'name'), ('TBL_ID', 'id')]"])
    prog = translate_dataframe_source(SOURCE, "rename_columns", "f.py", schemas)
    assert [f.name for f in prog.body.schema.fields] == ["name", "id"]
    assert [p.name for p in prog.params] == ["df"]
    assert prog.scalars == (("rename_tuples", [("NAME", "name"), ("TBL_ID", "id")]),)
    assert len(prog.assumed) == 1 and "rename_tuples is assumed to be" in prog.assumed[0]


def test_an_undeclared_scalar_says_what_to_declare() -> None:
    with pytest.raises(InputError) as err:
        translate_dataframe_source(SOURCE, "pick", "f.py", load_schemas([DF]))
    assert err.value.loc is not None and (err.value.loc.line, err.value.loc.col) == (7, 14)
    assert "--schema \"column_name='NAME'\"" in str(err.value)


def test_an_annotated_scalar_with_a_declaration_is_read() -> None:
    src = "def f(df, n: int):\n    return df.limit(n)\n"
    prog = translate_dataframe_source(src, "f", "f.py", load_schemas([DF, "n=2"]))
    assert prog.scalars == (("n", 2),)


def _write(tmp_path: Path) -> str:
    path = tmp_path / "funcs.py"
    path.write_text(SOURCE)
    return str(path)


def test_the_verdicts_hold_for_the_declared_argument(tmp_path: Path) -> None:
    f = _write(tmp_path)
    schema = [DF, "column_name='TBL_ID'"]
    same = check(f"{f}::pick", f"{f}::pick_by_index", schema=schema, replay=False)
    assert same.verdict == "equivalent"
    assert any("column_name is assumed to be 'TBL_ID'" in a for a in same.assumptions)
    differ = check(f"{f}::pick", f"{f}::pick_positive", schema=schema, replay=False)
    assert differ.verdict == "not_equivalent"
    assert any("column_name is assumed to be 'TBL_ID'" in a for a in differ.assumptions)


def test_replay_calls_the_function_with_the_declared_argument() -> None:
    prog = translate_dataframe_source(SOURCE, "pick", "f.py", load_schemas([DF, "column_name='TBL_ID'"]))
    loaded = LoadedProgram(prog, "python", path="f.py", function="pick", source=SOURCE)
    assert call_arguments(loaded, prog.params, ["FRAME"], spark="SPARK") == ["FRAME", "TBL_ID"]


@pytest.mark.spark
def test_the_counterexample_replays_with_the_declared_argument(tmp_path: Path, spark_session) -> None:
    f = _write(tmp_path)
    result = check(f"{f}::pick", f"{f}::pick_positive", schema=[DF, "column_name='TBL_ID'"], replay=True,
                   timeout=120)
    assert result.verdict == "not_equivalent", result.reason
    assert result.counterexample.replayed_on_spark, result.warnings
