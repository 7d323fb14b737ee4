"""Lists a DataFrame function builds and mutates on its own, and ``while`` loops on driver values
(frontend/dataframe/private_lists.py): modelled only where no other name can hold the list, so that
binding the name to the new list is exactly what Python's in-place mutation does."""

from __future__ import annotations

import ast

import pytest

from frontend.dataframe.private_lists import private_names
from frontend.dataframe.translator import translate_dataframe_source
from sparklite.errors import InputError, UnsupportedError
from verifier.core.loading import load_schemas

SCHEMAS = load_schemas(["df=id STRING, name STRING, price DOUBLE"])


def _private(src: str) -> frozenset[str]:
    fn = ast.parse(src).body[0]
    assert isinstance(fn, ast.FunctionDef)
    return private_names(fn)


def test_a_work_list_is_private_and_aliases_are_not():
    assert _private("def f(df):\n    s = [1]\n    while s:\n        x = s.pop()\n    c = []\n"
                    "    c.extend([x])\n    return df.select(c)\n") == {"s", "c"}
    assert _private("def f(df):\n    s = []\n    t = s\n    s.append(1)\n") == set()
    assert _private("def f(df, s):\n    s.append(1)\n") == set()  # a parameter may be the caller's
    assert _private("def f(df):\n    s = []\n    g = lambda: s\n    s.append(1)\n") == set()
    assert _private("def f(df):\n    s = []\n    t = []\n    t.append(s)\n") == {"t"}
    assert _private("def f(df):\n    s = [1]\n    for x in s:\n        s.append(x)\n") == set()
    assert _private("def f(df):\n    s = df.columns\n    s.remove('id')\n") == set()


SOURCE = '''
def flatten(df):
    stack = [("", df)]
    columns = []
    while stack:
        prefix, d = stack.pop()
        columns.extend([prefix + f.name for f in d.schema.fields])
    columns.remove("name")
    columns.insert(0, "name")
    return df.select(columns)

def aliased(df):
    columns = ["id"]
    other = columns
    other.append("name")
    return df.select(columns)

def forever(df):
    s = [1]
    while s:
        s.append(1)
    return df

def empty_pop(df):
    s = []
    s.pop()
    return df
'''


def test_a_while_loop_over_a_work_list_is_read_as_python_runs_it():
    prog = translate_dataframe_source(SOURCE, "flatten", "f.py", SCHEMAS)
    assert [f.name for f in prog.body.schema.fields] == ["name", "id", "price"]


def test_mutations_python_cannot_do_or_that_may_alias_are_refused():
    with pytest.raises(UnsupportedError, match="append"):
        translate_dataframe_source(SOURCE, "aliased", "f.py", SCHEMAS)
    with pytest.raises(UnsupportedError, match="too long"):
        translate_dataframe_source(SOURCE, "forever", "f.py", SCHEMAS)
    with pytest.raises(InputError, match="IndexError"):
        translate_dataframe_source(SOURCE, "empty_pop", "f.py", SCHEMAS)


def test_a_parameter_used_only_to_create_a_dataframe_is_the_session():
    """A SQLContext or session parameter (``sql_context.createDataFrame(...)``) is no input: it is not
    asked for a schema; what the session is asked for is decided next (here, refused in a function)."""
    src = "def f(sql_context, df):\n    return sql_context.createDataFrame([(1,)], 'a INT').union(df)\n"
    with pytest.raises(UnsupportedError, match="createDataFrame is not supported"):
        translate_dataframe_source(src, "f", "f.py", load_schemas(["df=a INT"]))
