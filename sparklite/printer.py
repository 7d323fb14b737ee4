r"""Print SparkLite ASTs in the canonical textual syntax, so that ``parse(pretty(p)) == p`` for every program.

The printer inserts exactly the parentheses the grammar needs (Python's precedence; binary operators
associate to the left, comparisons do not chain), so a tree that is not left-leaning keeps its shape:
``BinOp('-', a, BinOp('-', b, c))`` prints as ``a - (b - c)``. Some spellings are chosen for round-trip
exactness rather than beauty: a negative literal ``IntLit(-3)`` prints as ``-3`` (``FloatLit(-0.0)`` as
``-0.0``) while the negation of a literal ``Neg(IntLit(3))`` prints as ``-(3)``; a one-argument
``count``/``sum``/``min``/``max`` *call* prints as ``min(x,)`` because ``min(x)`` is the aggregation
``SimpleAgg('min', x)``. Floats print as Python's ``repr`` (the shortest text that reads back as the same
double); strings in double quotes with the escapes ``\\ \" \n \r \t`` and ``\xhh``/``\uhhhh``/
``\Uhhhhhhhh`` for every other character that is not printable (control characters, separators, lone
surrogates), all other characters (non-ASCII letters included) as themselves. A list comprehension
prints in Python's form ``[e for x in xs if c]`` when its function and condition have the same single
parameter, as the ones the frontend builds do, and as ``[lambda (x) -> e for xs if lambda (y) -> c]``
otherwise. Names print bare unless they are reserved words or not identifiers (```count```, ```a b```);
a *call* of a function named like a soft keyword is quoted too (```first`(x)``, as ``first(x)`` is the
action).
"""

from __future__ import annotations

import math
import re

from sparklite import ast as A
from sparklite.parser import RESERVED, SOFT_KEYWORDS
from sparklite.types import (
    BagType,
    BoolType,
    DictType,
    FloatType,
    IntType,
    ListType,
    NoneType_,
    NumType,
    OptionType,
    StrType,
    TupleType,
    Type,
)

__all__ = ["pretty", "pretty_expr", "pretty_float", "pretty_fn", "pretty_name", "pretty_str", "pretty_type"]

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
    "==": _CMP, "!=": _CMP, "<": _CMP, "<=": _CMP, ">": _CMP, ">=": _CMP, "in": _CMP,
    "+": _SUM, "-": _SUM,
    "*": _TERM, "/": _TERM, "//": _TERM, "%": _TERM,
}

_IDENT = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
_DOTTED = re.compile(r"[A-Za-z_][A-Za-z_0-9]*(\.[A-Za-z_][A-Za-z_0-9]*)+")

#: Builtins whose one-argument call needs a trailing comma (their one-argument form is an aggregation).
_AGG_NAMES = frozenset({"count", "sum", "min", "max"})

_INDENT = "  "


def pretty_type(t: Type) -> str:
    """``Int``, ``Bool``, ``Str``, ``Float``, ``None``, ``Option[T]``, ``List[T]``, ``Dict[K, V]``,
    ``Bag[T]``, ``(A, B)``; one-element tuples get a trailing comma: ``(Int,)``."""
    if isinstance(t, IntType):
        return "Int"
    if isinstance(t, BoolType):
        return "Bool"
    if isinstance(t, StrType):
        return "Str"
    if isinstance(t, FloatType):
        return "Float"
    if isinstance(t, NumType):
        return "Num"
    if isinstance(t, NoneType_):
        return "None"
    if isinstance(t, BagType):
        return f"Bag[{pretty_type(t.elem)}]"
    if isinstance(t, OptionType):
        return f"Option[{pretty_type(t.elem)}]"
    if isinstance(t, ListType):
        return f"List[{pretty_type(t.elem)}]"
    if isinstance(t, DictType):
        return f"Dict[{pretty_type(t.key)}, {pretty_type(t.value)}]"
    if isinstance(t, TupleType):
        return _tuple_text([pretty_type(e) for e in t.elems])
    raise TypeError(f"not a SparkLite type: {t!r}")


def pretty_name(text: str, *, before_paren: bool = False) -> str:
    """A name as written: bare if it is an identifier that is not a keyword, else in backquotes (```map```,
    ```a b```). ``before_paren``: the name starts an expression and "(" follows (a call), where the soft
    keywords (``first``, ``take``...) would read as operations and so need the backquotes too."""
    if _IDENT.fullmatch(text) and text not in RESERVED and not (before_paren and text in SOFT_KEYWORDS):
        return text
    if not text or any(c in text for c in "`\n\r"):
        raise ValueError(f"the name {text!r} cannot be written in SparkLite")
    return f"`{text}`"


def _tuple_text(items: list[str]) -> str:
    if len(items) == 1:
        return f"({items[0]},)"
    return "(" + ", ".join(items) + ")"


def _param(p: A.Param) -> str:
    return pretty_name(p.name) if p.type is None else f"{pretty_name(p.name)}: {pretty_type(p.type)}"


def _params(params: tuple[A.Param, ...]) -> str:
    return ", ".join(_param(p) for p in params)


def _args(args: tuple[A.Expr, ...]) -> str:
    return ", ".join(pretty_expr(a) for a in args)


def pretty_fn(fn: A.Fn) -> str:
    """A function argument of a bag operator: ``double``, ``geq(100)`` or ``lambda (x) -> x + 1``."""
    if isinstance(fn, A.FnRef):
        return pretty_name(fn.name)
    if isinstance(fn, A.PApp):
        return f"{pretty_name(fn.name)}({_args(fn.args)})"
    if isinstance(fn, A.Lambda):
        return f"lambda ({_params(fn.params)}) -> {pretty_expr(fn.body)}"
    raise TypeError(f"not a SparkLite function: {fn!r}")


_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def pretty_str(value: str) -> str:
    """A string literal that the parser reads back as exactly ``value`` (see the module docstring)."""
    out = ['"']
    for ch in value:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ch.isprintable():
            out.append(ch)
        elif ord(ch) < 0x100:
            out.append(f"\\x{ord(ch):02x}")
        elif ord(ch) < 0x10000:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    out.append('"')
    return "".join(out)


def pretty_float(value: float) -> str:
    """``repr``: the shortest decimal that reads back as the same double, sign of zero included."""
    if not math.isfinite(value):
        raise ValueError(f"a float literal must be finite, not {value!r} (write float(\"{value}\"))")
    return repr(value)


def _listcomp(e: A.ListComp) -> str:
    fn, cond = e.fn, e.cond
    if len(fn.params) == 1 and (cond is None or cond.params == fn.params):
        test = "" if cond is None else f" if {pretty_expr(cond.body)}"
        return f"[{pretty_expr(fn.body)} for {_param(fn.params[0])} in {pretty_expr(e.source)}{test}]"
    test = "" if cond is None else f" if {pretty_fn(cond)}"
    return f"[{pretty_fn(fn)} for {pretty_expr(e.source)}{test}]"


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
    if isinstance(e, A.FloatLit):
        return pretty_float(e.value)
    if isinstance(e, A.StrLit):
        return pretty_str(e.value)
    if isinstance(e, A.NoneLit):
        return "None"
    if isinstance(e, A.ListExpr):
        return "[" + _args(e.elems) + "]"
    if isinstance(e, A.ListComp):
        return _listcomp(e)
    if isinstance(e, A.Var):
        return pretty_name(e.name)
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
        if e.func in _AGG_NAMES:
            if len(e.args) == 1:
                return f"{e.func}({pretty_expr(e.args[0])},)"
            return f"{e.func}({_args(e.args)})"
        func = e.func if _DOTTED.fullmatch(e.func) else pretty_name(e.func, before_paren=True)
        return f"{func}({_args(e.args)})"
    if isinstance(e, A.Apply):
        if isinstance(e.fn, A.PApp):
            return f"{pretty_name(e.fn.name, before_paren=True)}({_args(e.fn.args)})({_args(e.args)})"
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
    if isinstance(e, A.OuterJoin):
        return f"{e.kind}OuterJoin({x(e.left)}, {x(e.right)})"
    if isinstance(e, A.SortBy):
        order = "" if e.ascending else ", descending"
        return f"sortBy({f(e.key)}{order})({x(e.source)})"
    if isinstance(e, A.Subtract):
        return f"subtract({x(e.left)}, {x(e.right)})"
    if isinstance(e, A.Intersection):
        return f"intersection({x(e.left)}, {x(e.right)})"
    return _pretty_action(e)


def _pretty_action(e: A.Expr) -> str:
    f, x = pretty_fn, pretty_expr
    if isinstance(e, A.Collect):
        return f"collect({x(e.source)})"
    if isinstance(e, A.Take):
        return f"take({x(e.count)})({x(e.source)})"
    if isinstance(e, A.TakeOrdered):
        key = "" if e.key is None else f", {f(e.key)}"
        return f"{'top' if e.top else 'takeOrdered'}({x(e.count)}{key})({x(e.source)})"
    if isinstance(e, A.First):
        return f"first({x(e.source)})"
    if isinstance(e, A.CountByValue):
        return f"countByValue({x(e.source)})"
    if isinstance(e, A.CollectAsMap):
        return f"collectAsMap({x(e.source)})"
    raise TypeError(f"not a SparkLite expression: {e!r}")


def _pretty_def(d: A.Def) -> str:
    if isinstance(d, A.FunDef):
        ret = "" if d.ret is None else f": {pretty_type(d.ret)}"
        return f"def {pretty_name(d.name)}({_params(d.params)}){ret} = {pretty_expr(d.body)}"
    if isinstance(d, A.ParamFunDef):
        return f"def {pretty_name(d.name)}({_params(d.params)}) = {pretty_fn(d.fn)}"
    raise TypeError(f"not a SparkLite definition: {d!r}")


def pretty(program: A.Program) -> str:
    """The program as a ``.sl`` text: header line, then one indented line per def, let and the result."""
    lines = [f"program {pretty_name(program.name)}({_params(program.params)}) ="]
    lines += [_INDENT + _pretty_def(d) for d in program.defs]
    lines += [f"{_INDENT}let {pretty_name(b.name)} = {pretty_expr(b.value)}" for b in program.lets]
    lines.append(_INDENT + pretty_expr(program.body))
    return "\n".join(lines) + "\n"
