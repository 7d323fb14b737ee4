"""The program kind of an RDD program against a DataFrame/SQL program: a migration check.

Why a kind of its own, and no third kernel: each side stays in its own kernel, run by its own reference
interpreter, and the pair is decided across them (``docs/migration.md``):

1. link the inputs by position (``verifier.core.cross_inputs``: an ``RDD[tuple[int, str]]`` reads a
   two-column table as ``df.rdd`` hands its rows over);
2. search for a difference: both interpreters over the same tables (``verifier.core.cross_search``),
   so a difference is what Python sees (the RDD's elements against the DataFrame's rows as tuples);
   a difference resting on a DataFrame runtime error or on ties waits for Spark, as DataFrame pairs do;
3. prove: the RDD program is carried into the relational kernel where both express the same terms
   (``sparklite.bridge``; Python's unbounded ints against Spark's INT/BIGINT is an assumption there,
   listed), and the relational prover (``verifier.core.methods.rel_terms``) matches the two terms;
4. replay a difference on Spark: the RDD function with the rows as Python values, the DataFrame/SQL
   program with the tables.

The search runs before the proof, unlike DataFrame pairs: the proof's assumptions (no overflow, exact
division) are exactly where a migration goes wrong, so an input that breaks one is looked for first and
a proof is only claimed where the search found none.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from sparklite import ast as A
from sparklite.errors import InputError
from sparklite.relational import ast as R
from verifier.core.base import LoadedProgram
from verifier.core.cross_inputs import (
    Correspondence,
    correspond,
    python_view,
    rdd_inputs,
    rdd_partitions,
    same,
)
from verifier.core.cross_search import CrossFound, search
from verifier.core.kind import replay_each
from verifier.core.result import Counterexample, Result
from verifier.core.run import CheckOptions, Run, load_both, plain_reason, with_warning
from verifier.core.services import NO_REPLAYER, Services

METHOD = "cross_bounded"
QUICK_CANDIDATES = 120
SEARCH_PATIENCES = 1.5
TRIES_PER_PATIENCE = 1000  # candidates per patience: counted, not timed (issue 24), as the relational kind
PROOF_PATIENCES = 2.0


def _rdd(lp: LoadedProgram) -> bool:
    return isinstance(lp.program, A.Program) and lp.script is None


def _rel(lp: LoadedProgram) -> bool:
    return isinstance(lp.program, R.RelProgram) and lp.script is None


def _sides(lp: LoadedProgram, rp: LoadedProgram) -> tuple[LoadedProgram, LoadedProgram, bool]:
    """(the RDD side, the relational side, is the RDD side LEFT)."""
    return (lp, rp, True) if _rdd(lp) else (rp, lp, False)


def check_cross(lp: LoadedProgram, rp: LoadedProgram, run: Run) -> Result:
    rdd_lp, rel_lp, rdd_left = _sides(lp, rp)
    rdd, rel = rdd_lp.program, rel_lp.program
    assert isinstance(rdd, A.Program) and isinstance(rel, R.RelProgram)
    try:
        c = correspond(rdd.params, rel, "LEFT" if rdd_left else "RIGHT")
    except InputError as exc:
        return run.result("error", reason=str(exc), stats={"cross": {}})
    run.warnings.extend(w for w in c.warnings if w not in run.warnings)
    stats: dict[str, Any] = {"cross": {"rdd_left": rdd_left}}
    # a first, short search: the boundary values break the proof's assumptions (overflow, exactness)
    found = search(c, rdd, rel, until=run.deadline, seed=run.options.seed, limit=QUICK_CANDIDATES)
    if found.found is None and found.pending is None:
        proof = _prove(c, rdd, rel, run)
        if proof[0]:
            method, explanation, assumptions = proof[1], proof[2], proof[3]
            return run.result("equivalent", method=method, reason=explanation, explanation=explanation,
                              assumptions=assumptions, stats={**stats, "proof": method, "tried": found.tried})
        why_not = proof[1]
        found = search(c, rdd, rel, until=run.deadline, seed=run.options.seed + 1,
                       limit=run.steps(TRIES_PER_PATIENCE, SEARCH_PATIENCES))
    else:
        why_not = "not attempted: the search found a difference first"
    stats["tried"] = found.tried
    if found.found is not None:
        result = _not_equivalent(c, found.found, rdd_left, run, stats)
        return replay_cross(result, lp, rp, run) if run.options.replay else result
    if found.pending is not None:
        pending = found.pending
        stats["pending_more"] = tuple(found.others)  # tried on Spark in turn if the first is not confirmed
        if run.options.replay:
            return replay_cross(_not_equivalent(c, pending, rdd_left, run, stats), lp, rp, run)
        reason = (f"the reference interpreters found tables on which the programs differ "
                  f"({_inputs_text(c, pending, rdd_left)}), but the difference rests on {pending.why}: only "
                  "Spark can confirm it; run with replay (the CLI's default, or check(..., replay=True))")
        return run.result("unknown", method=METHOD, reason=reason, stats={**stats, "pending": pending})
    reason = (f"no difference on {found.tried} candidate input(s) (empty tables, boundary values, random "
              f"tables and partitionings), and no proof: {why_not}")
    return run.result("unknown", method=METHOD, reason=reason, stats=stats)


def _prove(c: Correspondence, rdd: A.Program, rel: R.RelProgram, run: Run
           ) -> tuple[bool, str, str, tuple[str, ...]]:
    """(proved?, method or why not, explanation, assumptions) from the bridge and the relational prover."""
    from verifier.core.methods import cross_terms

    return cross_terms.run(c, rdd, rel, timeout_s=PROOF_PATIENCES * run.patience(), until=run.deadline)


def _json_view(outcome: Any) -> Any:
    """An outcome's JSON as Python sees it (``cross_inputs.python_view``): a DataFrame's rows as lists,
    like the RDD's tuples, so the two sides of a counterexample read alike; an error as ``{"error": ...}``."""
    from sparklite.values import to_json
    from verifier.core.cross_inputs import Raised

    view = python_view(outcome)
    if isinstance(view, Raised):
        return {"error": view.what}
    return to_json(view)


def _inputs_json(c: Correspondence, found: CrossFound, rdd_left: bool) -> dict[str, Any]:
    """The counterexample's inputs by the RDD program's names when it is LEFT, else by the tables'."""
    from sparklite.values import to_json
    from verifier.core.relational_search import inputs_json

    if rdd_left:
        return {k: to_json(v) if not isinstance(v, list) else [to_json(x) for x in v]
                for k, v in rdd_inputs(c, found.tables).items()}
    return inputs_json(c.params, found.tables)


def _inputs_text(c: Correspondence, found: CrossFound, rdd_left: bool) -> str:
    return json.dumps(_inputs_json(c, found, rdd_left), default=str)


def _not_equivalent(c: Correspondence, found: CrossFound, rdd_left: bool, run: Run, stats: dict[str, Any]
                    ) -> Result:
    lo, ro = (found.rdd_outcome, found.rel_outcome) if rdd_left else (found.rel_outcome, found.rdd_outcome)
    parts = rdd_partitions(c, found.layout)
    cex = Counterexample(inputs=_inputs_json(c, found, rdd_left),
                         partitions={k: [list(p) for p in v] for k, v in parts.items()} if parts else None,
                         left=_json_view(lo), right=_json_view(ro), replayed_on_spark=False,
                         left_outcome=python_view(lo), right_outcome=python_view(ro), origin=found.origin)
    if found.definite:
        why = f"{found.origin} found tables on which the two programs' outputs differ as Python sees them"
    else:
        why = (f"{found.origin} found tables on which the interpreters show different outputs; the "
               f"difference rests on {found.why}, so it stands only if Spark reproduces it")
    return run.result("not_equivalent", method=METHOD, counterexample=cex, explanation=why, reason=why,
                      stats={**stats, "found": found})


def replay_cross(result: Result, lp: LoadedProgram, rp: LoadedProgram, run: Run) -> Result:
    """Run the RDD function and the DataFrame/SQL program on Spark over the counterexample's tables; keep
    ``not_equivalent`` only if Spark shows the difference too."""
    from verifier.core.services import DataFrameReplayError, ReplayError, SparkUnavailable

    found: CrossFound | None = result.stats.get("found") or result.stats.get("pending")
    if found is None:
        return result
    rdd_lp, rel_lp, rdd_left = _sides(lp, rp)
    rdd, rel = rdd_lp.program, rel_lp.program
    assert isinstance(rdd, A.Program) and isinstance(rel, R.RelProgram)
    c = correspond(rdd.params, rel, "LEFT" if rdd_left else "RIGHT")
    replayer = run.services.replayer
    started = time.monotonic()
    try:
        if replayer is None:
            raise SparkUnavailable(NO_REPLAYER)
        # a difference among ties is judged on the rows Spark really returns (no reference to read
        # them through: the interpreter's tie groups would make any choice of Spark's look alike)
        ties = not found.definite
        so = replayer.run_rdd(rdd_lp, rdd_inputs(c, found.tables), rdd_partitions(c, found.layout),
                              master=run.options.master, reference=None if ties else found.rdd_outcome)
        ro = replayer.run_dataframe(rel_lp, found.tables, found.layout, {}, run.options.master,
                                    None if ties else found.rel_outcome)
    except (SparkUnavailable, ReplayError, DataFrameReplayError) as exc:
        if not found.definite:
            return run.result("unknown", method=METHOD, reason=(
                f"a difference that rests on {found.why} could not be confirmed on Spark: {exc}"),
                stats=dict(result.stats))
        return with_warning(result, f"counterexample not replayed on Spark: {exc}")
    stats = dict(result.stats)
    stats.update(replay_seconds=time.monotonic() - started)
    if same(so, ro) is not False:
        more = list(result.stats.get("pending_more", ()))
        if not found.definite and more:  # Spark did not confirm this one: the next pending difference
            rest = {k: v for k, v in result.stats.items() if k not in ("found", "pending", "pending_more")}
            rest["pending_more"] = tuple(more[1:])
            return replay_cross(_not_equivalent(c, more[0], rdd_left, run, rest), lp, rp, run)
        reason = (f"the reference interpreters found a difference, but on Spark the RDD program gives "
                  f"{json.dumps(_json_view(so), default=str)} and the DataFrame/SQL program "
                  f"{json.dumps(_json_view(ro), default=str)}, which Python does not tell apart")
        if found.definite:
            reason += ": this is a bug in sparkeq's model of Spark, please report it"
        else:
            reason += f" (the difference rested on {found.why}, which Spark did not reproduce)"
        return Result("unknown", method=result.method, reason=reason, warnings=result.warnings,
                      seconds=time.monotonic() - run.started, explanation=result.explanation, stats=stats,
                      sources=result.sources, assumptions=result.assumptions)
    lo, rro = (so, ro) if rdd_left else (ro, so)
    cex = result.counterexample
    assert cex is not None
    new_cex = Counterexample(cex.inputs, cex.partitions, _json_view(lo), _json_view(rro), True,
                             python_view(lo), python_view(rro), cex.origin)
    reason = result.reason if found.definite else (
        f"Spark confirms the difference found by {found.origin} (it rested on {found.why})")
    return Result("not_equivalent", method=result.method, reason=reason, counterexample=new_cex,
                  warnings=result.warnings, seconds=time.monotonic() - run.started,
                  explanation=result.explanation, stats=stats, sources=result.sources,
                  assumptions=result.assumptions)


def _replay_one(result: Result, left: Any, right: Any, run: Run) -> Result:
    try:
        lp, rp = load_both(left, right, run)
    except InputError as exc:  # pragma: no cover - the same sides were loaded by check()
        return with_warning(result, f"counterexample not replayed on Spark: {exc}")
    if result.verdict == "unknown" and "pending" in result.stats:
        rdd_lp, rel_lp, rdd_left = _sides(lp, rp)
        assert isinstance(rdd_lp.program, A.Program) and isinstance(rel_lp.program, R.RelProgram)
        c = correspond(rdd_lp.program.params, rel_lp.program, "LEFT" if rdd_left else "RIGHT")
        stats = {k: v for k, v in result.stats.items() if k != "pending"}
        result = _not_equivalent(c, result.stats["pending"], rdd_left, run, stats)
    return plain_reason(replay_cross(result, lp, rp, run), left, right, run.options, run.services)


class CrossKind:
    """An RDD program against a DataFrame/SQL program (``verifier.core.kind.ProgramKind``)."""

    name = "cross"

    def accepts(self, lp: LoadedProgram, rp: LoadedProgram) -> bool:
        return (_rdd(lp) and _rel(rp)) or (_rel(lp) and _rdd(rp))

    def congruent(self, lp: LoadedProgram, rp: LoadedProgram, run: Run) -> Result | None:
        """Never: an RDD program and a DataFrame/SQL program are terms of two kernels."""
        return None

    def check(self, lp: LoadedProgram, rp: LoadedProgram, run: Run) -> Result:
        return check_cross(lp, rp, run)

    def made(self, result: Result) -> bool:
        return "cross" in result.stats

    def replay(self, items: Sequence[tuple[Result, Any, Any]], opts: CheckOptions, services: Services
               ) -> list[Result]:
        return replay_each(items, opts, services, _replay_one)


CROSS = CrossKind()
