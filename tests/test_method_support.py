"""AST builders and checks shared by the method tests (the paper's pairs written directly as ASTs).

Candidates are never trusted as they are: ``assert_real`` runs both programs on the candidate with the
reference interpreter and requires different outcomes.
"""

from __future__ import annotations

from sparklite import ast as A
from sparklite.interpreter import run as interpret
from sparklite.types import BOOL, INT, BagType, TupleType
from sparklite.values import outcomes_equal
from verifier.core.base import Candidate, Options, Pair

PAIR = TupleType((INT, INT))
OPTS = Options(timeout_s=10.0)


def bag(t=INT) -> BagType:
    return BagType(t)


def v(name: str) -> A.Var:
    return A.Var(name)


def n(value: int) -> A.IntLit:
    return A.IntLit(value)


def op(o: str, a, b) -> A.BinOp:
    return A.BinOp(o, _e(a), _e(b))


def _e(x):
    if isinstance(x, bool):
        return A.BoolLit(x)
    if isinstance(x, int):
        return A.IntLit(x)
    if isinstance(x, str):
        return A.Var(x)
    return x


def at(e, i: int) -> A.Proj:
    return A.Proj(_e(e), i)


def tup(*es) -> A.TupleExpr:
    return A.TupleExpr(tuple(_e(x) for x in es))


def lam(params: str, body) -> A.Lambda:
    return A.Lambda(tuple(A.Param(p.strip()) for p in params.split(",")), _e(body))


def call(f: str, *args) -> A.Call:
    return A.Call(f, tuple(_e(a) for a in args))


def prog(params: dict, body, lets: dict | None = None, name: str = "P", defs=()) -> A.Program:
    return A.Program(name, tuple(A.Param(k, t) for k, t in params.items()), tuple(defs),
                     tuple(A.LetBinding(k, _e(x)) for k, x in (lets or {}).items()), _e(body))


def pair(left: A.Program, right: A.Program, sequential_ok: bool = True) -> Pair:
    return Pair(left, right, sequential_ok)


def add() -> A.Lambda:
    return lam("a, b", op("+", "a", "b"))


def assert_real(p: Pair, candidates: tuple[Candidate, ...]) -> None:
    """At least one candidate makes the interpreter's outcomes differ."""
    assert candidates, "no candidate"
    for c in candidates:
        if not outcomes_equal(interpret(p.left, c.inputs, c.partitions),
                              interpret(p.right, c.inputs, c.partitions)):
            return
    raise AssertionError(f"no candidate separates the programs: {[c.inputs for c in candidates]}")


def test_builders_make_runnable_programs():
    p = prog({"R": bag()}, A.Map(lam("x", op("*", 2, "x")), v("R")))
    assert outcomes_equal(interpret(p, {"R": [1, 2]}), interpret(p, {"R": [2, 1]}))
    assert BOOL != INT
