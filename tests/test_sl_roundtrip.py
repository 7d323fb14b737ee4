"""``parse(pretty(p)) == p``: over hand-written programs that use every node, over tricky hand-built
trees (negative literals vs negation, right-nested operators, one-argument ``min``), over random trees that
need not type-check (so the printer cannot lean on well-typedness), and over the random program generator
of ``sparklite.generate``."""

from __future__ import annotations

import random
import typing
from pathlib import Path

import pytest

from sparklite import ast as A
from sparklite.parser import parse, parse_expr, parse_file, parse_type
from sparklite.printer import pretty, pretty_expr, pretty_type
from sparklite.typecheck import typecheck
from sparklite.types import BOOL, INT, BagType, TupleType, Type

REPO = Path(__file__).resolve().parent.parent
N, V, B = A.IntLit, A.Var, A.BinOp

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
    kinds = {n.kind for text in PROGRAMS for n in A.walk(parse(text)) if isinstance(n, A.SimpleAgg)}
    assert kinds == {"count", "sum", "min", "max"}
    ops = {n.op for text in PROGRAMS for n in A.walk(parse(text)) if isinstance(n, A.BinOp)}
    assert ops == set(A.BINARY_OPS)


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
])
def test_tricky_trees_round_trip(tree: A.Expr) -> None:
    assert parse_expr(pretty_expr(tree)) == tree


def test_negative_literal_and_negation_print_differently() -> None:
    assert pretty_expr(N(-3)) == "-3"
    assert pretty_expr(A.Neg(N(3))) == "-(3)"
    assert pretty_expr(A.Call("min", (V("x"),))) == "min(x,)"
    assert pretty_expr(A.SimpleAgg("min", V("x"))) == "min(x)"


# ---------------------------------------------------------------------------------------------------
# Random trees (not necessarily well-typed)
# ---------------------------------------------------------------------------------------------------

NAMES = ["x", "y", "acc", "R", "S_1", "len", "lambda_", "mapped", "ifx", "_t"]
KEYWORD_FREE_FUNCS = ["f", "g2", "helper"]


def rand_type(rng: random.Random, depth: int = 2) -> Type:
    roll = rng.random()
    if depth <= 0 or roll < 0.4:
        return INT if rng.random() < 0.6 else BOOL
    if roll < 0.6:
        return BagType(rand_type(rng, depth - 1))
    return TupleType(tuple(rand_type(rng, depth - 1) for _ in range(rng.randint(0, 3))))


def rand_params(rng: random.Random, lo: int = 0) -> tuple[A.Param, ...]:
    return tuple(A.Param(rng.choice(NAMES), rand_type(rng) if rng.random() < 0.5 else None)
                 for _ in range(rng.randint(lo, 3)))


def rand_fn(rng: random.Random, depth: int) -> A.Fn:
    roll = rng.random()
    if roll < 0.3:
        return A.FnRef(rng.choice(KEYWORD_FREE_FUNCS))
    if roll < 0.5:
        return A.PApp(rng.choice(KEYWORD_FREE_FUNCS), rand_args(rng, depth))
    return A.Lambda(rand_params(rng), rand_expr(rng, depth - 1))


def rand_args(rng: random.Random, depth: int) -> tuple[A.Expr, ...]:
    return tuple(rand_expr(rng, depth - 1) for _ in range(rng.randint(0, 3)))


def rand_expr(rng: random.Random, depth: int) -> A.Expr:  # noqa: C901 - one case per node type
    if depth <= 0:
        roll = rng.randrange(3)
        if roll == 0:
            return N(rng.randint(-20, 20))
        if roll == 1:
            return A.BoolLit(rng.random() < 0.5)
        return V(rng.choice(NAMES))
    sub = lambda: rand_expr(rng, depth - 1)  # noqa: E731
    fn = lambda: rand_fn(rng, depth - 1)  # noqa: E731
    choice = rng.randrange(29)
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
            return A.Call(rng.choice(KEYWORD_FREE_FUNCS + ["min", "max", "abs"]), rand_args(rng, depth))
        case 12:
            return A.Apply(fn(), rand_args(rng, depth))
        case 13:
            return A.Map(fn(), sub())
        case 14:
            return A.Filter(fn(), sub())
        case 15:
            return A.FlatMap(fn(), sub())
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
        case _:
            kinds = tuple(rng.choice(["sum", "len", "min", "max"]) for _ in range(rng.randint(0, 4)))
            return A.GroupByKeyAgg(kinds, sub())


def rand_program(rng: random.Random) -> A.Program:
    params = tuple(A.Param(rng.choice(NAMES), rand_type(rng)) for _ in range(rng.randint(0, 3)))
    defs: list[A.Def] = []
    for _ in range(rng.randint(0, 3)):
        name = rng.choice(KEYWORD_FREE_FUNCS)
        if rng.random() < 0.5:
            defs.append(A.FunDef(name, rand_params(rng), rand_type(rng) if rng.random() < 0.5 else None,
                                 rand_expr(rng, 3)))
        else:
            defs.append(A.ParamFunDef(name, rand_params(rng), A.Lambda(rand_params(rng), rand_expr(rng, 3))))
    lets = tuple(A.LetBinding(rng.choice(NAMES), rand_expr(rng, 4)) for _ in range(rng.randint(0, 4)))
    return A.Program("Rand", params, tuple(defs), lets, rand_expr(rng, 4))


def test_random_expressions_round_trip() -> None:
    rng = random.Random(20170724)
    for _ in range(250):
        tree = rand_expr(rng, 4)
        text = pretty_expr(tree)
        assert parse_expr(text) == tree, text


def test_random_programs_round_trip() -> None:
    rng = random.Random(7)
    for _ in range(60):
        program = rand_program(rng)
        text = pretty(program)
        assert parse(text) == program, text


def test_random_types_round_trip() -> None:
    rng = random.Random(3)
    for _ in range(300):
        t = rand_type(rng, 4)
        assert parse_type(pretty_type(t)) == t


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
