"""A free name defined nowhere, read inside a function Spark runs (issue 20; ``py.undefined``,
frontend/python/nodes.py ``Undefined``): CPython raises ``NameError`` only when the expression is
evaluated, so it is an outcome, not a refusal. The interpreter raises it where Python would, the shared
"may raise" notion (``sparklite.effects``) knows it, the encoder records it as a hazard, the generated
PySpark code raises it, and an aggregateByKey combine function that reads it makes the result depend on
the partitioning (Spark calls it only for a key split across partitions: docs/semantics-notes.md).
Driver code that reads an undefined name is still refused (test_frontend_errors.py), and so is one in a
function unit, whose module globals an importer may set (``mod.y = 1``): only scripts read it so."""

from __future__ import annotations

import pytest

from frontend import translate_source
from sparklite import ast as sl
from sparklite import effects
from sparklite.builtins import BUILTINS
from sparklite.interpreter import run
from sparklite.typecheck import typecheck
from sparklite.values import Bag, ErrorOutcome
from verifier import check

NE = ErrorOutcome("NameError")
MAP = "from pyspark import RDD\n\ndef p(R: 'RDD[int]'):\n    return R.map(lambda x: x + y)\n"
TYPO = ("from pyspark import RDD\n\ndef p(S: 'RDD[tuple[str, int]]'):\n"
        "    return S.aggregateByKey((0, 0), lambda C, V: (C[0] + V, C[1] + 1),\n"
        "                            lambda C1, C2: (C1[0] + C2[0], C1[1] + C[1]))\n")


def _calls(program):
    return [n for n in sl.walk(program) if isinstance(n, sl.Call) and n.func == "py.undefined"]


def test_an_undefined_name_raises_when_evaluated():
    program = translate_source(MAP, filename="t.py", names_fail_late=True)
    typecheck(program)
    [call] = _calls(program)
    assert call.loc == sl.Loc("t.py", 4, 32)
    assert effects.raises_here(call) == "NameError"
    assert run(program, {"R": [1]}) == NE
    assert run(program, {"R": []}) == Bag(())  # never evaluated: no error


def test_an_undefined_receiver_raises_before_its_index():
    program = translate_source(TYPO, filename="t.py", names_fail_late=True)
    typecheck(program)
    assert len(_calls(program)) == 1  # C[1] is C's NameError: the index is never looked at
    one = {"S": [[("k", 1), ("k", 2)]]}
    split = {"S": [[("k", 1)], [("k", 2)]]}
    assert run(program, {}, partitions=one) == Bag((("k", (3, 2)),))
    assert run(program, {}, partitions=split) == NE


def test_the_generated_code_raises_name_error():
    assert BUILTINS["py.undefined"].raises == frozenset({"NameError"})
    with pytest.raises(NameError):
        eval(BUILTINS["py.undefined"].python.format("0"))  # noqa: S307 - the table's own spelling


SCRIPT = ("import sys\nfrom pyspark import SparkContext\nsc = SparkContext(appName='u')\n"
          "print(sc.textFile(sys.argv[1]).map(lambda x: len(x) + y).collect())\n")


def test_a_map_that_reads_an_undefined_name_is_told_apart(tmp_path):
    left, right = tmp_path / "a.py", tmp_path / "b.py"
    left.write_text(SCRIPT)
    right.write_text(SCRIPT.replace("len(x) + y", "len(x) + 1"))
    result = check(str(left), str(right), replay=False)
    assert result.verdict == "not_equivalent", result.reason
    assert check(str(left), str(left), replay=False).verdict == "equivalent"


def test_a_function_unit_keeps_the_refusal(tmp_path):
    """A function unit's module may get ``y`` from whoever imports it: refused, located."""
    unit = tmp_path / "u.py"
    unit.write_text(MAP)
    result = check(str(unit), str(unit), replay=False)
    assert result.verdict == "error" and "'y'" in result.reason, result.reason


@pytest.mark.parametrize("source", [
    MAP.replace("x + y", "print(x)"),  # a builtin Spark's Python knows
    MAP + "\ny = 1\n",  # bound later at module level: defined by the time Spark calls the function
    "from mylib import *\n" + MAP,  # a star import may bring it
])
def test_a_name_that_may_be_defined_when_spark_runs_is_not_an_undefined_name(source):
    from sparklite.errors import InputError

    try:
        program = translate_source(source, filename="t.py")
    except InputError:
        return  # refused, as before
    assert not _calls(program)


def test_only_module_level_bindings_count():
    import ast

    from frontend.python.unbound import bound_names
    tree = ast.parse("import os.path\nfor i in []: pass\nif True:\n    k = 1\n"
                     "def f(a):\n    b = a\n    global g\n    return [c for c in a]\nh = lambda d: d\n")
    assert bound_names(tree) == {"os", "i", "k", "f", "g", "h"}
