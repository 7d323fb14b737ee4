"""Parse SparkLite's textual syntax (``sparklite/grammar.lark``) into the AST of ``sparklite.ast``.

The grammar is LALR(1) so that every parse is deterministic and every syntax error points at one token.
Newlines end statements (``def``/``let`` lines) only outside brackets: a small post-lexer drops the
newlines inside ``( )`` and ``[ ]`` before the parser sees them, so long expressions can be wrapped as in
Python. Every AST node gets ``loc = Loc(file, line, col)`` of its first token; lark's exceptions are turned
into ``SyntaxError_`` (an ``InputError``) so that bad input never reaches the user as a traceback.
"""

from __future__ import annotations

import functools
import importlib.resources
import math
import os
from collections.abc import Iterator
from typing import Any

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from sparklite import ast as A
from sparklite.errors import InputError, SyntaxError_
from sparklite.types import (
    BOOL,
    FLOAT,
    INT,
    NONE,
    NUM,
    STR,
    BagType,
    DictType,
    ListType,
    NoneType_,
    OptionType,
    TupleType,
    Type,
)

__all__ = ["RESERVED", "SOFT_KEYWORDS", "parse", "parse_expr", "parse_file", "parse_text", "parse_type"]

# Read as a package resource, not a path next to __file__: sparkeq ships itself to Spark executors as a
# zip (``SparkContext.addPyFile``), and a module imported from a zip has no directory to open files in.
_GRAMMAR = importlib.resources.files("sparklite").joinpath("grammar.lark")

#: Words that cannot be used as names (they are keywords of the grammar), unless written in backquotes
#: (`map`), which makes any text a name.
RESERVED = frozenset({
    "program", "def", "let", "lambda", "if", "then", "else", "and", "or", "not", "true", "false", "apply",
    "map", "filter", "flatMap", "cartesian", "join", "union", "distinct", "fold", "aggregate", "reduce",
    "count", "sum", "min", "max", "foldByKey", "aggregateByKey", "reduceByKey", "combineByKey",
    "groupByKey", "Int", "Bool", "Boolean", "Bag",
    "None", "Str", "Float", "Num", "Option", "List", "Dict", "for", "in",
})

#: Operation names that are keywords only where an operation can start and "(" follows (``first(R)``);
#: everywhere else they are ordinary names (``let first = first(R)``, ``map(top)(R)``, ``first + 1``), since
#: PySpark programs often use them for variables. A *call* of a def with such a name needs backquotes:
#: ```first`(x)``.
SOFT_KEYWORDS = frozenset({
    "leftOuterJoin", "rightOuterJoin", "fullOuterJoin", "sortBy", "subtract", "intersection", "collect",
    "take", "takeOrdered", "top", "first", "countByValue", "collectAsMap",
})

_OPEN = frozenset({"LPAR", "LSQB"})
_CLOSE = frozenset({"RPAR", "RSQB"})


class _Layout:
    """Post-lexer: keep a newline only at bracket depth 0 (where it ends a statement), collapse runs."""

    always_accept = ("_NL",)

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        # Tokens are passed on at once, never held back: the contextual lexer picks the terminals it
        # may match from the parser's current state, so the parser must have seen every earlier token.
        depth = 0
        after_newline = False
        for tok in stream:
            if tok.type == "_NL":
                if depth == 0 and not after_newline:
                    after_newline = True
                    yield tok
                continue
            after_newline = False
            if tok.type in _OPEN:
                depth += 1
            elif tok.type in _CLOSE:
                depth = max(0, depth - 1)
            yield tok


@functools.cache
def _lark() -> Lark:
    with _GRAMMAR.open(encoding="utf-8") as fh:
        grammar = fh.read()
    return Lark(
        grammar,
        parser="lalr",
        lexer="contextual",
        postlex=_Layout(),
        start=["program_start", "expr_start", "type_start"],
        propagate_positions=True,
        maybe_placeholders=True,
    )


def _tuple(x: Any) -> tuple:
    return () if x is None else tuple(x)


@v_args(meta=True, inline=True)
class _Builder(Transformer):
    """Lark parse tree -> SparkLite AST. One instance per parse (it knows the file name for locations)."""

    def __init__(self, file: str | None) -> None:
        super().__init__()
        self.file = file

    # -- helpers ------------------------------------------------------------------------------------

    def _loc(self, meta: Any) -> A.Loc | None:
        if getattr(meta, "empty", True):
            return None
        return A.Loc(self.file, meta.line, meta.column)

    def _tok_loc(self, tok: Token) -> A.Loc:
        return A.Loc(self.file, tok.line, tok.column)

    def _name(self, tok: Token) -> str:
        name = str(tok)
        if name.startswith("`"):  # a quoted name may spell anything, keywords included
            return name[1:-1]
        # The contextual lexer reads a keyword as a NAME where no keyword may stand ("let map = ..."):
        # reject it here, or the name could be bound but never used.
        if name in RESERVED:
            raise SyntaxError_(f"'{name}' is a reserved word and cannot be used as a name",
                               self._tok_loc(tok))
        return name

    # -- entry points -------------------------------------------------------------------------------

    def program_start(self, meta: Any, program: A.Program) -> A.Program:
        return program

    def expr_start(self, meta: Any, expr: A.Expr) -> A.Expr:
        return expr

    def type_start(self, meta: Any, typ: Type) -> Type:
        return typ

    # -- programs -----------------------------------------------------------------------------------

    def program(self, meta: Any, name: Token, params: Any, defs: tuple, lets: tuple,
                body: A.Expr) -> A.Program:
        return A.Program(self._name(name), _tuple(params), defs, lets, body, loc=self._loc(meta))

    def prog_params(self, meta: Any, *params: A.Param) -> tuple[A.Param, ...]:
        return params

    def prog_param(self, meta: Any, name: Token, typ: Type) -> A.Param:
        return A.Param(self._name(name), typ, loc=self._loc(meta))

    def defs(self, meta: Any, *defs: A.Def) -> tuple[A.Def, ...]:
        return defs

    def lets(self, meta: Any, *lets: A.LetBinding) -> tuple[A.LetBinding, ...]:
        return lets

    def fundef(self, meta: Any, name: Token, params: Any, ret: Type | None, body: A.Expr) -> A.FunDef:
        return A.FunDef(self._name(name), _tuple(params), ret, body, loc=self._loc(meta))

    def paramfundef(self, meta: Any, name: Token, params: Any, fn: A.Lambda) -> A.ParamFunDef:
        return A.ParamFunDef(self._name(name), _tuple(params), fn, loc=self._loc(meta))

    def let(self, meta: Any, name: Token, value: A.Expr) -> A.LetBinding:
        return A.LetBinding(self._name(name), value, loc=self._loc(meta))

    def params(self, meta: Any, *params: A.Param) -> tuple[A.Param, ...]:
        return params

    def param(self, meta: Any, name: Token, typ: Type | None) -> A.Param:
        return A.Param(self._name(name), typ, loc=self._loc(meta))

    # -- types --------------------------------------------------------------------------------------

    def int_type(self, meta: Any) -> Type:
        return INT

    def bool_type(self, meta: Any) -> Type:
        return BOOL

    def str_type(self, meta: Any) -> Type:
        return STR

    def float_type(self, meta: Any) -> Type:
        return FLOAT

    def num_type(self, meta: Any) -> Type:
        return NUM

    def none_type(self, meta: Any) -> Type:
        return NONE

    def bag_type(self, meta: Any, elem: Type) -> Type:
        return BagType(elem)

    def option_type(self, meta: Any, elem: Type) -> Type:
        # Options do not nest (Python has one None), so there is one spelling of each option type.
        if isinstance(elem, OptionType | NoneType_):
            raise SyntaxError_(f"Option[{elem}] is not a type: an option of an option (or of None) is "
                               f"just {elem}", self._loc(meta))
        return OptionType(elem)

    def list_type(self, meta: Any, elem: Type) -> Type:
        return ListType(elem)

    def dict_type(self, meta: Any, key: Type, value: Type) -> Type:
        return DictType(key, value)

    def tuple_type(self, meta: Any, *elems: Type) -> Type:
        return TupleType(tuple(elems))

    # -- functions ----------------------------------------------------------------------------------

    def fnref(self, meta: Any, name: Token) -> A.FnRef:
        return A.FnRef(self._name(name), loc=self._loc(meta))

    def papp(self, meta: Any, name: Token, args: Any) -> A.PApp:
        return A.PApp(self._name(name), _tuple(args), loc=self._loc(meta))

    def lambda_fn(self, meta: Any, params: tuple[A.Param, ...], arrow: Token, body: A.Expr) -> A.Lambda:
        return A.Lambda(params, body, loc=self._loc(meta))

    def lambda_params(self, meta: Any, params: Any) -> tuple[A.Param, ...]:
        return _tuple(params)

    def lambda_bare_param(self, meta: Any, name: Token) -> tuple[A.Param, ...]:
        return (A.Param(self._name(name), None, loc=self._tok_loc(name)),)

    # -- basic expressions --------------------------------------------------------------------------

    def ite(self, meta: Any, cond: A.Expr, then: A.Expr, orelse: A.Expr) -> A.Ite:
        return A.Ite(cond, then, orelse, loc=self._loc(meta))

    def binop(self, meta: Any, left: A.Expr, op: Token, right: A.Expr) -> A.BinOp:
        return A.BinOp(str(op), left, right, loc=self._loc(meta))  # type: ignore[arg-type]

    def not_(self, meta: Any, operand: A.Expr) -> A.Not:
        return A.Not(operand, loc=self._loc(meta))

    def neg(self, meta: Any, minus: Token, operand: A.Expr) -> A.Neg:
        return A.Neg(operand, loc=self._loc(meta))

    def proj(self, meta: Any, tup: A.Expr, index: int) -> A.Proj:
        return A.Proj(tup, index, loc=self._loc(meta))

    def index(self, meta: Any, tok: Token) -> int:
        return int(tok)

    def int_lit(self, meta: Any, tok: Token) -> A.IntLit:
        try:
            value = int(tok)
        except ValueError:  # more digits than Python converts (sys.get_int_max_str_digits)
            raise SyntaxError_(f"integer literal too long ({len(tok)} characters)",
                               self._tok_loc(tok)) from None
        return A.IntLit(value, loc=self._loc(meta))

    def float_lit(self, meta: Any, tok: Token) -> A.FloatLit:
        value = float(tok)
        if not math.isfinite(value):
            raise SyntaxError_(f"float literal {tok} is out of range (float literals are finite; write "
                               "float(\"inf\") for an infinity)", self._tok_loc(tok))
        return A.FloatLit(value, loc=self._loc(meta))

    def str_lit(self, meta: Any, tok: Token) -> A.StrLit:
        return A.StrLit(_decode_string(tok, self.file), loc=self._loc(meta))

    def none_lit(self, meta: Any) -> A.NoneLit:
        return A.NoneLit(loc=self._loc(meta))

    def true_lit(self, meta: Any) -> A.BoolLit:
        return A.BoolLit(True, loc=self._loc(meta))

    def false_lit(self, meta: Any) -> A.BoolLit:
        return A.BoolLit(False, loc=self._loc(meta))

    def var(self, meta: Any, name: Token) -> A.Var:
        return A.Var(self._name(name), loc=self._loc(meta))

    def soft_keyword_var(self, meta: Any, name: Token) -> A.Var:
        return A.Var(str(name), loc=self._loc(meta))

    def call(self, meta: Any, name: Token, args: Any) -> A.Call:
        return A.Call(self._name(name), _tuple(args), loc=self._loc(meta))

    def call_keyword(self, meta: Any, name: Token, *args: A.Expr) -> A.Call:
        return A.Call(str(name), tuple(args), loc=self._loc(meta))

    def apply_papp(self, meta: Any, name: Token, pargs: Any, args: Any) -> A.Apply:
        loc = self._loc(meta)
        return A.Apply(A.PApp(self._name(name), _tuple(pargs), loc=loc), _tuple(args), loc=loc)

    def apply(self, meta: Any, fn: A.Fn, args: Any) -> A.Apply:
        return A.Apply(fn, _tuple(args), loc=self._loc(meta))

    def tuple(self, meta: Any, *elems: A.Expr) -> A.TupleExpr:
        return A.TupleExpr(tuple(elems), loc=self._loc(meta))

    def args(self, meta: Any, *args: A.Expr) -> tuple[A.Expr, ...]:
        return args

    def list_display(self, meta: Any, elems: Any) -> A.ListExpr:
        return A.ListExpr(_tuple(elems), loc=self._loc(meta))

    def listcomp_short(self, meta: Any, body: A.Expr, param: A.Param, in_: Token, source: A.Expr,
                       cond: A.Expr | None) -> A.ListComp:
        # [e for x in xs if c] is ListComp(lambda (x) -> e, xs, lambda (x) -> c); each lambda is located
        # at its body.
        fn = A.Lambda((param,), body, loc=body.loc)
        test = None if cond is None else A.Lambda((param,), cond, loc=cond.loc)
        return A.ListComp(fn, source, test, loc=self._loc(meta))

    def listcomp(self, meta: Any, fn: A.Lambda, source: A.Expr, cond: A.Lambda | None) -> A.ListComp:
        return A.ListComp(fn, source, cond, loc=self._loc(meta))

    # -- bag operators and aggregations -------------------------------------------------------------

    def map(self, meta: Any, fn: A.Fn, source: A.Expr) -> A.Map:
        return A.Map(fn, source, loc=self._loc(meta))

    def map_preserving(self, meta: Any, fn: A.Fn, source: A.Expr) -> A.Map:
        return A.Map(fn, source, preserves_partitioning=True, loc=self._loc(meta))

    def flatmap_preserving(self, meta: Any, fn: A.Fn, source: A.Expr) -> A.FlatMap:
        return A.FlatMap(fn, source, preserves_partitioning=True, loc=self._loc(meta))

    def filter(self, meta: Any, fn: A.Fn, source: A.Expr) -> A.Filter:
        return A.Filter(fn, source, loc=self._loc(meta))

    def flatmap(self, meta: Any, fn: A.Fn, source: A.Expr) -> A.FlatMap:
        return A.FlatMap(fn, source, loc=self._loc(meta))

    def cartesian(self, meta: Any, left: A.Expr, right: A.Expr) -> A.Cartesian:
        return A.Cartesian(left, right, loc=self._loc(meta))

    def join(self, meta: Any, left: A.Expr, right: A.Expr) -> A.Join:
        return A.Join(left, right, loc=self._loc(meta))

    def union(self, meta: Any, left: A.Expr, right: A.Expr) -> A.Union:
        return A.Union(left, right, loc=self._loc(meta))

    def distinct(self, meta: Any, source: A.Expr) -> A.Distinct:
        return A.Distinct(source, loc=self._loc(meta))

    def foldbykey(self, meta: Any, zero: A.Expr, op: A.Fn, source: A.Expr) -> A.FoldByKey:
        return A.FoldByKey(zero, op, source, loc=self._loc(meta))

    def aggregatebykey(self, meta: Any, zero: A.Expr, seq: A.Fn, comb: A.Fn,
                       source: A.Expr) -> A.AggregateByKey:
        return A.AggregateByKey(zero, seq, comb, source, loc=self._loc(meta))

    def reducebykey(self, meta: Any, op: A.Fn, source: A.Expr) -> A.ReduceByKey:
        return A.ReduceByKey(op, source, loc=self._loc(meta))

    def combinebykey(self, meta: Any, create: A.Fn, mv: A.Fn, mc: A.Fn, source: A.Expr) -> A.CombineByKey:
        return A.CombineByKey(create, mv, mc, source, loc=self._loc(meta))

    def groupbykey(self, meta: Any, kinds: Any, source: A.Expr) -> A.GroupByKeyAgg:
        return A.GroupByKeyAgg(_tuple(kinds), source, loc=self._loc(meta))

    def group_kinds(self, meta: Any, *kinds: str) -> tuple[str, ...]:
        return kinds

    def group_kind(self, meta: Any, tok: Token) -> str:
        kind = str(tok)
        if kind not in ("sum", "len", "min", "max", "list"):
            raise SyntaxError_("groupByKey aggregates each group with sum, len, min, max or list, "
                               f"not '{kind}'", self._tok_loc(tok))
        return kind

    def left_outer_join(self, meta: Any, left: A.Expr, right: A.Expr) -> A.OuterJoin:
        return A.OuterJoin("left", left, right, loc=self._loc(meta))

    def right_outer_join(self, meta: Any, left: A.Expr, right: A.Expr) -> A.OuterJoin:
        return A.OuterJoin("right", left, right, loc=self._loc(meta))

    def full_outer_join(self, meta: Any, left: A.Expr, right: A.Expr) -> A.OuterJoin:
        return A.OuterJoin("full", left, right, loc=self._loc(meta))

    def sortby(self, meta: Any, key: A.Fn, source: A.Expr) -> A.SortBy:
        return A.SortBy(key, True, source, loc=self._loc(meta))

    def sortby_descending(self, meta: Any, key: A.Fn, source: A.Expr) -> A.SortBy:
        return A.SortBy(key, False, source, loc=self._loc(meta))

    def subtract(self, meta: Any, left: A.Expr, right: A.Expr) -> A.Subtract:
        return A.Subtract(left, right, loc=self._loc(meta))

    def intersection(self, meta: Any, left: A.Expr, right: A.Expr) -> A.Intersection:
        return A.Intersection(left, right, loc=self._loc(meta))

    # -- actions returning lists and dictionaries ---------------------------------------------------

    def collect(self, meta: Any, source: A.Expr) -> A.Collect:
        return A.Collect(source, loc=self._loc(meta))

    def take(self, meta: Any, count: A.Expr, source: A.Expr) -> A.Take:
        return A.Take(count, source, loc=self._loc(meta))

    def take_ordered(self, meta: Any, count: A.Expr, key: A.Fn | None, source: A.Expr) -> A.TakeOrdered:
        return A.TakeOrdered(count, key, source, loc=self._loc(meta))

    def top(self, meta: Any, count: A.Expr, key: A.Fn | None, source: A.Expr) -> A.TakeOrdered:
        return A.TakeOrdered(count, key, source, top=True, loc=self._loc(meta))

    def first(self, meta: Any, source: A.Expr) -> A.First:
        return A.First(source, loc=self._loc(meta))

    def count_by_value(self, meta: Any, source: A.Expr) -> A.CountByValue:
        return A.CountByValue(source, loc=self._loc(meta))

    def collect_as_map(self, meta: Any, source: A.Expr) -> A.CollectAsMap:
        return A.CollectAsMap(source, loc=self._loc(meta))

    def fold(self, meta: Any, zero: A.Expr, op: A.Fn, source: A.Expr) -> A.Fold:
        return A.Fold(zero, op, source, loc=self._loc(meta))

    def aggregate(self, meta: Any, zero: A.Expr, seq: A.Fn, comb: A.Fn, source: A.Expr) -> A.Aggregate:
        return A.Aggregate(zero, seq, comb, source, loc=self._loc(meta))

    def reduce(self, meta: Any, op: A.Fn, source: A.Expr) -> A.Reduce:
        return A.Reduce(op, source, loc=self._loc(meta))

    def simple_agg(self, meta: Any, kind: Token, source: A.Expr) -> A.SimpleAgg:
        return A.SimpleAgg(str(kind), source, loc=self._loc(meta))  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------------
# String literals
# ---------------------------------------------------------------------------------------------------

_SIMPLE_ESCAPES = {"\\": "\\", '"': '"', "'": "'", "n": "\n", "r": "\r", "t": "\t"}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


def _decode_string(tok: Token, file: str | None) -> str:
    r"""The value of a STRING token. The lexer guarantees one line and a character after every backslash;
    this decodes exactly the escapes ``\ \" \' \n \r \t \xhh \uhhhh \Uhhhhhhhh`` (the ones the printer writes,
    plus ``\'``) and rejects any other, located at its backslash (Python would keep an unknown escape
    such as ``\d`` as two characters, a common source of bugs)."""
    body = str(tok)[1:-1]
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        kind = body[i + 1]
        loc = A.Loc(file, tok.line, tok.column + 1 + i)
        if kind in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[kind])
            i += 2
            continue
        width = _HEX_ESCAPES.get(kind)
        if width is None:
            raise SyntaxError_(f"unknown escape '\\{kind}' in a string (the escapes are "
                               "\\\\ \\\" \\' \\n \\r \\t \\xhh \\uhhhh \\Uhhhhhhhh)", loc)
        digits = body[i + 2:i + 2 + width]
        if len(digits) != width or not set(digits) <= _HEX_DIGITS:
            raise SyntaxError_(f"the escape '\\{kind}' needs exactly {width} hexadecimal digits", loc)
        code = int(digits, 16)
        if code > 0x10FFFF:
            raise SyntaxError_(f"'\\{kind}{digits}' is not a Unicode code point (the largest is "
                               "\\U0010ffff)", loc)
        out.append(chr(code))
        i += 2 + width
    return "".join(out)


# ---------------------------------------------------------------------------------------------------
# Error messages
# ---------------------------------------------------------------------------------------------------

_TERMINAL_WORDS = {
    "NAME": "a name",
    "INT": "a number",
    "NEG_INT": "a number",
    "FLOAT": "a number",
    "NEG_FLOAT": "a number",
    "STRING": "a string",
    "DOTTED_NAME": "a name",
    "_NL": "a new line",
    "$END": "the end of the input",
    "COMP_OP": "a comparison",
}


@functools.cache
def _terminal_text() -> dict[str, str]:
    out: dict[str, str] = {}
    for term in _lark().terminals:
        if term.pattern.type == "str":
            out[term.name] = f"'{term.pattern.value}'"
    out.update(_TERMINAL_WORDS)
    return out


def _describe_expected(expected: set[str] | frozenset[str]) -> str:
    texts = _terminal_text()
    words = sorted({texts.get(name, name) for name in expected if not name.startswith("__IGNORE")})
    if len(words) > 8:
        words = words[:8] + ["..."]
    return ", ".join(words)


def _describe_token(tok: Token) -> str:
    if tok.type == "$END":
        return "end of input"
    if tok.type == "_NL":
        return "end of line"
    return f"'{tok}'"


def _syntax_error(exc: UnexpectedInput, file: str | None, text: str) -> SyntaxError_:
    line = getattr(exc, "line", None)
    col = getattr(exc, "column", None)
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        if tok.type == "$END" or line is None or line < 1:
            line, col = _end_position(text)
        what = _describe_token(tok)
        reserved = f" ('{tok}' is a reserved word)" if str(tok) in RESERVED and tok.type != "NAME" else ""
        message = f"unexpected {what}{reserved}; expected {_describe_expected(exc.expected)}"
        if tok.type in ("COMP_OP", "IN") and "COMP_OP" not in exc.expected and "AND" in exc.expected:
            message = (f"unexpected {what}: comparisons do not chain; write 'a <= x and x < b' "
                       "or add parentheses")
        message += _soft_keyword_hint(exc)
    elif isinstance(exc, UnexpectedCharacters):
        message = f"unexpected character {exc.char!r}"
        if exc.char in "\"'":
            message = (f"unterminated string: a string ends with its opening quote ({exc.char}) on the same "
                       "line; write \\n for a line break")
    elif isinstance(exc, UnexpectedEOF):
        line, col = _end_position(text)
        message = f"unexpected end of input; expected {_describe_expected(set(exc.expected))}"
    else:  # pragma: no cover - lark has no other UnexpectedInput subclasses today
        message = str(exc)
    if line is None or col is None or line < 1:
        line, col = _end_position(text)
    return SyntaxError_(message, A.Loc(file, line, col))


def _soft_keyword_hint(exc: UnexpectedToken) -> str:
    """``first(a, b)``, ``take()``: the error is just after "first(" or its first argument, so the user
    probably meant a call of a def with that name, which needs backquotes."""
    stack = getattr(getattr(exc, "state", None), "value_stack", None) or []
    for at in (-2, -3):
        if len(stack) >= -at and isinstance(stack[at], Token) and str(stack[at]) in SOFT_KEYWORDS \
                and isinstance(stack[at + 1], Token) and stack[at + 1].type == "LPAR":
            word = str(stack[at])
            return (f" ('{word}(' starts the {word} operation; a call of a def named {word} is written "
                    f"`{word}`(...))")
    return ""


def _end_position(text: str) -> tuple[int, int]:
    stripped = text.rstrip()
    line = stripped.count("\n") + 1
    col = len(stripped) - (stripped.rfind("\n") + 1) + 1
    return line, col


def _run(text: str, start: str, file: str | None) -> Any:
    try:
        tree = _lark().parse(text, start=start)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, file, text) from None
    try:
        return _Builder(file).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, InputError):
            raise exc.orig_exc from None
        raise


# ---------------------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------------------


def parse(text: str, file: str | None = None) -> A.Program:
    """Parse one SparkLite program. ``file`` only labels locations. Raises ``SyntaxError_``."""
    return _run(text, "program_start", file)


#: Alias kept for callers that look for ``parse_text`` (the verifier's loader tries it first).
parse_text = parse


def parse_file(path: str | os.PathLike[str]) -> A.Program:
    """Read and parse a ``.sl`` file; an unreadable file is an ``InputError`` located at its first line."""
    name = os.fspath(path)
    try:
        with open(name, encoding="utf-8") as fh:
            text = fh.read()
    except FileNotFoundError:
        raise InputError("no such file", A.Loc(name, 1, 1)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read file: {exc}", A.Loc(name, 1, 1)) from None
    return parse(text, name)


def parse_expr(text: str, file: str | None = None) -> A.Expr:
    """Parse a single expression (tests and tools; programs go through ``parse``)."""
    return _run(text, "expr_start", file)


def parse_type(text: str, file: str | None = None) -> Type:
    """Parse a type such as ``Bag[(Int, Bool)]``."""
    return _run(text, "type_start", file)
