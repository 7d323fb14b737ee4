"""Print SparkLite ASTs in the canonical textual syntax, so that ``parse(pretty(p)) == p`` for every program.

The printer inserts exactly the parentheses the grammar needs (Python's precedence; binary operators
associate to the left, comparisons do not chain), so a tree that is not left-leaning keeps its shape:
``BinOp('-', a, BinOp('-', b, c))`` prints as ``a - (b - c)``. Two spellings are chosen for round-trip
exactness rather than beauty: a negative literal ``IntLit(-3)`` prints as ``-3`` while the negation of a
literal ``Neg(IntLit(3))`` prints as ``-(3)``; a one-argument ``min``/``max`` *call* prints as ``min(x,)``
because ``min(x)`` is the aggregation ``SimpleAgg('min', x)``.
"""

from __future__ import annotations

from sparklite import ast as A
from sparklite.types import BagType, BoolType, IntType, TupleType, Type

__all__ = ["pretty", "pretty_expr", "pretty_fn", "pretty_type"]

# Precedence levels (higher binds tighter); mirrors the expression rules in grammar.lark.
_ITE = 0
_OR = 1
_AND = 2
_NOT = 3
_CMP = 4
_SUM = 5
_TERM = 6
_UNARY = 7
_ATOM = 8

_BINOP_LEVEL = {
    "or": _OR, "and": _AND,
    "==": _CMP, "!=": _CMP, "<": _CMP, "<=": _CMP, ">": _CMP, ">=": _CMP,
    "+": _SUM, "-": _SUM,
    "*": _TERM, "//": _TERM, "%": _TERM,
}

_INDENT = "  "


def pretty_type(t: Type) -> str:
    """``Int``, ``Bool``, ``Bag[T]``, ``(A, B)``; one-element tuples get a trailing comma: ``(Int,)``."""
    if isinstance(t, IntType):
        return "Int"
    if isinstance(t, BoolType):
        return "Bool"
    if isinstance(t, BagType):
        return f"Bag[{pretty_type(t.elem)}]"
    if isinstance(t, TupleType):
        return _tuple_text([pretty_type(e) for e in t.elems])
    raise TypeError(f"not a SparkLite type: {t!r}")


def _tuple_text(items: list[str]) -> str:
    if len(items) == 1:
        return f"({items[0]},)"
    return "(" + ", ".join(items) + ")"


def _param(p: A.Param) -> str:
    return p.name if p.type is None else f"{p.name}: {pretty_type(p.type)}"


def _params(params: tuple[A.Param, ...]) -> str:
    return ", ".join(_param(p) for p in params)


def _args(args: tuple[A.Expr, ...]) -> str:
    return ", ".join(pretty_expr(a) for a in args)


def pretty_fn(fn: A.Fn) -> str:
    """A function argument of a bag operator: ``double``, ``geq(100)`` or ``lambda (x) -> x + 1``."""
    if isinstance(fn, A.FnRef):
        return fn.name
    if isinstance(fn, A.PApp):
        return f"{fn.name}({_args(fn.args)})"
    if isinstance(fn, A.Lambda):
        return f"lambda ({_params(fn.params)}) -> {pretty_expr(fn.body)}"
    raise TypeError(f"not a SparkLite function: {fn!r}")


def _level(e: A.Expr) -> int:
    if isinstance(e, A.Ite):
        return _ITE
    if isinstance(e, A.BinOp):
        return _BINOP_LEVEL[e.op]
    if isinstance(e, A.Not):
        return _NOT
    if isinstance(e, A.Neg):
        return _UNARY
    return _ATOM


def _at(e: A.Expr, min_level: int) -> str:
    """``e`` printed so that it parses back as one operand of precedence at least ``min_level``."""
    text = pretty_expr(e)
    return f"({text})" if _level(e) < min_level else text


def pretty_expr(e: A.Expr) -> str:
    """Canonical text of an expression (see the module docstring for the round-trip conventions)."""
    if isinstance(e, A.IntLit):
        return str(e.value)
    if isinstance(e, A.BoolLit):
        return "true" if e.value else "false"
    if isinstance(e, A.Var):
        return e.name
    if isinstance(e, A.BinOp):
        level = _BINOP_LEVEL[e.op]
        # Left-associative: the left operand may sit at the same level; comparisons do not chain.
        left_min = level + 1 if level == _CMP else level
        return f"{_at(e.left, left_min)} {e.op} {_at(e.right, level + 1)}"
    if isinstance(e, A.Not):
        return f"not {_at(e.operand, _NOT)}"
    if isinstance(e, A.Neg):
        operand = _at(e.operand, _UNARY)
        # "-3" would read back as the literal -3, "-3[0]" as a projection of it: keep the minus apart.
        if operand[0].isdigit():
            operand = f"({operand})"
        return f"-{operand}"
    if isinstance(e, A.Ite):
        return f"if {pretty_expr(e.cond)} then {pretty_expr(e.then)} else {pretty_expr(e.orelse)}"
    if isinstance(e, A.TupleExpr):
        return _tuple_text([pretty_expr(x) for x in e.elems])
    if isinstance(e, A.Proj):
        return f"{_at(e.tuple, _ATOM)}[{e.index}]"
    if isinstance(e, A.Call):
        if e.func in ("min", "max") and len(e.args) == 1:
            return f"{e.func}({pretty_expr(e.args[0])},)"
        return f"{e.func}({_args(e.args)})"
    if isinstance(e, A.Apply):
        if isinstance(e.fn, A.PApp):
            return f"{pretty_fn(e.fn)}({_args(e.args)})"
        return f"apply({pretty_fn(e.fn)})({_args(e.args)})"
    return _pretty_bag_expr(e)


def _pretty_bag_expr(e: A.Expr) -> str:
    f, x = pretty_fn, pretty_expr
    if isinstance(e, A.Map):
        keep = ", preservesPartitioning" if e.preserves_partitioning else ""
        return f"map({f(e.fn)}{keep})({x(e.source)})"
    if isinstance(e, A.Filter):
        return f"filter({f(e.fn)})({x(e.source)})"
    if isinstance(e, A.FlatMap):
        keep = ", preservesPartitioning" if e.preserves_partitioning else ""
        return f"flatMap({f(e.fn)}{keep})({x(e.source)})"
    if isinstance(e, A.Cartesian):
        return f"cartesian({x(e.left)}, {x(e.right)})"
    if isinstance(e, A.Join):
        return f"join({x(e.left)}, {x(e.right)})"
    if isinstance(e, A.Union):
        return f"union({x(e.left)}, {x(e.right)})"
    if isinstance(e, A.Distinct):
        return f"distinct({x(e.source)})"
    if isinstance(e, A.Fold):
        return f"fold({x(e.zero)}, {f(e.op)})({x(e.source)})"
    if isinstance(e, A.Aggregate):
        return f"aggregate({x(e.zero)}, {f(e.seq)}, {f(e.comb)})({x(e.source)})"
    if isinstance(e, A.Reduce):
        return f"reduce({f(e.op)})({x(e.source)})"
    if isinstance(e, A.SimpleAgg):
        return f"{e.kind}({x(e.source)})"
    if isinstance(e, A.FoldByKey):
        return f"foldByKey({x(e.zero)}, {f(e.op)})({x(e.source)})"
    if isinstance(e, A.AggregateByKey):
        return f"aggregateByKey({x(e.zero)}, {f(e.seq)}, {f(e.comb)})({x(e.source)})"
    if isinstance(e, A.ReduceByKey):
        return f"reduceByKey({f(e.op)})({x(e.source)})"
    if isinstance(e, A.CombineByKey) and e.zero is not None:  # kernel form: print what it came from
        if e.create != e.merge_value:
            raise TypeError("a kernel combineByKey with a zero whose create is not its merge_value")
        if e.merge_value == e.merge_combiners:
            return f"foldByKey({x(e.zero)}, {f(e.create)})({x(e.source)})"
        return f"aggregateByKey({x(e.zero)}, {f(e.create)}, {f(e.merge_combiners)})({x(e.source)})"
    if isinstance(e, A.CombineByKey):
        return (f"combineByKey({f(e.create)}, {f(e.merge_value)}, {f(e.merge_combiners)})"
                f"({x(e.source)})")
    if isinstance(e, A.GroupByKeyAgg):
        return f"groupByKey({', '.join(e.kinds)})({x(e.source)})"
    raise TypeError(f"not a SparkLite expression: {e!r}")


def _pretty_def(d: A.Def) -> str:
    if isinstance(d, A.FunDef):
        ret = "" if d.ret is None else f": {pretty_type(d.ret)}"
        return f"def {d.name}({_params(d.params)}){ret} = {pretty_expr(d.body)}"
    if isinstance(d, A.ParamFunDef):
        return f"def {d.name}({_params(d.params)}) = {pretty_fn(d.fn)}"
    raise TypeError(f"not a SparkLite definition: {d!r}")


def pretty(program: A.Program) -> str:
    """The program as a ``.sl`` text: header line, then one indented line per def, let and the result."""
    lines = [f"program {program.name}({_params(program.params)}) ="]
    lines += [_INDENT + _pretty_def(d) for d in program.defs]
    lines += [f"{_INDENT}let {b.name} = {pretty_expr(b.value)}" for b in program.lets]
    lines.append(_INDENT + pretty_expr(program.body))
    return "\n".join(lines) + "\n"
