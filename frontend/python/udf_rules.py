"""The fixed tables and small tree helpers of the function-body translator (``udf``).

Python's operators as SparkLite names, the string methods and statements inside the fragment, and the
helpers that inspect translated trees (evaluation order, what is surely harmless, a bag chain). They
are read by both parts of the translator (``udf`` and ``udf_calls``), so they live below both.
"""

from __future__ import annotations

import ast as pyast
from dataclasses import replace

from frontend.python.names import (
    FnV,
    PendingV,
    Value,
)
from frontend.python.nodes import (
    AsBool,
    Guard,
    ListLit,
    Narrow,
    PyCompare,
    PyIndex,
    Shaped,
    ShortCircuit,
)
from sparklite import ast as sl

ARITH = {pyast.Add: "+", pyast.Sub: "-", pyast.Mult: "*", pyast.FloorDiv: "//", pyast.Mod: "%",
         pyast.Div: "/"}
BITWISE = {pyast.BitAnd: "&", pyast.BitOr: "|", pyast.BitXor: "^", pyast.LShift: "<<", pyast.RShift: ">>",
           pyast.MatMult: "@"}
COMPARE = {pyast.Eq: "==", pyast.NotEq: "!=", pyast.Lt: "<", pyast.LtE: "<=", pyast.Gt: ">", pyast.GtE: ">="}
MAX_POWER = 8

#: String methods (receiver first): Python method name -> (builtin, admissible argument counts).
STR_METHODS = {
    "split": ("str.split", (0, 1)), "strip": ("str.strip", (0,)), "lower": ("str.lower", (0,)),
    "upper": ("str.upper", (0,)), "startswith": ("str.startswith", (1,)),
    "endswith": ("str.endswith", (1,)), "replace": ("str.replace", (2,)), "find": ("str.find", (1,)),
}

_BOOL_SHAPED = (sl.Not, sl.BoolLit, AsBool, PyCompare, ShortCircuit)

RDD_SOURCES = {"parallelize", "textFile", "wholeTextFiles", "range", "emptyRDD", "sequenceFile", "read"}

UNSUPPORTED_STATEMENTS = {
    pyast.For: "for loop", pyast.While: "while loop", pyast.Global: "global", pyast.Nonlocal: "nonlocal",
    pyast.Raise: "raise", pyast.Try: "try", pyast.Assert: "assert", pyast.With: "with",
    pyast.Delete: "del", pyast.Import: "import inside a function",
    pyast.ImportFrom: "import inside a function",
    pyast.ClassDef: "class definition", pyast.AsyncFunctionDef: "async def", pyast.Match: "match",
}
UNSUPPORTED_EXPRS = {
    pyast.SetComp: "set comprehension",
    pyast.DictComp: "dict comprehension", pyast.GeneratorExp: "generator expression",
    pyast.Dict: "dict literal", pyast.Set: "set literal",
    pyast.NamedExpr: "assignment expression (:=)", pyast.Starred: "starred expression",
    pyast.Await: "await", pyast.Yield: "yield", pyast.YieldFrom: "yield", pyast.Slice: "slice",
}

_TUPLE_RAISES = "tuple of an RDD and an action that may raise"
_TUPLE_RAISES_MESSAGE = ("a tuple holding an RDD and a computation that may raise must be the whole value of "
                         "an assignment or return")
_MAX_CONSTANT_DIGITS = 4000  # module constants are folded; keep them small


class _NotConstant(Exception):
    pass


def is_bool_shaped(e: sl.Expr) -> bool:
    """Expressions that are syntactically booleans (no truth-test placeholder needed)."""
    if isinstance(e, _BOOL_SHAPED):
        return True
    if isinstance(e, sl.Call) and e.func in ("py.is_none", "str.startswith", "str.endswith"):
        return True
    return isinstance(e, sl.BinOp) and e.op in sl.COMPARE_OPS + sl.BOOL_OPS + sl.MEMBER_OPS




def _is_none_const(node: pyast.expr) -> bool:
    return isinstance(node, pyast.Constant) and node.value is None


def _simple(e: sl.Expr) -> bool:
    """Unresolved expressions that are surely cheap and cannot raise (variables, literals, projections)."""
    if isinstance(e, (sl.Var, sl.IntLit, sl.BoolLit, sl.StrLit, sl.FloatLit, sl.NoneLit)):
        return True
    if isinstance(e, sl.Proj):
        return _simple(e.tuple)
    return False


def _maybe_simple(e: sl.Expr) -> bool:
    """Unresolved expressions that may turn out simple once typed (``x[0]`` of a tuple is a projection;
    of a list it is ``py.getitem``, which may raise): ``Beta`` decides after resolution."""
    if _simple(e):
        return True
    if isinstance(e, sl.Proj):
        return _maybe_simple(e.tuple)
    if isinstance(e, (Shaped, Narrow)):
        return _maybe_simple(e.operand)
    if isinstance(e, PyIndex):
        return isinstance(e.index, sl.IntLit) and _maybe_simple(e.base)
    return False


def _names_in(e: sl.Node) -> set[str]:
    return {n.name for n in sl.walk(e) if isinstance(n, (sl.Var, sl.Param))}


def _tuples_for_flatmap(fn: sl.Lambda) -> sl.Lambda:
    """A flatMap function that always returns list displays of one size returns tuples instead."""
    sizes = _literal_sizes(fn.body)
    if not sizes or len(sizes) != 1 or 0 in sizes:  # () is no SparkLite value; [] stays a list
        return fn

    def to_tuple(e: sl.Expr) -> sl.Expr:
        if isinstance(e, ListLit):
            return sl.TupleExpr(e.elems, loc=e.loc)
        if isinstance(e, sl.Ite):
            return replace(e, then=to_tuple(e.then), orelse=to_tuple(e.orelse))
        return e

    return replace(fn, body=to_tuple(fn.body))


def _literal_sizes(body: sl.Expr) -> set[int] | None:
    """The sizes of the tuple/list displays a function body returns (None: not always a display)."""
    if isinstance(body, (sl.TupleExpr, ListLit)):
        return {len(body.elems)}
    if isinstance(body, sl.Ite):
        a, b = _literal_sizes(body.then), _literal_sizes(body.orelse)
        if a is None or b is None:
            return None
        return a | b
    return None


def _bag_chain(e: sl.Expr) -> list[sl.Node]:
    """The bag operators that building ``e`` builds (not looking through let-bound bags or functions)."""
    out: list[sl.Node] = []
    todo: list[sl.Node] = [e]
    while todo:
        n = todo.pop()
        if isinstance(n, sl.BAG_OPS):
            out.append(n)
            todo.extend(c for c in sl.children(n) if isinstance(c, sl.BAG_OPS))
    return out


def _driver_check(e: sl.Expr) -> sl.Expr:
    """What Python evaluates when it builds the RDD ``e`` (parametric helpers' arguments, by-key zero
    values), as one expression whose errors are those of building it."""
    parts: list[sl.Expr] = []

    def visit(n: sl.Node) -> None:
        for child in sl.children(n):
            if isinstance(child, (sl.Lambda, sl.FnRef, sl.Var)):
                continue
            if isinstance(child, sl.PApp):
                parts.extend(child.args)
            elif isinstance(child, sl.BAG_OPS) or isinstance(child, Guard):
                visit(child)
            else:
                parts.append(child)  # type: ignore[arg-type]

    visit(e)
    return sl.TupleExpr(tuple(parts), loc=e.loc) if parts else sl.BoolLit(True, loc=e.loc)


_LAZY_RDD_METHODS = frozenset({
    "map", "filter", "flatMap", "mapValues", "flatMapValues", "keys", "values", "cartesian", "join",
    "leftOuterJoin", "rightOuterJoin", "fullOuterJoin", "union", "distinct", "subtract", "intersection",
    "foldByKey", "reduceByKey", "aggregateByKey", "combineByKey", "groupByKey", "cache", "persist", "keyBy",
})


def _evaluation_order(node: pyast.AST) -> list[pyast.AST]:
    """The direct parts of a Python expression in the order Python evaluates them."""
    if isinstance(node, pyast.Call):
        func = [node.func.value] if isinstance(node.func, pyast.Attribute) else [node.func]
        return [*func, *node.args, *(k.value for k in node.keywords)]
    if isinstance(node, pyast.BinOp):
        return [node.left, node.right]
    if isinstance(node, pyast.Compare):  # a < b < c evaluates c only when a < b holds
        return [node.left, node.comparators[0]]
    if isinstance(node, pyast.Subscript):
        return [node.value, node.slice]
    if isinstance(node, pyast.Attribute):
        return [node.value]
    if isinstance(node, pyast.Tuple | pyast.List):
        return list(node.elts)
    if isinstance(node, pyast.UnaryOp):
        return [node.operand]
    return []  # conditionals and boolean operators evaluate only some parts: nothing is "after" them


def _surely_harmless(node: pyast.AST) -> bool:
    """Python evaluating ``node`` on the driver cannot raise (a syntactic, conservative judgement:
    arithmetic is not harmless, since ``n + f`` raises for a huge int and a float, ``x + 1`` for None)."""
    if isinstance(node, pyast.Name | pyast.Constant | pyast.Lambda):
        return True
    if isinstance(node, pyast.Attribute):
        return _surely_harmless(node.value)
    if isinstance(node, pyast.Tuple):
        return all(_surely_harmless(e) for e in node.elts)
    if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute) \
            and node.func.attr in _LAZY_RDD_METHODS and not node.keywords:
        return _surely_harmless(node.func.value) and all(_surely_harmless(a) for a in node.args)
    return False


def _held_arguments(value: Value) -> tuple[sl.Expr, ...]:
    """Arguments a function value already holds (``below(10 // x)``, ``helper(e)`` pending its last
    call): Python evaluated them when the value was made."""
    if isinstance(value, FnV) and isinstance(value.fn, sl.PApp):
        return value.fn.args
    if isinstance(value, PendingV):
        return value.args
    return ()
