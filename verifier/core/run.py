"""The state of one check and the plumbing every program kind shares.

``CheckOptions`` are ``check``'s options; ``Run`` is one check's mutable state (its deadline and
patience, what each step said, the warnings, the validation statistics, the services the facade handed
in); ``in_worker`` runs a check in a thread with a large stack; ``z3_watchdog`` cancels Z3 at the
deadline; ``load_both`` loads both sides; ``plain_reason`` words the final reason (through
``Services.summarise``). Why a module of its own: every program kind (``verifier.core.kinds``) builds on
these, and ``check`` (``verifier.core.check``) dispatches to the kinds, so keeping them beside ``check``
made the kinds and ``check`` import each other.

Time: ``timeout`` bounds everything but the replay. Z3 queries get a per-query timeout capped by the
deadline and are cancelled by a watchdog at the deadline; Python-side loops (term building,
instantiations, bounded unrolling, candidate validation) check a ``Deadline`` and raise ``OutOfTime``,
which ends the check with ``unknown`` ("ran out of time").
"""

from __future__ import annotations

import contextlib
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
# Patience: one Z3 query's timeout, 1/80 of the check's budget (0.75 s at the default), within
# [0.5 s, 10 s]. Z3 rarely settles a query later that it has not settled in a second, and every query
# that cannot be settled costs its whole timeout: a pair nothing can settle used to take 18 s at the
# default budget (10 s per query). The searches for counterexamples after the proof methods get a
# multiple of it (bounded: symbolic queries and concrete enumeration; then random inputs), so that an
# unsettleable pair answers ``unknown`` in about 2.5 patiences. A larger --timeout buys patience as
# well as time overall; the budget itself is the hard limit for pipelines whose encoding is slow.
PER_QUERY_FRACTION = 1 / 80
PER_QUERY_MIN_S = 0.5
PER_QUERY_MAX_S = 10.0
BOUNDED_PATIENCES = 1.0
DIFFTEST_PATIENCES = 0.5
# Scripts whose outputs differ in shape cannot be proved equivalent: the random search is all there is
SHAPE_SEARCH_PATIENCES = 4.0
DEPENDENCE_METHOD = "partition_dependence"


@dataclass(frozen=True)
class CheckOptions:
    """Options of ``check``. ``timeout`` bounds the whole check (seconds); ``replay`` runs a
    counterexample on Spark at ``master``; ``function``/``left_function``/``right_function`` name the
    functions of source strings and ``.py`` files; ``strict`` re-raises a method's internal error
    instead of reporting it (for tests and the fuzzer)."""

    timeout: float = DEFAULT_TIMEOUT_S
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
        if values.get("timeout") is None:
            values.pop("timeout", None)
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
        return min(PER_QUERY_MAX_S, max(PER_QUERY_MIN_S, self.options.timeout * PER_QUERY_FRACTION))

    def step_end(self, patiences: float) -> float:
        """When a step given ``patiences`` patiences from now must end (never after the deadline)."""
        return min(self.deadline, time.monotonic() + patiences * self.patience())

    def method_options(self) -> Options:
        per_query = max(0.05, min(self.patience(), self.remaining()))
        return Options(timeout_s=per_query, bound=self.options.bound,
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
        stats = self.stats(**fields.pop("stats", {}))
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
    return Result(result.verdict, result.method, result.reason, result.counterexample,
                  (*result.warnings, warning), result.seconds, result.explanation, result.stats,
                  result.sources)


def json_text(value: Any) -> str:
    import json

    return json.dumps(to_json(value))
