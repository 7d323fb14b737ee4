"""Which functions of the real-world corpus are units (bench/corpus.py): issue 20 counts "each function
that returns an RDD or DataFrame", so a function that visibly returns a schema or a column type is not
one. The rule is read from the source with ``ast`` and must stay narrow (anything else stays a unit)."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

_SPEC = importlib.util.spec_from_file_location(
    "bench_corpus", Path(__file__).resolve().parents[1] / "bench" / "corpus.py"
)
assert _SPEC is not None and _SPEC.loader is not None
corpus = importlib.util.module_from_spec(_SPEC)
sys.modules["bench_corpus"] = corpus  # dataclasses look their module up
_SPEC.loader.exec_module(corpus)


def _fn(src: str) -> ast.FunctionDef:
    node = ast.parse(src).body[0]
    assert isinstance(node, ast.FunctionDef)
    return node


def test_a_function_returning_a_column_type_is_not_a_unit() -> None:
    assert corpus._returns_schema(_fn("def f(df, c):\n    return df.select(c).schema.fields[0].dataType\n"))
    assert corpus._returns_schema(_fn("def f(df):\n    return df.schema\n"))
    assert corpus._returns_schema(_fn("def f(df):\n    if df:\n        return StructType([])\n"
                                      "    return T.IntegerType()\n"))


def test_functions_returning_anything_else_stay_units() -> None:
    assert not corpus._returns_schema(_fn("def f(df):\n    return df.select('a')\n"))
    assert not corpus._returns_schema(_fn("def f(df):\n    return helper(df.schema)\n"))
    # one return of a DataFrame is enough to stay a unit
    assert not corpus._returns_schema(_fn("def f(df):\n    if df:\n        return df.schema\n"
                                          "    return df\n"))
    # a nested function's return is not the function's own
    assert not corpus._returns_schema(_fn("def f(df):\n    def g():\n        return df.schema\n"
                                          "    return df.filter(g())\n"))
    assert not corpus._returns_schema(_fn("def f(df):\n    df.show()\n"))
