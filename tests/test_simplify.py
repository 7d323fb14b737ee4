"""The SparkLite simplification pass and the shared notion of "may raise" (``sparklite.effects``).

Two contracts, each checked rewrite by rewrite and on random programs (which include the driver shapes
that once produced wrong verdicts: actions projected away, ``len`` of tuples of actions, unused lets):

- ``simplify(p)`` has the outcome of ``p`` (errors included) on every input and partitioning;
- an expression ``may_raise`` calls safe never gives an error outcome in the interpreter.
"""

from __future__ import annotations

import random

import pytest

from sparklite import ast as A
from sparklite.effects import bag_lets, driver_may_raise, may_raise
from sparklite.generate import GenConfig, random_inputs, random_partitionings, random_program
from sparklite.interpreter import run
from sparklite.parser import parse
from sparklite.printer import pretty
from sparklite.simplify import simplify
from sparklite.typecheck import typecheck
from sparklite.values import ErrorOutcome, outcomes_equal

SEED = 8
PROGRAMS = 300
INPUTS_PER_PROGRAM = 4


def simplified(src: str) -> str:
    return pretty(simplify(parse(src)))


# -- one rewrite at a time ---------------------------------------------------------------------------


def test_projection_of_a_tuple_keeps_a_component_that_may_raise() -> None:
    src = "program p(R: Bag[Int], S: Bag[Int]) =\n  (max(R), count(S))[1]\n"
    assert simplified(src) == pretty(parse(src))


def test_projection_drops_components_that_cannot_raise() -> None:
    src = "program p(R: Bag[Int], S: Bag[Int]) =\n  (count(R), max(S))[1]\n"
    assert simplified(src) == pretty(parse("program p(R: Bag[Int], S: Bag[Int]) =\n  max(S)\n"))


def test_unused_lets_go_only_when_they_cannot_raise() -> None:
    src = ("program p(R: Bag[Int]) =\n  let a = count(R)\n  let b = reduce(lambda (x: Int, y: Int) -> x)(R)\n"
           "  let c = sum(map(lambda (x: Int) -> 10 // x)(R))\n  let B = map(lambda (x: Int) -> 10 // x)(R)\n"
           "  count(R)\n")
    out = simplify(parse(src))
    assert [b.name for b in out.lets] == ["b", "c"]  # B is lazy: building it cannot raise


def test_an_unused_take_ordered_of_a_negative_count_is_kept() -> None:
    """``takeOrdered(-2)`` raises ``ValueError`` on every RDD, so an unused one is not dropped (the
    soundness fuzzer's seed 2611 pair 231: dropping it made a counterexample that did not reproduce)."""
    src = ("program p(R: Bag[Int], n: Int) =\n  let a = takeOrdered(-(2))(R)\n  let b = takeOrdered(n)(R)\n"
           "  count(R)\n")
    assert simplified(src) == pretty(parse(src))
    kept = "program p(R: Bag[Int]) =\n  let a = takeOrdered(2)(R)\n  count(R)\n"
    assert "takeOrdered" not in simplified(kept)


def test_an_action_over_a_let_bound_bag_may_raise_through_the_bag() -> None:
    """Found by the random test below: forcing a let-bound bag runs its definition's functions."""
    src = ("program p(R: Bag[Int]) =\n  let B = map(lambda (x: Int) -> 10 // x)(R)\n  let n = count(B)\n"
           "  count(R)\n")
    assert [b.name for b in simplify(parse(src)).lets] == ["B", "n"]


def test_a_let_used_only_by_a_dropped_let_is_dropped_too() -> None:
    src = "program p(R: Bag[Int]) =\n  let a = count(R)\n  let b = a + 1\n  count(R)\n"
    assert simplify(parse(src)).lets == ()


def test_lets_bound_to_literals_are_replaced_by_their_value() -> None:
    src = ("program p(R: Bag[(Int, Int)]) =\n  let zero = (0, -1)\n"
           "  foldByKey(zero, lambda (a: (Int, Int), b: Int) -> (a[0] + b, a[1]))(R)\n")
    out = simplify(parse(src))
    assert out.lets == () and out.body.zero == parse("program q() = (0, -1)\n").body  # type: ignore[union-attr]


def test_literal_arithmetic_is_folded_but_never_a_division_by_zero() -> None:
    src = "program p(t: Int) =\n  (2 * 3 + 1, 7 // 0, t % 4)\n"
    assert simplified(src) == pretty(parse("program p(t: Int) =\n  (7, 7 // 0, t % 4)\n"))


def test_if_with_equal_branches_goes_only_when_the_condition_cannot_raise() -> None:
    safe = "program p(t: Int) =\n  if t == t then t + 1 else t + 1\n"
    assert simplified(safe) == pretty(parse("program p(t: Int) =\n  t + 1\n"))
    forcing = "program p(t: Int) =\n  if 10 // t == 10 // t then 1 else 1\n"
    assert simplified(forcing) == pretty(parse(forcing))


def test_may_raise_sees_partial_actions_divisions_and_raising_functions() -> None:
    p = parse("program p(R: Bag[Int], t: Int) =\n  def f(x: Int): Int = 100 // x\n"
              "  def g(x: Int): Int = x + 1\n"
              "  (max(R), count(R), count(map(f)(R)), count(map(g)(R)), t % 3)\n")
    defs = {d.name: d for d in p.defs}
    parts = p.body.elems  # type: ignore[union-attr]
    assert [may_raise(e, defs) for e in parts] == [True, False, True, False, False]
    assert may_raise(parts[3])  # without the defs, any call may raise
    assert not driver_may_raise(A.Map(A.FnRef("f"), A.Var("R")), defs)  # lazy until an action


# -- the contracts on random programs ------------------------------------------------------------------


def _programs() -> list[A.Program]:
    rng = random.Random(SEED)
    cfg = GenConfig(max_depth=2, p_driver_shape=0.5, p_unused_action=0.6)
    return [typecheck(random_program(rng, config=cfg)).program for _ in range(PROGRAMS)]


def _runs(program: A.Program, rng: random.Random):
    for _ in range(INPUTS_PER_PROGRAM):
        inputs = random_inputs(rng, program, max_len=3)
        for _ in range(2):
            yield inputs, random_partitionings(rng, inputs)


def test_simplify_preserves_every_outcome_on_random_programs() -> None:
    rng = random.Random(SEED + 1)
    changed = 0
    for program in _programs():
        simple = simplify(program)
        changed += simple != program
        for inputs, parts in _runs(program, rng):
            expected, got = run(program, inputs, parts), run(simple, inputs, parts)
            assert outcomes_equal(expected, got), (pretty(program), pretty(simple), inputs, parts)
    assert changed >= PROGRAMS // 5  # the pass had real work to do


def test_what_may_raise_calls_safe_never_raises() -> None:
    rng = random.Random(SEED + 2)
    safe = 0
    for program in _programs():
        defs, bags = {d.name: d for d in program.defs}, bag_lets(program)
        if any(driver_may_raise(b.value, defs, bags) for b in program.lets) \
                or may_raise(program.body, defs, bags):
            continue
        safe += 1
        for inputs, parts in _runs(program, rng):
            outcome = run(program, inputs, parts)
            assert not isinstance(outcome, ErrorOutcome), (pretty(program), inputs, parts, outcome)
    assert safe >= 20


@pytest.mark.parametrize("index", range(3))
def test_generated_programs_have_the_driver_shapes(index: int) -> None:
    """The generator really produces projected tuples and unused lets (else the tests above are idle)."""
    programs = _programs()[index * 100:(index + 1) * 100]
    projections = sum(isinstance(n, A.Proj) and isinstance(n.tuple, A.TupleExpr)
                      for p in programs for b in p.lets for n in A.walk(b.value))
    unused = sum(b.name not in {v.name for v in A.walk(p) if isinstance(v, A.Var)}
                 for p in programs for b in p.lets)
    assert projections >= 5 and unused >= 10
