"""The SparkLite parser: the paper's examples parse to the expected trees, precedence and associativity
follow Python, literals (strings with escapes, floats, None) mean exactly what they say, every node is
located, and bad text is one located ``SyntaxError_``."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from sparklite import ast as A
from sparklite.errors import InputError, SyntaxError_
from sparklite.parser import parse, parse_expr, parse_file, parse_type
from sparklite.types import BOOL, FLOAT, INT, NONE, STR, BagType, DictType, ListType, OptionType, TupleType

REPO = Path(__file__).resolve().parent.parent

N, V, B, F, S = A.IntLit, A.Var, A.BinOp, A.FloatLit, A.StrLit

P1 = """\
program P1(R: Bag[Int], t: Int) =
  def double(x: Int): Int = 2 * x
  def geq(y: Int) = lambda (x: Int) -> x >= y
  let R1 = map(double)(R)
  let s = fold(0, lambda (a, x) -> a + x)(R1)
  filter(geq(100))(R1)
"""


def test_paper_p1_parses_to_the_expected_tree() -> None:
    expected = A.Program(
        "P1",
        (A.Param("R", BagType(INT)), A.Param("t", INT)),
        (
            A.FunDef("double", (A.Param("x", INT),), INT, B("*", N(2), V("x"))),
            A.ParamFunDef("geq", (A.Param("y", INT),),
                          A.Lambda((A.Param("x", INT),), B(">=", V("x"), V("y")))),
        ),
        (
            A.LetBinding("R1", A.Map(A.FnRef("double"), V("R"))),
            A.LetBinding("s", A.Fold(N(0), A.Lambda((A.Param("a"), A.Param("x")), B("+", V("a"), V("x"))),
                                     V("R1"))),
        ),
        A.Filter(A.PApp("geq", (N(100),)), V("R1")),
    )
    assert parse(P1) == expected


def test_every_node_is_located_with_file_line_and_column() -> None:
    program = parse(P1, "p1.sl")
    for node in A.walk(program):
        assert node.loc is not None, node
        assert node.loc.file == "p1.sl"
    assert program.loc == A.Loc("p1.sl", 1, 1)
    double, geq = program.defs
    assert double.loc == A.Loc("p1.sl", 2, 3)
    assert double.params[0].loc == A.Loc("p1.sl", 2, 14)
    assert double.body.loc == A.Loc("p1.sl", 2, 29)  # the BinOp starts at its left operand
    assert isinstance(geq, A.ParamFunDef)
    assert geq.fn.loc == A.Loc("p1.sl", 3, 21)
    assert program.lets[1].value.loc == A.Loc("p1.sl", 5, 11)
    assert program.body.loc == A.Loc("p1.sl", 6, 3)
    assert isinstance(program.body, A.Filter)
    assert program.body.fn.loc == A.Loc("p1.sl", 6, 10)


TEXTS = """\
program Texts(L: Bag[Str], t: Float) =
  let open = "(["
  let words = [w for w in collect(L) if w != open]
  let pairs = [lambda (a) -> (a, 1.5) for words]
  (sortBy(lambda (s) -> s, descending)(L), take(2)(L), None, -0.0, pairs)
"""


def test_new_nodes_are_located() -> None:
    program = parse(TEXTS, "t.sl")
    for node in A.walk(program):
        assert node.loc is not None and node.loc.file == "t.sl", node
    # A bracket inside a string opens nothing: the newline after it still ends the let.
    assert [b.name for b in program.lets] == ["open", "words", "pairs"]
    assert program.lets[0].value == S("([")
    comp = program.lets[1].value
    assert isinstance(comp, A.ListComp) and comp.cond is not None
    assert comp.loc == A.Loc("t.sl", 3, 15)
    assert comp.fn.loc == A.Loc("t.sl", 3, 16)          # the short form's lambdas sit at their bodies
    assert comp.fn.params[0].loc == A.Loc("t.sl", 3, 22)
    assert comp.source.loc == A.Loc("t.sl", 3, 27)
    assert comp.cond.loc == A.Loc("t.sl", 3, 41)
    explicit = program.lets[2].value
    assert isinstance(explicit, A.ListComp) and explicit.fn.loc == A.Loc("t.sl", 4, 16)
    body = program.body
    assert isinstance(body, A.TupleExpr)
    assert [e.loc for e in body.elems] == [A.Loc("t.sl", 5, c) for c in (4, 44, 56, 62, 68)]


@pytest.mark.parametrize(("text", "expected"), [
    ("1 + 2 * 3", B("+", N(1), B("*", N(2), N(3)))),
    ("(1 + 2) * 3", B("*", B("+", N(1), N(2)), N(3))),
    ("a - b - c", B("-", B("-", V("a"), V("b")), V("c"))),
    ("a - (b - c)", B("-", V("a"), B("-", V("b"), V("c")))),
    ("a // b % c", B("%", B("//", V("a"), V("b")), V("c"))),
    ("a + b < c * d", B("<", B("+", V("a"), V("b")), B("*", V("c"), V("d")))),
    ("a or b and c", B("or", V("a"), B("and", V("b"), V("c")))),
    ("a and b or c", B("or", B("and", V("a"), V("b")), V("c"))),
    ("not a == b", A.Not(B("==", V("a"), V("b")))),
    ("not a and b", B("and", A.Not(V("a")), V("b"))),
    ("-a * b", B("*", A.Neg(V("a")), V("b"))),
    ("-t[0]", A.Neg(A.Proj(V("t"), 0))),
    ("t[0][1]", A.Proj(A.Proj(V("t"), 0), 1)),
    ("if a then 1 else 2 + 3", A.Ite(V("a"), N(1), B("+", N(2), N(3)))),
    ("(if a then 1 else 2) + 3", B("+", A.Ite(V("a"), N(1), N(2)), N(3))),
    ("if a then if b then 1 else 2 else 3", A.Ite(V("a"), A.Ite(V("b"), N(1), N(2)), N(3))),
    ("true != false", B("!=", A.BoolLit(True), A.BoolLit(False))),
    ("a / b * c", B("*", B("/", V("a"), V("b")), V("c"))),
    ("a + b / c", B("+", V("a"), B("/", V("b"), V("c")))),
    ("a / b // c", B("//", B("/", V("a"), V("b")), V("c"))),
    ("a // b / c", B("/", B("//", V("a"), V("b")), V("c"))),
    ("a + b in c", B("in", B("+", V("a"), V("b")), V("c"))),
    ("not a in b", A.Not(B("in", V("a"), V("b")))),
    ("a in b and c", B("and", B("in", V("a"), V("b")), V("c"))),
    ("(a in b) == c", B("==", B("in", V("a"), V("b")), V("c"))),
    ("x in [1, 2]", B("in", V("x"), A.ListExpr((N(1), N(2))))),
    ("index in inner", B("in", V("index"), V("inner"))),  # names that start with "in"
])
def test_precedence_and_associativity_follow_python(text: str, expected: A.Expr) -> None:
    assert parse_expr(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("-3", N(-3)),                          # a negative literal is one token
    ("- 3", A.Neg(N(3))),                   # ... a spaced minus is negation
    ("-(3)", A.Neg(N(3))),
    ("--3", A.Neg(N(-3))),
    ("x-3", B("-", V("x"), N(3))),          # after an operand, '-' is subtraction
    ("x - -3", B("-", V("x"), N(-3))),
    ("2 * -3", B("*", N(2), N(-3))),
    ("t[-1]", A.Proj(V("t"), -1)),
])
def test_negative_literals_and_negation_are_distinct(text: str, expected: A.Expr) -> None:
    assert parse_expr(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("min(R)", A.SimpleAgg("min", V("R"))),
    ("max(R)", A.SimpleAgg("max", V("R"))),
    ("count(R) + 1", B("+", A.SimpleAgg("count", V("R")), N(1))),
    ("sum(map(f)(R))", A.SimpleAgg("sum", A.Map(A.FnRef("f"), V("R")))),
    ("min(a, b)", A.Call("min", (V("a"), V("b")))),
    ("min(a,)", A.Call("min", (V("a"),))),
    ("max()", A.Call("max", ())),
    ("abs(x)", A.Call("abs", (V("x"),))),
    ("f(x, y)", A.Call("f", (V("x"), V("y")))),
    ("f()", A.Call("f", ())),
    ("geq(100)(x)", A.Apply(A.PApp("geq", (N(100),)), (V("x"),))),
    ("apply(geq(100))(x)", A.Apply(A.PApp("geq", (N(100),)), (V("x"),))),
    ("apply(double)(x)", A.Apply(A.FnRef("double"), (V("x"),))),
    ("apply(lambda (y) -> y + 1)(2)", A.Apply(A.Lambda((A.Param("y"),), B("+", V("y"), N(1))), (N(2),))),
    ("apply(lambda y -> y)(2)", A.Apply(A.Lambda((A.Param("y"),), V("y")), (N(2),))),
    ("(1,)", A.TupleExpr((N(1),))),
    ("(1, (true, x),)", A.TupleExpr((N(1), A.TupleExpr((A.BoolLit(True), V("x")))))),
    ("((1))", N(1)),
])
def test_calls_aggregations_and_tuples(text: str, expected: A.Expr) -> None:
    assert parse_expr(text) == expected


@pytest.mark.parametrize(("text", "value"), [
    ('""', ""),
    ("''", ""),
    ('"abc"', "abc"),
    ("'it\\'s'", "it's"),
    ('"say \\"hi\\""', 'say "hi"'),
    ("'say \"hi\"'", 'say "hi"'),
    ('"\'"', "'"),
    ('"back\\\\slash"', "back\\slash"),
    ('"\\\\"', "\\"),
    ('"\\\\n"', "\\n"),                      # an escaped backslash, then the letter n
    ('"a\\nb\\rc\\td"', "a\nb\rc\td"),
    ('"\\x00\\x41\\x7f\\xff"', "\x00A\x7f\xff"),
    ('"\\u00e9\\u2028\\uFFFF"', "é\u2028\uffff"),
    ('"\\U0001F600\\U0010ffff"', "😀\U0010ffff"),
    ('"\\ud800"', "\ud800"),                 # a lone surrogate is a Python str character too
    ('"é日本😀"', "é日本😀"),                  # unicode stands for itself
    ('"# not a comment"', "# not a comment"),
    ('"(["', "(["),                          # brackets in strings do not open a line-spanning group
    ('"  x  "', "  x  "),
    ('"lambda if for in"', "lambda if for in"),
])
def test_string_literals(text: str, value: str) -> None:
    lit = parse_expr(text)
    assert isinstance(lit, A.StrLit)
    assert lit.value == value


@pytest.mark.parametrize(("text", "expected"), [
    ("1.5", F(1.5)),
    ("0.0", F(0.0)),
    ("1e-300", F(1e-300)),
    ("2.5E+3", F(2500.0)),
    ("1e308", F(1e308)),
    ("1.7976931348623157e308", F(1.7976931348623157e308)),
    ("5e-324", F(5e-324)),
    ("-1.5", F(-1.5)),                      # a negative literal is one token, as for ints
    ("- 1.5", A.Neg(F(1.5))),
    ("-(0.0)", A.Neg(F(0.0))),
    ("--0.0", A.Neg(F(-0.0))),
    ("x-1.5", B("-", V("x"), F(1.5))),
    ("x - -1.5", B("-", V("x"), F(-1.5))),
    ("2 * -1e3", B("*", N(2), F(-1000.0))),
    ("-1.5[0]", A.Proj(F(-1.5), 0)),
    ("1 / 2", B("/", N(1), N(2))),
    ("None", A.NoneLit()),
    ("[]", A.ListExpr(())),
    ("[1]", A.ListExpr((N(1),))),
    ("[1, 2,]", A.ListExpr((N(1), N(2)))),
    ("[[], None, 'a']", A.ListExpr((A.ListExpr(()), A.NoneLit(), S("a")))),
    ("[1][0]", A.Proj(A.ListExpr((N(1),)), 0)),
])
def test_float_none_and_list_literals(text: str, expected: A.Expr) -> None:
    assert parse_expr(text) == expected


def test_float_literals_are_bit_exact() -> None:
    for text in ["-0.0", "0.0", "5e-324", "-5e-324", "1e308", "0.1", "2.2250738585072014e-308"]:
        lit = parse_expr(text)
        assert isinstance(lit, A.FloatLit)
        assert lit.value == float(text) and math.copysign(1.0, lit.value) == math.copysign(1.0, float(text))
    assert math.copysign(1.0, parse_expr("-0.0").value) == -1.0  # type: ignore[union-attr]
    zero = parse_expr("-(0.0)")
    assert isinstance(zero, A.Neg) and math.copysign(1.0, zero.operand.value) == 1.0  # type: ignore[union-attr]


def test_comprehensions() -> None:
    x, xs = A.Param("x"), V("xs")
    assert parse_expr("[x + 1 for x in xs]") == A.ListComp(A.Lambda((x,), B("+", V("x"), N(1))), xs)
    assert parse_expr("[x for x in xs if x > 0]") == A.ListComp(
        A.Lambda((x,), V("x")), xs, A.Lambda((x,), B(">", V("x"), N(0))))
    typed = A.Param("x", STR)
    assert parse_expr("[x for x: Str in xs]") == A.ListComp(A.Lambda((typed,), V("x")), xs)
    # The general form spells the two functions out (any parameters; the condition's may differ).
    assert parse_expr("[lambda (a, b) -> a for xs if lambda y -> y]") == A.ListComp(
        A.Lambda((A.Param("a"), A.Param("b")), V("a")), xs, A.Lambda((A.Param("y"),), V("y")))
    assert parse_expr("[lambda (x) -> x for xs]") == parse_expr("[x for x in xs]")
    # The source and the condition are whole expressions, 'in' and 'if' included.
    assert parse_expr("[x for x in a in b if if c then d else e]") == A.ListComp(
        A.Lambda((x,), V("x")), B("in", V("a"), V("b")), A.Lambda((x,), A.Ite(V("c"), V("d"), V("e"))))
    assert parse_expr("[[y for y in x] for x in xs]") == A.ListComp(
        A.Lambda((x,), A.ListComp(A.Lambda((A.Param("y"),), V("y")), V("x"))), xs)


def test_builtin_calls() -> None:
    s, xs = V("s"), V("xs")
    table = {
        'str.split(s, ",")': A.Call("str.split", (s, S(","))),
        "str.join(s, xs)": A.Call("str.join", (s, xs)),  # a keyword after the dot is part of the name
        "py.getitem(s, -1)": A.Call("py.getitem", (s, N(-1))),
        "py.slice(s, 1, None)": A.Call("py.slice", (s, N(1), A.NoneLit())),
        "math.sqrt(2.0)": A.Call("math.sqrt", (F(2.0),)),
        "len(s)": A.Call("len", (s,)),
        "str(s)": A.Call("str", (s,)),
        'float("nan")': A.Call("float", (S("nan"),)),
        "round(s, 2)": A.Call("round", (s, N(2))),
        "sorted(xs)": A.Call("sorted", (xs,)),
        # count/sum/min/max of one argument aggregate a bag; the call on a list takes a trailing comma
        "sum(xs)": A.SimpleAgg("sum", xs),
        "sum(xs,)": A.Call("sum", (xs,)),
        "min(xs,)": A.Call("min", (xs,)),
        "count(xs,)": A.Call("count", (xs,)),
        "sum(1, 2)": A.Call("sum", (N(1), N(2))),
        "max([1, 2],)": A.Call("max", (A.ListExpr((N(1), N(2))),)),
    }
    for text, expected in table.items():
        assert parse_expr(text) == expected, text


def test_soft_keywords_are_names_unless_an_operation_starts() -> None:
    program = parse("program P(S: Bag[(Int, Int)]) =\n"
                    "  def first(p) = p[0]\n"
                    "  def take(k) = lambda (p) -> p[1] < k\n"
                    "  let top = map(first)(filter(take(3))(S))\n"
                    "  let collect = first(top)\n"
                    "  (top, collect + 1, [first for first in [collect]], lambda_(collect))\n")
    assert [d.name for d in program.defs] == ["first", "take"]
    assert program.lets[0].value == A.Map(A.FnRef("first"), A.Filter(A.PApp("take", (N(3),)), V("S")))
    assert program.lets[1] == A.LetBinding("collect", A.First(V("top")))
    assert program.body == A.TupleExpr((
        V("top"), B("+", V("collect"), N(1)),
        A.ListComp(A.Lambda((A.Param("first"),), V("first")), A.ListExpr((V("collect"),))),
        A.Call("lambda_", (V("collect"),))))


@pytest.mark.parametrize(("text", "expected"), [
    ("`first`(x)", A.Call("first", (V("x"),))),          # a call of a def named like a soft keyword
    ("`take`(3)(x)", A.Apply(A.PApp("take", (N(3),)), (V("x"),))),
    ("`map`", V("map")),                                 # backquotes make any text a name
    ("`count` + `None`", B("+", V("count"), V("None"))),
    ("`a b`[0]", A.Proj(V("a b"), 0)),
    ("`str.split`", V("str.split")),
    ("map(`sum`)(R)", A.Map(A.FnRef("sum"), V("R"))),
    ("`x`", V("x")),
])
def test_quoted_names(text: str, expected: A.Expr) -> None:
    assert parse_expr(text) == expected


def test_quoted_names_in_binding_positions() -> None:
    program = parse("program `filter`(`map`: Int) =\n  def `sum`(`in`) = `in`\n  let `count` = `sum`(`map`)\n"
                    "  `count`\n")
    assert program.name == "filter" and program.params == (A.Param("map", INT),)
    assert program.defs == (A.FunDef("sum", (A.Param("in"),), None, V("in")),)
    assert program.lets == (A.LetBinding("count", A.Call("sum", (V("map"),))),)


def test_every_operator_has_its_syntax() -> None:
    f, g, h = A.FnRef("f"), A.FnRef("g"), A.FnRef("h")
    R, S = V("R"), V("S")
    table = {
        "map(f)(R)": A.Map(f, R),
        "filter(f)(R)": A.Filter(f, R),
        "flatMap(f)(R)": A.FlatMap(f, R),
        "cartesian(R, S)": A.Cartesian(R, S),
        "join(R, S)": A.Join(R, S),
        "union(R, S)": A.Union(R, S),
        "distinct(R)": A.Distinct(R),
        "fold(0, f)(R)": A.Fold(N(0), f, R),
        "aggregate(0, f, g)(R)": A.Aggregate(N(0), f, g, R),
        "reduce(f)(R)": A.Reduce(f, R),
        "count(R)": A.SimpleAgg("count", R),
        "sum(R)": A.SimpleAgg("sum", R),
        "foldByKey(0, f)(R)": A.FoldByKey(N(0), f, R),
        "aggregateByKey(0, f, g)(R)": A.AggregateByKey(N(0), f, g, R),
        "reduceByKey(f)(R)": A.ReduceByKey(f, R),
        "combineByKey(f, g, h)(R)": A.CombineByKey(f, g, h, R),
        "groupByKey(sum)(R)": A.GroupByKeyAgg(("sum",), R),
        "groupByKey(sum, len, min, max)(R)": A.GroupByKeyAgg(("sum", "len", "min", "max"), R),
        "groupByKey(list)(R)": A.GroupByKeyAgg(("list",), R),
        "leftOuterJoin(R, S)": A.OuterJoin("left", R, S),
        "rightOuterJoin(R, S)": A.OuterJoin("right", R, S),
        "fullOuterJoin(R, S,)": A.OuterJoin("full", R, S),
        "sortBy(f)(R)": A.SortBy(f, True, R),
        "sortBy(f, descending)(R)": A.SortBy(f, False, R),
        "sortBy(descending)(R)": A.SortBy(A.FnRef("descending"), True, R),  # only a keyword after the comma
        "subtract(R, S)": A.Subtract(R, S),
        "intersection(R, S)": A.Intersection(R, S),
        "collect(R)": A.Collect(R),
        "take(3)(R)": A.Take(N(3), R),
        "takeOrdered(3)(R)": A.TakeOrdered(N(3), None, R),
        "takeOrdered(3, f)(R)": A.TakeOrdered(N(3), f, R),
        "top(3)(R)": A.TakeOrdered(N(3), None, R, top=True),
        "top(n, lambda (x) -> -x)(R)": A.TakeOrdered(V("n"), A.Lambda((A.Param("x"),), A.Neg(V("x"))), R,
                                                     top=True),
        "first(R)": A.First(R),
        "countByValue(R)": A.CountByValue(R),
        "collectAsMap(R)": A.CollectAsMap(R),
    }
    for text, expected in table.items():
        assert parse_expr(text) == expected, text


def test_types() -> None:
    assert parse_type("Int") == INT
    assert parse_type("Bool") == BOOL == parse_type("Boolean")
    assert parse_type("Bag[(Int, (Bool, Int))]") == BagType(TupleType((INT, TupleType((BOOL, INT)))))
    assert parse_type("(Int,)") == TupleType((INT,))
    assert parse_type("((Int))") == INT
    assert parse_type("Str") == STR
    assert parse_type("Float") == FLOAT
    assert parse_type("None") == NONE
    assert parse_type("Option[Int]") == OptionType(INT)
    assert parse_type("List[Option[Str]]") == ListType(OptionType(STR))
    assert parse_type("Dict[(Str, Int), List[Float]]") == DictType(TupleType((STR, INT)), ListType(FLOAT))
    assert parse_type("Bag[(Str, (Int, Option[Float]))]") == BagType(
        TupleType((STR, TupleType((INT, OptionType(FLOAT))))))


@pytest.mark.parametrize(("text", "col", "fragment"), [
    ("Option[Option[Int]]", 1, "Option[Option[Int]] is not a type"),
    ("List[Option[None]]", 6, "Option[None] is not a type"),
    ("Dict[Int]", 9, "unexpected ']'"),
    ("Str[Int]", 4, "unexpected '['"),
])
def test_bad_types(text: str, col: int, fragment: str) -> None:
    with pytest.raises(SyntaxError_) as info:
        parse_type(text)
    assert info.value.loc == A.Loc(None, 1, col), str(info.value)
    assert fragment in info.value.message


def test_newlines_end_statements_only_outside_brackets() -> None:
    text = """
    # leading comment
    program P(R: Bag[Int],
              t: Int) =   # header spans two lines
      let a = map(lambda (x) ->
                    x + t)(R)

      # a blank line and a comment between statements
      let b = count(a)
      (a,
       b)
    """
    program = parse(text)
    assert [b.name for b in program.lets] == ["a", "b"]
    assert program.body == A.TupleExpr((V("a"), V("b")))
    # Without the newline rule "let b = t" followed by "(a, b)" would read as the call t(a, b).
    two = parse("program P(t: Int) =\n  let b = t\n  (b, t)\n")
    assert two.lets[0].value == V("t")


def test_one_line_program_and_no_params() -> None:
    assert parse("program K() = 1") == A.Program("K", (), (), (), N(1))


def test_defs_without_annotations_and_bare_lambda_params() -> None:
    program = parse("program P(R: Bag[Int]) =\n  def f(x, y: Int) = x + y\n  map(lambda x -> f(x, 1))(R)\n")
    (f,) = program.defs
    assert isinstance(f, A.FunDef)
    assert f.params == (A.Param("x"), A.Param("y", INT)) and f.ret is None
    assert program.body == A.Map(A.Lambda((A.Param("x"),), A.Call("f", (V("x"), N(1)))), V("R"))


@pytest.mark.parametrize(("text", "line", "col", "fragment"), [
    ("program P(R: Bag[Int]) =\n  map(f)(R", 2, 11, "end of input"),
    ("program P(R: Bag[Int]) =\n  let x = 1 +\n  R", 2, 14, "end of line"),
    ("program P(R: Bag[Int]) =\n  let map = 1\n  R", 2, 7, "'map' is a reserved word"),
    ("program P(R: Bag[Int]) =\n  filter(lambda (x) -> 1 < x < 3)(R)", 2, 30, "comparisons do not chain"),
    ("program P(R: Bag[Int]) =\n  R ? 1", 2, 5, "unexpected character '?'"),
    ("program P(R: Bag[Int]) =\n  groupByKey(avg)(R)", 2, 14, "sum, len, min, max or list, not 'avg'"),
    # strings: one line, known escapes only (located at the backslash), valid code points
    ('program P(R: Bag[Int]) =\n  let s = "abc\n  R', 2, 11, "unterminated string"),
    ("program P(R: Bag[Int]) =\n  let s = 'abc\"\n  R", 2, 11, "unterminated string"),
    ('program P(R: Bag[Int]) =\n  let s = "a\\"\n  R', 2, 11, "unterminated string"),
    ('program P(R: Bag[Int]) =\n  let s = "ab\\d"\n  R', 2, 14, "unknown escape '\\d'"),
    ('program P(R: Bag[Int]) =\n  let s = "\\x4g"\n  R', 2, 12, "'\\x' needs exactly 2 hexadecimal digits"),
    ('program P(R: Bag[Int]) =\n  let s = "é\\u12"\n  R', 2, 13, "'\\u' needs exactly 4 hexadecimal digits"),
    ('program P(R: Bag[Int]) =\n  let s = "\\U00110000"\n  R', 2, 12, "not a Unicode code point"),
    ('program P(R: Bag[Int]) =\n  let s = x "a"', 2, 13, "unexpected '\"a\"'"),
    # floats: finite, digits on both sides of the point
    ("program P(R: Bag[Int]) =\n  let f = 1e400\n  R", 2, 11, "out of range"),
    ("program P(R: Bag[Int]) =\n  let f = -1e400\n  R", 2, 11, "out of range"),
    ("program P(R: Bag[Int]) =\n  let f = 1.", 2, 12, "unexpected character '.'"),
    ("program P(R: Bag[Int]) =\n  let f = .5", 2, 11, "unexpected character '.'"),
    ("program P(R: Bag[Int]) =\n  let f = t[1.5]", 2, 14, "unexpected character '.'"),
    # the new words are reserved; 'in' does not chain; comprehensions have one 'for' and one 'if'
    ("program P(R: Bag[Int]) =\n  let Dict = 1\n  R", 2, 7, "'Dict' is a reserved word"),
    ("program P(R: Bag[Int]) =\n  let in = 1\n  R", 2, 7, "'in' is a reserved word"),
    ("program P(R: Bag[Int]) =\n  let `` = 1\n  R", 2, 7, "unexpected character '`'"),
    ("program P(R: Bag[Int]) =\n  let first = 1\n  first(R, R)", 3, 10,
     "a call of a def named first is written `first`(...)"),
    ("program P(R: Bag[Int]) =\n  map(lambda (None) -> 1)(R)", 2, 15, "'None' is a reserved word"),
    ("program P(R: Bag[Int]) =\n  map(lambda (List) -> 1)(R)", 2, 15, "'List' is a reserved word"),
    ("program P(x: Int) =\n  x in [1] in [2]", 2, 12, "comparisons do not chain"),
    ("program P(x: Int) =\n  [y for y in [1] if y if y]", 2, 24, "unexpected 'if'"),
    ("program P(x: Int) =\n  [y for y < 1]", 2, 12, "unexpected '<'; expected"),
    ("program P(x: Int) =\n  [lambda (y) -> y for [1] if y]", 2, 31, "expected 'lambda'"),
    ("program P(x: Int) =\n  str . split(x)", 2, 7, "unexpected character '.'"),
    ("program P(R: Bag[Int]) =\n  sortBy(f, ascending)(R)", 2, 13, "expected 'descending'"),
    ("program P(R: Bag[Int]) =\n  takeOrdered(1, f, g)(R)", 2, 19, "unexpected ','"),
    ("program P(x: Int) =\n  let n = " + "9" * 5000 + "\n  x", 2, 11, "integer literal too long"),
    ("program P(R) =\n  R", 1, 12, "expected ':'"),
    ("program P(R: Bag[Int]) =\n  let a = R\n", 2, 12, "end of input"),
    ("program P(R: Bag[Int]) =\n  R\n  R", 3, 3, "unexpected 'R'"),
    ("", 1, 1, "end of input"),
])
def test_syntax_errors_are_located(text: str, line: int, col: int, fragment: str) -> None:
    with pytest.raises(SyntaxError_) as info:
        parse(text, "bad.sl")
    err = info.value
    assert err.loc == A.Loc("bad.sl", line, col), str(err)
    assert fragment in err.message
    assert str(err).startswith(f"bad.sl:{line}:{col}: ")


def test_parse_file_reads_and_labels_locations(tmp_path: Path) -> None:
    path = tmp_path / "p1.sl"
    path.write_text(P1)
    program = parse_file(path)
    assert program == parse(P1)
    assert program.loc == A.Loc(str(path), 1, 1)
    with pytest.raises(InputError) as info:
        parse_file(tmp_path / "missing.sl")
    assert info.value.loc == A.Loc(str(tmp_path / "missing.sl"), 1, 1)


def test_example_programs_parse() -> None:
    files = sorted((REPO / "cases" / "sl").glob("*.sl"))
    assert {f.name for f in files} >= {"p1.sl", "p2.sl", "p3.sl", "p4.sl"}
    for f in files:
        program = parse_file(f)
        assert program.name.lower() in f.stem.lower() or f.stem == "tour", f
