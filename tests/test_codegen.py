"""Codegen: the emitted module is valid Python, follows the interpreter's let discipline, and computes on
real Spark exactly what the interpreter says (hand-written programs here; random ones in
``test_interpreter_vs_spark.py``). Also hosts ``run_on_spark``, the test-side runner of generated code
(sparklite never imports pyspark)."""

from __future__ import annotations

import ast as pyast
import re
from collections.abc import Mapping
from typing import Any

import pytest

from sparklite import ast as A
from sparklite.codegen import function_name, py_name, to_pyspark
from sparklite.interpreter import run
from sparklite.partitions import default_partitioning
from sparklite.types import INT, BagType, TupleType
from sparklite.values import (
    Bag,
    ErrorOutcome,
    Outcome,
    Partitioning,
    Sorted,
    observe_like,
    observe_value,
    outcomes_equal,
)


def _is_rdd(value: Any) -> bool:
    return hasattr(value, "collect") and hasattr(value, "getNumPartitions")


def _collect(value: Any, reference: Outcome = None) -> Outcome:
    """Spark's result observed like ``reference`` (the interpreter's outcome; ``values.observe_like``):
    RDDs are collected left to right, an ordered result is compared modulo ties. Without a reference an
    RDD is a bag and a list a ``ListValue``."""
    if _is_rdd(value):
        items = value.collect()
        if isinstance(reference, Sorted):
            return observe_like(items, reference)
        return Bag.of(observe_value(x) for x in items)
    if isinstance(value, tuple):
        same_shape = isinstance(reference, tuple) and len(reference) == len(value)
        refs = reference if same_shape else (None,) * len(value)
        return tuple(_collect(v, r) for v, r in zip(value, refs, strict=True))
    return observe_like(value, reference)


#: The exceptions a SparkLite program can raise (``sparklite.builtins``, ``sparklite.effects``); anything
#: else coming out of Spark is a bug of codegen or of the test, and propagates.
PROGRAM_ERRORS = ("ZeroDivisionError", "ValueError", "IndexError", "TypeError", "OverflowError")
_WORKER_ERROR = re.compile(r"^(?:pyspark\.errors\.exceptions\.base\.)?(?:PySpark)?([A-Za-z]\w*):?", re.M)


def spark_error_kind(exc: BaseException) -> str | None:
    """The Python exception a Spark failure stands for: driver-side errors arrive as themselves (PySpark
    raises ``PySparkValueError`` for ``first()`` of an empty RDD); task-side ones are wrapped in a
    Py4JJavaError / PythonException whose text carries the worker's traceback, whose last line names the
    exception."""
    for cls in type(exc).__mro__:
        if cls.__module__ == "builtins" and cls.__name__ in PROGRAM_ERRORS:
            return cls.__name__
    text = str(exc)
    marker = "Traceback (most recent call last):"
    if marker not in text:
        return None
    tail = text[text.rindex(marker) + len(marker):]
    for line in tail.splitlines()[1:]:
        if not line or line[0].isspace():
            continue
        match = _WORKER_ERROR.match(line)
        if match:
            return match.group(1) if match.group(1) in PROGRAM_ERRORS else None
    return None


def run_on_spark(sc: Any, module_text: str, func_name: str, program: A.Program, inputs: Mapping[str, Any],
                 partitions: Mapping[str, Partitioning] | None = None, reference: Outcome = None) -> Outcome:
    """Exec codegen's module, call ``func_name`` with exact RDDs for the bag inputs (explicit partitions,
    else one partition in list order, as the interpreter) and the scalar inputs, and collect the result
    left to right, observed like ``reference`` when given (see ``_collect``). Spark failures become
    ``ErrorOutcome``s; any other exception propagates."""
    from verifier.runtime.spark import exact_rdd

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
        return _collect(namespace[func_name](*args), reference)
    except Exception as exc:  # noqa: BLE001 - classified below, re-raised when unknown
        kind = spark_error_kind(exc)
        if kind is None:
            raise
        return ErrorOutcome(kind)


def spark_outcome(sc: Any, program: A.Program, inputs: Mapping[str, Any],
                  partitions: Mapping[str, Partitioning] | None = None, reference: Outcome = None) -> Outcome:
    """``program``'s outcome on Spark; ``reference`` (the interpreter's outcome) says how to observe
    ordered results (modulo ties) and lists."""
    return run_on_spark(sc, to_pyspark(program), function_name(program), program, inputs, partitions,
                        reference)


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


def _udf(body: A.Expr, params: str = "x") -> Any:
    """The generated Python function for a one-lambda program's UDF, runnable without Spark."""
    src = to_pyspark(prog(A.Map(lam(params, body), V("R"))))
    udf_text = src[src.index(".map(") + len(".map("):src.rindex(")")]
    return eval(udf_text, {})  # noqa: S307 - our own codegen


def test_strings_floats_none_lists_and_builtins_are_spelled_as_python() -> None:
    s = A.StrLit("it's \"q\" \U0001d11e\n")
    assert _udf(s)(0) == "it's \"q\" \U0001d11e\n"
    assert _udf(A.FloatLit(-0.0))(0) == 0.0 and str(_udf(A.FloatLit(-0.0))(0)) == "-0.0"
    assert _udf(A.FloatLit(1e308))(0) == 1e308 and _udf(A.FloatLit(5e-324))(0) == 5e-324
    assert _udf(A.NoneLit())(0) is None
    assert _udf(A.BinOp("/", V("x"), A.IntLit(2)))(5) == 2.5
    assert _udf(A.BinOp("in", A.StrLit("b"), V("x")))("abc") is True  # SparkLite `a in b` is Python's
    assert _udf(A.BinOp("in", V("x"), A.ListExpr((A.IntLit(1), A.IntLit(2)))))(3) is False
    comp = A.ListComp(lam("c", A.Call("str.upper", (V("c"),))), V("x"), lam("d", A.BinOp("!=", V("d"),
                                                                                   A.StrLit(" "))))
    assert _udf(comp)("a b") == ["A", "B"]
    assert _udf(A.Call("str.split", (V("x"), A.StrLit(","))))("a,,b") == ["a", "", "b"]
    assert _udf(A.Call("str.split", (V("x"),)))(" a  b ") == ["a", "b"]
    assert _udf(A.Call("math.floor", (V("x"),)))(-0.5) == -1
    assert _udf(A.Call("round", (V("x"), A.IntLit(1))))(2.25) == 2.2
    assert _udf(A.Call("py.getitem", (V("x"), A.IntLit(-1))))("abc") == "c"
    assert _udf(A.Call("py.slice", (V("x"), A.NoneLit(), A.IntLit(-1))))("abc") == "ab"
    assert _udf(A.Call("py.is_none", (V("x"),)))(None) is True
    assert _udf(A.Call("str.replace", (V("x"), A.StrLit("a"), A.StrLit("\u00e9"))))("aba") == "\u00e9b\u00e9"
    unpack = _udf(A.Call("py.unpack", (A.Call("str.split", (V("x"), A.StrLit(","))), A.IntLit(2))))
    assert unpack("k,v") == ("k", "v")
    with pytest.raises(ValueError):
        unpack("k,v,w")
    unwrap = _udf(A.BinOp("==", A.Call("py.unwrap", (V("x"),)), A.IntLit(1)))
    assert unwrap(1) is True
    with pytest.raises(TypeError):  # where the interpreter raises, not only when an operation fails
        unwrap(None)
    src = to_pyspark(prog(A.Map(lam("x", A.Call("math.sqrt", (V("x"),))), V("R"))))
    assert "import" not in src.replace("__import__('math')", "")


def test_new_bag_operators_and_actions_are_spelled_as_pyspark() -> None:
    pairs = (A.Param("R", BagType(PAIR)), A.Param("S", BagType(PAIR)))
    key = lam("kv", A.Proj(V("kv"), 0))
    cases = [
        (A.OuterJoin("left", V("R"), V("S")), "R.leftOuterJoin(S)"),
        (A.OuterJoin("full", V("R"), V("S")), "R.fullOuterJoin(S)"),
        (A.SortBy(key, False, V("R"), surface="sortByKey"), "R.sortByKey(False)"),
        (A.SortBy(key, True, V("R")), "R.sortBy((lambda kv: kv[0]), True)"),
        (A.SortBy(lam("kv", A.Proj(V("kv"), 1)), True, V("R"), surface="sortByKey"),
         "R.sortBy((lambda kv: kv[1]), True)"),
        (A.Subtract(V("R"), V("S")), "R.subtract(S)"),
        (A.Intersection(V("R"), V("S")), "R.intersection(S)"),
        (A.Collect(V("R")), "R.collect()"),
        (A.Take(A.IntLit(2), V("R")), "R.take(2)"),
        (A.TakeOrdered(A.IntLit(2), None, V("R")), "R.takeOrdered(2)"),
        (A.TakeOrdered(A.IntLit(2), key, V("R"), top=True), "R.top(2, key=(lambda kv: kv[0]))"),
        (A.First(V("R")), "R.first()"),
        (A.CountByValue(V("R")), "R.countByValue()"),
        (A.CollectAsMap(V("R")), "R.collectAsMap()"),
        (A.GroupByKeyAgg(("list",), V("R")), "R.groupByKey().mapValues(list)"),
        (A.GroupByKeyAgg(("len", "list"), V("R")),
         "R.groupByKey().mapValues(lambda vs: (len(vs), list(vs)))"),
    ]
    for body, text in cases:
        src = to_pyspark(prog(body, params=pairs))
        assert f"return {text}\n" in src, (text, src)
        compile(src, "<generated>", "exec")


def test_observe_like_reads_a_concrete_list_through_tie_groups() -> None:
    from sparklite.values import ListValue, observe_sequence

    ref = observe_sequence([("b", 2.5), ("c", 2.5), ("a", 1.0)], [0, 0, 1], None)
    assert observe_like([("c", 2.5), ("b", 2.5), ("a", 1.0)], ref) == ref  # ties in any order
    assert isinstance(observe_like([("a", 1.0), ("b", 2.5), ("c", 2.5)], ref), ListValue)
    cut = observe_sequence([("b", 2.5), ("c", 2.5), ("a", 1.0)], [0, 0, 1], [("a", 1.0), ("d", 1.0)])
    assert cut.taken == 1
    assert observe_like([("c", 2.5), ("b", 2.5), ("d", 1.0)], cut) == cut  # any one of the last tie
    assert not outcomes_equal(observe_like([("c", 2.5), ("b", 2.5), ("e", 1.0)], cut), cut)
    nan = float("nan")
    assert outcomes_equal(observe_like([nan, 1.0], Bag.of([1.0, nan])), Bag.of([nan, 1.0]))
    assert observe_like(([1, 2], {"a": 1}), (Bag.of([2, 1]), None)) == (Bag.of([1, 2]),
                                                                         observe_value({"a": 1}))
    assert observe_like([[1], [2]], ListValue((ListValue((1,)), ListValue((2,))))) == \
        ListValue((ListValue((1,)), ListValue((2,))))


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
