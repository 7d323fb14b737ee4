"""The state of one check and the plumbing every program kind shares.

``CheckOptions`` are ``check``'s options; ``Run`` is one check's mutable state (its deadline and
patience, what each step said, the warnings, the validation statistics, the services the facade handed
in); ``in_worker`` runs a check in a thread with a large stack; ``z3_watchdog`` cancels Z3 at the
deadline; ``load_both`` loads both sides; ``plain_reason`` words the final reason (through
``Services.summarise``). Why a module of its own: every program kind (``verifier.core.kinds``) builds on
these, and ``check`` (``verifier.core.check``) dispatches to the kinds, so keeping them beside ``check``
made the kinds and ``check`` import each other.

Budgets (issue 24): every budget that decides a verdict is deterministic. A Z3 query gets a resource
limit (``verifier.core.budget``: the patience below turned into Z3's ``rlimit``), the searches count
what they try (inputs, candidates, queries; seeded), so the same check gives the same verdict on an
idle laptop and on a loaded CI runner. ``timeout`` is a hard cap only: the watchdog cancels Z3 at the
deadline and Python-side loops check a ``Deadline`` and raise ``OutOfTime``; a check that reached it
answers ``unknown`` and says so first (``settle``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sparklite.ast import Program
from sparklite.deadline import Deadline
from sparklite.values import to_json
from verifier.core.base import LoadedProgram, Options
from verifier.core.loading import load, load_schemas
from verifier.core.result import Result
from verifier.core.services import Services
from verifier.core.validate import ValidationStats

if TYPE_CHECKING:
    from verifier.core.script_check import ScriptPair

DEFAULT_TIMEOUT_S = 60.0
# Patience: one Z3 query's budget, in seconds of an idle machine turned into a resource limit
# (``budget.rlimit_of``), times ``--effort``. 0.75 s is what a query got at the default --timeout
# before budgets were deterministic (1/80 of 60 s): Z3 rarely settles a query later that it has not
# settled by then, and every query that cannot be settled costs its whole budget.
PATIENCE_S = 0.75
# The searches for counterexamples after the proof methods count what they try: random inputs per
# patience of the old time budget (measured on the bundled cases, idle machine, with margin), so an
# unsettleable pair still answers ``unknown`` in a few patiences' worth of work.
DIFFTEST_INPUTS_PER_PATIENCE = 2000
DIFFTEST_PATIENCES = 0.5
# Scripts whose outputs differ in shape cannot be proved equivalent: the random search is all there is
SHAPE_SEARCH_PATIENCES = 4.0
DEPENDENCE_METHOD = "partition_dependence"


@dataclass(frozen=True)
class CheckOptions:
    """Options of ``check``. ``timeout`` bounds the whole check (seconds, a hard cap); ``effort``
    multiplies the deterministic budgets (``--effort``: raise it when the solver's resource budget ran
    out); ``replay`` runs a
    counterexample on Spark at ``master``; ``function``/``left_function``/``right_function`` name the
    functions of source strings and ``.py`` files; ``strict`` re-raises a method's internal error
    instead of reporting it (for tests and the fuzzer)."""

    timeout: float = DEFAULT_TIMEOUT_S
    effort: float = 1.0  # scales every deterministic budget (Z3 resource limits, counted searches)
    replay: bool = False  # the library never starts a JVM unless asked; the CLI passes True
    master: str = "local[2]"
    bound: int = 3
    max_partitions: int = 2
    seed: int = 0
    function: str | None = None
    left_function: str | None = None
    right_function: str | None = None
    difftest: bool = True
    strict: bool = False
    schema: Any = None  # DataFrame/SQL tables: --schema values (FILE.sql or NAME=DDL), or {name: Schema}
    ignore_names: bool = False  # DataFrame/SQL results compared by column position only
    compare_diagnostics: bool = False  # scripts: diagnostic printouts refused rather than excluded

    @staticmethod
    def of(kwargs: Mapping[str, Any]) -> CheckOptions:
        known = set(CheckOptions.__dataclass_fields__)
        unknown = set(kwargs) - known
        if unknown:
            raise TypeError(f"check() got unknown option(s): {', '.join(sorted(unknown))}")
        values = dict(kwargs)
        for key in ("timeout", "effort"):
            if values.get(key) is None:
                values.pop(key, None)
        if not 0 < float(values.get("effort", 1.0)) < float("inf"):
            raise ValueError("effort must be a positive number")
        return CheckOptions(**values)


@dataclass
class Run:
    """Mutable state of one check: what each step said, for the final reason and the debug stats."""

    options: CheckOptions
    started: float
    deadline: float
    warnings: list[str] = field(default_factory=list)
    said: list[str] = field(default_factory=list)
    validation: ValidationStats = field(default_factory=ValidationStats)
    internal_errors: list[str] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    script: ScriptPair | None = None  # set when both sides are whole scripts
    services: Services = field(default_factory=Services)  # the replayer and the wording (the facade's)
    assumed: list[str] = field(default_factory=list)  # what the frontend assumed (``Program.assumed``)

    @staticmethod
    def of(opts: CheckOptions, started: float, services: Services) -> Run:
        """A check's state, its deadline ``timeout`` after ``started``."""
        return Run(opts, started, started + max(opts.timeout, 0.1), services=services)

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    @property
    def budget(self) -> Deadline:
        return Deadline(self.deadline)

    def slack(self) -> float:
        """How far past the deadline finishing touches may run: validating a counterexample already
        found, building the answer. Half of the tolerance ``check`` promises (10% + 0.5 s)."""
        return 0.05 * self.options.timeout + 0.25

    def patience(self) -> float:
        """One Z3 query's budget (idle-machine seconds, turned into a resource limit): never the clock."""
        return PATIENCE_S * self.options.effort

    def steps(self, per_patience: int, patiences: float) -> int:
        """A counted budget: ``per_patience`` steps per patience, for ``patiences`` patiences."""
        return max(1, round(per_patience * patiences * self.options.effort))

    def method_options(self) -> Options:
        return Options(timeout_s=self.patience(), bound=self.options.bound,
                       max_partitions=self.options.max_partitions, seed=self.options.seed,
                       deadline=self.budget)

    def stats(self, **extra: Any) -> dict[str, Any]:
        return {
            "candidates_tried": self.validation.tried,
            "candidates_discarded": self.validation.discarded,
            "interpreter_failures": list(self.validation.interpreter_failures),
            "methods": list(self.said),
            "internal_errors": list(self.internal_errors),
            **extra,
        }

    def result(self, verdict: str, **fields: Any) -> Result:
        """A result of this check: its warnings, statistics, sources, and the frontend's assumptions
        (an unannotated input taken as int) besides the step's own."""
        stats = self.stats(**fields.pop("stats", {}))
        assumptions = tuple(dict.fromkeys((*self.assumed, *fields.pop("assumptions", ()))))
        if assumptions:
            fields["assumptions"] = assumptions
        return Result(verdict, warnings=tuple(self.warnings), seconds=time.monotonic() - self.started,
                      stats=stats, sources=dict(self.sources), **fields)


def plain_reason(result: Result, left: Any, right: Any, opts: CheckOptions, services: Services) -> Result:
    """The user-facing reason (``Services.summarise``: ``verifier.interfaces.reasons``); an unknown verdict
    reloads both sides (cheap, source only) so the reason can point at the code that blocked the proof."""
    summarise = services.summarise
    if summarise is None:
        return result
    programs: list[Program] = []
    if result.verdict == "unknown" and "relational" not in result.stats:
        with contextlib.suppress(Exception):
            programs = [load(left, function=opts.left_function or opts.function).program,
                        load(right, function=opts.right_function or opts.function).program]
    return summarise(result, programs)


def load_both(left: Any, right: Any, run: Run) -> tuple[LoadedProgram, LoadedProgram]:
    """Both sides loaded (``--schema`` read once for both), their warnings and sources recorded."""
    opts = run.options
    from frontend.script.df_script import COMPARE_DIAGNOSTICS

    schemas = load_schemas(opts.schema)
    token = COMPARE_DIAGNOSTICS.set(opts.compare_diagnostics)
    try:
        lp = load(left, function=opts.left_function or opts.function, schemas=schemas)
        rp = load(right, function=opts.right_function or opts.function, schemas=schemas)
    finally:
        COMPARE_DIAGNOSTICS.reset(token)
    for loaded in (lp, rp):
        run.warnings.extend(loaded.warnings)
        run.assumed.extend(a for a in getattr(loaded.program, "assumed", ()) if a not in run.assumed)
        if loaded.path and loaded.source is not None:
            run.sources[loaded.path] = loaded.source
    return lp, rp


WORKER_STACK_BYTES = 512 * 1024 * 1024
WORKER_RECURSION_LIMIT = 40_000


def in_worker(work: Callable[[], Result]) -> Result:
    """Run ``work`` in a thread with a large stack, and wait for it.

    Why a thread: the frontend, type checker, encoder and interpreter recurse over the pipeline, one
    level (or a few) per chained operation, so a few hundred operations overflow Python's default
    recursion limit; a larger limit needs a larger C stack than the main thread may have. The limit is
    only ever raised (never lowered: another check may be running). ``threading.stack_size`` is set
    just for this thread's creation.

    Why the caller always waits, even past the deadline: the worker uses Z3's process-wide context, and
    a worker left running while the caller starts the next check crashed Z3 (two threads in one
    context). The deadline is honoured by the worker itself: every long step checks it and the
    watchdog cancels Z3; only single uninterruptible pieces (encoding one program, one interpreter
    run) can overrun it, by their own duration.
    """
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["result"] = work()
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread below
            box["error"] = exc

    if sys.getrecursionlimit() < WORKER_RECURSION_LIMIT:
        sys.setrecursionlimit(WORKER_RECURSION_LIMIT)
    previous = threading.stack_size(WORKER_STACK_BYTES)
    try:
        worker = threading.Thread(target=target, name="sparkeq-check", daemon=True)
        worker.start()
    finally:
        threading.stack_size(previous)
    worker.join()
    if "error" in box:
        raise box["error"]
    return box["result"]


TIME_CAP_PREFIX = "Ran out of time after {t:g} s; raise --timeout."
QUERY_CAP_PREFIX = ("A solver query reached its CPU-time cap before its resource budget, so this "
                    "verdict may depend on the machine; raise --effort.")
RLIMIT_NOTE = "The solver's resource budget ran out (deterministic) on {n} quer{ies}: try --effort {e:g}."


def settle(result: Result, opts: CheckOptions, *, timed_out: bool = False, notes: bool = True) -> Result:
    """The final touches every ``unknown`` gets, whatever kind made it (``docs/json.md``):

    - ``method`` is null: nothing settled the verdict (each step's words stay in ``stats["methods"]``);
    - when the wall clock ended the check (the ``--timeout`` hard cap), or a query reached its CPU-time
      safety cap (``budget.CPU_CAP_BASE_S``), the reason says so first: those are the ways a verdict
      can depend on the machine, and the user can act on them;
    - otherwise, when a Z3 query ran out of its resource budget, the reason says that this is
      deterministic and how to raise the budget (``--effort``).
    Definite verdicts are untouched: a proof or a confirmed difference does not depend on budgets.
    ``notes=False`` (a replay's result) only clears ``method``: no solver ran for it."""
    if result.verdict != "unknown":
        return result
    if not notes:
        return dataclasses.replace(result, method=None)
    from verifier.core import budget

    reason = result.reason or ""
    for stale in ("Ran out of time before a proof or a counterexample was found (raise --timeout)",
                  f"ran out of time (timeout {opts.timeout:g} s)"):
        if timed_out and reason.startswith(stale):
            reason = "No proof and no counterexample" + reason[len(stale):]
    if timed_out:
        reason = f"{TIME_CAP_PREFIX.format(t=opts.timeout)} {reason}"
    elif budget.SPENT.clock_cut:
        reason = f"{QUERY_CAP_PREFIX} {reason}"
    n = budget.SPENT.exhausted
    if n and not timed_out:
        reason += " " + RLIMIT_NOTE.format(n=n, ies="y" if n == 1 else "ies", e=4 * opts.effort)
    return dataclasses.replace(result, method=None, reason=reason.strip())


def out_of_time(run: Run) -> Result:
    return run.result("unknown", reason=f"ran out of time (timeout {run.options.timeout:g} s); "
                      "no proof and no counterexample: " + "; ".join(list(run.said)))


@contextlib.contextmanager
def z3_watchdog(deadline: float) -> Iterator[None]:
    """Interrupt Z3 once ``deadline`` has passed, and keep interrupting until the block ends.

    Per-query timeouts are not enough on their own: Z3 does not honour them in every phase (a query
    has been seen running for minutes past a 3 s budget), so ``--timeout`` could not be trusted.
    ``Context.interrupt`` is Z3's thread-safe way to cancel a running call; the cancelled call answers
    ``unknown`` (or raises), which every method already turns into an inconclusive outcome. It acts on
    Z3's main context, which the whole process shares: run concurrent checks in processes, not threads.
    """
    import z3

    done = threading.Event()

    def watch() -> None:
        if done.wait(min(max(0.0, deadline - time.monotonic()), threading.TIMEOUT_MAX)):
            return
        while not done.is_set():
            try:
                z3.main_ctx().interrupt()
            except z3.Z3Exception:  # the context reports an earlier error (e.g. a parser error): retry
                pass
            done.wait(0.25)

    watcher = threading.Thread(target=watch, name="sparkeq-z3-watchdog", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join()


def with_warning(result: Result, warning: str) -> Result:
    return dataclasses.replace(result, warnings=(*result.warnings, warning))


def json_text(value: Any) -> str:
    import json

    return json.dumps(to_json(value))
