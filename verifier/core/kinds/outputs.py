"""The program kind of DataFrame functions that return several results (``frontend.dataframe.outputs``).

Why: ``return (databases, tables, partitions)`` is equal to another function's result exactly when both
return a tuple (or both a list) of the same length whose results are equal position by position. So a
pair is decided by the relational kind (``verifier.core.kinds.relational``) once per position, each
position a ``LoadedProgram`` whose ``component`` tells replay which element of the returned tuple to
compare: ``equivalent`` only when every position is proved, ``not_equivalent`` as soon as one position
is (its counterexample names the position), otherwise ``unknown`` naming the first position not
decided. A length or container mismatch is an input error, as a DataFrame against a count is.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from frontend.dataframe.outputs import OutputsProgram
from sparklite.errors import InputError
from sparklite.relational import ast as R
from verifier.core.base import LoadedProgram
from verifier.core.kind import replay_each
from verifier.core.kinds.relational import RELATIONAL, pending_result, replay_relational
from verifier.core.result import Result
from verifier.core.run import CheckOptions, Run, load_both, plain_reason, with_warning
from verifier.core.services import Services


def _has_outputs(loaded: LoadedProgram) -> bool:
    return isinstance(loaded.program, OutputsProgram)


def _what(program: Any) -> str:
    if isinstance(program, OutputsProgram):
        return program.describe()
    return "one result" if isinstance(program, R.RelProgram) else "a program of another kind"


def components(lp: LoadedProgram, rp: LoadedProgram) -> list[tuple[LoadedProgram, LoadedProgram]]:
    """The pairs of outputs, position by position; an ``InputError`` when the shapes differ."""
    left, right = lp.program, rp.program
    if not (isinstance(left, OutputsProgram) and isinstance(right, OutputsProgram)
            and len(left.outputs) == len(right.outputs) and left.is_list == right.is_list):
        raise InputError(f"LEFT returns {_what(left)} and RIGHT {_what(right)}: the results cannot be "
                         "compared", getattr(right, "loc", None))
    return [(_at(lp, i), _at(rp, i)) for i in range(len(left.outputs))]


def _at(loaded: LoadedProgram, i: int) -> LoadedProgram:
    program = loaded.program
    assert isinstance(program, OutputsProgram)
    return dataclasses.replace(loaded, program=program.outputs[i], component=i)  # type: ignore[arg-type]


def _position(i: int, n: int) -> str:
    return f"result {i + 1} of {n} (index {i})"


def _named(result: Result, i: int, n: int, stats: dict[str, Any]) -> Result:
    """``result`` of one position, its reason and explanation saying which position it is."""
    where = _position(i, n)
    return dataclasses.replace(
        result,
        reason=f"{where}: {result.reason}" if result.reason else where,
        explanation=f"{where}: {result.explanation}" if result.explanation else None,
        stats={**result.stats, **stats, "outputs": {"index": i, "count": n}},
    )


def check_outputs(lp: LoadedProgram, rp: LoadedProgram, run: Run) -> Result:
    pairs = components(lp, rp)
    n = len(pairs)
    proved: list[Result] = []
    for i, (a, b) in enumerate(pairs):
        result = RELATIONAL.congruent(a, b, run) or RELATIONAL.check(a, b, run)
        if result.verdict != "equivalent":
            return _named(result, i, n, {})
        proved.append(result)
    methods = sorted({r.method or "" for r in proved} - {""})
    explanation = "; ".join(f"{_position(i, n)}: {r.explanation or r.reason or r.method}"
                            for i, r in enumerate(proved))
    assumptions = tuple(dict.fromkeys(a for r in proved for a in r.assumptions))
    return run.result("equivalent", method="+".join(methods) or None, explanation=explanation,
                      reason=f"each of the {n} results is proved equal: {explanation}",
                      assumptions=assumptions,
                      stats={"relational": {}, "outputs": {"count": n, "methods": methods}})


def _replay_one(result: Result, left: Any, right: Any, run: Run) -> Result:
    """Replay the position the result names (its ``outputs`` marker) with the relational kind's replay."""
    try:
        lp, rp = load_both(left, right, run)
        pairs = components(lp, rp)
    except InputError as exc:  # pragma: no cover - the same sides were loaded by check()
        return with_warning(result, f"counterexample not replayed on Spark: {exc}")
    marker = result.stats["outputs"]
    i, n = marker["index"], marker["count"]
    a, b = pairs[i]
    assert isinstance(a.program, R.RelProgram)
    if result.verdict == "unknown":
        result = pending_result(result, a.program, run)
    replayed = replay_relational(result, a, b, run)
    if not replayed.reason or not replayed.reason.startswith(_position(i, n)):
        replayed = _named(replayed, i, n, {})
    return plain_reason(replayed, left, right, run.options, run.services)


class OutputsKind:
    """Two DataFrame functions returning several results (``verifier.core.kind.ProgramKind``)."""

    name = "outputs"

    def accepts(self, lp: LoadedProgram, rp: LoadedProgram) -> bool:
        return _has_outputs(lp) or _has_outputs(rp)

    def congruent(self, lp: LoadedProgram, rp: LoadedProgram, run: Run) -> Result | None:
        return None  # decided position by position in ``check``, congruence first at each

    def check(self, lp: LoadedProgram, rp: LoadedProgram, run: Run) -> Result:
        return check_outputs(lp, rp, run)

    def made(self, result: Result) -> bool:
        return "index" in result.stats.get("outputs", {})

    def replay(self, items: Sequence[tuple[Result, Any, Any]], opts: CheckOptions, services: Services
               ) -> list[Result]:
        return replay_each(items, opts, services, _replay_one)


OUTPUTS = OutputsKind()
