"""verifier.runtime.extract: only the pipeline and what it needs is executed (no Spark needed here)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from verifier.runtime.extract import ExtractionError, extract, loaded_function

SOURCE = textwrap.dedent('''
    from __future__ import annotations
    import os
    from operator import add
    from pyspark import SparkContext

    sc = SparkContext("local", "users-own")
    K = 10
    open(MARKER, "w").write("side effect")

    def helper(x):
        return x + K

    inc = lambda x: helper(x) + 1

    def pipeline(R: RDD[int], t: int) -> int:
        K = 99  # a local that shadows the global must not matter
        return R.map(inc).filter(lambda v: v > t).fold(0, add) + K

    def unused():
        return os.getcwd()

    raise SystemExit(3)

    if __name__ == "__main__":
        print(pipeline(sc.parallelize([1, 2]), 3))
''')


def _selected(source: str, function: str) -> list[str]:
    return [ast.unparse(s).splitlines()[0] for s in extract(source, function).module.body]


def test_selects_transitive_dependencies_only() -> None:
    lines = _selected(SOURCE, "pipeline")
    assert lines == [
        "from __future__ import annotations",
        "from operator import add",
        "K = 10",
        "def helper(x):",
        "inc = lambda x: helper(x) + 1",
        "def pipeline(R: RDD[int], t: int) -> int:",
    ]


def test_users_spark_context_is_replaced_not_started() -> None:
    src = ("from pyspark import SparkContext\nsc = SparkContext('local')\n"
           "def f(R):\n    return sc.union([R])\n")
    extracted = extract(src, "f")
    assert extracted.spark_names == {"sc": "sc"}
    assert "SparkContext" not in ast.unparse(extracted.module)


def test_side_effects_do_not_run(tmp_path: Path) -> None:
    marker = tmp_path / "marker.txt"
    source = SOURCE.replace("MARKER", repr(str(marker)))
    with loaded_function(source, "pipeline", "pipeline.py", {"sc": None}) as fn:
        assert callable(fn)
        assert fn.__globals__["helper"](1) == 11
    assert not marker.exists()


def test_annotations_are_never_evaluated() -> None:
    # ``RDD`` is not imported: evaluating the annotation would raise NameError.
    with loaded_function("def f(R: RDD[int]) -> RDD[int]:\n    return R\n", "f", "f.py") as fn:
        assert fn(5) == 5


def test_name_bound_only_in_compound_statement_is_reported() -> None:
    src = "try:\n    C = 1\nexcept Exception:\n    C = 2\ndef f(R):\n    return R + C\n"
    with pytest.raises(ExtractionError, match="'C'"):
        extract(src, "f")


def test_missing_function() -> None:
    with pytest.raises(ExtractionError, match="no top-level function"):
        extract("x = 1\n", "f")


def test_statement_sees_only_earlier_bindings() -> None:
    src = "A = 1\nB = A + 1\nA = 5\ndef f(x):\n    return x + B\n"
    assert _selected(src, "f") == ["A = 1", "B = A + 1", "def f(x):"]


def test_worker_exception_names_are_dug_out_of_spark_messages() -> None:
    from verifier.core.services import ReplayError
    from verifier.runtime.replay import _exception_name

    class Py4JJavaError(Exception):  # the shape of py4j's error: the worker's traceback inside the text
        __module__ = "py4j.protocol"

    text = ("An error occurred while calling o1.collect.\n: org.apache.spark.api.python.PythonException: "
            "Traceback (most recent call last):\n  File \"w.py\", line 1, in f\n    return 1 // x\n"
            "           ~~^~~\nZeroDivisionError: integer division or modulo by zero\n SQLSTATE: 38000\n"
            "\tat org.apache.spark.api.python.BasePythonRunner")
    assert _exception_name(Py4JJavaError(text)) == "ZeroDivisionError"
    wrapped = text.replace("ZeroDivisionError", "pyspark.errors.exceptions.base.PySparkValueError")
    assert _exception_name(Py4JJavaError(wrapped)) == "ValueError"
    assert _exception_name(ValueError("Can not reduce() empty RDD")) == "ValueError"
    with pytest.raises(ReplayError):
        _exception_name(Py4JJavaError("java.lang.OutOfMemoryError: Java heap space"))


def test_star_imports_are_kept_when_a_name_may_come_from_them() -> None:
    src = "from operator import *\nimport os\ndef f(a, b):\n    return add(a, b)\n"
    assert _selected(src, "f") == ["from operator import *", "def f(a, b):"]
    with loaded_function(src, "f", "f.py") as fn:
        assert fn(2, 3) == 5
