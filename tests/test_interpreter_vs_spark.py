"""Differential test: the reference interpreter against real Spark (local[2]) on random programs.

Each case is a random well-typed program (``sparklite.generate``), random small inputs and a random
explicit partitioning of every input bag. The interpreter's outcome must equal what codegen's PySpark
computes on exactly that partitioning (``verifier.runtime.spark.exact_rdd``): bags as multisets, values
exactly, errors by kind. Spark is the truth: a disagreement is a bug in the interpreter (or in codegen).

Cases run a few at a time from threads on the one SparkContext: a Spark job on tiny data is mostly
scheduling latency, which overlaps well. ``SPARKEQ_DIFF_CASES`` changes the number of cases (default 320).
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
from sparklite.types import BagType
from sparklite.values import ErrorOutcome, outcomes_equal

N_CASES = int(os.environ.get("SPARKEQ_DIFF_CASES", "200"))  # scripts/test_slow.sh runs 1,000
THREADS = 4


MAX_TASKS = 48


def spark_tasks(program: A.Program, partitions: dict[str, Any]) -> int:
    """About how many Spark tasks running ``program`` costs: the partition counts of all its bag nodes.
    Nested cartesians of unions reach hundreds of tasks (seconds of Spark time) while testing nothing the
    smaller cases do not, so ``make_case`` redraws those."""
    env: dict[str, tuple[int, bool]] = {name: (max(len(p), 1), False) for name, p in partitions.items()}
    total = 0

    def shape(e: A.Node) -> tuple[int, bool] | None:
        nonlocal total
        kids = [shape(c) for c in A.children(e)]
        bags = [k for k in kids if k is not None]
        out: tuple[int, bool] | None = None
        if isinstance(e, A.Var):
            out = env.get(e.name)
        elif isinstance(e, (A.Map, A.FlatMap, A.Distinct)):
            out = (bags[0][0], False)
        elif isinstance(e, A.Filter):
            out = bags[0]
        elif isinstance(e, A.Cartesian):
            out = (bags[0][0] * bags[1][0], False)
        elif isinstance(e, (A.Union, A.Join)):
            (n1, h1), (n2, h2) = bags
            out = (n1, True) if h1 and h2 and n1 == n2 else (n1 + n2, isinstance(e, A.Join))
        elif isinstance(e, A.BY_KEY_OPS):
            out = (bags[0][0], True)
        if out is not None and not isinstance(e, A.Var):
            total += out[0]
        return out

    for b in program.lets:
        env_value = shape(b.value)
        if env_value is not None:
            env[b.name] = env_value
    shape(program.body)
    return total


def make_case(seed: int) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    rng = random.Random(seed)
    while True:
        program = random_program(rng, max_depth=3)
        inputs = random_inputs(rng, program, max_len=4)
        parts = random_partitionings(rng, inputs, max_parts=3)
        if spark_tasks(program, parts) <= MAX_TASKS:
            return program, inputs, parts


def test_generated_cases_are_well_typed_and_varied() -> None:
    kinds: set[str] = set()
    outcomes: set[str] = set()
    for seed in range(N_CASES):
        program, inputs, parts = make_case(seed)
        typecheck(program)
        kinds.update(type(n).__name__ for n in A.walk(program))
        out = run(program, inputs, parts)
        outcomes.add(out.kind if isinstance(out, ErrorOutcome) else type(out).__name__)
    every_node = {"Map", "Filter", "FlatMap", "Cartesian", "Join", "Union", "Distinct", "Fold", "Aggregate",
                  "Reduce", "SimpleAgg", "FoldByKey", "AggregateByKey", "ReduceByKey", "CombineByKey",
                  "GroupByKeyAgg", "LetBinding", "FunDef", "ParamFunDef", "PApp", "FnRef", "Apply", "Ite",
                  "Proj", "TupleExpr", "Neg", "Not", "Call", "BoolLit"}
    assert every_node <= kinds, every_node - kinds
    assert {"ZeroDivisionError", "ValueError", "Bag", "tuple", "int", "bool"} <= outcomes


@pytest.mark.spark
def test_interpreter_agrees_with_spark_on_random_programs(spark_context: Any) -> None:
    def one(seed: int) -> str | None:
        program, inputs, parts = make_case(seed)
        expected = run(program, inputs, parts)
        got = spark_outcome(spark_context, program, inputs, parts)
        if outcomes_equal(expected, got):
            return None
        return (f"seed {seed}: interpreter {expected!r} but Spark {got!r}\n"
                f"inputs {inputs}\npartitions {parts}\n{pretty(program)}")

    with ThreadPoolExecutor(THREADS) as pool:
        failures = [f for f in pool.map(one, range(N_CASES)) if f is not None]
    assert not failures, f"{len(failures)} of {N_CASES} disagree:\n\n" + "\n\n".join(failures[:5])


def test_generator_is_deterministic_and_variants_stay_well_typed() -> None:
    from sparklite.generate import GenConfig
    from sparklite.variants import random_variant

    assert random_program(random.Random(7)) == random_program(random.Random(7))
    changed = 0
    for seed in range(100):
        program = random_program(random.Random(seed), config=GenConfig(max_depth=2, max_lets=2))
        variant = random_variant(random.Random(seed), program, changes=2)
        typecheck(variant)
        changed += variant != program
        inputs = random_inputs(random.Random(seed), program, max_len=3)
        for p in program.params:
            if isinstance(p.type, BagType):
                assert isinstance(inputs[p.name], list) and len(inputs[p.name]) <= 3
            else:
                assert not isinstance(inputs[p.name], list)
    assert changed > 90
