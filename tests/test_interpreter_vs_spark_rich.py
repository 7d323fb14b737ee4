"""Differential test over the values beyond ints: the reference interpreter against real Spark (local[2])
on random programs over strings, floats, None, lists and ordered results.

Each case is a random well-typed program (``random_program(..., flavor="rich")``: strings with spaces,
empty strings, unicode up to astral characters, floats with NaN, +-0.0, infinities, 1e308 and 5e-324,
``None`` from outer joins, splits, slices, parsing, sorts, ``take``/``top``/``takeOrdered``/``first``,
``countByValue``/``collectAsMap``, ``subtract``/``intersection``, ``groupByKey`` to lists), random small
inputs and a random explicit partitioning of every input bag (``verifier.spark.exact_rdd``). The
interpreter's outcome must equal what codegen's PySpark computes on exactly that partitioning: bags as
multisets, ordered results modulo ties (``values.observe_like`` reads Spark's list through the
interpreter's tie groups), floats as Python compares them but NaN equal to NaN, errors by kind. Spark is
the truth: a disagreement is a bug in the interpreter (or in codegen).

What the generator keeps out, because no model can predict it (``sparklite.generate``, "Rich
programs"): NaN as a key of a shuffle, ``distinct`` or a sort (a NaN's hash is its identity, and it
orders nothing), and two different exceptions that tasks of one Spark job could raise (which one Spark
reports depends on which task fails first): a program raises at most one kind in tasks.

``SPARKEQ_RICH_CASES`` changes the number of cases (default 320).
"""

from __future__ import annotations

import os
import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from test_codegen import spark_outcome

from sparklite import ast as A
from sparklite.generate import random_inputs, random_partitionings, random_program
from sparklite.interpreter import run
from sparklite.printer import pretty
from sparklite.typecheck import typecheck
from sparklite.values import ErrorOutcome, outcomes_equal

N_CASES = int(os.environ.get("SPARKEQ_RICH_CASES", "200"))  # scripts/test_slow.sh runs 1,000
THREADS = 4
MAX_TASKS = 40


def spark_tasks(program: A.Program, partitions: dict[str, Any]) -> int:
    """About how many Spark tasks running ``program`` costs (the partition counts of its bag nodes, a
    sort three times: its count and sampling jobs). ``make_case`` redraws the expensive ones."""
    env: dict[str, int] = {name: max(len(p), 1) for name, p in partitions.items()}
    total = 0

    def shape(e: A.Node) -> int | None:
        nonlocal total
        kids = [k for k in (shape(c) for c in A.children(e)) if k is not None]
        out: int | None = None
        if isinstance(e, A.Var):
            return env.get(e.name)
        if isinstance(e, A.Cartesian):
            out = kids[0] * kids[1]
        elif isinstance(e, A.Union | A.Join | A.OuterJoin | A.Intersection):
            out = kids[0] + kids[1]
        elif isinstance(e, A.Subtract):
            out = kids[0] + kids[1]
        elif isinstance(e, A.BAG_OPS):
            out = kids[0]
        if isinstance(e, A.SortBy) and out is not None:
            total += 2 * out
        if isinstance(e, A.ACTIONS) and kids:
            total += kids[0]
        if out is not None:
            total += out
        return out

    for b in program.lets:
        n = shape(b.value)
        if n is not None:
            env[b.name] = n
    shape(program.body)
    return total


def make_case(seed: int) -> tuple[A.Program, dict[str, Any], dict[str, Any]]:
    rng = random.Random(seed)
    while True:
        program = random_program(rng, max_depth=3, flavor="rich")
        inputs = random_inputs(rng, program, max_len=5)
        parts = random_partitionings(rng, inputs, max_parts=3)
        if spark_tasks(program, parts) <= MAX_TASKS:
            return program, inputs, parts


def test_rich_cases_are_well_typed_and_varied() -> None:
    kinds: set[str] = set()
    outcomes: set[str] = set()
    builtins: set[str] = set()
    for seed in range(max(N_CASES, 1000)):  # no Spark here: cheap, and rare outcomes need many draws
        program, inputs, parts = make_case(seed)
        typecheck(program)
        for n in A.walk(program):
            kinds.add(type(n).__name__)
            if isinstance(n, A.Call):
                builtins.add(n.func)
            if isinstance(n, A.OuterJoin):
                kinds.add(f"{n.kind}OuterJoin")
        out = run(program, inputs, parts)
        outcomes.add(out.kind if isinstance(out, ErrorOutcome) else type(out).__name__)
    every_node = {"StrLit", "FloatLit", "NoneLit", "ListExpr", "ListComp", "OuterJoin", "leftOuterJoin",
                  "rightOuterJoin", "fullOuterJoin", "SortBy", "Subtract", "Intersection", "Collect",
                  "Take", "TakeOrdered", "First", "CountByValue", "CollectAsMap", "GroupByKeyAgg", "Join",
                  "Cartesian", "FlatMap", "Distinct", "Union", "ReduceByKey", "FoldByKey", "AggregateByKey",
                  "CombineByKey", "Fold", "Aggregate", "Reduce", "SimpleAgg", "FunDef"}
    assert every_node <= kinds, every_node - kinds
    every_builtin = {"len", "int", "float", "str", "round", "abs", "min", "max", "sum", "sorted", "math.sqrt",
                     "math.floor", "math.ceil", "str.split", "str.strip", "str.lower", "str.upper",
                     "str.startswith", "str.endswith", "str.replace", "py.getitem", "py.slice", "py.unpack",
                     "py.is_none", "py.unwrap"}
    assert every_builtin <= builtins, every_builtin - builtins
    assert {"ZeroDivisionError", "ValueError", "IndexError", "TypeError", "OverflowError", "Bag", "Sorted",
            "tuple", "DictValue", "str", "float", "int"} <= outcomes, outcomes


def disagreements(sc: Any, case: Any, seeds: range) -> list[str]:
    """Run ``case(seed)``'s program on the interpreter and on Spark for every seed; the disagreements."""
    def one(seed: int) -> str | None:
        program, inputs, parts = case(seed)
        expected = run(program, inputs, parts)
        got = spark_outcome(sc, program, inputs, parts, reference=expected)
        if outcomes_equal(expected, got):
            return None
        return (f"seed {seed}: interpreter {expected!r} but Spark {got!r}\n"
                f"inputs {inputs!r}\npartitions {parts!r}\n{pretty(program)}")

    with ThreadPoolExecutor(THREADS) as pool:
        return [f for f in pool.map(one, seeds) if f is not None]


@pytest.mark.spark
def test_interpreter_agrees_with_spark_on_random_rich_programs(spark_context: Any) -> None:
    failures = disagreements(spark_context, make_case, range(N_CASES))
    assert not failures, f"{len(failures)} of {N_CASES} disagree:\n\n" + "\n\n".join(failures[:5])


def test_rich_generator_is_deterministic_and_inputs_have_the_new_values() -> None:
    assert random_program(random.Random(3), flavor="rich") == random_program(random.Random(3), flavor="rich")
    seen: set[str] = set()
    for seed in range(200):
        program, inputs, _ = make_case(seed)
        for value in inputs.values():
            for x in value if isinstance(value, list) else [value]:
                for y in x if isinstance(x, tuple) else (x,):
                    if isinstance(y, float):
                        seen.add("nan" if y != y else "inf" if abs(y) == float("inf") else
                                 "-0.0" if str(y) == "-0.0" else "float")
                    elif isinstance(y, str):
                        seen.add("empty" if y == "" else "space" if " " in y else
                                 "astral" if any(ord(c) > 0xFFFF for c in y) else "str")
    assert {"nan", "inf", "-0.0", "float", "empty", "space", "astral", "str"} <= seen, seen


# --------------------------------------------------------------------------------------------------
# The facts the random cases found or confirmed (docs/semantics-notes.md), pinned with their outcome
# --------------------------------------------------------------------------------------------------


def _lam(params: str, body: A.Expr) -> A.Lambda:
    return A.Lambda(tuple(A.Param(n) for n in params.split(",")), body)


def _sample_input() -> tuple[tuple[int, ...], ...]:
    """90 ints in 4 partitions: more than ``20 * 4``, so ``sortByKey`` samples a fraction of the keys."""
    rng = random.Random(4090)
    data = [rng.randint(-50, 50) for _ in range(90)]
    edges = [0, *sorted(rng.randint(0, 90) for _ in range(3)), 90]
    return tuple(tuple(data[edges[i]:edges[i + 1]]) for i in range(4))


def _pinned_cases() -> list[tuple[str, A.Program, dict[str, Any], Any]]:
    from sparklite.types import INT, STR, BagType, TupleType
    from sparklite.values import Bag

    V = A.Var  # noqa: N806
    one_over = _lam("x", A.BinOp("//", A.IntLit(1), V("x")))
    ints = (A.Param("R", BagType(INT)),)
    two = (A.Param("R", BagType(INT)), A.Param("S", BagType(INT)))
    pairs = (A.Param("R", BagType(TupleType((INT, INT)))),)
    first_of = _lam("a,b", V("b"))  # fold keeping the last partition's last element: shows the layout
    failing_merge = A.ReduceByKey(_lam("a,b", A.BinOp("//", V("a"), V("b"))), V("R"))

    def prog(params: tuple[A.Param, ...], body: A.Expr, lets: tuple[A.LetBinding, ...] = ()) -> A.Program:
        return A.Program("P", params, (), lets, body)

    return [
        ("take pulls lazily through narrow operators",
         prog(ints, A.Take(A.IntLit(1), A.Map(one_over, V("R")))), {"R": ((1, 0),)}, Bag((1,))),
        ("a union's other partitions are never computed",
         prog(two, A.Take(A.IntLit(1), A.Union(V("R"), A.Map(one_over, V("S"))))),
         {"R": ((1,),), "S": ((0,),)}, Bag((1,))),
        ("a union's parent partition is computed whole",
         prog(two, A.Take(A.IntLit(1), A.Union(A.Map(one_over, V("R")), V("S")))),
         {"R": ((1, 0),), "S": ((5,),)}, ErrorOutcome("ZeroDivisionError")),
        ("a reduce partition is merged only when needed",
         prog(pairs, A.Take(A.IntLit(1), failing_merge)),
         {"R": (((0, 1), (1, 1)), ((1, 0), (0, 2)))}, Bag(((0, 0),))),
        ("a cartesian task opens one right partition",
         prog(two, A.Take(A.IntLit(1), A.Cartesian(V("R"), A.Map(one_over, V("S"))))),
         {"R": ((1,),), "S": ((1,), (0,))}, Bag(((1, 1),))),
        ("takeOrdered(0) runs no job",
         prog(pairs, A.TakeOrdered(A.IntLit(0), None, failing_merge)), {"R": (((1, 1), (1, 0)),)}, Bag(())),
        ("top(0) runs its job, whose tasks compute their shuffle input",
         prog(pairs, A.TakeOrdered(A.IntLit(0), None, failing_merge, top=True)), {"R": (((1, 1), (1, 0)),)},
         ErrorOutcome("ZeroDivisionError")),
        ("sortBy with two partitions runs when called",
         prog(ints, V("R"), (A.LetBinding("B", A.SortBy(_lam("x", V("x")), True, A.Map(one_over, V("R")))),)),
         {"R": ((1,), (0,))}, ErrorOutcome("ZeroDivisionError")),
        ("sortBy with one partition does not",
         prog(ints, V("R"), (A.LetBinding("B", A.SortBy(_lam("x", V("x")), True, A.Map(one_over, V("R")))),)),
         {"R": ((1, 0),)}, Bag((0, 1))),
        ("a descending sort leaves partition 0 empty: take scans on",
         prog(ints, A.Take(A.IntLit(1), A.Map(one_over, A.SortBy(_lam("x", V("x")), False, V("R"))))),
         {"R": ((1,), (0,))}, Bag((1,))),
        ("the sort's range layout seen by fold",
         prog(ints, A.Fold(A.IntLit(-9), first_of, A.SortBy(_lam("x", V("x")), True, V("R")))),
         {"R": ((3, 1, 2), (5, 4))}, 5),
        ("beyond 20 elements per partition the sort samples its bounds (RDDSampler, seed 1)",
         prog(ints, A.Aggregate(A.IntLit(0), _lam("a,x", A.BinOp("+", V("a"), A.IntLit(1))),
                                _lam("a,b", A.BinOp("+", A.BinOp("*", V("a"), A.IntLit(1000)), V("b"))),
                                A.SortBy(_lam("x", V("x")), True, V("R")))),
         {"R": _sample_input()}, 22023024021),  # the partition sizes 22, 23, 24, 21
        ("subtract shuffles into n1 + n2 partitions",
         prog(two, A.Fold(A.IntLit(-9), first_of, A.Subtract(V("R"), V("S")))),
         {"R": ((2,),), "S": ((1,), (), (1,))}, -9),
        ("strings hash with seed 0, floats as doubles, None from outer joins",
         prog((A.Param("R", BagType(TupleType((STR, INT)))), A.Param("S", BagType(TupleType((STR, STR))))),
              A.Fold(A.TupleExpr((A.StrLit(""), A.IntLit(0), A.NoneLit())), first_of,
                     A.OuterJoin("left", A.ReduceByKey(_lam("a,b", A.BinOp("-", V("a"), V("b"))), V("R")),
                                 V("S")))),
         {"R": ((("\U0001d11e", 1), ("a b", 2)), (("", 3), ("\U0001d11e", 4))), "S": ((("", "x"),),)},
         ("\U0001d11e", (-3, None))),
    ]


def test_pinned_facts_in_the_interpreter() -> None:
    for name, program, parts, expected in _pinned_cases():
        got = run(program, {}, parts)
        assert outcomes_equal(got, expected), (name, got)


@pytest.mark.spark
def test_pinned_facts_on_spark(spark_context: Any) -> None:
    for name, program, parts, _ in _pinned_cases():
        expected = run(program, {}, parts)
        got = spark_outcome(spark_context, program, {}, parts, reference=expected)
        assert outcomes_equal(expected, got), (name, expected, got)
