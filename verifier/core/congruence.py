"""Congruence: two programs that are the same kernel term up to renaming are equivalent, decided
syntactically before any solver query.

Why: a verifier that cannot prove a program equal to itself loses its user at once, and a program equal
to itself needs no reasoning about what it computes: whatever it does -- raise, depend on partitioning,
keep some rows of a limit -- the other does too. Each program kind (``verifier.core.kind.ProgramKind``,
its ``congruent``) reduces both sides to its kernel as its own check does (RDD programs and scripts:
parameters matched by position, the kernel passes; DataFrame/SQL: the tables aligned) and compares the
canonical keys of one normaliser per kernel (``sparklite.canonical``, ``sparklite.relational.canonical``,
``frontend.script.canonical``); equal keys make the pair ``equivalent`` with method ``congruence``.

What the keys keep is what users observe: the result's column names (unless results are compared by
position), the text printed and the paths written, the order of outputs, which input each side reads
(the same parameter position, the same path expression). What they drop is what nobody observes: the
names of lambda parameters, helper functions, intermediate variables, aliases, CTEs and inner columns.

Nondeterminism (``docs/soundness.md``, "Congruence"): where Spark's outcome is one of several (which
rows a limit keeps, which error a failing task reports first), two congruent programs have the same
*set* of possible outcomes, errors compared as sets of possible errors; the result lists each such
place among its assumptions, so a user knows two runs may still differ.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from verifier.core.result import Result
from verifier.core.run import Run

METHOD = "congruence"

SETS_CAVEAT = ("the {kind} are nondeterministic ({what}): they have the same set of possible outcomes, "
               "errors compared as sets of possible errors, and two runs may still pick different ones")


def congruent_result(run: Run, what: str, renamed: Sequence[tuple[str, str]], assumptions: Iterable[str],
                     nondeterminism: Iterable[str], stats: dict[str, Any]) -> Result:
    """The ``equivalent`` result of a congruent pair: ``what`` names the programs (``programs``,
    ``scripts``), ``renamed`` the names RIGHT renamed (LEFT's, RIGHT's), ``nondeterminism`` where
    Spark's outcome is one of several (listed as a caveat among the assumptions)."""
    caveats = tuple(dict.fromkeys(nondeterminism))
    listed = list(dict.fromkeys(assumptions))
    if caveats:
        listed.append(SETS_CAVEAT.format(kind=what, what="; ".join(caveats)))
    if renamed:
        shown = ", ".join(f"{a} -> {b}" for a, b in renamed[:6]) + (", ..." if len(renamed) > 6 else "")
        reason = (f"the two {what} are the same up to renaming: {shown} (LEFT's name -> RIGHT's); "
                  "everything they observe is the same, so they give the same result on every input, "
                  "errors included")
    else:
        reason = (f"the two {what} are the same (the same kernel term once read), so they give the same "
                  "result on every input, errors included")
    return run.result("equivalent", method=METHOD, reason=reason, explanation=reason,
                      assumptions=tuple(listed), stats={**stats, METHOD: True})


def renamings(pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """The distinct pairs of differing names, in order of first occurrence."""
    return [p for p in dict.fromkeys(pairs) if p[0] != p[1]]
