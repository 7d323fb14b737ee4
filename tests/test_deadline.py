"""Deadlines and scale: ``--timeout`` is honoured, deep pipelines do not overflow the stack, wide tuples
do not blow up AggOneSync's instantiations.

Time bounds here are generous (twice the budget plus a second), so a loaded machine does not make them
fail, while the behaviour they guard against (waiting out every per-query timeout, Python-side work
without a deadline) overran budgets several times over.
"""

from __future__ import annotations

import time

import pytest
import z3

import verifier
from sparklite.deadline import Deadline, OutOfTime
from verifier.core.methods.agg_one_sync import _instantiations


def _join_parity_pair(k: int) -> tuple[tuple[str, str], tuple[str, str]]:
    """Parity of the sum of squared join keys against parity of the sum: equivalent, but only nonlinear
    reasoning shows it (Z3 gives up), and ``k`` joined bags make every search step expensive."""
    params = ", ".join(f"R{i}: RDD[tuple[int, int]]" for i in range(1, k + 1))
    joined = "R1" + "".join(f".join(R{i})" for i in range(2, k + 1))
    left = f"def p({params}) -> int:\n    return {joined}.map(lambda t: t[0] * t[0]).sum() % 2\n"
    right = f"def p({params}) -> int:\n    return {joined}.map(lambda t: t[0]).sum() % 2\n"
    return (left, "p"), (right, "p")


def test_unsettleable_pair_runs_out_of_time_within_the_budget() -> None:
    left, right = _join_parity_pair(7)
    started = time.monotonic()
    result = verifier.check(left, right, replay=False, timeout=1)
    elapsed = time.monotonic() - started
    assert result.verdict == "unknown"
    assert "ran out of time" in result.reason.lower()
    assert elapsed < 2 * 1 + 1


def test_unsettleable_pair_answers_unknown_well_before_the_default_budget() -> None:
    """Z3 cannot decide the pair, so no amount of waiting settles it: the default budget (60 s) is not
    waited out, each step gives up once its deterministic budget is spent (no time assert: the reason
    says when the clock ended a check, and it must not have)."""
    left, right = _join_parity_pair(2)
    result = verifier.check(left, right, replay=False)
    assert result.verdict == "unknown"
    assert "ran out of time" not in result.reason.lower()
    assert result.method is None


def test_deadline_check_and_cap() -> None:
    assert Deadline().remaining() == float("inf")
    Deadline().check("no limit")
    Deadline.after(60).check("far away")
    assert 0.01 <= Deadline.after(0.5).cap(10.0) <= 0.5
    assert Deadline.after(60).cap(2.0) == 2.0
    assert Deadline(time.monotonic() - 1).cap(2.0) == 0.01
    with pytest.raises(OutOfTime, match="in the loop"):
        Deadline(time.monotonic() - 1).check("the loop")


def _chain(n: int, pushed: bool) -> str:
    ops = []
    for i in range(n // 2):
        c, d = i % 7 + 1, i % 5 + 3
        ops += ([f".filter(lambda x: x > {d - c})", f".map(lambda x: x + {c})"] if pushed
                else [f".map(lambda x: x + {c})", f".filter(lambda x: x > {d})"])
    body = "".join(f"\n        {op}" for op in ops)
    return f"def chain(R: RDD[int]) -> int:\n    return (\n        R{body}\n        .sum()\n    )\n"


def test_deep_pipeline_is_verified_not_crashed() -> None:
    """400 chained operations (+ sum) overflowed Python's recursion limit ("internal error")."""
    result = verifier.check((_chain(400, False), "chain"), (_chain(400, True), "chain"), replay=False)
    assert result.verdict == "equivalent", result.reason
    assert result.method == "AggOneSync"


def test_wide_tuples_are_proved_by_agg_one_sync() -> None:
    """A fold over right-nested pairs of depth 48 (49 leaves per input tuple)."""
    elem = "int"
    for _ in range(48):
        elem = f"tuple[int, {elem}]"
    left = f"def nested(R: RDD[{elem}]) -> int:\n    return R.map(lambda t: t[0] + t[1][0]).sum()\n"
    right = f"def nested(R: RDD[{elem}]) -> int:\n    return R.map(lambda t: t[1][0] + t[0]).sum()\n"
    result = verifier.check((left, "nested"), (right, "nested"), replay=False)
    assert result.verdict == "equivalent", result.reason
    assert result.method == "AggOneSync"


def test_instantiations_grow_linearly_with_tuple_width() -> None:
    """Candidates that pick all of x or all of y under a condition add nothing to the disjunction, so
    the set is x, y and the component-wise combinations, each guarded by each presence pair."""
    width = 40
    xs = [z3.Int(f"ix{i}") for i in range(width)]
    ys = [z3.Int(f"iy{i}") for i in range(width)]
    presences = [(z3.Bool("px"), z3.Bool("py")), (z3.BoolVal(True), z3.BoolVal(True))]
    cands = _instantiations(xs, ys, presences)
    assert len(cands) == 2 + 3 * 2  # x, y; min, max, + with and without the one real presence guard
    assert all(len(c) == width for c in cands)
    assert tuple(xs) in cands and tuple(ys) in cands
