"""The program kind of two whole RDD scripts (``docs/scripts.md``).

Scripts take the same steps as RDD programs (``verifier.core.decide``) on the programs
``frontend.script`` makes of them, with ``verifier.core.script_check`` deciding what a counterexample is
(files the scripts can read, each side on Spark's partitioning of them, outputs that differ however
Spark orders them); scripts whose outputs have different shapes are only searched; a proof that rests on
both scripts partitioning an input alike is set aside when they read it differently. ``replay`` runs both
unmodified scripts on the counterexample's files (through the facade's ``Replayer``), after the
interpreter has predicted both runs with the partitions Spark will give the files.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sparklite.ast import Loc
from sparklite.deadline import OutOfTime
from sparklite.errors import InputError
from sparklite.values import to_json
from verifier.core.base import LoadedProgram, Pair
from verifier.core.decide import decide, difftest_search
from verifier.core.kinds.rdd import congruent_programs, prepare_loaded
from verifier.core.result import Result
from verifier.core.run import (
    SHAPE_SEARCH_PATIENCES,
    CheckOptions,
    Run,
    json_text,
    load_both,
    out_of_time,
    plain_reason,
    with_warning,
    z3_watchdog,
)
from verifier.core.script_check import ScriptPair
from verifier.core.services import NO_REPLAYER, Replayer, Services


def _script_pair(lp: LoadedProgram, rp: LoadedProgram, run: Run
                 ) -> tuple[ScriptPair, LoadedProgram, LoadedProgram]:
    """Both sides must be whole scripts (else a located input error); RIGHT's inputs are lined up with
    LEFT's (``align_sources``: by path expression, then by order; located errors when they cannot be)."""
    import dataclasses

    from frontend.script.rdd_program import share_path_arguments
    from frontend.script.rdd_script import align_sources
    from verifier.core.script_check import ScriptPair

    if lp.script is None or rp.script is None:
        script, other, side = (lp, rp, "RIGHT") if lp.script is not None else (rp, lp, "LEFT")
        where = getattr(other.program, "loc", None) or Loc(other.path or "<input>", 1, 1)
        what = f"{other.path}::{other.function}" if other.path and other.function else \
            other.path or "a program given in memory"
        why = next((f" ({w})" for w in other.warnings if "as a whole script" in w), "")
        raise InputError(f"{script.path} is a whole script but {side} ({what}) is not{why}: a script can "
                         "only be compared with another script (docs/scripts.md)", where)
    left, right = share_path_arguments(lp.script, rp.script)
    right = align_sources(left, right)
    return (ScriptPair.of(left, right, run.options.master),
            dataclasses.replace(lp, program=left.program, script=left),
            dataclasses.replace(rp, program=right.program, script=right))


def _check_scripts(lp: LoadedProgram, rp: LoadedProgram, run: Run) -> Result:
    """Two whole scripts: the ordinary steps on their programs when their outputs line up item by item;
    otherwise (a different number or kind of outputs) only the search for files on which they write
    different things, since no proof compares outputs of different shapes. Raises ``InputError``."""
    import dataclasses

    from sparklite.typecheck import typecheck
    from verifier.core.script_check import shape_difference

    sp, lp, rp = _script_pair(lp, rp, run)
    run.script = sp
    results = (getattr(typecheck(lp.program), "result", None), getattr(typecheck(rp.program), "result", None))
    shape = shape_difference(sp.left, sp.right, *results)
    pair, _ = prepare_loaded(lp, rp, run, compare_results=shape is None)
    with z3_watchdog(run.deadline):
        result = decide(pair, run) if shape is None else _search_shapes(pair, shape, run)
    if result.verdict == "equivalent":
        result = _proof_under_readings(result, pair, run)
    ignored = tuple(x.to_json(side) for side, script in (("left", sp.left), ("right", sp.right))
                    for x in script.ignored)
    result = dataclasses.replace(result, stats={**result.stats, "script": sp.description()},
                                 ignored_statements=ignored)
    if result.verdict == "not_equivalent" and run.options.replay:
        result = _replay_scripts(result, sp, run)
    return result


def _proof_under_readings(result: Result, pair: Pair, run: Run) -> Result:
    """A proof compares the two programs under the same partitioning of each input; when the scripts
    read an input differently (``textFile`` against ``spark.read.text``) it covers what Spark runs only
    if, besides the aggregations (proved partition-independent), nothing the scripts observe depends on
    the partitioning. Otherwise the proof does not count: the search looks for files on which the
    scripts differ as Spark reads them, and the answer is ``unknown``, saying why, if it finds none."""
    from verifier.core.script_check import layout_sensitive, reading_difference

    assert run.script is not None
    differs = reading_difference(run.script.left, run.script.right)
    sensitive = layout_sensitive(pair.left) or layout_sensitive(pair.right) or next(
        (f"getNumPartitions() at {s.loc}" for s in run.script.left.sources if s.kind == "partitions"), None)
    if differs is None or sensitive is None:
        return result
    reason = (f"{result.method} proved the scripts equivalent when both partition their inputs alike, but "
              f"{differs}, so Spark partitions it differently for each, and {sensitive} may give another "
              "result with another partitioning: no proof for the scripts as Spark runs them")
    run.said.append(f"{result.method}: proof set aside ({reason})")
    try:
        found = difftest_search(pair, run)
    except OutOfTime:
        found = None
    if found is not None:
        return found
    return run.result("unknown", reason=reason)


def _search_shapes(pair: Pair, shape: str, run: Run) -> Result:
    """Scripts whose outputs differ in shape: ``not_equivalent`` with files on which they write different
    things, else ``unknown`` naming the outputs."""
    from verifier.core.script_check import describe_sinks

    assert run.script is not None
    run.said.append(f"scripts: the outputs differ in shape ({shape}); no proof method compares them")
    try:
        found = difftest_search(pair, run, SHAPE_SEARCH_PATIENCES)
    except OutOfTime:
        return out_of_time(run)
    if found is not None:
        return found
    searched = next((s.split(": ", 1)[1] for s in reversed(run.said) if s.startswith("difftest: ")),
                    "no search was run")
    reason = (f"The scripts' outputs differ in shape: {shape}. LEFT writes "
              f"{describe_sinks(run.script.left)}; RIGHT writes {describe_sinks(run.script.right)}. "
              "Outputs of different shapes are compared only on concrete files, and the scripts wrote "
              f"the same on every one tried ({searched}).")
    return run.result("unknown", reason=reason)


@dataclass(frozen=True)
class _ScriptReplayPlan:
    """A scripts' counterexample ready to run: the inputs (by LEFT's parameter names) and the runs the
    interpreter predicts with Spark's partitions of the files (``started``: when the check began)."""

    result: Result
    sp: ScriptPair
    inputs: Mapping[str, Any]
    references: tuple[Any, Any]
    started: float


def _replay_scripts(result: Result, sp: ScriptPair, run: Run) -> Result:
    """Run both unmodified scripts on the counterexample's files (``verifier.runtime.script_replay``)."""
    plan = _plan_script_replay(result, sp, run)
    if isinstance(plan, Result):
        return plan
    return _run_script_replays([plan], run.options.master, run.services.replayer)[0]


def _plan_script_replay(result: Result, sp: ScriptPair, run: Run) -> _ScriptReplayPlan | Result:
    """First the interpreter predicts both runs with the partitions Spark will give the files at the
    replay's master: if that prediction shows no difference the counterexample is not replayed (it rests
    on a partitioning this Spark would not use), and the result comes back with a warning saying so."""
    from verifier.core.script_check import observably_differ, parallelism_of
    from verifier.core.script_inputs import ReplayError, predict

    inputs = result.stats.get("raw_inputs")
    if result.counterexample is None or inputs is None:
        return with_warning(result, "counterexample not replayed on Spark: its inputs were not kept")
    master = run.options.master
    try:
        parallelism = parallelism_of(master)
        references = (predict(sp.left, inputs, parallelism),
                      predict(sp.right, sp.right_inputs(inputs), parallelism))
    except ReplayError as exc:
        return with_warning(result, f"counterexample not replayed on Spark: {exc}")
    if not observably_differ(sp.left, references[0], sp.right, references[1]):
        return with_warning(result, "counterexample not replayed on Spark: with the partitions Spark "
                             f"gives these files at {master} the interpreter shows no difference "
                             "(this difference needs another partitioning)")
    return _ScriptReplayPlan(result, sp, inputs, references, run.started)


def _run_script_replays(plans: list[_ScriptReplayPlan], master: str, replayer: Replayer | None
                        ) -> list[Result]:
    """Run the plans' scripts, all in one Python process (one JVM start: ``replay_many``); when one plan
    cannot be run at all (a path a replay cannot redirect), the others are run one by one."""
    from verifier.core.script_inputs import ReplayError

    if replayer is None:
        return [with_warning(p.result, f"counterexample not replayed on Spark: {NO_REPLAYER}") for p in plans]
    try:
        replays = replayer.replay_scripts([(p.sp.left, p.sp.right, p.inputs, p.references) for p in plans],
                                          master)
    except ReplayError as exc:
        if len(plans) > 1:
            return [r for p in plans for r in _run_script_replays([p], master, replayer)]
        return [with_warning(plans[0].result, f"counterexample not replayed on Spark: {exc}")]
    except (OSError, ValueError, RuntimeError) as exc:
        why = f"counterexample not replayed on Spark: {type(exc).__name__}: {exc}"
        return [with_warning(p.result, why) for p in plans]
    return [_script_replay_verdict(p, r) for p, r in zip(plans, replays, strict=True)]


def _script_replay_verdict(plan: _ScriptReplayPlan, replayed: Any) -> Result:
    """What Spark's runs say: ``replayed_on_spark`` only when they differ and each is what the
    interpreter predicted; runs that are the same for both scripts make the verdict ``unknown``, as for
    functions; anything else leaves the verdict with a warning saying why it was not replayed."""
    import dataclasses

    from verifier.core.script_check import observably_differ

    result, sp = plan.result, plan.sp
    cex = result.counterexample
    assert cex is not None
    stats = dict(result.stats)
    stats.update(spark_left=to_json(replayed.left_outcome), spark_right=to_json(replayed.right_outcome),
                 replay_seconds=replayed.seconds)
    result = dataclasses.replace(result, stats=stats, seconds=time.monotonic() - plan.started)
    broken = _replay_environment_failure(replayed)
    if broken is not None:
        return with_warning(result, f"counterexample not replayed on Spark: {broken}")
    seen = f"LEFT {json_text(replayed.left_outcome)}, RIGHT {json_text(replayed.right_outcome)}"
    if replayed.left_agrees and replayed.right_agrees:
        if observably_differ(sp.left, replayed.left_outcome, sp.right, replayed.right_outcome):
            replayed_cex = dataclasses.replace(cex, replayed_on_spark=True)
            return dataclasses.replace(result, counterexample=replayed_cex)
        return with_warning(result, f"counterexample not replayed on Spark: Spark's runs ({seen}) could "
                             "not be told apart")
    same = _runs_differ(replayed.left, replayed.right)
    if same is False:
        reason = (f"the reference interpreter found a difference (LEFT {json_text(cex.left_outcome)}, "
                  f"RIGHT {json_text(cex.right_outcome)}), but run on Spark with the same files both "
                  f"scripts give {json_text(replayed.left_outcome)}: this is a gap in sparkeq's model of "
                  "Spark (docs/scripts.md, Known limits), please report it")
        return dataclasses.replace(result, verdict="unknown", reason=reason, counterexample=None)
    if same is True:
        return with_warning(result, f"counterexample not replayed on Spark: Spark's runs differ from "
                             f"each other, but not as the interpreter predicted ({seen})")
    return with_warning(result, f"counterexample not replayed on Spark: Spark's runs ({seen}) differ "
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


class RddScriptKind:
    """Two whole RDD scripts (``verifier.core.kind.ProgramKind``); a script against a function is a
    located input error."""

    name = "rdd_script"

    def accepts(self, lp: LoadedProgram, rp: LoadedProgram) -> bool:
        return lp.script is not None or rp.script is not None

    def congruent(self, lp: LoadedProgram, rp: LoadedProgram, run: Run) -> Result | None:
        import dataclasses

        from frontend.script.canonical import rdd_script_key

        sp, lp, rp = _script_pair(lp, rp, run)
        pair, _ = prepare_loaded(lp, rp, run, compare_results=False)
        keys = (rdd_script_key(sp.left, pair.left), rdd_script_key(sp.right, pair.right))
        n = sp.left.argv_length - 1
        args = ", ".join(f"sys.argv[{i}]" for i in range(1, n + 1)) or "none"
        assumed = (f"both scripts are run with the {n} command-line argument(s) they use ({args})",)
        result = congruent_programs(pair, run, "scripts", assumed, {"script": sp.description()}, keys)
        if result is None:
            return None
        ignored = tuple(x.to_json(side) for side, script in (("left", sp.left), ("right", sp.right))
                        for x in script.ignored)
        return dataclasses.replace(result, ignored_statements=ignored)

    def check(self, lp: LoadedProgram, rp: LoadedProgram, run: Run) -> Result:
        return _check_scripts(lp, rp, run)

    def made(self, result: Result) -> bool:
        return "script" in result.stats

    def replay(self, items: Sequence[tuple[Result, Any, Any]], opts: CheckOptions, services: Services
               ) -> list[Result]:
        """Plan every counterexample (the interpreter's prediction on Spark's partitions), then run all
        the plans' scripts in one Python process: each process starts a JVM."""
        out: list[Result | None] = [None] * len(items)
        plans: list[tuple[int, _ScriptReplayPlan, Any, Any]] = []
        for i, (result, left, right) in enumerate(items):
            started = time.monotonic() - result.seconds
            run = Run.of(opts, started, services)
            try:
                lp, rp = load_both(left, right, run)
                plan = _plan_script_replay(result, _script_pair(lp, rp, run)[0], run)
            except InputError as exc:  # pragma: no cover - the same sides were loaded by check()
                plan = with_warning(result, f"counterexample not replayed on Spark: {exc}")
            if isinstance(plan, Result):
                out[i] = plain_reason(plan, left, right, opts, services)
            else:
                plans.append((i, plan, left, right))
        if plans:
            done = _run_script_replays([p for _, p, _, _ in plans], opts.master, services.replayer)
            for (i, _, left, right), result in zip(plans, done, strict=True):
                out[i] = plain_reason(result, left, right, opts, services)
        return [r for r in out if r is not None]


RDD_SCRIPT = RddScriptKind()
