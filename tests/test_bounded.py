"""Bounded disproof finds real counterexamples (confirmed by the interpreter) where proofs cannot."""

from __future__ import annotations

import pytest

from sparklite.parser import parse
from sparklite.values import outcomes_equal
from verifier.core.base import Inconclusive, Options, Pair, Refuted
from verifier.core.methods import bounded
from verifier.core.validate import full_partitions, normalise_inputs, run_program

OPTS = Options(timeout_s=20.0)


def prog(params: str, body: str, lets: str = "") -> object:
    return parse(f"program P({params}) =\n{lets}{body}\n")


def refuted(left, right, sequential_ok: bool = True, options: Options = OPTS) -> Refuted:
    outcome = bounded.run(Pair(left, right, sequential_ok=sequential_ok), options)
    assert isinstance(outcome, Refuted), outcome
    cand = outcome.candidates[0]
    inputs = normalise_inputs(left, cand.inputs)
    parts = full_partitions(left, inputs, cand.partitions)
    out_l, out_r = run_program(left, inputs, parts), run_program(right, inputs, parts)
    assert not outcomes_equal(out_l, out_r), (cand, out_l, out_r)
    return outcome


BAG = "R: Bag[Int]"
PAIRS = "R: Bag[(Int, Int)]"

DIFFERENT = [
    pytest.param(BAG, "union(R, R)", "map(lambda x -> x)(R)", id="union-vs-map"),
    pytest.param(BAG, "distinct(map(lambda x -> x % 2)(R))", "map(lambda x -> x % 2)(R)", id="distinct"),
    pytest.param(BAG, "map(lambda x -> x * 2)(filter(lambda x -> x >= 3)(R))",
                 "filter(lambda x -> x > 6)(map(lambda x -> x * 2)(R))", id="boundary"),
    pytest.param(BAG, "cartesian(R, R)", "map(lambda x -> (x, x))(R)", id="self-product"),
    pytest.param(PAIRS, "join(R, R)", "map(lambda p -> (p[0], (p[1], p[1])))(R)", id="self-join"),
    pytest.param(PAIRS, "reduceByKey(lambda (a, b) -> a + b)(R)",
                 "reduceByKey(lambda (a, b) -> max(a, b))(R)", id="by-key"),
    pytest.param(BAG, "reduce(lambda (a, b) -> a + b)(R)", "fold(0, lambda (a, b) -> a + b)(R)",
                 id="empty-reduce-error"),
    pytest.param(BAG, "map(lambda x -> 12 // x)(R)",
                 "map(lambda x -> 12 // x)(filter(lambda x -> x != 0)(R))", id="division-by-zero"),
    pytest.param("R: Bag[Int], S: Bag[Int]", "union(R, S)", "union(R, R)", id="two-bags"),
    pytest.param(PAIRS, "groupByKey(len)(R)", "map(lambda p -> (p[0], 1))(distinct(R))", id="group-len"),
    pytest.param("R: Bag[Int], t: Int", "filter(lambda x -> x > t)(R)", "filter(lambda x -> x >= t)(R)",
                 id="scalar-param"),
]


@pytest.mark.parametrize(("params", "left", "right"), DIFFERENT)
def test_bounded_finds_confirmed_counterexample(params: str, left: str, right: str) -> None:
    refuted(prog(params, left), prog(params, right))


def test_bounded_distinguishes_partitionings_when_not_sequential() -> None:
    left = prog(BAG, "fold(0, lambda (a, x) -> a + 1)(R)")
    right = prog(BAG, "count(R)")
    outcome = refuted(left, right, sequential_ok=False)
    assert outcome.candidates[0].partitions is not None


def test_bounded_is_inconclusive_on_equivalent_programs() -> None:
    left = prog(BAG, "map(lambda x -> x * 2)(filter(lambda x -> x >= 50)(R))")
    right = prog(BAG, "filter(lambda x -> x >= 100)(map(lambda x -> x * 2)(R))")
    outcome = bounded.run(Pair(left, right), OPTS)
    assert isinstance(outcome, Inconclusive)
    assert "up to 3" in outcome.reason


def test_enumeration_fallback_finds_counterexample() -> None:
    left = prog(BAG, "distinct(R)", )
    right = prog(BAG, "R")
    outcome = bounded.run_enumeration(Pair(left, right), OPTS)
    assert isinstance(outcome, Refuted)
    assert len(outcome.candidates[0].inputs["R"]) >= 2


def test_constant_pool_uses_program_constants() -> None:
    pool = bounded.constant_pool([prog(BAG, "filter(lambda x -> x > 50)(R)")], limit=20)
    assert {49, 50, 51, 0} <= set(pool)


def _case_programs() -> list[tuple[str, object]]:
    import json
    from pathlib import Path

    from verifier.core.loading import load

    root = Path(__file__).resolve().parent.parent
    manifest = root / "cases" / "manifest.json"
    if not manifest.exists():
        return []
    programs = []
    for case in json.loads(manifest.read_text())["cases"]:
        for side in ("left", "right"):
            spec = case[side]
            path, _, fn = spec.partition("::")
            target = f"{root / path}::{fn}" if fn else str(root / path)
            try:
                programs.append((f"{case['name']}:{side}", load(target).program))
            except Exception:  # noqa: BLE001 - a case the frontend rejects is the frontend's business
                continue
    return programs


def test_encoder_agrees_with_interpreter_on_concrete_inputs() -> None:
    """The symbolic evaluator, fed constants, computes what the interpreter computes (every case
    program, random small inputs and partitionings): bounded disproof misses nothing by mis-modelling."""
    import random

    from encoder.basic import value_to_sym
    from encoder.bounded import Evaluator, concrete_outcome, layout_bag
    from sparklite.types import BagType
    from verifier.core.base import Pair
    from verifier.core.difftest import InputGenerator
    from verifier.core.methods.bounded import classic

    rng = random.Random(1)
    checked = 0
    for name, program in _case_programs():
        if not classic(Pair(program, program)):
            continue  # strings and floats: the bounded search leaves them to random testing
        gen = InputGenerator((program,), seed=rng.randrange(1000), max_len=4, max_parts=3)
        for cand in gen.candidates(25):
            inputs = normalise_inputs(program, cand.inputs)
            parts = full_partitions(program, inputs, cand.partitions)
            env = {}
            for p in program.params:
                if isinstance(p.type, BagType):
                    elems = [value_to_sym(v) for part in parts[p.name] for v in part]
                    env[p.name] = layout_bag(elems, [len(part) for part in parts[p.name]])
                else:
                    env[p.name] = value_to_sym(inputs[p.name])
            symbolic = concrete_outcome(Evaluator(program).run(env))
            expected = run_program(program, inputs, parts)
            assert outcomes_equal(symbolic, expected), (name, inputs, parts, symbolic, expected)
            checked += 1
    assert checked > 0
