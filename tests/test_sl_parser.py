"""The SparkLite parser: the paper's examples parse to the expected trees, precedence and associativity
follow Python, every node is located, and bad text is one located ``SyntaxError_``."""

from __future__ import annotations

from pathlib import Path

import pytest

from sparklite import ast as A
from sparklite.errors import InputError, SyntaxError_
from sparklite.parser import parse, parse_expr, parse_file, parse_type
from sparklite.types import BOOL, INT, BagType, TupleType

REPO = Path(__file__).resolve().parent.parent

N, V, B = A.IntLit, A.Var, A.BinOp

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
    }
    for text, expected in table.items():
        assert parse_expr(text) == expected, text


def test_types() -> None:
    assert parse_type("Int") == INT
    assert parse_type("Bool") == BOOL == parse_type("Boolean")
    assert parse_type("Bag[(Int, (Bool, Int))]") == BagType(TupleType((INT, TupleType((BOOL, INT)))))
    assert parse_type("(Int,)") == TupleType((INT,))
    assert parse_type("((Int))") == INT


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
    ("program P(R: Bag[Int]) =\n  groupByKey(avg)(R)", 2, 14, "sum, len, min or max, not 'avg'"),
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
