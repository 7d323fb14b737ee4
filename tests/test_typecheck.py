"""The type checker: every typing rule accepts what it should and rejects the rest with a located
``TypeCheckError``/``NameResolutionError``; elaboration fills every parameter type; the malformed corpus in
``cases/malformed/sl`` gives exactly the error its header announces."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sparklite import ast as A
from sparklite.errors import InputError, NameResolutionError, SyntaxError_, TypeCheckError
from sparklite.parser import parse, parse_expr, parse_file
from sparklite.typecheck import FunSig, ParamFunSig, type_of, typecheck
from sparklite.types import BOOL, INT, BagType, TupleType

REPO = Path(__file__).resolve().parent.parent
PAIR = TupleType((INT, INT))
HEADER = "program P(R: Bag[Int], S: Bag[(Int, Int)], T: Bag[(Int, Bool)], t: Int, b: Bool) =\n"


def check(*lines: str):
    return typecheck(parse(HEADER + "".join(f"  {line}\n" for line in lines)))


def result_of(expr: str):
    return check(expr).result


# ---------------------------------------------------------------------------------------------------
# Accepted programs
# ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("expr", "expected"), [
    ("t + 1 * t // 2 % 3 - -t", INT),
    ("t < 1 or t <= 2 and t > 3 or t >= 4", BOOL),
    ("(t, b) == (1, true) and b != false", BOOL),
    ("not b", BOOL),
    ("if b then (t, t) else (0, 1)", PAIR),
    ("(t, (b, t))[1][0]", BOOL),
    ("min(t, 1, 2) + max(t, 3) + abs(t)", INT),
    ("map(lambda (x) -> (x, x > 0))(R)", BagType(TupleType((INT, BOOL)))),
    ("filter(lambda (p) -> p[1])(T)", BagType(TupleType((INT, BOOL)))),
    ("flatMap(lambda (x) -> (x, x + 1, t))(R)", BagType(INT)),
    ("flatMap(lambda (p) -> (p,))(S)", BagType(PAIR)),
    ("cartesian(R, T)", BagType(TupleType((INT, TupleType((INT, BOOL)))))),
    ("join(S, T)", BagType(TupleType((INT, TupleType((INT, BOOL)))))),
    ("union(R, map(lambda (x) -> x)(R))", BagType(INT)),
    ("distinct(S)", BagType(PAIR)),
    ("fold((0, 0), lambda (a, p) -> (a[0] + p[0], a[1] + p[1]))(S)", PAIR),
    ("aggregate(false, lambda (acc, x) -> acc or x > t, lambda (c, d) -> c or d)(R)", BOOL),
    ("reduce(lambda (p, q) -> p)(T)", TupleType((INT, BOOL))),
    ("count(T) + sum(R) + min(R) + max(R)", INT),
    ("foldByKey(0, lambda (a, v) -> a + v)(S)", BagType(PAIR)),
    ("aggregateByKey(0, lambda (a, v) -> if v then a + 1 else a, lambda (c, d) -> c + d)(T)", BagType(PAIR)),
    ("reduceByKey(lambda (v, w) -> v and w)(T)", BagType(TupleType((INT, BOOL)))),
    ("combineByKey(lambda (v) -> (v, 1), lambda (c, v) -> (c[0] + v, c[1] + 1), "
     "lambda (c, d) -> (c[0] + d[0], c[1] + d[1]))(S)", BagType(TupleType((INT, PAIR)))),
    ("groupByKey(len)(S)", BagType(PAIR)),
    ("groupByKey(sum, len, max)(S)", BagType(TupleType((INT, TupleType((INT, INT, INT)))))),
    ("(R, count(R) + 1, (S, b))", TupleType((BagType(INT), INT, TupleType((BagType(PAIR), BOOL))))),
    ("apply(lambda (x, y) -> x * y)(t, 2)", INT),
])
def test_typing_rules(expr: str, expected) -> None:
    assert result_of(expr) == expected


def test_program_types_report_params_lets_and_functions() -> None:
    types = check(
        "def inc(x: Int): Int = x + 1",
        "def geq(y: Int) = lambda (x: Int) -> x >= y",
        "let R1 = map(inc)(R)",
        "let s = fold(0, lambda (a, x) -> a + x)(R1)",
        "filter(geq(s))(R1)",
    )
    assert types.result == BagType(INT)
    assert dict(types.params) == {"R": BagType(INT), "S": BagType(PAIR), "T": BagType(TupleType((INT, BOOL))),
                                  "t": INT, "b": BOOL}
    assert dict(types.lets) == {"R1": BagType(INT), "s": INT}
    assert types.functions == {"inc": FunSig((INT,), INT)}
    assert types.parametric == {"geq": ParamFunSig((INT,), FunSig((INT,), BOOL))}


def test_elaboration_fills_every_parameter_and_return_type() -> None:
    types = check(
        "def swap(p) = (p[1], p[0])",                           # typed at its first use, by map
        "def above(k) = lambda (p) -> p[0] > k",
        "let flipped = map(swap)(S)",
        "let kept = filter(above(t))(flipped)",
        "fold((0, 0), lambda (a, p) -> p)(kept)",
    )
    program = types.program
    for node in A.walk(program):
        if isinstance(node, A.Param):
            assert node.type is not None, node
    swap, above = program.defs
    assert isinstance(swap, A.FunDef) and swap.params[0].type == PAIR and swap.ret == PAIR
    assert isinstance(above, A.ParamFunDef)
    assert above.params[0].type == INT and above.fn.params[0].type == PAIR
    fold = program.body
    assert isinstance(fold, A.Fold) and isinstance(fold.op, A.Lambda)
    assert [p.type for p in fold.op.params] == [PAIR, PAIR]
    # Locations survive elaboration, and elaborating again changes nothing.
    assert fold.loc == A.Loc(None, 6, 3)
    assert typecheck(program).program == program


def test_type_of_node_answers_for_nodes_of_the_elaborated_program() -> None:
    types = check("map(lambda (p) -> p[0] > t)(S)")
    body = types.program.body
    assert isinstance(body, A.Map) and isinstance(body.fn, A.Lambda)
    assert types.type_of_node(body) == BagType(BOOL)
    cmp = body.fn.body
    assert isinstance(cmp, A.BinOp)
    assert types.type_of_node(cmp.left) == INT
    assert types.type_of_node(cmp.left.tuple) == PAIR  # type: ignore[attr-defined]
    with pytest.raises(KeyError):
        types.type_of_node(A.Var("p"))  # equal-looking, but not a node of this program


def test_type_of_a_standalone_expression() -> None:
    assert type_of(parse_expr("(x + 1, y)"), {"x": INT, "y": BOOL}) == TupleType((INT, BOOL))
    defs = parse("program Q() =\n  def sq(z: Int): Int = z * z\n  0").defs
    assert type_of(parse_expr("sq(x) > 0"), {"x": INT}, defs) == BOOL
    assert type_of(parse_expr("count(R)"), {"R": BagType(INT)}) == INT
    with pytest.raises(TypeCheckError):
        type_of(parse_expr("count(R)"), {"R": BagType(INT)}, in_function=True)


def test_closures_over_scalars_lets_and_aggregates_are_allowed() -> None:
    types = check(
        "def near(d: Int) = lambda (x: Int) -> abs(x - t) <= d",
        "let m = max(R)",
        "let c = count(S)",
        "map(lambda (x) -> if b then x + m else x - c)(filter(near(m // 2))(R))",
    )
    assert types.result == BagType(INT)


def test_unannotated_def_used_at_two_types_is_rejected() -> None:
    with pytest.raises(TypeCheckError) as info:
        check("def first(p) = p[0]", "let a = map(first)(S)", "map(first)(T)")
    assert "expects (Int, Int) but the bag holds (Int, Bool)" in info.value.message
    assert info.value.loc == A.Loc(None, 4, 7)


# ---------------------------------------------------------------------------------------------------
# Rejected programs: (program lines, error class, line, column, message fragment)
# ---------------------------------------------------------------------------------------------------

REJECTED = [
    # Int and Bool are distinct
    (["t + b"], TypeCheckError, 2, 7, "'+' needs Int operands but the right operand has type Bool"),
    (["not t"], TypeCheckError, 2, 7, "'not' needs a Bool operand"),
    (["-b"], TypeCheckError, 2, 4, "unary '-' needs an Int or Float operand"),
    (["b < true"], TypeCheckError, 2, 3, "'<' needs Int operands but the left operand has type Bool"),
    (["t and b"], TypeCheckError, 2, 3, "'and' needs Bool operands"),
    (["t == b"], TypeCheckError, 2, 3, "'==' compares values of one type, not Int and Bool"),
    (["R == R"], TypeCheckError, 2, 3, "compares basic values, not bags"),
    (["if t then 1 else 2"], TypeCheckError, 2, 6, "the condition of 'if' must be Bool but has type Int"),
    (["if b then 1 else true"],
     TypeCheckError, 2, 3, "branches of 'if' must have one type, not Int and Bool"),
    (["if b then R else R"], TypeCheckError, 2, 3, "'if' chooses between basic values, not bags"),
    (["(t, b)[2]"], TypeCheckError, 2, 3, "index 2 is out of range for a tuple of type (Int, Bool)"),
    (["t[0]"], TypeCheckError, 2, 3, "cannot take [0] of a value of type Int"),
    (["()"], TypeCheckError, 2, 3, "empty tuple"),
    (["abs(t, t)"], TypeCheckError, 2, 3, "abs takes 1 argument"),
    (["min(t, b)"], TypeCheckError, 2, 10,
     "min needs arguments of one ordered type (Int, Bool or tuples of them) but argument 2 has type Bool"),
    # bag operators
    (["map(lambda (x) -> x)(t)"], TypeCheckError, 2, 24, "map needs a bag but this has type Int"),
    (["map(lambda (x: Int) -> x)(S)"],
     TypeCheckError, 2, 15, "map's function expects Int but the bag holds (Int, Int)"),
    (["filter(lambda (x) -> x)(R)"], TypeCheckError, 2, 24, "filter's predicate must return Bool"),
    (["flatMap(lambda (x) -> x)(R)"], TypeCheckError, 2, 25,
     "must return a list, a Str or a tuple of values of one type"),
    (["flatMap(lambda (p) -> (p[0], p[1]))(T)"], TypeCheckError, 2, 25, "returns (Int, Bool)"),
    (["join(S, R)"], TypeCheckError, 2, 11, "join needs a bag of (key, value) pairs but the bag holds Int"),
    (["join(S, map(lambda (p) -> (p[1], p[0]))(T))"],
     TypeCheckError, 2, 3, "same key type on both sides, not Int and Bool"),
    (["union(R, S)"], TypeCheckError, 2, 3, "union needs bags of one element type, not Int and (Int, Int)"),
    (["fold(true, lambda (a, x) -> a)(R)"],
     TypeCheckError, 2, 8, "fold's zero value must have the bag's element type Int"),
    (["fold(0, lambda (a, x) -> a > x)(R)"], TypeCheckError, 2, 28, "fold's operator must return Int"),
    (["aggregate(0, lambda (a, x) -> a + x, lambda (a, c) -> a > c)(R)"], TypeCheckError, 2, 57,
     "aggregate's comb function must return Int"),
    (["aggregate(true, lambda (a, x) -> a + x, lambda (a, c) -> a)(R)"], TypeCheckError, 2, 36,
     "'+' needs Int operands but the left operand has type Bool"),
    (["reduce(lambda (a) -> a)(R)"],
     TypeCheckError, 2, 10, "reduce's operator takes 1 parameter but receives 2"),
    (["sum(T)"], TypeCheckError, 2, 3, "sum needs a bag of Int, Bool or Float but the bag holds (Int, Bool)"),
    (["foldByKey(true, lambda (a, v) -> a)(S)"],
     TypeCheckError, 2, 13, "foldByKey's zero value must have the value type Int"),
    (["reduceByKey(lambda (a, v) -> a)(R)"],
     TypeCheckError, 2, 35, "reduceByKey needs a bag of (key, value) pairs"),
    (["aggregateByKey(0, lambda (a, v) -> v, lambda (a, c) -> a)(T)"], TypeCheckError, 2, 38,
     "aggregateByKey's seq function must return Int"),
    (["combineByKey(lambda (v) -> v, lambda (c, v) -> (c, v), lambda (c, d) -> c)(S)"], TypeCheckError, 2, 50,
     "combineByKey's mergeValue function must return Int"),
    (["groupByKey(sum)(T)"],
     TypeCheckError, 2, 3, "groupByKey(sum) needs Int or Float values but the values have type Bool"),
    # functions: arity, annotations, kinds of names
    (["map(lambda (x, y) -> x)(R)"],
     TypeCheckError, 2, 7, "map's function takes 2 parameters but receives 1"),
    (["def f(x: Int, y: Int): Int = x", "map(f)(R)"], TypeCheckError, 3, 7,
     "map's function f takes 2 parameters but receives 1"),
    (["def f(x: Int): Int = x", "f(1, 2)"],
     TypeCheckError, 3, 3, "function f takes 1 parameter but receives 2"),
    (["def f(x: Int): Bool = x + 1", "R"],
     TypeCheckError, 2, 25, "function f is declared to return Bool but returns Int"),
    (["def g(y: Int) = lambda (x: Int) -> x > y", "filter(g(1, 2))(R)"], TypeCheckError, 3, 10,
     "parametric function g takes 1 parameter but receives 2"),
    (["def g(y: Int) = lambda (x: Int) -> x > y", "filter(g)(R)"],
     TypeCheckError, 3, 10, "'g' is a parametric function"),
    (["def g(y: Int) = lambda (x: Int) -> x > y", "g(1)"],
     TypeCheckError, 3, 3, "'g' is a parametric function"),
    (["def f(x: Int): Int = x", "filter(f(1))(R)"], TypeCheckError, 3, 10, "'f' is an ordinary function"),
    (["def f(x: Int): Int = x", "f"], TypeCheckError, 3, 3, "'f' is a function, not a value"),
    (["map(t)(R)"], TypeCheckError, 2, 7, "'t' is a value of type Int, not a function"),
    (["map(abs)(R)"], TypeCheckError, 2, 7, "the builtin 'abs' cannot be passed as a function"),
    (["def f(x) = x", "f(R)"], TypeCheckError, 3, 5, "argument 1 of f is a bag"),
    (["def f(x) = x + 1", "R"], TypeCheckError, 2, 9, "cannot infer the type of parameter 'x' of f"),
    (["def f(r: Bag[Int]): Int = 1", "R"], TypeCheckError, 2, 9, "parameter 'r' of f has type Bag[Int]"),
    # bodies of functions are basic
    (["map(lambda (x) -> x + sum(R))(R)"], TypeCheckError, 2, 25, "map's function cannot contain sum"),
    (["map(lambda (x) -> count(R))(R)"], TypeCheckError, 2, 21, "cannot contain count"),
    (["map(lambda (x) -> (x, R))(R)"], TypeCheckError, 2, 25, "map's function cannot use the bag 'R'"),
    (["def f(x: Int): Int = x + count(R)", "R"], TypeCheckError, 2, 28, "function f cannot contain count"),
    (["let R2 = map(lambda (x) -> x)(R)", "map(lambda (x) -> apply(lambda (y) -> y)(R2))(R)"], TypeCheckError,
     3, 44, "cannot use the bag 'R2'"),
    # bags in tuples only in the result
    (["let p = (R, 1)", "R"],
     TypeCheckError, 2, 12, "a tuple can hold a bag (Bag[Int]) only in the program's result"),
    (["count(R) + (R, 1)[1]"], TypeCheckError, 2, 15, "only in the program's result"),
    # names: unknown, used before definition, shadowing, recursion
    (["foo + 1"], NameResolutionError, 2, 3, "unknown name 'foo'"),
    (["let a = z", "let z = 1", "a"],
     NameResolutionError, 2, 11, "'z' is used before its definition: let z (line 3)"),
    (["let t2 = 1", "let t2 = 2", "t2"], NameResolutionError, 3, 3, "'t2' is already defined"),
    (["map(lambda (t) -> t)(R)"], NameResolutionError, 2, 15, "'t' is already defined (input at line 1)"),
    (["fold(0, lambda (x, x) -> x)(R)"], NameResolutionError, 2, 22, "two parameters named 'x'"),
    (["let m = 1", "map(lambda (m) -> m)(R)"],
     NameResolutionError, 3, 15, "'m' is already defined (let at line 2)"),
    (["def f(x: Int): Int = g(x)", "def g(x: Int): Int = x", "R"], NameResolutionError, 2, 24,
     "a function may only call functions defined before it (no recursion)"),
    (["def f(x: Int): Int = if x > 0 then f(x - 1) else 0", "R"], NameResolutionError, 2, 38, "no recursion"),
    (["def abs(x: Int): Int = x", "R"], NameResolutionError, 2, 3, "builtin function"),
    (["def f(x: Int): Int = x", "def f(y: Int): Int = y", "R"],
     NameResolutionError, 3, 3, "'f' is already defined"),
]


@pytest.mark.parametrize(("lines", "error", "line", "col", "fragment"), REJECTED)
def test_rejected_programs_are_located(lines: list[str], error: type, line: int, col: int,
                                       fragment: str) -> None:
    with pytest.raises(error) as info:
        check(*lines)
    err = info.value
    assert fragment in err.message, err.message
    assert err.loc is not None and (err.loc.line, err.loc.col) == (line, col), str(err)


def test_input_types_must_be_bags_of_basic_values_or_basic_values() -> None:
    with pytest.raises(TypeCheckError) as info:
        typecheck(parse("program P(R: Bag[Bag[Int]]) =\n  R"))
    assert info.value.loc == A.Loc(None, 1, 11)
    with pytest.raises(TypeCheckError):
        typecheck(parse("program P(p: (Bag[Int], Int)) =\n  p"))
    with pytest.raises(NameResolutionError):
        typecheck(parse("program P(R: Bag[Int], R: Int) =\n  R"))


def test_in_memory_programs_without_param_types_are_rejected_cleanly() -> None:
    program = A.Program("P", (A.Param("R"),), (), (), A.Var("R"))
    with pytest.raises(TypeCheckError, match="input 'R' needs a type"):
        typecheck(program)


# ---------------------------------------------------------------------------------------------------
# Example files and the malformed corpus
# ---------------------------------------------------------------------------------------------------


def test_example_programs_type_check() -> None:
    expected = {"p1.sl": BagType(INT), "p2.sl": BagType(INT), "p3.sl": BOOL, "p4.sl": BOOL,
                "p7.sl": BagType(PAIR), "p8.sl": BagType(PAIR)}
    for name, result in expected.items():
        assert typecheck(parse_file(REPO / "cases" / "sl" / name)).result == result, name
    tour = typecheck(parse_file(REPO / "cases" / "sl" / "tour.sl"))
    assert isinstance(tour.result, TupleType) and len(tour.result.elems) == 11


EXPECT = re.compile(r"#\s*expect:\s*(\w+)\s+(\d+):(\d+)\s+(.*)$")
MALFORMED = sorted((REPO / "cases" / "malformed" / "sl").glob("*.sl"))
ERRORS = {cls.__name__: cls for cls in (SyntaxError_, NameResolutionError, TypeCheckError)}


def test_malformed_corpus_covers_each_kind_of_mistake() -> None:
    names = {p.stem for p in MALFORMED}
    for needed in ("syntax_missing_paren", "unknown_name", "type_error_element", "wrong_arity_lambda",
                   "bag_inside_lambda"):
        assert needed in names


@pytest.mark.parametrize("path", MALFORMED, ids=lambda p: p.stem)
def test_malformed_file_gives_its_announced_error(path: Path) -> None:
    match = EXPECT.match(path.read_text().splitlines()[0])
    assert match, f"{path.name}: first line must be '# expect: ErrorClass line:col message'"
    cls, line, col, fragment = ERRORS[match[1]], int(match[2]), int(match[3]), match[4].strip()
    with pytest.raises(InputError) as info:
        typecheck(parse_file(path))
    err = info.value
    assert type(err) is cls, f"{type(err).__name__}: {err}"
    assert err.loc == A.Loc(str(path), line, col), str(err)
    assert fragment in err.message, err.message
