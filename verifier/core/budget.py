"""Deterministic budgets for Z3: every query gets a resource limit (``rlimit``), never a timeout.

Why: a verdict must not depend on what else the machine is doing. A wall-clock timeout per query
made a proof that takes 0.3 s on an idle machine fail at 0.75 s on a busy one (issue 24: the
README's ``x * 2.0 == x + x`` and a wrong left-join refactor turned ``unknown`` under load). Z3's
resource counter (``rlimit``) counts the solver's own steps, so a query that finishes within its
limit on one machine finishes within it everywhere, at any load (the same Z3 version and the same
sequence of queries in the process: Z3 shares caches across solvers of one context).

Patience stays expressed in "seconds of an idle machine" (``Options.timeout_s`` and the methods'
``timeout_s`` arguments) because that is how the budgets were tuned; ``rlimit_of`` turns it into
resource units at ``RLIMIT_PER_SECOND``, measured on today's proofs (``docs/soundness.md``,
"Budgets"). The wall-clock ``--timeout`` is a hard cap only: the watchdog of ``verifier.core.run``
interrupts Z3 there, and a check that hit it says so first in its reason.

``Spent`` counts, per check, how many queries ran out of their resource budget (the reason of an
``unknown`` says so, deterministically) and the largest amount one query consumed (calibration).
Checks in one process run one at a time (the watchdog's interrupt acts on Z3's shared context), so a
module-level tally reset at the start of each check is enough.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import z3

RLIMIT_PER_SECOND = 2_000_000
"""Z3 resource units per second of patience. Calibrated on every query the bundled cases and the
bench's pairs ask (``SPARKEQ_RLIMIT_LOG`` logs each query's units, wall and CPU seconds; measured
before budgets were deterministic, with wall-clock timeouts): Z3 counts 1.3-5M units per second of
CPU, and a query that settled used at most 0.43M units per second of its timeout (beyond what its
size explains, ``RLIMIT_PER_EXPR``) on the loaded machine that measured it. 2M per second is what an
idle machine's timeout allowed, so every query that settled there settles now, at any load. Queries
of programs over floats get ``FLOAT_PATIENCE`` (``verifier.core.methods._shared``) times the
patience: the largest float query, ``float_assoc``, used 3.7M units, and 5.5M unfinished when run
after other checks (Z3's caches make the count depend on the queries asked before in a process)."""

RLIMIT_PER_EXPR = 400
"""Resource units per distinct expression of the query, on top: a large formula needs more work for
the same answer (AggOneSync's quantifier elimination over a chain of n maps and filters + sum used
3.6M units at n = 400 and 5.3M at n = 1,000, which a wall-clock timeout of 0.75 s allowed)."""

RLIMIT_MIN = 200_000
"""No query gets less (the smallest patiences, a bounded query's share, still settle what Z3 settles
at once)."""

CPU_CAP_BASE_S = 2.0
CPU_CAP_PER_PATIENCE = 2.0
"""A safety cap on one query's CPU time (of the thread that runs it, so load does not count): 2 s +
2 patiences (3.5 s for an ordinary query, 9.5 s over floats). Z3 does not count resources at one
pace: most queries count 1.3-5M units per CPU second, but a DataFrame query over decimal division
counted 35k, so its resource budget alone would have let it run 85 CPU seconds (its old wall-clock
timeout was 1.4 s). The longest query that settled on the bundled cases took 2.6 s of wall time.
CPU time varies a little with the machine (frequency, caches), so a query stopped by this cap makes
the reason of an ``unknown`` say that the verdict may depend on the machine
(``verifier.core.run.settle``)."""

EXHAUSTED = ("max. resource limit exceeded", "resource limit exceeded", "canceled")
"""What ``reason_unknown`` says when a query ran out of its rlimit (Z3 4.13+ says "canceled"); a
wall-clock timeout says "timeout" and the watchdog's interrupt "interrupted"."""


@dataclass
class Spent:
    """What the queries of the current check consumed (reset by ``reset`` at each check's start)."""

    queries: int = 0
    exhausted: int = 0  # ran out of their resource budget (deterministic)
    clock_cut: int = 0  # stopped by the CPU-time safety cap (``CPU_CAP_BASE_S``): not deterministic
    largest: int = 0
    effort: float = 1.0


SPENT = Spent()


def reset(effort: float = 1.0) -> None:
    """A new check at ``effort``: nothing spent yet."""
    SPENT.queries = SPENT.exhausted = SPENT.clock_cut = SPENT.largest = 0
    SPENT.effort = effort


def rlimit_of(patience_s: float, size: int = 0) -> int:
    """The resource limit of a query given ``patience_s`` seconds of patience (idle-machine seconds)
    and its ``size`` (distinct expressions)."""
    return max(RLIMIT_MIN, int(patience_s * RLIMIT_PER_SECOND + size * RLIMIT_PER_EXPR * SPENT.effort))


def solver(patience_s: float) -> z3.Solver:
    """A plain solver with the deterministic budget of ``patience_s``."""
    s = z3.Solver()
    limit(s, patience_s)
    return s


def limit(s: z3.Solver, patience_s: float) -> z3.Solver:
    """Give ``s`` (any solver, e.g. one made from a tactic) the deterministic budget of ``patience_s``.
    No wall-clock timeout: the check's hard cap is the watchdog's (``verifier.core.run``)."""
    s.__dict__["_sparkeq_patience"] = patience_s  # turned into a resource limit by ``check``
    return s


def check(s: z3.Solver) -> z3.CheckSatResult:
    """``s.check()`` within the resource limit of the patience ``limit`` gave ``s`` (decided now, from
    what was asserted: floating-point terms count faster), tallied: an ``unknown`` for lack of
    resources is counted in ``SPENT``."""
    patience = s.__dict__.get("_sparkeq_patience")
    size = _size(s) if patience is not None or os.environ.get("SPARKEQ_RLIMIT_LOG") else 0
    if patience is not None:
        s.set("rlimit", rlimit_of(patience, size))
    before = _count(s)
    log = os.environ.get("SPARKEQ_RLIMIT_LOG")
    started = time.perf_counter() if log else 0.0  # calibration only: nothing decides on it
    cpu = time.process_time() if log else 0.0
    cap = CPU_CAP_BASE_S + CPU_CAP_PER_PATIENCE * (patience or 0.0)
    with _CPU_WATCH.watching(cap) as cut:
        r = s.check()
    used = _count(s) - before
    SPENT.queries += 1
    SPENT.largest = max(SPENT.largest, used)
    if r == z3.unknown and cut.is_set():
        SPENT.clock_cut += 1
    elif r == z3.unknown and s.reason_unknown() in EXHAUSTED:
        SPENT.exhausted += 1
    if log:
        with open(log, "a", encoding="utf-8") as out:
            why = s.reason_unknown().replace(" ", "_") if r == z3.unknown else ""
            out.write(f"{used} {time.perf_counter() - started:.4f} {r} {why} {size} "
                      f"{time.process_time() - cpu:.4f}\n")
    return r


class _CpuWatch:
    """One daemon thread that interrupts Z3 when the query running in the checking thread has used
    its CPU-time cap. CPU time of that thread (``pthread_getcpuclockid``), not wall time: a loaded
    machine gives the thread less CPU per second, not less CPU per query."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.query: tuple[int, float, float, threading.Event] | None = None  # clock, start, cap, cut
        self.seq = 0
        self.thread: threading.Thread | None = None

    @contextlib.contextmanager
    def watching(self, cap_s: float) -> Iterator[threading.Event]:
        cut = threading.Event()
        try:
            clock = time.pthread_getcpuclockid(threading.get_ident())
        except (AttributeError, OSError):  # no per-thread CPU clocks here: the resource budget only
            yield cut
            return
        with self.lock:
            self.seq += 1
            self.query = (clock, time.clock_gettime(clock), cap_s, cut)
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="sparkeq-z3-cpu-cap", daemon=True)
                self.thread.start()
        try:
            yield cut
        finally:
            with self.lock:
                self.query = None

    def _run(self) -> None:
        while True:
            time.sleep(0.05)
            with self.lock:
                q = self.query
                if q is None:
                    continue
                clock, start, cap, cut = q
                try:
                    over = time.clock_gettime(clock) - start > cap
                except OSError:  # the thread is gone
                    over = False
                if over and not cut.is_set():
                    cut.set()
                    z3.main_ctx().interrupt()


_CPU_WATCH = _CpuWatch()


def _size(s: z3.Solver) -> int:
    """The number of distinct expressions in the solver's assertions (Z3's ``num-exprs`` probe, a
    walk in C over the shared DAG: cheap next to solving, unlike printing the formula)."""
    goal = z3.Goal()
    goal.add(*s.assertions())
    return int(z3.Probe("num-exprs")(goal))


def _count(s: z3.Solver) -> int:
    """Z3's resource counter, cumulative over the process's context (every solver of the context
    advances it; a solver's statistics show it before its first check too)."""
    stats = s.statistics()
    for key in stats.keys():
        if key == "rlimit count":
            return int(stats.get_key_value(key))
    return 0
