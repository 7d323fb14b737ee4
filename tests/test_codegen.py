"""Codegen: the emitted module is valid Python, follows the interpreter's let discipline, and computes on
real Spark exactly what the interpreter says (hand-written programs here; random ones in
``test_interpreter_vs_spark.py``). Also hosts ``run_on_spark``, the test-side runner of generated code
(sparklite never imports pyspark)."""

from __future__ import annotations

import ast as pyast
from collections.abc import Mapping
from typing import Any

import pytest

from sparklite import ast as A
from sparklite.codegen import function_name, py_name, to_pyspark
from sparklite.interpreter import run
from sparklite.partitions import default_partitioning
from sparklite.types import INT, BagType, TupleType
from sparklite.values import Bag, ErrorOutcome, Outcome, Partitioning, outcomes_equal


def _collect(value: Any) -> Outcome:
    if hasattr(value, "collect") and hasattr(value, "getNumPartitions"):
        return Bag.of(value.collect())
    if isinstance(value, tuple):
        return tuple(_collect(v) for v in value)
    return value


def spark_error_kind(exc: BaseException) -> str | None:
    """The Python exception a Spark failure stands for: Spark wraps task-side errors in Py4JJavaError /
    PythonException whose text carries the worker's traceback; driver-side ones arrive as themselves."""
    text = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, ZeroDivisionError) or "ZeroDivisionError" in text:
        return "ZeroDivisionError"
    if isinstance(exc, ValueError) and "empty RDD" in text:
        return "ValueError"
    return None


def run_on_spark(sc: Any, module_text: str, func_name: str, program: A.Program, inputs: Mapping[str, Any],
                 partitions: Mapping[str, Partitioning] | None = None) -> Outcome:
    """Exec codegen's module, call ``func_name`` with exact RDDs for the bag inputs (explicit partitions,
    else one partition in list order, as the interpreter) and the scalar inputs, and collect the result
    left to right. Spark failures become ``ErrorOutcome``s; any other exception propagates."""
    from verifier.spark import exact_rdd

    namespace: dict[str, Any] = {"__name__": "sparkeq_generated"}
    exec(compile(module_text, f"<sparkeq:{func_name}>", "exec"), namespace)  # noqa: S102 - our own codegen
    args = []
    for p in program.params:
        if isinstance(p.type, BagType):
            parts = (partitions or {}).get(p.name)
            if parts is None:
                parts = default_partitioning(list(inputs[p.name]))
            args.append(exact_rdd(sc, parts))
        else:
            args.append(inputs[p.name])
    try:
        return _collect(namespace[func_name](*args))
    except Exception as exc:  # noqa: BLE001 - classified below, re-raised when unknown
        kind = spark_error_kind(exc)
        if kind is None:
            raise
        return ErrorOutcome(kind)


def spark_outcome(sc: Any, program: A.Program, inputs: Mapping[str, Any],
                  partitions: Mapping[str, Partitioning] | None = None) -> Outcome:
    return run_on_spark(sc, to_pyspark(program), function_name(program), program, inputs, partitions)


# --------------------------------------------------------------------------------------------------

PAIR = TupleType((INT, INT))


def lam(params: str, body: A.Expr) -> A.Lambda:
    return A.Lambda(tuple(A.Param(n) for n in params.split(",")), body)


V = A.Var


def prog(body: A.Expr, params: tuple[A.Param, ...] = (A.Param("R", BagType(INT)),),
         lets: tuple[A.LetBinding, ...] = (), defs: tuple[A.Def, ...] = (), name: str = "P") -> A.Program:
    return A.Program(name, params, defs, lets, body)


def test_module_is_valid_python_and_defines_the_function() -> None:
    p = prog(A.Map(lam("x", A.BinOp("//", V("x"), A.IntLit(-2))), V("R")))
    src = to_pyspark(p)
    tree = pyast.parse(src)
    funcs = [n for n in tree.body if isinstance(n, pyast.FunctionDef)]
    assert [f.name for f in funcs] == ["P"]
    assert [a.arg for a in funcs[0].args.args] == ["R"]
    assert "R.map((lambda x: (x // (-2))))" in src
    assert "import" not in src  # the module needs nothing: RDD methods do the work


def test_names_that_clash_with_python_are_renamed_injectively() -> None:
    assert py_name("x") == "x"
    assert py_name("sum") == "sum_sl"
    assert py_name("lambda") == "lambda_sl"
    assert py_name("sum_sl") == "sum_sl_sl"
    p = prog(A.Map(lam("sum", A.BinOp("+", V("sum"), V("len"))), V("R")),
             params=(A.Param("R", BagType(INT)), A.Param("len", INT)))
    ns: dict[str, Any] = {}
    exec(to_pyspark(p), ns)  # noqa: S102
    assert "P" in ns


def test_every_let_is_emitted_in_order() -> None:
    lets = (
        A.LetBinding("unused", A.Reduce(lam("a,b", V("a")), V("R"))),
        A.LetBinding("m", A.SimpleAgg("min", V("R"))),
        A.LetBinding("S", A.Map(lam("x", A.BinOp("-", V("x"), V("m"))), V("R"))),
    )
    src = to_pyspark(prog(V("S"), lets=lets))
    assert src.index("unused = R.reduce(") < src.index("m = R.min()")
    assert src.index("m = R.min()") < src.index("S = R.map(")


def test_ite_projection_and_tuples() -> None:
    body = A.Map(lam("p", A.Ite(A.BinOp(">", A.Proj(V("p"), 0), A.IntLit(0)),
                                A.TupleExpr((A.Proj(V("p"), 1),)), A.TupleExpr((A.IntLit(0),)))), V("R"))
    src = to_pyspark(prog(body, params=(A.Param("R", BagType(PAIR)),)))
    assert "((p[1],) if (p[0] > 0) else (0,))" in src


@pytest.mark.spark
def test_hand_written_programs_agree_with_spark(spark_context: Any) -> None:
    add = lam("a,b", A.BinOp("+", V("a"), V("b")))
    defs = (A.ParamFunDef("geq", (A.Param("y", INT),), A.Lambda((A.Param("x", INT),),
                                                                   A.BinOp(">=", V("x"), V("y")))),
            A.FunDef("plus", (A.Param("a", INT), A.Param("b", INT)), INT, A.BinOp("+", V("a"), V("b"))))
    cases = [
        (prog(A.Fold(A.IntLit(10), add, V("R"))), {"R": [1, 2, 3]}, {"R": ((1,), (2,), (3,))}),
        (prog(A.Fold(A.IntLit(0), lam("a,x", A.BinOp("+", V("a"), A.IntLit(1))), V("R"))),
         {"R": [1, 2, 3, 4]}, {"R": ((1, 2), (3, 4))}),
        (prog(A.FoldByKey(A.IntLit(1), add, V("R")), params=(A.Param("R", BagType(PAIR)),)),
         {"R": [(0, 1), (0, 2)]}, {"R": (((0, 1),), ((0, 2),))}),
        (prog(A.Reduce(A.FnRef("plus"), A.Filter(A.PApp("geq", (A.IntLit(9),)), V("R"))), defs=defs),
         {"R": [1, 2]}, None),
        (prog(A.TupleExpr((A.Map(lam("x", A.BinOp("//", V("x"), V("t"))), V("R")),
                           A.SimpleAgg("sum", V("R")))),
              params=(A.Param("R", BagType(INT)), A.Param("t", INT))), {"R": [3, -3], "t": 0}, None),
        (prog(A.Distinct(A.Map(lam("x", A.BinOp("%", V("x"), A.IntLit(-2))), V("R")))),
         {"R": [-3, -2, 5, 7]}, {"R": ((-3, -2), (), (5, 7))}),
        # non-commutative mergeCombiners: map-partition order on the reduce side
        (prog(A.CombineByKey(lam("v", V("v")),
                             lam("c,v", A.BinOp("-", A.BinOp("*", V("c"), A.IntLit(10)), V("v"))),
                             lam("a,b", A.BinOp("-", A.BinOp("*", V("a"), A.IntLit(100)), V("b"))), V("R")),
              params=(A.Param("R", BagType(PAIR)),)),
         {}, {"R": (((0, 1), (0, 2)), ((0, 3),), ((0, 4),))}),
        # hash-partitioned union zips partitions: visible to a non-commutative fold
        (prog(A.Fold(A.TupleExpr((A.IntLit(0), A.IntLit(0))),
                     lam("a,b", A.TupleExpr((A.BinOp("-", A.Proj(V("a"), 0), A.Proj(V("b"), 0)),
                                             A.BinOp("+", A.BinOp("*", A.Proj(V("a"), 1), A.IntLit(3)),
                                                     A.Proj(V("b"), 1))))),
                     A.Union(A.ReduceByKey(add, V("R")), A.ReduceByKey(add, V("S")))),
              params=(A.Param("R", BagType(PAIR)), A.Param("S", BagType(PAIR)))),
         {}, {"R": (((1, 1), (2, 2)), ((1, 3), (3, 4))), "S": (((1, 10),), ((2, 20), (5, 1)))}),
        # cartesian never computes its right side when the left is empty
        (prog(A.Cartesian(A.Filter(lam("x", A.BoolLit(False)), V("R")),
                          A.Map(lam("x", A.BinOp("//", V("x"), A.IntLit(0))), V("S"))),
              params=(A.Param("R", BagType(INT)), A.Param("S", BagType(INT)))),
         {}, {"R": ((1, 2), (3,)), "S": ((1,), (2,))}),
    ]
    for p, inputs, parts in cases:
        expected = run(p, inputs, parts)
        got = spark_outcome(spark_context, p, inputs, parts)
        assert outcomes_equal(expected, got), (p, expected, got)
