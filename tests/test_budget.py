"""Deterministic budgets (issue 24): the verdict of a check does not depend on the machine's speed.

Z3 queries get resource limits (``verifier.core.budget``), the searches count what they try, and
``--timeout`` is a hard cap only: when it (or a query's safety cap) is what ended a check, the reason
says so first. None of these tests asserts a duration.
"""

from __future__ import annotations

import z3

import verifier
from verifier.core import budget

FLOAT_DOUBLE = ("cases/float_double_vs_add/left.py", "cases/float_double_vs_add/right.py")
BOUNDARY = ("cases/p1_p2_boundary_strict/left.py::p1", "cases/p1_p2_boundary_strict/right.py::p2")
PARITY = ("cases/sum_of_squares_parity/left.py::squares_parity",
          "cases/sum_of_squares_parity/right.py::sum_parity")


def _same(a: verifier.Result, b: verifier.Result) -> None:
    assert (a.verdict, a.method, a.reason) == (b.verdict, b.method, b.reason)
    assert a.counterexample == b.counterexample


def test_verdicts_do_not_depend_on_the_wall_clock_cap() -> None:
    """The same check with a generous cap and with a huge one: same verdict, method, reason and
    counterexample (the budgets that decide are resource limits and counts, not seconds)."""
    for left, right in (FLOAT_DOUBLE, BOUNDARY, PARITY):
        generous = verifier.check(left, right, timeout=120)
        huge = verifier.check(left, right, timeout=100_000)
        _same(generous, huge)


def test_the_readme_float_identity_is_proved_by_a_resource_budget() -> None:
    """``x * 2.0 == x + x`` (issue 24 saw it turn ``unknown`` under load): proved, and the proof's
    queries stayed within their resource limits."""
    result = verifier.check(*FLOAT_DOUBLE)
    assert result.verdict == "equivalent", result.reason
    assert budget.SPENT.exhausted == 0 and budget.SPENT.clock_cut == 0


def test_solvers_get_a_resource_limit_and_exhaustion_is_counted() -> None:
    budget.reset()
    x, y, z = z3.Ints("x y z")
    s = budget.solver(0.0)  # the smallest budget: RLIMIT_MIN
    s.add(x * x * x + y * y * y == z * z * z, x > 0, y > 0, z > 0)
    assert budget.check(s) == z3.unknown
    assert s.reason_unknown() in budget.EXHAUSTED
    assert budget.SPENT.exhausted == 1 and budget.SPENT.clock_cut == 0
    assert budget.rlimit_of(0.75) == int(0.75 * budget.RLIMIT_PER_SECOND)


def test_rlimit_exhaustion_gives_the_deterministic_reason() -> None:
    """A tiny effort starves the solver: ``unknown`` whose reason says the resource budget ran out
    (deterministic) and how to raise it; ``method`` is null as docs/json.md says."""
    result = verifier.check(*FLOAT_DOUBLE, effort=0.001)
    assert result.verdict == "unknown"
    assert result.method is None
    assert "resource budget ran out (deterministic)" in result.reason
    assert "--effort" in result.reason
    assert not result.reason.startswith("Ran out of time")
    again = verifier.check(*FLOAT_DOUBLE, effort=0.001, timeout=100_000)
    _same(result, again)


def test_the_hard_cap_is_named_first() -> None:
    """When ``--timeout`` is what ended a check, the reason says so first."""
    from test_deadline import _join_parity_pair

    left, right = _join_parity_pair(7)
    result = verifier.check(left, right, timeout=0.5)
    assert result.verdict == "unknown"
    assert result.reason.startswith("Ran out of time after 0.5 s; raise --timeout.")
    assert result.method is None


def test_unknown_has_no_method() -> None:
    """docs/json.md: ``method`` is null when nothing settled the verdict (a DataFrame search too)."""
    result = verifier.check(*PARITY)
    assert result.verdict == "unknown" and result.method is None
