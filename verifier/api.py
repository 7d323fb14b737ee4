"""``check(left, right, **options) -> Result``: the one pipeline behind the library and the CLI.

Order of business, soundness first:

1. load and type-check both sides; they must be comparable (same parameters, same result type). Any
   ``InputError`` becomes verdict ``error`` with its location.
2. partition independence of every aggregation (``methods.partition_independence``). A failure is a
   warning, plus a search for one input and two partitionings on which the program's own outputs
   differ; if the *pair* disagrees on either partitioning, that is a counterexample (programs are
   equivalent only if they agree for every input and every partitioning).
3. the paper's proof methods, in order (``verifier.methods.PROOF_METHODS``). ``equivalent`` comes only
   from a ``Proved``; candidates from ``Refuted``/``Inconclusive`` go through ``validate``.
4. bounded disproof, then random differential testing (when ``verifier.difftest`` exists).
5. ``not_equivalent`` is replayed on Spark (default on). If Spark disagrees with the interpreter the
   verdict falls back to ``unknown``: the difference was an artefact of sparkeq's model, a bug.

Whole scripts (``docs/scripts.md``) take the same steps on the programs ``frontend.script.rdd_script``
makes of them, with ``verifier.script_check`` deciding what a counterexample is (files the scripts can
read, each side on Spark's partitioning of them, outputs that differ however Spark orders them); scripts whose
outputs have different shapes are only searched; replay runs both unmodified scripts.

Z3 timeouts and resource limits end in ``unknown``, never in an exception.

Time: ``timeout`` bounds everything but the replay. Z3 queries get a per-query timeout capped by the
deadline and are cancelled by a watchdog at the deadline; Python-side loops (term building,
instantiations, bounded unrolling, candidate validation) check a ``Deadline`` and raise ``OutOfTime``,
which ends the check with ``unknown`` ("ran out of time"). The check runs in a worker thread with a
large stack, so deep pipelines (hundreds of chained operations) do not hit Python's recursion limit.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sparklite.ast import Loc, Program
from sparklite.deadline import Deadline, OutOfTime
from sparklite.errors import InputError
from sparklite.values import to_json
from verifier.loading import load, load_schemas
from verifier.methods.base import (
    Candidate,
    Inconclusive,
    LoadedProgram,
    NotApplicable,
    Options,
    Pair,
    Proved,
    Refuted,
)
from verifier.result import Counterexample, Result
from verifier.validate import Confirmed, ValidationStats, validate

if TYPE_CHECKING:
    from verifier.script_check import ScriptPair

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
class _Run:
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


def check(left: Any, right: Any, **options: Any) -> Result:
    """Decide whether two programs are equivalent under Spark's semantics (see the module doc)."""
    opts = CheckOptions.of(options)
    started = time.monotonic()
    run = _Run(opts, started, started + max(opts.timeout, 0.1))
    result = _in_worker(lambda: _check(left, right, run))
    return _plain_reason(result, left, right, opts)


def _plain_reason(result: Result, left: Any, right: Any, opts: CheckOptions) -> Result:
    """The user-facing reason (``verifier.reasons``); an unknown verdict reloads both sides (cheap,
    source only) so the reason can point at the code that blocked the proof."""
    from verifier.reasons import summarise

    programs: list[Program] = []
    if result.verdict == "unknown" and "relational" not in result.stats:
        with contextlib.suppress(Exception):
            programs = [load(left, function=opts.left_function or opts.function).program,
                        load(right, function=opts.right_function or opts.function).program]
    return summarise(result, programs)


def replay_counterexample(result: Result, left: Any, right: Any, **options: Any) -> Result:
    """Replay a ``not_equivalent`` result of ``check(..., replay=False)`` on Spark, as ``replay=True``
    would have: the CLI prints the verdict first and replays while the user reads it."""
    pending = "pending" in result.stats and result.verdict == "unknown"
    if (result.verdict != "not_equivalent" or result.counterexample is None) and not pending:
        return result
    opts = CheckOptions.of({**options, "replay": True})
    started = time.monotonic() - result.seconds
    run = _Run(opts, started, started + max(opts.timeout, 0.1))
    if "df_script" in result.stats:
        return _plain_reason(_replay_df_scripts([(result, left, right)], opts)[0], left, right, opts)
    if "relational" in result.stats:
        return _replay_relational(result, left, right, run)
    try:
        lp, rp = _load_both(left, right, run)
        if lp.script is not None and rp.script is not None:
            return _plain_reason(_replay_scripts(result, _script_pair(lp, rp, run)[0], run), left, right,
                                 opts)
        _, loaded = _prepare_loaded(lp, rp, run)
    except InputError as exc:  # pragma: no cover - the same sides were loaded by check()
        return _with_warning(result, f"counterexample not replayed on Spark: {exc}")
    return _plain_reason(_replay(result, loaded, run), left, right, opts)


def replay_counterexamples(items: Sequence[tuple[Result, Any, Any]], **options: Any) -> list[Result]:
    """``replay_counterexample`` for many ``(result, left, right)``: the counterexamples of whole scripts
    are all run in one Python process (``script_replay.replay_many``), because each process starts a
    JVM; the others are replayed one by one."""
    out: list[Result | None] = [None] * len(items)
    plans: list[tuple[int, _ScriptReplayPlan, Any, Any]] = []
    opts = CheckOptions.of({**options, "replay": True})
    df_items = [(i, item) for i, item in enumerate(items) if "df_script" in item[0].stats
                and (item[0].verdict == "not_equivalent" or "pending" in item[0].stats)]
    for (i, (_, left, right)), done in zip(df_items, _replay_df_scripts([it for _, it in df_items], opts),
                                           strict=True):
        out[i] = _plain_reason(done, left, right, opts)
    for i, (result, left, right) in enumerate(items):
        if out[i] is not None:
            continue
        if "script" not in result.stats or result.verdict != "not_equivalent":
            out[i] = replay_counterexample(result, left, right, **options)
            continue
        started = time.monotonic() - result.seconds
        run = _Run(opts, started, started + max(opts.timeout, 0.1))
        try:
            lp, rp = _load_both(left, right, run)
            plan = _plan_script_replay(result, _script_pair(lp, rp, run)[0], run)
        except InputError as exc:  # pragma: no cover - the same sides were loaded by check()
            plan = _with_warning(result, f"counterexample not replayed on Spark: {exc}")
        if isinstance(plan, Result):
            out[i] = _plain_reason(plan, left, right, opts)
        else:
            plans.append((i, plan, left, right))
    if plans:
        for (i, _, left, right), done in zip(plans, _run_script_replays([p for _, p, _, _ in plans],
                                                                        opts.master), strict=True):
            out[i] = _plain_reason(done, left, right, opts)
    return [r for r in out if r is not None]


def _replay_relational(result: Result, left: Any, right: Any, run: _Run) -> Result:
    """``replay_counterexample`` for a DataFrame/SQL pair: a counterexample, or a pending difference
    that only Spark can confirm."""
    from verifier.relational_check import pending_result, replay_relational

    try:
        lp, rp = _load_both(left, right, run)
    except InputError as exc:  # pragma: no cover - the same sides were loaded by check()
        return _with_warning(result, f"counterexample not replayed on Spark: {exc}")
    if result.verdict == "unknown":
        result = pending_result(result, lp.program, run)
    return _plain_reason(replay_relational(result, lp, rp, run), left, right, run.options)


def _check(left: Any, right: Any, run: _Run) -> Result:
    """The check proper (in the worker thread)."""
    from verifier.relational_check import check_relational, is_relational

    try:
        lp, rp = _load_both(left, right, run)
        if _df_script(lp) or _df_script(rp):
            return _check_df_scripts(lp, rp, run)
        if lp.script is not None or rp.script is not None:
            return _check_scripts(lp, rp, run)
        if is_relational(lp) or is_relational(rp):
            return check_relational(lp, rp, run)
        pair, loaded = _prepare_loaded(lp, rp, run)
    except InputError as exc:
        return run.result("error", reason=str(exc))
    with _z3_watchdog(run.deadline):
        result = _decide(pair, run)
    if result.verdict == "not_equivalent" and run.options.replay:
        result = _replay(result, loaded, run)
    return result


# ---------------------------------------------------------------------------------------------------
# Whole scripts
# ---------------------------------------------------------------------------------------------------


def _df_script(lp: LoadedProgram) -> bool:
    from frontend.script.df_program import DfScriptProgram

    return isinstance(lp.script, DfScriptProgram)


def _check_df_scripts(lp: LoadedProgram, rp: LoadedProgram, run: _Run) -> Result:
    """Two DataFrame scripts (``verifier.df_script_check``); a DataFrame script against anything else is a
    located input error."""
    from verifier.df_script_check import check_df_scripts

    if not (_df_script(lp) and _df_script(rp)):
        script, other, side = (lp, rp, "RIGHT") if _df_script(lp) else (rp, lp, "LEFT")
        where = getattr(other.program, "loc", None) or Loc(other.path or "<input>", 1, 1)
        what = "an RDD script" if other.script is not None else "not a script"
        given = other.path or "a program given in memory"
        raise InputError(f"{script.path} is a DataFrame script but {side} ({given}) is {what}: a DataFrame "
                         "script can only be compared with another DataFrame script (docs/scripts.md)", where)
    return check_df_scripts(lp, rp, run)


def _replay_df_scripts(items: Sequence[tuple[Result, Any, Any]], opts: CheckOptions) -> list[Result]:
    """Replay DataFrame scripts' counterexamples (pending ones too), all in one Python process."""
    from frontend.script.df_program import align_df_sources
    from verifier.df_script_check import replay_df_results

    ready, out = [], []
    for result, left, right in items:
        run = _Run(opts, time.monotonic(), time.monotonic() + max(opts.timeout, 0.1))
        try:
            lp, rp = _load_both(left, right, run)
            ready.append((result, lp.script, align_df_sources(lp.script, rp.script)))
        except InputError as exc:  # pragma: no cover - the same sides were loaded by check()
            out.append(_with_warning(result, f"counterexample not replayed on Spark: {exc}"))
    return out + replay_df_results(ready, opts.master)


def _script_pair(lp: LoadedProgram, rp: LoadedProgram, run: _Run) -> tuple[ScriptPair, LoadedProgram]:
    """Both sides must be whole scripts (else a located input error); RIGHT's inputs are lined up with
    LEFT's (``align_sources``: by path expression, then by order; located errors when they cannot be)."""
    import dataclasses

    from frontend.script.rdd_script import align_sources
    from verifier.script_check import ScriptPair

    if lp.script is None or rp.script is None:
        script, other, side = (lp, rp, "RIGHT") if lp.script is not None else (rp, lp, "LEFT")
        where = getattr(other.program, "loc", None) or Loc(other.path or "<input>", 1, 1)
        what = f"{other.path}::{other.function}" if other.path and other.function else \
            other.path or "a program given in memory"
        why = next((f" ({w})" for w in other.warnings if "as a whole script" in w), "")
        raise InputError(f"{script.path} is a whole script but {side} ({what}) is not{why}: a script can "
                         "only be compared with another script (docs/scripts.md)", where)
    right = align_sources(lp.script, rp.script)
    return ScriptPair.of(lp.script, right, run.options.master), dataclasses.replace(rp, program=right.program,
                                                                                    script=right)


def _check_scripts(lp: LoadedProgram, rp: LoadedProgram, run: _Run) -> Result:
    """Two whole scripts: the ordinary steps on their programs when their outputs line up item by item;
    otherwise (a different number or kind of outputs) only the search for files on which they write
    different things, since no proof compares outputs of different shapes. Raises ``InputError``."""
    import dataclasses

    from sparklite.typecheck import typecheck
    from verifier.script_check import shape_difference

    sp, rp = _script_pair(lp, rp, run)
    run.script = sp
    results = (getattr(typecheck(lp.program), "result", None), getattr(typecheck(rp.program), "result", None))
    shape = shape_difference(sp.left, sp.right, *results)
    pair, _ = _prepare_loaded(lp, rp, run, compare_results=shape is None)
    with _z3_watchdog(run.deadline):
        result = _decide(pair, run) if shape is None else _search_shapes(pair, shape, run)
    if result.verdict == "equivalent":
        result = _proof_under_readings(result, pair, run)
    result = dataclasses.replace(result, stats={**result.stats, "script": sp.description()})
    if result.verdict == "not_equivalent" and run.options.replay:
        result = _replay_scripts(result, sp, run)
    return result


def _proof_under_readings(result: Result, pair: Pair, run: _Run) -> Result:
    """A proof compares the two programs under the same partitioning of each input; when the scripts
    read an input differently (``textFile`` against ``spark.read.text``) it covers what Spark runs only
    if, besides the aggregations (proved partition-independent), nothing the scripts observe depends on
    the partitioning. Otherwise the proof does not count: the search looks for files on which the
    scripts differ as Spark reads them, and the answer is ``unknown``, saying why, if it finds none."""
    from verifier.script_check import layout_sensitive, reading_difference

    assert run.script is not None
    differs = reading_difference(run.script.left, run.script.right)
    sensitive = layout_sensitive(pair.left) or layout_sensitive(pair.right)
    if differs is None or sensitive is None:
        return result
    reason = (f"{result.method} proved the scripts equivalent when both partition their inputs alike, but "
              f"{differs}, so Spark partitions it differently for each, and {sensitive} may give another "
              "result with another partitioning: no proof for the scripts as Spark runs them")
    run.said.append(f"{result.method}: proof set aside ({reason})")
    try:
        found = _difftest(pair, run)
    except OutOfTime:
        found = None
    if found is not None:
        return found
    return run.result("unknown", reason=reason)


def _search_shapes(pair: Pair, shape: str, run: _Run) -> Result:
    """Scripts whose outputs differ in shape: ``not_equivalent`` with files on which they write different
    things, else ``unknown`` naming the outputs."""
    from verifier.script_check import describe_sinks

    assert run.script is not None
    run.said.append(f"scripts: the outputs differ in shape ({shape}); no proof method compares them")
    try:
        found = _difftest(pair, run, SHAPE_SEARCH_PATIENCES)
    except OutOfTime:
        return _out_of_time(run)
    if found is not None:
        return found
    searched = next((s.split(": ", 1)[1] for s in reversed(run.said) if s.startswith("difftest: ")),
                    "no search was run")
    reason = (f"The scripts' outputs differ in shape: {shape}. LEFT writes "
              f"{describe_sinks(run.script.left)}; RIGHT writes {describe_sinks(run.script.right)}. "
              "Outputs of different shapes are compared only on concrete files, and the scripts wrote "
              f"the same on every one tried ({searched}).")
    return run.result("unknown", reason=reason)


def _script_counterexample(pair: Pair, confirmed: Confirmed, method: str, explanation: str, run: _Run
                           ) -> Result:
    """A scripts' counterexample: the files by the path expression the scripts read them from, Spark's
    partitions of them where they matter; the raw inputs (by parameter) stay in the stats for replay."""
    sp = run.script
    assert sp is not None
    partitions = sp.shown_partitions(pair.left, pair.right, confirmed, pair.sequential_ok)
    if partitions is not None:
        run.warnings.extend(sp.other_readings(confirmed.inputs))
    cex = Counterexample(
        inputs=sp.files(confirmed.inputs),
        partitions=partitions,
        left=to_json(confirmed.left),
        right=to_json(confirmed.right),
        replayed_on_spark=False,
        left_outcome=confirmed.left,
        right_outcome=confirmed.right,
        origin=confirmed.origin,
    )
    return run.result("not_equivalent", method=method, counterexample=cex, explanation=explanation,
                      stats={"raw_inputs": dict(confirmed.inputs),
                             "raw_partitions": dict(confirmed.partitions or {})})


@dataclass(frozen=True)
class _ScriptReplayPlan:
    """A scripts' counterexample ready to run: the inputs (by LEFT's parameter names) and the runs the
    interpreter predicts with Spark's partitions of the files (``started``: when the check began)."""

    result: Result
    sp: ScriptPair
    inputs: Mapping[str, Any]
    references: tuple[Any, Any]
    started: float


def _replay_scripts(result: Result, sp: ScriptPair, run: _Run) -> Result:
    """Run both unmodified scripts on the counterexample's files (``verifier.script_replay``)."""
    plan = _plan_script_replay(result, sp, run)
    if isinstance(plan, Result):
        return plan
    return _run_script_replays([plan], run.options.master)[0]


def _plan_script_replay(result: Result, sp: ScriptPair, run: _Run) -> _ScriptReplayPlan | Result:
    """First the interpreter predicts both runs with the partitions Spark will give the files at the
    replay's master: if that prediction shows no difference the counterexample is not replayed (it rests
    on a partitioning this Spark would not use), and the result comes back with a warning saying so."""
    from verifier.script_check import observably_differ, parallelism_of
    from verifier.script_replay import ReplayError, predict

    inputs = result.stats.get("raw_inputs")
    if result.counterexample is None or inputs is None:
        return _with_warning(result, "counterexample not replayed on Spark: its inputs were not kept")
    master = run.options.master
    try:
        parallelism = parallelism_of(master)
        references = (predict(sp.left, inputs, parallelism),
                      predict(sp.right, sp.right_inputs(inputs), parallelism))
    except ReplayError as exc:
        return _with_warning(result, f"counterexample not replayed on Spark: {exc}")
    if not observably_differ(sp.left, references[0], sp.right, references[1]):
        return _with_warning(result, "counterexample not replayed on Spark: with the partitions Spark "
                             f"gives these files at {master} the interpreter shows no difference "
                             "(this difference needs another partitioning)")
    return _ScriptReplayPlan(result, sp, inputs, references, run.started)


def _run_script_replays(plans: list[_ScriptReplayPlan], master: str) -> list[Result]:
    """Run the plans' scripts, all in one Python process (one JVM start: ``replay_many``); when one plan
    cannot be run at all (a path a replay cannot redirect), the others are run one by one."""
    from verifier.script_replay import ReplayError, replay_many

    try:
        replays = replay_many([(p.sp.left, p.sp.right, p.inputs, p.references) for p in plans], master)
    except ReplayError as exc:
        if len(plans) > 1:
            return [r for p in plans for r in _run_script_replays([p], master)]
        return [_with_warning(plans[0].result, f"counterexample not replayed on Spark: {exc}")]
    except (OSError, ValueError, RuntimeError) as exc:
        why = f"counterexample not replayed on Spark: {type(exc).__name__}: {exc}"
        return [_with_warning(p.result, why) for p in plans]
    return [_script_replay_verdict(p, r) for p, r in zip(plans, replays, strict=True)]


def _script_replay_verdict(plan: _ScriptReplayPlan, replayed: Any) -> Result:
    """What Spark's runs say: ``replayed_on_spark`` only when they differ and each is what the
    interpreter predicted; runs that are the same for both scripts make the verdict ``unknown``, as for
    functions; anything else leaves the verdict with a warning saying why it was not replayed."""
    import dataclasses

    from verifier.script_check import observably_differ

    result, sp = plan.result, plan.sp
    cex = result.counterexample
    assert cex is not None
    stats = dict(result.stats)
    stats.update(spark_left=to_json(replayed.left_outcome), spark_right=to_json(replayed.right_outcome),
                 replay_seconds=replayed.seconds)
    result = dataclasses.replace(result, stats=stats, seconds=time.monotonic() - plan.started)
    broken = _replay_environment_failure(replayed)
    if broken is not None:
        return _with_warning(result, f"counterexample not replayed on Spark: {broken}")
    seen = f"LEFT {_json_text(replayed.left_outcome)}, RIGHT {_json_text(replayed.right_outcome)}"
    if replayed.left_agrees and replayed.right_agrees:
        if observably_differ(sp.left, replayed.left_outcome, sp.right, replayed.right_outcome):
            replayed_cex = dataclasses.replace(cex, replayed_on_spark=True)
            return dataclasses.replace(result, counterexample=replayed_cex)
        return _with_warning(result, f"counterexample not replayed on Spark: Spark's runs ({seen}) could "
                             "not be told apart")
    same = _runs_differ(replayed.left, replayed.right)
    if same is False:
        reason = (f"the reference interpreter found a difference (LEFT {_json_text(cex.left_outcome)}, "
                  f"RIGHT {_json_text(cex.right_outcome)}), but run on Spark with the same files both "
                  f"scripts give {_json_text(replayed.left_outcome)}: this is a gap in sparkeq's model of "
                  "Spark (docs/scripts.md, Known limits), please report it")
        return dataclasses.replace(result, verdict="unknown", reason=reason, counterexample=None)
    if same is True:
        return _with_warning(result, f"counterexample not replayed on Spark: Spark's runs differ from "
                             f"each other, but not as the interpreter predicted ({seen})")
    return _with_warning(result, f"counterexample not replayed on Spark: Spark's runs ({seen}) differ "
                         "only in the order of printed lines, which is Spark's choice")


def _replay_environment_failure(replayed: Any) -> str | None:
    """Both scripts failed alike before doing anything the interpreter predicts (PySpark not importable,
    the JVM not starting): there was no replay to compare."""
    left, right = replayed.left, replayed.right
    if left.exception is None or left.exception != right.exception:
        return None
    if replayed.left_agrees or replayed.right_agrees:
        return None
    text = left.stderr + right.stderr
    if left.exception in ("ModuleNotFoundError", "ImportError") or "JAVA_GATEWAY_EXITED" in text \
            or "Java gateway process exited" in text:
        tail = (left.stderr.strip().splitlines() or [left.exception])[-1]
        return f"both scripts failed on Spark before running a job ({tail})"
    return None


def _runs_differ(left: Any, right: Any) -> bool | None:
    """Did two script runs write different things (True), exactly the same (False), or cannot it be
    told (None: the same lines in another order, which may be Spark's choice)?"""
    from collections import Counter

    if left.exception is not None or right.exception is not None:
        return left.exception != right.exception
    if left.exit_code != right.exit_code:
        return True
    files = ({k: Counter(v) for k, v in run.files_written.items()} for run in (left, right))
    if next(files) != next(files):
        return True
    if left.stdout_lines == right.stdout_lines:
        return False
    if Counter(left.stdout_lines) != Counter(right.stdout_lines):
        return True
    return None


WORKER_STACK_BYTES = 512 * 1024 * 1024
WORKER_RECURSION_LIMIT = 40_000


def _in_worker(work: Callable[[], Result]) -> Result:
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


def _out_of_time(run: _Run) -> Result:
    return run.result("unknown", reason=f"ran out of time (timeout {run.options.timeout:g} s); "
                      "no proof and no counterexample: " + "; ".join(list(run.said)))


@contextlib.contextmanager
def _z3_watchdog(deadline: float) -> Iterator[None]:
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


# ---------------------------------------------------------------------------------------------------
# Loading and comparability
# ---------------------------------------------------------------------------------------------------


def _load_both(left: Any, right: Any, run: _Run) -> tuple[LoadedProgram, LoadedProgram]:
    """Both sides loaded (``--schema`` read once for both), their warnings and sources recorded."""
    opts = run.options
    schemas = load_schemas(opts.schema)
    lp = load(left, function=opts.left_function or opts.function, schemas=schemas)
    rp = load(right, function=opts.right_function or opts.function, schemas=schemas)
    for loaded in (lp, rp):
        run.warnings.extend(loaded.warnings)
        if loaded.path and loaded.source is not None:
            run.sources[loaded.path] = loaded.source
    return lp, rp


def _prepare_loaded(lp: LoadedProgram, rp: LoadedProgram, run: _Run, compare_results: bool = True
                    ) -> tuple[Pair, tuple[LoadedProgram, LoadedProgram]]:
    """Both sides type-checked, RIGHT's parameters renamed to LEFT's, checked comparable (the result
    types only with ``compare_results``: scripts whose outputs differ in shape are still searched), and
    reduced to the kernel the methods read."""
    import dataclasses

    from sparklite.typecheck import typecheck

    lt, rt = typecheck(lp.program), typecheck(rp.program)
    left_prog = getattr(lt, "program", None) or lp.program
    right_prog = getattr(rt, "program", None) or rp.program
    right_prog = _match_by_position(left_prog, right_prog)
    _comparable(left_prog, right_prog, getattr(lt, "result", None) if compare_results else None,
                getattr(rt, "result", None))
    lp = dataclasses.replace(lp, program=left_prog)
    rp = dataclasses.replace(rp, program=right_prog)
    return Pair(kernel(left_prog), kernel(right_prog)), (lp, rp)


def kernel(program: Program) -> Program:
    """What the methods, the encoder and validation read: the program after SparkLite's passes
    (desugaring to the kernel, then the one simplification pass)."""
    from sparklite.desugar import desugar
    from sparklite.simplify import simplify

    return simplify(desugar(program))


def _match_by_position(left: Program, right: Program) -> Program:
    """RIGHT with its parameters renamed to LEFT's (parameters are matched by position)."""
    from sparklite.rename import rename_params

    if len(left.params) != len(right.params):
        return right
    renamed = rename_params(right, [p.name for p in left.params])
    if renamed is None:
        where = right.params[0].loc if right.params else right.loc
        raise InputError("RIGHT uses one of LEFT's parameter names for something else, so its parameters "
                         "cannot be renamed to LEFT's; rename that variable or parameter", where)
    return renamed


def _signature(program: Program) -> str:
    return "(" + ", ".join(f"{p.name}: {p.type}" for p in program.params) + ")"


def _comparable(left: Program, right: Program, left_result: Any, right_result: Any) -> None:
    """Same parameter names and types in order, same result type; else a located input error."""
    lsig = [(p.name, p.type) for p in left.params]
    rsig = [(p.name, p.type) for p in right.params]
    if lsig != rsig:
        where = _first_mismatch(left, right)
        raise InputError(f"the programs' parameters differ: LEFT takes {_signature(left)} but RIGHT takes "
                         f"{_signature(right)}; both must take the same inputs", where)
    if left_result is not None and right_result is not None and \
            _observed_type(left_result) != _observed_type(right_result):
        raise InputError(f"the programs' results differ in type: LEFT returns {left_result} but RIGHT "
                         f"returns {right_result}", right.body.loc or right.loc)


def _observed_type(t: Any) -> Any:
    """A collected list and an RDD are observed alike (a multiset, or a sequence modulo ties when
    sorted), so ``List[T]`` and ``Bag[T]`` results are comparable; so are ``Option[T]`` and ``T`` (an
    outer join's side that a filter made sure is never None holds the same values as a join's)."""
    from sparklite.types import BagType, ListType, OptionType, TupleType

    if isinstance(t, ListType | BagType):
        return BagType(_observed_type(t.elem))
    if isinstance(t, OptionType):
        return _observed_type(t.elem)
    if isinstance(t, TupleType):
        return TupleType(tuple(_observed_type(x) for x in t.elems))
    return t


def _first_mismatch(left: Program, right: Program) -> Loc | None:
    for lpar, rpar in zip(left.params, right.params, strict=False):
        if (lpar.name, lpar.type) != (rpar.name, rpar.type):
            return rpar.loc or right.loc
    return right.loc or left.loc


# ---------------------------------------------------------------------------------------------------
# Deciding
# ---------------------------------------------------------------------------------------------------


def _decide(pair: Pair, run: _Run) -> Result:
    """``_steps``, ended early by ``OutOfTime`` from any step: ``unknown``, never a partial verdict."""
    try:
        return _steps(pair, run)
    except OutOfTime as exc:
        run.said.append(f"{exc.where}: stopped (out of time)")
        return _out_of_time(run)


def _steps(pair: Pair, run: _Run) -> Result:
    from verifier.methods import partition_independence as pi

    checks = []
    for program in (pair.left, pair.right):
        try:
            checks.append(pi.check_program(program, run.method_options()))
        except OutOfTime:
            raise
        except Exception as exc:  # noqa: BLE001 - no proof of independence, which is safe
            _internal(run, "partition independence", exc)
            checks.append([pi.AggCheck(n, "aggregation", False, ("internal error",), True)
                           for n in pi.aggregations(program)])
    sequential_ok = all(c.independent for cs in checks for c in cs)
    pair = Pair(pair.left, pair.right, sequential_ok=sequential_ok)
    if not sequential_ok:
        found = _partition_dependence(pair, checks, run)
        if found is not None:
            return found
    else:
        run.said.append("partition independence: every aggregation is partition-independent")

    for name, method in _proof_methods(run):
        if run.remaining() <= 0:
            run.said.append(f"{name}: not run (out of time)")
            continue
        outcome = _run_method(name, lambda m=method: m.run(pair, run.method_options()), run)
        if isinstance(outcome, Proved):
            if not sequential_ok:  # belt and braces: methods must not prove folds Spark may not run
                run.said.append(f"{name}: claimed a proof although an aggregation is not known to be "
                                "partition-independent; ignored")
                continue
            return run.result("equivalent", method=outcome.method or name, explanation=outcome.explanation)
        if isinstance(outcome, NotApplicable):
            run.said.append(f"{name}: not applicable ({outcome.reason})")
            continue
        text = outcome.explanation if isinstance(outcome, Refuted) else outcome.reason
        confirmed = _validate(pair, outcome.candidates, run)
        if confirmed is not None:
            return _not_equivalent(pair, confirmed, outcome.method or name, text, run)
        if isinstance(outcome, Refuted):
            run.said.append(f"{name}: refuted a condition, but no candidate showed a real difference "
                            f"({text})")
        else:
            run.said.append(f"{name}: inconclusive ({text})")

    proved = _prove_in_views(pair, run)
    if proved is not None:
        return proved

    from verifier.methods import bounded

    if run.remaining() > 0:
        outcome = _run_method(bounded.NAME, lambda: bounded.run(pair, run.method_options(),
                                                                deadline=run.step_end(BOUNDED_PATIENCES),
                                                                stats=run.validation), run)
        if isinstance(outcome, Refuted):
            confirmed = _validate(pair, outcome.candidates, run)
            if confirmed is not None:
                return _not_equivalent(pair, confirmed, bounded.NAME, outcome.explanation, run)
            run.said.append("bounded: a candidate did not survive re-validation")
        elif isinstance(outcome, Inconclusive | NotApplicable):
            run.said.append(f"bounded: {outcome.reason}")
    else:
        run.said.append("bounded: not run (out of time)")

    found = _difftest(pair, run)
    if found is not None:
        return found
    if run.remaining() <= 0:
        return _out_of_time(run)
    return run.result("unknown", reason="no proof and no counterexample: " + "; ".join(run.said))


def _prove_in_views(pair: Pair, run: _Run) -> Result | None:
    """Try the proof methods on the pair's proof views (``verifier.abstraction``): sound rewritings of
    both programs. Only a proof counts; a view's counterexamples stand for no concrete input."""
    from verifier import abstraction
    from verifier.methods import partition_independence as pi

    try:
        views = list(abstraction.proof_views(pair.left, pair.right))
    except Exception as exc:  # noqa: BLE001 - no view, no proof: safe
        _internal(run, "proof views", exc)
        return None
    for what, left, right in views:
        if run.remaining() <= 0:
            return None
        try:
            independent = all(c.independent for p in (left, right)
                              for c in pi.check_program(p, run.method_options()))
        except OutOfTime:
            raise
        except Exception as exc:  # noqa: BLE001
            _internal(run, "partition independence (view)", exc)
            continue
        if not independent:
            run.said.append(f"view ({what}): an aggregation is not proved partition-independent")
            continue
        view = Pair(left, right, sequential_ok=True)
        for name, method in _proof_methods(run):
            if run.remaining() <= 0:
                break
            outcome = _run_method(name, lambda m=method, v=view: m.run(v, run.method_options()), run)
            if isinstance(outcome, Proved):
                explanation = f"{outcome.explanation} (with {what})"
                return run.result("equivalent", method=outcome.method or name, explanation=explanation)
        run.said.append(f"view ({what}): no method proved it")
    return None


def _partition_dependence(pair: Pair, checks: list[list[Any]], run: _Run) -> Result | None:
    """Warn about each aggregation not proved independent; look for a partitioning that separates the
    pair (a program whose output changes with partitioning, where the other does not follow)."""
    from verifier.methods import partition_independence as pi

    for side, program, cs in (("LEFT", pair.left, checks[0]), ("RIGHT", pair.right, checks[1])):
        bad = [c for c in cs if not c.independent]
        if not bad:
            continue
        # a warning is a claim: "partition-dependent" only with a witness the interpreter confirmed
        witness = None
        if run.remaining() > 0:
            try:
                witness = pi.find_witness(program, run.method_options(), deadline=run.deadline)
            except OutOfTime:
                run.warnings.extend(c.unproved() for c in bad)
                raise
            except Exception as exc:  # noqa: BLE001
                _internal(run, "partition-dependence search", exc)
        run.warnings.extend(c.warning() if witness is not None and len(bad) == 1 else c.unproved()
                            for c in bad)
        if witness is None:
            run.said.append(f"partition independence: {side} not proved partition-independent and no "
                            "input found on which its output depends on partitioning")
            continue
        run.warnings.append(
            f"{side}'s output depends on partitioning: on {_inputs_text(witness.inputs)} it gives "
            f"{_json_text(witness.first_outcome)} with partitions {_parts_text(witness.first)} but "
            f"{_json_text(witness.second_outcome)} with partitions {_parts_text(witness.second)}")
        cands = [Candidate(witness.inputs, witness.first, "partition witness"),
                 Candidate(witness.inputs, witness.second, "partition witness")]
        if run.script is not None:  # a script cannot choose partitions: Spark's reading of the files
            confirmed = run.script.confirm(pair.left, pair.right, cands, run.validation,
                                           run.deadline + run.slack())
        else:
            confirmed = validate(pair.left, pair.right, cands, stats=run.validation,
                                 deadline=run.deadline + run.slack())
        if confirmed is not None:
            why = (f"{side}'s result depends on how Spark partitions its input, and the two programs "
                   "give different results on this input and partitioning")
            return _not_equivalent(pair, confirmed, DEPENDENCE_METHOD, why, run)
    return None


def _proof_methods(run: _Run) -> list[tuple[str, Any]]:
    try:
        methods = importlib.import_module("verifier.methods")
    except ImportError as exc:  # pragma: no cover
        run.said.append(f"proof methods unavailable ({exc})")
        return []
    listed = getattr(methods, "PROOF_METHODS", None)
    if not listed:
        run.said.append("no proof methods are installed")
        return []
    return [(getattr(m, "NAME", getattr(m, "__name__", "method")), m) for m in listed]


def _run_method(name: str, call: Callable[[], Any], run: _Run) -> Any:
    """Run one method; a Z3 failure or an internal error becomes ``Inconclusive`` (never a crash)."""
    try:
        return call()
    except OutOfTime:
        raise
    except Exception as exc:  # noqa: BLE001 - a broken method may not take the verdict down with it
        if run.options.strict and not _is_resource_error(exc):
            raise
        _internal(run, name, exc)
        return Inconclusive(name, f"failed: {type(exc).__name__}: {exc}")


def _is_resource_error(exc: BaseException) -> bool:
    import z3

    return isinstance(exc, (z3.Z3Exception, MemoryError, RecursionError))


def _internal(run: _Run, where: str, exc: BaseException) -> None:
    run.internal_errors.append(f"{where}: {type(exc).__name__}: {exc}")


def _validate(pair: Pair, candidates: Any, run: _Run) -> Confirmed | None:
    if not candidates:
        return None
    if run.script is not None:
        return run.script.confirm(pair.left, pair.right, candidates, run.validation,
                                  run.deadline + run.slack())
    return validate(pair.left, pair.right, candidates, all_partitions=not pair.sequential_ok,
                    max_parts=run.options.max_partitions, stats=run.validation,
                    deadline=run.deadline + run.slack())


def _difftest(pair: Pair, run: _Run, patiences: float = DIFFTEST_PATIENCES) -> Result | None:
    """F's random differential testing, when installed: another source of *validated* candidates.
    For scripts, string inputs are drawn from lines shaped by the scripts' parsing too, and every
    candidate is run as the scripts would read it (``ScriptPair.search_hook``)."""
    if not run.options.difftest or run.remaining() <= 0:
        return None
    try:
        difftest = importlib.import_module("verifier.difftest")
    except ImportError:
        return None
    budget = max(0.05, run.step_end(patiences) - time.monotonic())
    script = run.script

    def search() -> Any:
        hooks: dict[str, Any] = {}
        if script is not None:
            hooks = {"strings": script.hints, "evaluate": script.search_hook(pair.left, pair.right)}
        return difftest.search(pair.left, pair.right, seed=run.options.seed, time_budget_s=budget,
                               max_parts=max(run.options.max_partitions, 2), **hooks)

    found = _run_method("difftest", search, run)
    candidate = getattr(found, "found", None)
    if candidate is None and script is not None and script.fallback is not None:
        candidate = script.fallback.candidate  # a difference resting on a task's exception: still one
    if candidate is None:
        tried = getattr(found, "tried", 0)
        run.said.append(f"difftest: no difference on {tried} random input(s)")
        return None
    confirmed = _validate(pair, [candidate], run)
    if confirmed is None:
        run.said.append("difftest: its difference did not survive re-validation")
        return None
    why = (f"random differential testing found inputs on which the programs differ "
           f"(after {found.tried} input(s))")
    return _not_equivalent(pair, confirmed, "difftest", why, run)


# ---------------------------------------------------------------------------------------------------
# Counterexamples and replay
# ---------------------------------------------------------------------------------------------------


def _not_equivalent(pair: Pair, confirmed: Confirmed, method: str, explanation: str, run: _Run) -> Result:
    if run.script is not None:
        return _script_counterexample(pair, confirmed, method, explanation, run)
    partitions = None
    if not pair.sequential_ok or method == DEPENDENCE_METHOD or _laid_out(confirmed):
        partitions = {k: to_json(v) for k, v in (confirmed.partitions or {}).items()}
    cex = Counterexample(
        inputs={k: to_json(tuple(v) if isinstance(v, list) else v) for k, v in confirmed.inputs.items()},
        partitions=partitions,
        left=to_json(confirmed.left),
        right=to_json(confirmed.right),
        replayed_on_spark=False,
        left_outcome=confirmed.left,
        right_outcome=confirmed.right,
        origin=confirmed.origin,
    )
    return run.result("not_equivalent", method=method, counterexample=cex, explanation=explanation,
                      stats={"raw_inputs": dict(confirmed.inputs),
                             "raw_partitions": dict(confirmed.partitions or {})})


def _laid_out(confirmed: Confirmed) -> bool:
    """Was the difference confirmed on a layout other than the inputs' default (one partition, in list
    order)? Then the counterexample shows it: an action such as ``first()`` after a shuffle, or a
    collected list's order, may need it even when every aggregation is partition-independent."""
    from sparklite.partitions import default_partitioning

    for name, parts in (confirmed.partitions or {}).items():
        items = confirmed.inputs.get(name)
        if isinstance(items, list | tuple) and tuple(tuple(p) for p in parts) != default_partitioning(items):
            return True
    return False


def _replay(result: Result, loaded: tuple[LoadedProgram, LoadedProgram], run: _Run) -> Result:
    """Run the counterexample on real Spark with the users' own code; keep the verdict only if Spark
    also shows a difference."""
    cex = result.counterexample
    assert cex is not None
    try:
        from verifier.replay import ReplayError, replay
        from verifier.spark import SparkUnavailable
    except ImportError as exc:
        return _with_warning(result, f"counterexample not replayed on Spark: replay is unavailable ({exc})")
    inputs = result.stats.get("raw_inputs", {})
    partitions = result.stats.get("raw_partitions") or None
    try:
        references = (cex.left_outcome, cex.right_outcome) if cex.left_outcome is not None else None
        replayed = replay(loaded[0], loaded[1], inputs, partitions, master=run.options.master,
                          references=references)
    except SparkUnavailable as exc:
        return _with_warning(result, f"counterexample not replayed on Spark: {exc}")
    except ReplayError as exc:
        return _with_warning(result, f"counterexample not replayed on Spark: {exc}")
    stats = dict(result.stats)
    stats["spark_left"] = to_json(replayed.left)
    stats["spark_right"] = to_json(replayed.right)
    stats["replay_seconds"] = replayed.seconds
    if not replayed.differs:
        reason = (f"the reference interpreter found a difference (LEFT {_json_text(cex.left_outcome)}, "
                  f"RIGHT {_json_text(cex.right_outcome)}), but Spark gives "
                  f"{_json_text(replayed.left)} for both on the same inputs and partitions: "
                  "this is a bug in sparkeq's model of Spark, please report it")
        return Result("unknown", method=result.method, reason=reason, counterexample=None,
                      warnings=result.warnings, seconds=time.monotonic() - run.started,
                      explanation=result.explanation, stats=stats, sources=result.sources)
    warnings = list(result.warnings)
    from sparklite.values import outcomes_equal

    same_as_model = outcomes_equal(replayed.left, cex.left_outcome) and \
        outcomes_equal(replayed.right, cex.right_outcome)
    if not same_as_model:
        warnings.append(f"Spark's outputs (LEFT {_json_text(replayed.left)}, RIGHT "
                        f"{_json_text(replayed.right)}) differ from the interpreter's; they still differ "
                        "from each other")
    new_cex = Counterexample(cex.inputs, cex.partitions, cex.left, cex.right, True, cex.left_outcome,
                             cex.right_outcome, cex.origin)
    return Result(result.verdict, method=result.method, reason=result.reason, counterexample=new_cex,
                  warnings=tuple(warnings), seconds=time.monotonic() - run.started,
                  explanation=result.explanation, stats=stats, sources=result.sources)


def _with_warning(result: Result, warning: str) -> Result:
    return Result(result.verdict, result.method, result.reason, result.counterexample,
                  (*result.warnings, warning), result.seconds, result.explanation, result.stats,
                  result.sources)


def _json_text(value: Any) -> str:
    import json

    return json.dumps(to_json(value))


def _inputs_text(inputs: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={_json_text(tuple(v) if isinstance(v, list) else v)}" for k, v in inputs.items())


def _parts_text(parts: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={_json_text(v)}" for k, v in parts.items())
