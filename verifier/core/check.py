"""``check(left, right, **options) -> Result``: the one pipeline behind the library and the CLI.

Order of business, soundness first:

1. load both sides (``verifier.core.loading``); any ``InputError`` becomes verdict ``error`` with its
   location.
2. pick the pair's program kind (``KINDS``: DataFrame scripts, RDD scripts, DataFrame/SQL programs, RDD
   programs; ``verifier.core.kind.ProgramKind``); two sides that are the same kernel term up to renaming
   are ``equivalent`` at once (the kind's ``congruent``, ``verifier.core.congruence``); otherwise the
   kind decides: prove, search for a difference,
   and replay a difference on Spark when asked. ``equivalent`` only with a proof; ``not_equivalent``
   only with inputs on which the reference interpreter shows a difference; a difference Spark does not
   reproduce falls back to ``unknown``.
3. word the reason for people (``Services.summarise``).

The check runs in a worker thread with a large stack (``verifier.core.run.in_worker``), so deep
pipelines (hundreds of chained operations) do not hit Python's recursion limit. The replayer and the
wording are the facade's (``verifier.check`` wires ``verifier.runtime`` and ``verifier.interfaces.reasons``
in): called here without ``services``, a check does not replay and keeps the steps' own reason.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from sparklite.errors import InputError
from verifier.core import budget
from verifier.core.kind import ProgramKind
from verifier.core.kinds.cross import CROSS
from verifier.core.kinds.df_script import DF_SCRIPT
from verifier.core.kinds.outputs import OUTPUTS
from verifier.core.kinds.rdd import RDD
from verifier.core.kinds.rdd_script import RDD_SCRIPT
from verifier.core.kinds.relational import RELATIONAL
from verifier.core.result import Result
from verifier.core.run import CheckOptions, Run, in_worker, load_both, plain_reason, settle, z3_watchdog
from verifier.core.services import Services

KINDS: tuple[ProgramKind, ...] = (DF_SCRIPT, RDD_SCRIPT, OUTPUTS, CROSS, RELATIONAL, RDD)
"""In the order they are asked: the first kind that accepts a pair decides it (RDD accepts every pair)."""


def check(left: Any, right: Any, *, services: Services | None = None, **options: Any) -> Result:
    """Decide whether two programs are equivalent under Spark's semantics (see the module doc)."""
    opts = CheckOptions.of(options)
    services = services or Services()
    run = Run.of(opts, time.monotonic(), services)
    budget.reset(opts.effort)
    result = in_worker(lambda: _check(left, right, run))
    timed_out = time.monotonic() >= run.deadline
    return settle(plain_reason(result, left, right, opts, services), opts, timed_out=timed_out)


def _check(left: Any, right: Any, run: Run) -> Result:
    """The check proper (in the worker thread); the watchdog cancels Z3 at the hard cap."""
    try:
        lp, rp = load_both(left, right, run)
        kind = next(k for k in KINDS if k.accepts(lp, rp))
        with z3_watchdog(run.deadline):
            return kind.congruent(lp, rp, run) or kind.check(lp, rp, run)
    except InputError as exc:
        return run.result("error", reason=str(exc))


def replay_counterexample(result: Result, left: Any, right: Any, *, services: Services | None = None,
                          **options: Any) -> Result:
    """Replay a ``not_equivalent`` result of ``check(..., replay=False)`` on Spark, as ``replay=True``
    would have: the CLI prints the verdict first and replays while the user reads it."""
    return replay_counterexamples([(result, left, right)], services=services, **options)[0]


def replay_counterexamples(items: Sequence[tuple[Result, Any, Any]], *, services: Services | None = None,
                           **options: Any) -> list[Result]:
    """``replay_counterexample`` for many ``(result, left, right)``, each by the kind that made it; a kind
    replays its items together (the counterexamples of whole scripts all run in one Python process,
    because each process starts a JVM)."""
    opts = CheckOptions.of({**options, "replay": True})
    services = services or Services()
    out: list[Result | None] = [None] * len(items)
    todo: dict[int, list[int]] = {}
    for i, (result, _, _) in enumerate(items):
        if not _replayable(result):
            out[i] = result
            continue
        todo.setdefault(next(n for n, k in enumerate(KINDS) if k.made(result)), []).append(i)
    for n, indices in sorted(todo.items()):
        done = KINDS[n].replay([items[i] for i in indices], opts, services)
        for i, replayed in zip(indices, done, strict=True):
            out[i] = settle(replayed, opts, notes=False)
    return [r for r in out if r is not None]


def _replayable(result: Result) -> bool:
    """A counterexample, or a difference pending Spark's confirmation (which only a replay settles)."""
    pending = "pending" in result.stats and result.verdict == "unknown"
    return (result.verdict == "not_equivalent" and result.counterexample is not None) or pending
