"""The protocol every program kind implements: load a pair -> prove -> search for a difference -> replay
-> result.

Why: sparkeq compares four kinds of programs -- RDD programs, DataFrame/SQL programs, whole RDD scripts
and whole DataFrame scripts -- and each decides a pair its own way. ``check`` (``verifier.core.check``)
loads both sides once, asks the kinds in turn (``KINDS`` there) which one ``accepts`` the pair, and hands
it over; ``replay_counterexample`` routes a result back to the kind that ``made`` it. A new kind (say, an
RDD program against a DataFrame program) is one more implementation in ``verifier.core.kinds`` and one
more entry in ``KINDS``, not another branch threaded through ``check``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from verifier.core.base import LoadedProgram
    from verifier.core.result import Result
    from verifier.core.run import CheckOptions, Run
    from verifier.core.services import Services


class ProgramKind(Protocol):
    """One kind of program pair. ``name`` names it in messages and tests."""

    name: str

    def accepts(self, lp: LoadedProgram, rp: LoadedProgram) -> bool:
        """Is this pair this kind's? True when either side is of the kind, so that a side of the kind
        against a side of another is this kind's to refuse with a located input error. ``KINDS`` asks
        in order; the last kind accepts every pair."""
        ...

    def congruent(self, lp: LoadedProgram, rp: LoadedProgram, run: Run) -> Result | None:
        """``equivalent`` (method ``congruence``, ``verifier.core.congruence``) when the two sides, read
        as ``check`` reads them, are the same kernel term up to renaming of bound names, with nothing
        observed renamed; else None (``check`` decides). Syntactic: no solver query. Raises
        ``InputError`` as ``check`` would for a pair that cannot be compared."""
        ...

    def check(self, lp: LoadedProgram, rp: LoadedProgram, run: Run) -> Result:
        """Decide the loaded pair: prove, else search for a difference (validated on the reference
        interpreter), and replay a difference on Spark when ``run.options.replay`` (through
        ``run.services.replayer``). Raises ``InputError`` for a pair that cannot be compared."""
        ...

    def made(self, result: Result) -> bool:
        """Did this kind's ``check`` make ``result`` (read from the markers it leaves in ``stats``)?"""
        ...

    def replay(self, items: Sequence[tuple[Result, Any, Any]], opts: CheckOptions, services: Services
               ) -> list[Result]:
        """Replay the counterexamples of results this kind made (``check(..., replay=False)`` first),
        with the reasons in plain words; one result per item, in order."""
        ...


def replay_each(items: Sequence[tuple[Result, Any, Any]], opts: CheckOptions, services: Services,
                replay_one: Callable[[Result, Any, Any, Run], Result]) -> list[Result]:
    """``ProgramKind.replay`` for a kind that replays its items one by one: each in a ``Run`` that started
    when its check did (so the result's seconds count the check and the replay)."""
    from verifier.core.run import Run

    return [replay_one(result, left, right, Run.of(opts, time.monotonic() - result.seconds, services))
            for result, left, right in items]
