"""``parse(pretty(p)) == p``: over hand-written programs that use every node, over tricky hand-built
trees (negative literals vs negation, right-nested operators, one-argument ``min``, strings that need
escapes, floats at the edges of the double range), over random trees that need not type-check (so the
printer cannot lean on well-typedness), and over the random program generator of ``sparklite.generate``.

AST equality cannot see the sign of a float zero (``FloatLit(-0.0) == FloatLit(0.0)``, as ``-0.0 == 0.0``),
so the random tests also check that printing is a fixed point, which the printer's ``repr`` of floats makes
sign-exact."""

from __future__ import annotations

import math
import random
import struct
import typing
from pathlib import Path

import pytest

from sparklite import ast as A
from sparklite.errors import SyntaxError_
from sparklite.parser import parse, parse_expr, parse_file, parse_type
from sparklite.printer import pretty, pretty_expr, pretty_type
from sparklite.typecheck import typecheck
from sparklite.types import (
    BOOL,
    FLOAT,
    INT,
    NONE,
    STR,
    BagType,
    DictType,
    ListType,
    OptionType,
    TupleType,
    Type,
    optional,
)

REPO = Path(__file__).resolve().parent.parent
N, V, B, F, S = A.IntLit, A.Var, A.BinOp, A.FloatLit, A.StrLit

PROGRAMS = [
    "program Empty() = 0",
    """program P1(R: Bag[Int], t: Int) =
         def double(x: Int): Int = 2 * x
         def geq(y: Int) = lambda (x: Int) -> x >= y
         let R1 = map(double)(R)
         let s = fold(0, lambda (a, x) -> a + x)(R1)
         (filter(geq(100))(R1), s)""",
    """program Keys(S: Bag[(Int, Int)], T: Bag[(Int, Bool)]) =
         def swap(p) = (p[1], p[0])
         def key(k: Int) = lambda (p) -> p[0] == k
         let j = join(S, map(lambda (p) -> (p[0], not p[1]))(T))
         let sums = foldByKey(0, lambda (a, b) -> a + b)(S)
         let pairs = aggregateByKey((0, 0), lambda (acc, v) -> (acc[0] + v, acc[1] + 1),
                                lambda (x, y) -> (x[0] + y[0], x[1] + y[1]))(S)
         let mins = reduceByKey(lambda (a, b) -> min(a, b))(map(swap)(S))
         let maxes = combineByKey(lambda (v) -> v, lambda (c, v) -> max(c, v), lambda (c, e) -> max(c, e))(S)
         let groups = groupByKey(sum, len)(filter(key(3))(S))
         (j, sums, pairs, mins, maxes, groups, groupByKey(max)(S))""",
    """program Aggs(R: Bag[Int], flag: Bool) =
         let n = count(R) + sum(R) * -1 - (min(R) - max(R))
         let m = aggregate(0, lambda (a, x) -> a + 1, lambda (a, b) -> a + b)(R)
         let r = reduce(lambda (a, b) -> if a < b or a <= b - 1 and a != b then a else b)(R)
         let f = flatMap(lambda (x) -> (x, x // 2, x % 3, -x, abs(x)))(distinct(union(R, R)))
         let g = cartesian(filter(lambda (x) -> true)(R), f)
         if flag and not (n == m) or r >= 0 or r > n then (n, m) else (m, -(n))""",
    """program Apply(t: Int) =
         def inc(x: Int): Int = x + 1
         def add(k) = lambda (x) -> x + k
         (apply(inc)(t), add(2)(t), apply(lambda (z: Int) -> z * z)(t), min(t, 0), max(t, 1, 2), (t,))""",
    r"""program Texts(L: Bag[Str], P: Bag[(Str, Int)], Q: Bag[(Str, Float)], t: Float, o: Option[Int]) =
         def clean(s: Str): Str = str.lower(str.strip(s))
         def ratio(n: Int): Float = n / 2
         let words = map(lambda (s) -> (clean(s), len(str.split(s, ","))))(L)
         let outer = leftOuterJoin(P, Q)
         let right = rightOuterJoin(P, Q)
         let full = fullOuterJoin(P, Q)
         let scaled = map(lambda (p) -> (p[0], ratio(p[1]), float(p[1]) * t / 1.5e3 - -0.0))(P)
         let ascending = sortBy(lambda (p) -> p[1])(P)
         let descending = sortBy(lambda (p) -> p[0], descending)(P)
         let rest = subtract(P, words)
         let both = intersection(P, words)
         let firstTwo = take(2)(ascending)
         let best = takeOrdered(3, lambda (p) -> -p[1])(P)
         let worst = top(1)(P)
         let head = first(descending)
         let hist = countByValue(L)
         let table = collectAsMap(P)
         let lines = collect(L)
         let longest = max([len(w) for w in lines if w != ""],)
         let total = sum([p[1] for p in firstTwo],) + min([1, 2],)
         let groups = groupByKey(min, list)(P)
         let flags = map(lambda (s) -> "a" in s or s in ["x", "y\n", 'it\'s \u00e9 \\']
                                       or py.is_none(None))(L)
         let misc = (math.sqrt(t), round(t, 2), int("3"), str(t), sorted(lines), py.getitem(lines, 0),
                     py.slice(head[0], 1, None), takeOrdered(2)(L), top(2, clean)(L),
                     [lambda (w: Str) -> str.upper(w) for lines if lambda (v) -> v == ""], [])
         (outer, right, full, scaled, rest, both, groups, flags,
          (firstTwo, best, worst, head, hist, table, longest, total, misc, None, -0.0, 1e-300, o))""",
]


@pytest.mark.parametrize("text", PROGRAMS)
def test_hand_written_programs_round_trip(text: str) -> None:
    program = parse(text)
    printed = pretty(program)
    assert parse(printed) == program
    assert pretty(parse(printed)) == printed  # canonical: printing is a fixed point
    elaborated = typecheck(program).program
    assert parse(pretty(elaborated)) == elaborated


def test_example_files_round_trip() -> None:
    for path in sorted((REPO / "cases" / "sl").glob("*.sl")):
        program = parse_file(path)
        assert parse(pretty(program)) == program, path


def _expr_classes() -> set[type]:
    return set(typing.get_args(A.Expr))


def test_hand_written_programs_cover_every_node_type() -> None:
    seen: set[type] = set()
    for text in PROGRAMS:
        seen |= {type(n) for n in A.walk(parse(text))}
    wanted = _expr_classes() | {A.Lambda, A.FnRef, A.PApp, A.FunDef, A.ParamFunDef, A.LetBinding, A.Param}
    assert wanted <= seen, wanted - seen
    nodes = [n for text in PROGRAMS for n in A.walk(parse(text))]
    assert {n.kind for n in nodes if isinstance(n, A.SimpleAgg)} == {"count", "sum", "min", "max"}
    assert {n.op for n in nodes if isinstance(n, A.BinOp)} == set(A.BINARY_OPS)
    assert {n.kind for n in nodes if isinstance(n, A.OuterJoin)} == {"left", "right", "full"}
    group_kinds = {k for n in nodes if isinstance(n, A.GroupByKeyAgg) for k in n.kinds}
    assert group_kinds == {"sum", "len", "min", "max", "list"}
    assert {n.ascending for n in nodes if isinstance(n, A.SortBy)} == {True, False}
    assert {(n.top, n.key is None) for n in nodes if isinstance(n, A.TakeOrdered)} == {
        (False, False), (False, True), (True, False), (True, True)}
    assert {n.cond is None for n in nodes if isinstance(n, A.ListComp)} == {True, False}
    calls = {n.func for n in nodes if isinstance(n, A.Call)}
    assert {"min", "max", "sum", "len", "str.split", "py.getitem", "math.sqrt"} <= calls


@pytest.mark.parametrize("tree", [
    N(-3), A.Neg(N(3)), A.Neg(N(-3)), A.Neg(A.Neg(V("x"))), A.Neg(A.Proj(N(3), 0)), A.Proj(N(-3), 0),
    B("-", V("a"), B("-", V("b"), V("c"))), B("//", V("a"), B("*", V("b"), V("c"))),
    B("==", B("==", V("a"), V("b")), V("c")), B("<", V("a"), B("<", V("b"), V("c"))),
    B("and", V("a"), B("and", V("b"), V("c"))), B("or", B("and", V("a"), V("b")), B("or", V("c"), V("d"))),
    A.Not(B("and", V("a"), V("b"))), B("==", A.Not(V("a")), V("b")), A.Not(A.Not(V("a"))),
    B("+", A.Ite(V("c"), N(1), N(2)), N(3)),
    A.Ite(A.Ite(V("a"), V("b"), V("c")), V("d"), A.Ite(V("e"), N(1), N(2))),
    A.Neg(B("*", V("a"), V("b"))), A.Proj(B("+", V("a"), V("b")), 1), A.Proj(A.Neg(V("t")), 0),
    A.Call("min", (N(1),)), A.Call("max", ()), A.Call("min", (N(1), N(2))),
    A.TupleExpr(()), A.TupleExpr((N(1),)),
    A.Apply(A.FnRef("f"), ()), A.Apply(A.PApp("g", ()), (N(1),)),
    A.Apply(A.Lambda((), N(1)), ()), A.GroupByKeyAgg((), V("R")),
    A.Map(A.Lambda((A.Param("x", TupleType((INT, TupleType((BOOL,))))),), A.Ite(V("x"), N(1), N(2))), V("R")),
    # floats: negative literals, negation, projection, the edges of the double range
    F(-0.0), A.Neg(F(0.0)), A.Neg(F(-0.0)), F(-1.5), A.Neg(F(1.5)), A.Neg(A.Neg(F(2.0))), A.Proj(F(-1.5), 0),
    A.Neg(A.Proj(F(1.5), 0)), F(1e308), F(-1.7976931348623157e308), F(5e-324), F(-5e-324), F(1e16), F(1e-7),
    F(123456789.125), B("-", V("x"), F(1.5)), B("-", V("x"), F(-1.5)), B("/", F(1.0), B("/", V("a"), V("b"))),
    # strings
    S(""), S('"'), S("'"), S("\\"), S("\\n"), S("\n\r\t"), S("a\\\"b'c"), S("#not a comment"), S("é日本😀"),
    S("\x00\x1f\x7f\x80\xa0\xad"), S("\u2028\u2029\ufeff"), S("\ud800\udfff"), S("\U0010ffff\U000e0001"),
    S("\u0301"), S("x\u0301"), S("  "), S("\\x41"), S("\\u00e9"), A.Proj(S("ab"), 0), A.Neg(S("a")),
    # None, lists, comprehensions
    A.NoneLit(), A.ListExpr(()), A.ListExpr((N(1),)), A.ListExpr((A.NoneLit(), S("a"), F(0.5))),
    A.Proj(A.ListExpr((N(1),)), 0), A.ListExpr((A.ListExpr(()),)),
    A.ListComp(A.Lambda((A.Param("x"),), V("x")), V("xs")),
    A.ListComp(A.Lambda((A.Param("x", INT),), V("x")), V("xs"), A.Lambda((A.Param("x", INT),), V("x"))),
    A.ListComp(A.Lambda((A.Param("x", INT),), V("x")), V("xs"), A.Lambda((A.Param("x"),), V("x"))),
    A.ListComp(A.Lambda((A.Param("x"),), V("x")), V("xs"), A.Lambda((A.Param("y"),), V("y"))),
    A.ListComp(A.Lambda((), N(1)), V("xs")),
    A.ListComp(A.Lambda((A.Param("a"), A.Param("b")), V("a")), V("xs")),
    A.ListComp(A.Lambda((A.Param("x"),), A.Ite(V("c"), V("x"), N(0))), A.Ite(V("c"), V("xs"), V("ys")),
               A.Lambda((A.Param("x"),), A.Ite(V("c"), V("x"), V("x")))),
    A.ListComp(A.Lambda((A.Param("x"),), B("in", V("x"), V("ys"))), B("in", V("a"), V("b")),
               A.Lambda((A.Param("x"),), A.Not(B("in", V("x"), V("zs"))))),
    A.ListComp(A.Lambda((A.Param("x"),), A.ListComp(A.Lambda((A.Param("y"),), V("y")), V("x"))), V("xss")),
    # in and true division
    B("in", B("in", V("a"), V("b")), V("c")), B("in", V("a"), B("in", V("b"), V("c"))),
    A.Not(B("in", V("a"), V("b"))), B("/", B("/", V("a"), V("b")), V("c")),
    B("/", V("a"), B("//", V("b"), V("c"))),
    # builtin calls
    A.Call("sum", (V("xs"),)), A.Call("count", (V("xs"),)), A.Call("sum", ()), A.Call("sum", (N(1), N(2))),
    A.Call("str.split", (S("a,b"), S(","))), A.Call("py.getitem", (V("s"), N(-1))), A.Call("math.sqrt", ()),
    A.Call("len", (V("xs"),)), A.Call("float", (S("nan"),)),
    # the new bag operators and actions
    A.OuterJoin("left", V("R"), V("S")), A.OuterJoin("right", V("R"), V("S")),
    A.OuterJoin("full", V("R"), V("S")),
    A.SortBy(A.FnRef("f"), True, V("R")), A.SortBy(A.Lambda((A.Param("x"),), V("x")), False, V("R")),
    A.Subtract(V("R"), V("S")), A.Intersection(V("R"), V("S")), A.Collect(V("R")), A.Take(N(3), V("R")),
    A.TakeOrdered(N(3), None, V("R")), A.TakeOrdered(N(3), A.FnRef("f"), V("R"), top=True),
    A.TakeOrdered(B("+", V("n"), N(1)), A.PApp("g", (N(1),)), V("R")), A.First(V("R")),
    A.CountByValue(V("R")),
    A.CollectAsMap(V("R")), A.GroupByKeyAgg(("list", "sum"), V("R")), A.Proj(A.First(V("R")), 1),
    # names that are keywords or not identifiers
    V("first"), V("take"), A.Proj(V("first"), 0), B("+", V("first"), A.First(V("first"))), V("map"),
    V("None"),
    V("a b"), V("str.split"), A.Call("first", (V("x"),)), A.Call("subtract", (V("a"), V("b"))),
    A.Call("map", ()), A.Call("first", ()), A.Apply(A.PApp("take", (N(3),)), (V("x"),)),
    A.Apply(A.PApp("map", ()), ()), A.Map(A.FnRef("first"), V("R")), A.Map(A.FnRef("count"), V("R")),
    A.Filter(A.PApp("first", (N(1),)), V("R")), A.Apply(A.FnRef("sum"), (N(1),)),
    A.ListComp(A.Lambda((A.Param("first"),), V("first")), V("take")),
    A.Map(A.Lambda((A.Param("in"), A.Param("top", INT)), V("in")), V("R")),
])
def test_tricky_trees_round_trip(tree: A.Expr) -> None:
    text = pretty_expr(tree)
    assert parse_expr(text) == tree, text
    assert pretty_expr(parse_expr(text)) == text  # also sign-exact for float zeros


def test_negative_literal_and_negation_print_differently() -> None:
    assert pretty_expr(N(-3)) == "-3"
    assert pretty_expr(A.Neg(N(3))) == "-(3)"
    assert pretty_expr(F(-0.0)) == "-0.0"
    assert pretty_expr(A.Neg(F(0.0))) == "-(0.0)"
    assert pretty_expr(A.Call("min", (V("x"),))) == "min(x,)"
    assert pretty_expr(A.Call("sum", (V("x"),))) == "sum(x,)"
    assert pretty_expr(A.SimpleAgg("min", V("x"))) == "min(x)"


def test_float_zero_keeps_its_sign() -> None:
    (neg,) = parse_expr(pretty_expr(A.ListExpr((F(-0.0),)))).elems
    assert isinstance(neg, A.FloatLit) and math.copysign(1.0, neg.value) == -1.0
    pos = parse_expr(pretty_expr(F(0.0)))
    assert isinstance(pos, A.FloatLit) and math.copysign(1.0, pos.value) == 1.0


def test_printer_spellings_of_the_new_syntax() -> None:
    assert pretty_expr(S('a"b\\c\nd\x00é\u2028')) == '"a\\"b\\\\c\\nd\\x00é\\u2028"'
    assert pretty_expr(F(1e308)) == "1e+308" and pretty_expr(F(5e-324)) == "5e-324"
    xs = V("xs")
    comp = A.ListComp(A.Lambda((A.Param("x"),), B("+", V("x"), N(1))), xs, A.Lambda((A.Param("x"),), V("x")))
    assert pretty_expr(comp) == "[x + 1 for x in xs if x]"
    other = A.ListComp(A.Lambda((A.Param("x"),), V("x")), xs, A.Lambda((A.Param("y", INT),), V("y")))
    assert pretty_expr(other) == "[lambda (x) -> x for xs if lambda (y: Int) -> y]"
    assert pretty_expr(A.SortBy(A.FnRef("f"), False, V("R"))) == "sortBy(f, descending)(R)"
    assert pretty_expr(A.TakeOrdered(N(2), None, V("R"), top=True)) == "top(2)(R)"
    assert pretty_type(DictType(STR, OptionType(ListType(FLOAT)))) == "Dict[Str, Option[List[Float]]]"


def test_names_are_quoted_only_when_needed() -> None:
    assert pretty_expr(V("first")) == "first"
    assert pretty_expr(A.Call("first", (V("x"),))) == "`first`(x)"
    assert pretty_expr(A.Map(A.FnRef("first"), V("R"))) == "map(first)(R)"
    assert pretty_expr(V("map")) == "`map`"
    assert pretty_expr(V("a b")) == "`a b`"
    assert pretty_expr(A.Call("str.split", (V("s"),))) == "str.split(s)"
    assert pretty_expr(V("str.split")) == "`str.split`"
    program = A.Program("count", (A.Param("in", INT),), (), (A.LetBinding("first", V("in")),), V("first"))
    assert pretty(program) == "program `count`(`in`: Int) =\n  let first = `in`\n  first\n"
    assert parse(pretty(program)) == program
    for bad in ["", "a`b", "a\nb"]:
        with pytest.raises(ValueError, match="cannot be written"):
            pretty_expr(V(bad))


def test_non_finite_float_literals_do_not_print() -> None:
    for value in (math.inf, -math.inf, math.nan):
        with pytest.raises(ValueError, match="finite"):
            pretty_expr(F(value))


# ---------------------------------------------------------------------------------------------------
# Random trees (not necessarily well-typed)
# ---------------------------------------------------------------------------------------------------

#: Names, including keywords (reserved and soft) and texts that are not identifiers: the printer must
#: write each so that it reads back as the same name.
NAMES = ["x", "y", "acc", "R", "S_1", "len", "lambda_", "mapped", "ifx", "_t", "descending", "str", "infix",
         "first", "take", "sortBy", "map", "count", "None", "in", "Int", "a b", "str.split", "x1"]
FUNC_NAMES = ["f", "g2", "helper", "first", "subtract", "take", "map", "min", "lambda", "x.y", "no name"]
BUILTIN_CALLS = ["min", "max", "abs", "sum", "count", "len", "int", "float", "str", "sorted", "str.split",
                 "py.getitem", "py.slice", "math.sqrt"]
#: Characters that stress the string syntax: quotes, backslashes, escapes' letters, comment and line
#: characters, controls, non-ASCII letters, separators, combining marks, lone surrogates, astral planes.
STRING_CHARS = ['"', "'", "\\", "n", "x", "u", "U", "0", "#", " ", "\n", "\r", "\t", "\x00", "\x1b", "\x7f",
                "\xa0", "é", "日", "\u0301", "\u2028", "\ufeff", "\ud800", "\udc00", "😀", "\U0010ffff",
                "a", "{"]


def rand_str(rng: random.Random) -> str:
    return "".join(rng.choice(STRING_CHARS) for _ in range(rng.choice([0, 1, 2, 5, 12])))


def rand_float(rng: random.Random) -> float:
    roll = rng.randrange(4)
    if roll == 0:
        return rng.choice([0.0, -0.0, 5e-324, -5e-324, 1.7976931348623157e308, 2.2250738585072014e-308, 0.1,
                           1e16, 1e-7, 123.0, -2.5])
    if roll == 1:
        return rng.uniform(-1000, 1000)
    while True:  # any finite double, from its bits
        value = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        if math.isfinite(value):
            return value


def rand_type(rng: random.Random, depth: int = 2) -> Type:
    roll = rng.random()
    if depth <= 0 or roll < 0.4:
        return rng.choice([INT, INT, BOOL, STR, FLOAT, NONE])
    if roll < 0.5:
        return BagType(rand_type(rng, depth - 1))
    if roll < 0.6:
        return optional(rand_type(rng, depth - 1))
    if roll < 0.7:
        return ListType(rand_type(rng, depth - 1))
    if roll < 0.75:
        return DictType(rand_type(rng, depth - 1), rand_type(rng, depth - 1))
    return TupleType(tuple(rand_type(rng, depth - 1) for _ in range(rng.randint(0, 3))))


def rand_params(rng: random.Random, lo: int = 0) -> tuple[A.Param, ...]:
    return tuple(A.Param(rng.choice(NAMES), rand_type(rng) if rng.random() < 0.5 else None)
                 for _ in range(rng.randint(lo, 3)))


def rand_lambda(rng: random.Random, depth: int) -> A.Lambda:
    return A.Lambda(rand_params(rng), rand_expr(rng, depth - 1))


def rand_fn(rng: random.Random, depth: int) -> A.Fn:
    roll = rng.random()
    if roll < 0.3:
        return A.FnRef(rng.choice(FUNC_NAMES))
    if roll < 0.5:
        return A.PApp(rng.choice(FUNC_NAMES), rand_args(rng, depth))
    return rand_lambda(rng, depth)


def rand_args(rng: random.Random, depth: int) -> tuple[A.Expr, ...]:
    return tuple(rand_expr(rng, depth - 1) for _ in range(rng.randint(0, 3)))


def rand_listcomp(rng: random.Random, depth: int) -> A.ListComp:
    """Half of them in the form that prints as Python's comprehension (one shared parameter)."""
    source = rand_expr(rng, depth - 1)
    if rng.random() < 0.5:
        param = (A.Param(rng.choice(NAMES), rand_type(rng) if rng.random() < 0.3 else None),)
        fn = A.Lambda(param, rand_expr(rng, depth - 1))
        cond = None if rng.random() < 0.3 else A.Lambda(param, rand_expr(rng, depth - 1))
        return A.ListComp(fn, source, cond)
    cond = None if rng.random() < 0.3 else rand_lambda(rng, depth)
    return A.ListComp(rand_lambda(rng, depth), source, cond)


def rand_leaf(rng: random.Random) -> A.Expr:
    roll = rng.randrange(7)
    if roll == 0:
        return N(rng.randint(-20, 20))
    if roll == 1:
        return A.BoolLit(rng.random() < 0.5)
    if roll == 2:
        return F(rand_float(rng))
    if roll == 3:
        return S(rand_str(rng))
    if roll == 4:
        return A.NoneLit()
    return V(rng.choice(NAMES))


def rand_expr(rng: random.Random, depth: int) -> A.Expr:  # noqa: C901 - one case per node type
    if depth <= 0:
        return rand_leaf(rng)
    sub = lambda: rand_expr(rng, depth - 1)  # noqa: E731
    fn = lambda: rand_fn(rng, depth - 1)  # noqa: E731
    choice = rng.randrange(46)
    match choice:
        case 0:
            return N(rng.randint(-1000, 1000))
        case 1:
            return A.BoolLit(rng.random() < 0.5)
        case 2:
            return V(rng.choice(NAMES))
        case 3 | 4 | 5:
            return B(rng.choice(A.BINARY_OPS), sub(), sub())
        case 6:
            return A.Not(sub())
        case 7:
            return A.Neg(sub())
        case 8:
            return A.Ite(sub(), sub(), sub())
        case 9:
            return A.TupleExpr(rand_args(rng, depth))
        case 10:
            return A.Proj(sub(), rng.randint(-2, 4))
        case 11:
            return A.Call(rng.choice(FUNC_NAMES + BUILTIN_CALLS), rand_args(rng, depth))
        case 12:
            return A.Apply(fn(), rand_args(rng, depth))
        case 13:
            return A.Map(fn(), sub(), preserves_partitioning=rng.random() < 0.2)
        case 14:
            return A.Filter(fn(), sub())
        case 15:
            return A.FlatMap(fn(), sub(), preserves_partitioning=rng.random() < 0.2)
        case 16:
            return A.Cartesian(sub(), sub())
        case 17:
            return A.Join(sub(), sub())
        case 18:
            return A.Union(sub(), sub())
        case 19:
            return A.Distinct(sub())
        case 20:
            return A.Fold(sub(), fn(), sub())
        case 21:
            return A.Aggregate(sub(), fn(), fn(), sub())
        case 22:
            return A.Reduce(fn(), sub())
        case 23:
            return A.SimpleAgg(rng.choice(["count", "sum", "min", "max"]), sub())
        case 24:
            return A.FoldByKey(sub(), fn(), sub())
        case 25:
            return A.AggregateByKey(sub(), fn(), fn(), sub())
        case 26:
            return A.ReduceByKey(fn(), sub())
        case 27:
            return A.CombineByKey(fn(), fn(), fn(), sub())
        case 28:
            kinds = tuple(rng.choice(["sum", "len", "min", "max", "list"]) for _ in range(rng.randint(0, 4)))
            return A.GroupByKeyAgg(kinds, sub())
        case 29:
            return F(rand_float(rng))
        case 30:
            return S(rand_str(rng))
        case 31:
            return A.NoneLit()
        case 32:
            return A.ListExpr(rand_args(rng, depth))
        case 33:
            return rand_listcomp(rng, depth)
        case 34:
            return A.OuterJoin(rng.choice(["left", "right", "full"]), sub(), sub())
        case 35:
            return A.SortBy(fn(), rng.random() < 0.5, sub())
        case 36:
            return A.Subtract(sub(), sub())
        case 37:
            return A.Intersection(sub(), sub())
        case 38:
            return A.Collect(sub())
        case 39:
            return A.Take(sub(), sub())
        case 40:
            return A.TakeOrdered(sub(), fn() if rng.random() < 0.5 else None, sub(), top=rng.random() < 0.5)
        case 41:
            return A.First(sub())
        case 42:
            return A.CountByValue(sub())
        case 43:
            return A.CollectAsMap(sub())
        case 44:
            return B(rng.choice(["/", "in"]), sub(), sub())
        case _:
            return rand_leaf(rng)


def rand_program(rng: random.Random) -> A.Program:
    params = tuple(A.Param(rng.choice(NAMES), rand_type(rng)) for _ in range(rng.randint(0, 3)))
    defs: list[A.Def] = []
    for _ in range(rng.randint(0, 3)):
        name = rng.choice(FUNC_NAMES)
        if rng.random() < 0.5:
            defs.append(A.FunDef(name, rand_params(rng), rand_type(rng) if rng.random() < 0.5 else None,
                                 rand_expr(rng, 3)))
        else:
            defs.append(A.ParamFunDef(name, rand_params(rng), A.Lambda(rand_params(rng), rand_expr(rng, 3))))
    lets = tuple(A.LetBinding(rng.choice(NAMES), rand_expr(rng, 4)) for _ in range(rng.randint(0, 4)))
    return A.Program("Rand", params, tuple(defs), lets, rand_expr(rng, 4))


def test_random_expressions_round_trip() -> None:
    rng = random.Random(20170724)
    seen: set[type] = set()
    for _ in range(400):
        tree = rand_expr(rng, 4)
        seen |= {type(n) for n in A.walk(tree)}
        text = pretty_expr(tree)
        assert parse_expr(text) == tree, text
        assert pretty_expr(parse_expr(text)) == text
    assert _expr_classes() <= seen, _expr_classes() - seen  # the generator reaches every node type


def test_random_programs_round_trip() -> None:
    rng = random.Random(7)
    for _ in range(80):
        program = rand_program(rng)
        text = pretty(program)
        assert parse(text) == program, text
        assert pretty(parse(text)) == text


def test_mutated_texts_parse_or_raise_a_located_syntax_error() -> None:
    """Damaged programs (characters deleted or inserted, favouring the new syntax's delicate ones) never
    make the parser fail with anything but a located ``SyntaxError_``."""
    rng = random.Random(5)
    pieces = list("()[],:`'\"\\.-+eE09 \n#") + ["\\u", "\\x", "1e400", " in ", " for ", "None", "first(", "`"]
    for _ in range(400):
        text = pretty(rand_program(rng))
        for _ in range(rng.randint(1, 3)):
            pos = rng.randrange(len(text) + 1)
            if rng.random() < 0.5:
                text = text[:pos] + text[pos + 1:]
            else:
                text = text[:pos] + rng.choice(pieces) + text[pos:]
        try:
            parse(text, "m.sl")
        except SyntaxError_ as err:
            assert err.loc is not None and err.loc.file == "m.sl" and err.loc.line >= 1 and err.loc.col >= 1


def test_random_types_round_trip() -> None:
    rng = random.Random(3)
    for _ in range(300):
        t = rand_type(rng, 4)
        assert parse_type(pretty_type(t)) == t


def test_random_string_and_float_literals_round_trip() -> None:
    rng = random.Random(11)
    for _ in range(2000):
        value = rand_str(rng)
        lit = parse_expr(pretty_expr(S(value)))
        assert isinstance(lit, A.StrLit) and lit.value == value, repr(value)
        number = rand_float(rng)
        flit = parse_expr(pretty_expr(F(number)))
        assert isinstance(flit, A.FloatLit), number
        assert struct.pack("<d", flit.value) == struct.pack("<d", number), number  # bit-exact


# ---------------------------------------------------------------------------------------------------
# Programs from helper B's random generator: they print, parse back, and type-check
# ---------------------------------------------------------------------------------------------------


def _generated(count: int) -> list[A.Program]:
    generate = pytest.importorskip("sparklite.generate", reason="sparklite.generate is not written yet")
    rng = random.Random(1234)
    return [generate.random_program(rng) for _ in range(count)]


def test_generated_programs_round_trip() -> None:
    for program in _generated(300):
        text = pretty(program)
        assert parse(text) == program, text


def test_generated_programs_type_check_and_elaborate() -> None:
    for program in _generated(300):
        types = typecheck(program)
        elaborated = types.program
        assert elaborated == program or _only_types_filled(program, elaborated), pretty(program)
        for node in A.walk(elaborated):
            if isinstance(node, A.Param):
                assert node.type is not None, pretty(elaborated)
        assert typecheck(elaborated).result == types.result


def _only_types_filled(before: A.Program, after: A.Program) -> bool:
    """Elaboration changes nothing but missing parameter and return types."""
    return pretty(_erase(before)) == pretty(_erase(after))


def _erase(program: A.Program) -> A.Program:
    import dataclasses

    def strip(node: object) -> object:
        if isinstance(node, tuple):
            return tuple(strip(x) for x in node)
        if not isinstance(node, A.Node):
            return node
        changes = {f.name: strip(getattr(node, f.name)) for f in dataclasses.fields(node) if f.name != "loc"}
        if isinstance(node, A.Param) and not isinstance(node, A.Program):
            changes["type"] = None
        if isinstance(node, A.FunDef):
            changes["ret"] = None
        return dataclasses.replace(node, **changes)

    erased = strip(program)
    assert isinstance(erased, A.Program)
    # Program inputs keep their (required) types.
    return dataclasses.replace(erased, params=program.params)
