"""The program kind of two DataFrame/SQL programs: their check, from loaded programs to a ``Result``.

Order: align the tables (``verifier.core.relational_search.align``), search for a difference under the
deadline, and answer. A definite difference is ``not_equivalent`` at once (replay then runs as for RDD
pairs); a difference that rests on an error or on partitioning is reported only once Spark reproduces it, so
without replay it leaves the verdict ``unknown`` and says how to confirm it. The term-matching
prover (``verifier.core.methods.rel_terms``) runs first: a proof is ``equivalent`` with what it assumed;
otherwise the search looks for a difference, and a pair with neither is ``unknown``, saying why.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from frontend.dataframe.dynamic_frames import takes_dynamic_frames
from sparklite.errors import InputError
from sparklite.relational import ast as R
from sparklite.relational import row_cap
from verifier.core.base import Inconclusive, LoadedProgram, NotApplicable
from verifier.core.kind import replay_each
from verifier.core.methods import rel_terms
from verifier.core.methods.rel_terms import RelProof
from verifier.core.relational_search import (
    Found,
    Search,
    align,
    constraint_texts,
    differ,
    inputs_json,
    layout_json,
    nullability_warnings,
    python_rows,
    search,
)
from verifier.core.result import Counterexample, Result
from verifier.core.run import CheckOptions, Run, load_both, plain_reason, with_warning
from verifier.core.services import NO_REPLAYER, Services

SEARCH_PATIENCES = 2.0
PROOF_PATIENCES = 2.0
# Candidate tables per patience: counted, not timed (issue 24). A trivial pair runs about 10,000 a
# second on an idle machine, a join of three tables a few hundred; the old budget was 2 patiences.
TRIES_PER_PATIENCE = 1000
METHOD = "bounded"


def is_relational(loaded: LoadedProgram) -> bool:
    return isinstance(loaded.program, R.RelProgram)


def check_relational(lp: LoadedProgram, rp: LoadedProgram, run: Run) -> Result:
    from sparklite.errors import InputError

    left, right = lp.program, rp.program
    # an RDD side against a DataFrame/SQL side is the cross kind's (asked first in KINDS), a script the
    # script kinds': only two DataFrame/SQL programs reach this kind
    assert isinstance(left, R.RelProgram) and isinstance(right, R.RelProgram)
    try:
        left, right, names = align(left, right)
        _same_shape(left, right)
    except InputError as exc:
        return run.result("error", reason=str(exc))
    run.warnings.extend(nullability_warnings(left, right))
    proof = _prove(left, right, run)
    if isinstance(proof, RelProof):
        run.warnings.extend(w for w in proof.warnings if w not in run.warnings)
        return run.result("equivalent", method=proof.method, explanation=proof.explanation,
                          reason=proof.explanation, assumptions=proof.assumptions,
                          stats={"relational": {"proof": proof.method}})
    assumptions = tuple(constraint_texts(left.params))
    found = search(left, right, tries=run.steps(TRIES_PER_PATIENCE, SEARCH_PATIENCES), until=run.deadline,
                   seed=run.options.seed, ignore_names=run.options.ignore_names)
    stats = {"relational": {"names": names}}
    if found.found is not None:
        result = _not_equivalent(left, found.found, run, stats, assumptions)
        if run.options.replay:
            result = replay_relational(result, lp, rp, run)
        return result
    if found.pending is not None:
        pending = found.pending
        if run.options.replay:
            result = _not_equivalent(left, pending, run, stats, assumptions)
            return replay_relational(result, lp, rp, run)
        reason = (f"the reference interpreter found tables on which the programs differ "
                  f"({_inputs_text(left, pending)}: LEFT {_text(pending.left)}, "
                  f"RIGHT {_text(pending.right)}), "
                  f"but the difference rests on {pending.why}: only Spark can confirm it; run with replay "
                  "(the CLI's default, or check(..., replay=True))")
        return run.result("unknown", method=METHOD, reason=reason, assumptions=assumptions,
                          stats={**stats, "pending": pending, "tried": found.tried})
    if run.remaining() <= 0 and found.tried < 50:
        return run.result("unknown", reason=f"ran out of time (timeout {run.options.timeout:g} s) after "
                          f"{found.tried} candidate table(s), with no difference found{_skipped(found)}")
    reason = (f"no difference on {found.tried - found.skipped} candidate input(s) (empty tables, small "
              f"tables with NULLs and boundary values, random tables and partitionings){_skipped(found)}, "
              f"and no proof: {proof.reason}")
    return run.result("unknown", method=METHOD, reason=reason, assumptions=assumptions,
                      stats={**stats, "tried": found.tried})


def _skipped(found: Search) -> str:
    """The candidates the search did not evaluate (``sparklite.relational.row_cap``), for the reason."""
    if not found.skipped:
        return ""
    return (f"; {found.skipped} more skipped: their joins would compare over "
            f"{row_cap.SEARCH_ROW_CAP:,} pairs of rows, past the search's cap on intermediate rows")


def congruent_relational(lp: LoadedProgram, rp: LoadedProgram, run: Run) -> Result | None:
    """``equivalent`` by congruence (``verifier.core.congruence``) when the aligned plans are equal up to
    inner names (``sparklite.relational.canonical``; the result's names too unless ``ignore_names``);
    else None, and ``check_relational`` decides."""
    from sparklite.relational.canonical import nondeterminism, rel_key, renamed
    from verifier.core.congruence import congruent_result

    if not (is_relational(lp) and is_relational(rp)):
        return None
    left, right = lp.program, rp.program
    assert isinstance(left, R.RelProgram) and isinstance(right, R.RelProgram)
    try:
        left, right, names = align(left, right)
    except InputError:
        return None
    keep = not run.options.ignore_names
    if rel_key(left.body, keep) != rel_key(right.body, keep):
        from sparklite.relational.conditionals import without_dead_branches

        # the same plans once dead CASE branches are dropped, as Spark's optimiser drops them
        lb, rb = without_dead_branches(left.body), without_dead_branches(right.body)
        if rel_key(lb, keep) != rel_key(rb, keep):
            return None
        run.warnings.append("the same programs once dead CASE branches are dropped (after a literal TRUE "
                            "condition, under a literal FALSE or NULL one): CASE evaluates only the branch "
                            "taken, and Spark's optimiser drops them (SimplifyConditionals)")
    run.warnings.extend(w for w in nullability_warnings(left, right) if w not in run.warnings)
    # no declared key is assumed: the two plans agree on every input of the tables' columns
    return congruent_result(run, "programs", renamed(left.body, right.body), (), nondeterminism(left.body),
                            {"relational": {"names": names}})


def _prove(left: R.RelProgram, right: R.RelProgram, run: Run) -> RelProof | Inconclusive | NotApplicable:
    """The term-matching proof (``verifier.core.methods.rel_terms``): each query a resource budget of
    ``PROOF_PATIENCES`` patiences, the check's deadline a hard cap."""
    return rel_terms.run(left, right, timeout_s=PROOF_PATIENCES * run.patience(), until=run.deadline,
                         ignore_names=run.options.ignore_names)


def _same_shape(left: R.RelProgram, right: R.RelProgram) -> None:
    """A DataFrame result compared with a scalar action result can never be equal: say so plainly."""
    from sparklite.errors import InputError

    lk = left.body.kind if isinstance(left.body, R.Action) else "dataframe"
    rk = right.body.kind if isinstance(right.body, R.Action) else "dataframe"
    groups = {"dataframe": "rows", "collect": "rows", "take": "rows", "count": "count", "first": "row"}
    if groups[lk] != groups[rk]:
        raise InputError(f"LEFT returns {_what(lk)} and RIGHT {_what(rk)}: the results cannot be compared",
                         right.loc)


def _what(kind: str) -> str:
    return {"dataframe": "a DataFrame", "collect": "collected rows", "take": "taken rows",
            "count": "a count", "first": "one row"}[kind]


def _not_equivalent(left: R.RelProgram, found: Found, run: Run, stats: dict[str, Any],
                    assumptions: tuple[str, ...] = ()) -> Result:
    """The counterexample (its tables respect the declared keys, listed in ``assumptions``)."""
    from sparklite.relational.values import rel_to_json

    cex = Counterexample(
        inputs=inputs_json(left.params, found.tables),
        partitions=layout_json(left.params, found.layout),
        left=rel_to_json(found.left),
        right=rel_to_json(found.right),
        replayed_on_spark=False,
        left_outcome=found.left,
        right_outcome=found.right,
        origin=found.origin,
    )
    if found.definite:
        why = f"{found.origin} found tables on which the programs give different results"
    else:
        why = (f"{found.origin} found tables on which the interpreter shows different results; the "
               f"difference rests on {found.why}, so it stands only if Spark reproduces it")
    return run.result("not_equivalent", method=METHOD, counterexample=cex, explanation=why,
                      assumptions=assumptions, stats={**stats, "found": found})


def replay_relational(result: Result, lp: LoadedProgram, rp: LoadedProgram, run: Run) -> Result:
    """Run both original programs on Spark with the counterexample's tables; keep ``not_equivalent``
    only if Spark shows a difference too."""
    from verifier.core.services import DataFrameReplayError, SparkUnavailable

    found: Found | None = result.stats.get("found") or result.stats.get("pending")
    if found is None:
        return result
    if takes_dynamic_frames(lp.program) or takes_dynamic_frames(rp.program):
        if not found.definite:  # only Spark could confirm it, and AWS Glue does not run on local Spark
            return run.result("unknown", method=METHOD, reason=(
                f"a difference that rests on {found.why} could not be confirmed: a function over an AWS Glue "
                "DynamicFrame does not run on local Spark"), stats=dict(result.stats),
                assumptions=result.assumptions)
        return _warned(result, "a function over an AWS Glue DynamicFrame does not run on local Spark: the "
                       "counterexample is the reference interpreter's, not replayed")
    names = result.stats.get("relational", {}).get("names", {})
    ignore = run.options.ignore_names
    started = time.monotonic()
    replayer = run.services.replayer
    try:
        if replayer is None:
            raise SparkUnavailable(NO_REPLAYER)
        lo = replayer.run_dataframe(lp, found.tables, found.layout, {}, run.options.master, found.left)
        ro = replayer.run_dataframe(rp, found.tables, found.layout, names, run.options.master, found.right)
    except (SparkUnavailable, DataFrameReplayError) as exc:
        if not found.definite:
            return run.result("unknown", method=METHOD, reason=(
                f"a difference that rests on {found.why} could not be confirmed on Spark: {exc}"),
                stats=dict(result.stats), assumptions=result.assumptions)
        return _warned(result, f"counterexample not replayed on Spark: {exc}")
    from sparklite.relational.values import rel_outcomes_equal, rel_to_json

    stats = dict(result.stats)
    stats.update(spark_left=rel_to_json(lo), spark_right=rel_to_json(ro),
                 replay_seconds=time.monotonic() - started)
    left_p, right_p = lp.program, rp.program
    assert isinstance(left_p, R.RelProgram) and isinstance(right_p, R.RelProgram)
    if not differ(lo, ro, ignore, python_rows(left_p, right_p)):
        reason = (f"the reference interpreter found a difference (LEFT {_text(found.left)}, RIGHT "
                  f"{_text(found.right)}), but Spark gives {_text(lo)} for both on the same tables")
        if found.definite:
            reason += ": this is a bug in sparkeq's model of Spark, please report it"
        else:
            reason += f" (the difference rested on {found.why}, which Spark did not reproduce)"
        return Result("unknown", method=result.method, reason=reason, warnings=result.warnings,
                      seconds=time.monotonic() - run.started, explanation=result.explanation, stats=stats,
                      sources=result.sources, assumptions=result.assumptions)
    warnings = list(result.warnings)
    if not (rel_outcomes_equal(lo, found.left) and rel_outcomes_equal(ro, found.right)):
        warnings.append(f"Spark's outputs (LEFT {_text(lo)}, RIGHT {_text(ro)}) differ from the "
                        "interpreter's; they still differ from each other")
    cex = result.counterexample
    assert cex is not None
    new_cex = Counterexample(cex.inputs, cex.partitions, rel_to_json(lo), rel_to_json(ro), True, lo, ro,
                             cex.origin)
    return Result("not_equivalent", method=result.method, reason=result.reason, counterexample=new_cex,
                  warnings=tuple(warnings), seconds=time.monotonic() - run.started,
                  explanation=result.explanation, stats=stats, sources=result.sources,
                  assumptions=result.assumptions)


def _warned(result: Result, warning: str) -> Result:
    return Result(result.verdict, result.method, result.reason, result.counterexample,
                  (*result.warnings, warning), result.seconds, result.explanation, result.stats,
                  result.sources, result.assumptions)


def _text(outcome: Any) -> str:
    from sparklite.relational.values import rel_to_json

    return json.dumps(rel_to_json(outcome), default=str)


def _inputs_text(left: R.RelProgram, found: Found) -> str:
    return json.dumps(inputs_json(left.params, found.tables), default=str)


def pending_result(result: Result, left: R.RelProgram, run: Run) -> Result:
    """The ``not_equivalent`` candidate behind an ``unknown`` that waits for Spark (the CLI checks
    without replay, shows nothing yet, then replays): replaying it decides the verdict."""
    pending: Found | None = result.stats.get("pending")
    if pending is None:
        return result
    stats = {k: v for k, v in result.stats.items() if k != "pending"}
    return _not_equivalent(left, pending, run, stats, result.assumptions)


def _replay_relational(result: Result, left: Any, right: Any, run: Run) -> Result:
    """``replay_counterexample`` for a DataFrame/SQL pair: a counterexample, or a pending difference
    that only Spark can confirm."""
    try:
        lp, rp = load_both(left, right, run)
    except InputError as exc:  # pragma: no cover - the same sides were loaded by check()
        return with_warning(result, f"counterexample not replayed on Spark: {exc}")
    if result.verdict == "unknown":
        result = pending_result(result, lp.program, run)
    return plain_reason(replay_relational(result, lp, rp, run), left, right, run.options, run.services)


class RelationalKind:
    """Two DataFrame/SQL programs (``verifier.core.kind.ProgramKind``); one against an RDD program is the
    cross kind's, asked before this one."""

    name = "relational"

    def accepts(self, lp: LoadedProgram, rp: LoadedProgram) -> bool:
        return is_relational(lp) or is_relational(rp)

    def congruent(self, lp: LoadedProgram, rp: LoadedProgram, run: Run) -> Result | None:
        return congruent_relational(lp, rp, run)

    def check(self, lp: LoadedProgram, rp: LoadedProgram, run: Run) -> Result:
        return check_relational(lp, rp, run)

    def made(self, result: Result) -> bool:
        return "relational" in result.stats

    def replay(self, items: Sequence[tuple[Result, Any, Any]], opts: CheckOptions, services: Services
               ) -> list[Result]:
        return replay_each(items, opts, services, _replay_relational)


RELATIONAL = RelationalKind()
