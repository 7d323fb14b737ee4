"""The program kind of two whole DataFrame scripts (``docs/scripts.md``, "DataFrame scripts").

``check``: the proof first (``verifier.core.df_script_prove``: the same sinks in the same order with the
same constant text, each pair of DataFrame results proved equal by the term-matching prover), then the
search for input files on which the scripts write different things (``verifier.core.df_script_search``);
a difference with no caveat is ``not_equivalent`` at once, one that rests on an error or a caveat waits
for Spark. ``replay``: both unmodified scripts run on Spark (through the ``Replayer`` the facade hands the
core); ``not_equivalent`` stands, replayed, only when Spark's runs differ as the interpreter predicted.
A DataFrame script compared with anything else is a located input error.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from frontend.script.df_program import DfScriptProgram
from sparklite.ast import Loc
from sparklite.errors import InputError
from verifier.core.base import LoadedProgram
from verifier.core.df_script_search import DfFound, describe, input_files, search
from verifier.core.result import Counterexample, Result
from verifier.core.run import CheckOptions, Run, load_both, plain_reason, with_warning
from verifier.core.services import NO_REPLAYER, Replayer, Services

SEARCH_PATIENCES = 3.0
PROOF_PATIENCES = 2.0
TRIES_PER_PATIENCE = 500  # candidate input file sets per patience: counted, not timed (issue 24)
METHOD = "bounded"


def check_df_scripts(lp: Any, rp: Any, run: Run) -> Result:
    """Two DataFrame scripts (``lp.script``/``rp.script`` are ``DfScriptProgram``s), with the statements
    shown not to matter listed (``ignored_statements``) and excluded printed values warned about."""
    import dataclasses

    left: DfScriptProgram = lp.script
    _opaque_warnings(left, rp.script, run)
    result = _decide(left, rp.script, run)
    ignored = tuple(
        i.to_json(side) for side, sp in (("left", left), ("right", rp.script)) for i in sp.ignored
    )
    return dataclasses.replace(result, ignored_statements=ignored) if ignored else result


def _opaque_warnings(left: DfScriptProgram, right: DfScriptProgram, run: Run) -> None:
    """Warn about each printed value excluded from the comparison (a proof's and congruence's)."""
    for side, sp in (("LEFT", left), ("RIGHT", right)):
        for what, loc in sp.opaque:
            note = (f"nondeterministic output excluded from the comparison: {what} printed at {loc} ({side})")
            if note not in run.warnings:
                run.warnings.append(note)


def _decide(left: DfScriptProgram, right_sp: DfScriptProgram, run: Run) -> Result:
    import dataclasses

    from frontend.script import glue
    from frontend.script.df_program import align_df_sources
    from verifier.core.df_script_prove import prove_df_scripts

    right = align_df_sources(left, right_sp)
    stats: dict[str, Any] = {"script": describe(left, right), "df_script": True}
    made = [s for sp in (left, right) for s in sp.sources if s.kind == "rdd"]
    if made:  # frontend.script.mixed_text: such a source may raise; only congruence proves it
        reason = (
            f"the DataFrame made at {made[0].loc} from an RDD read with sc.textFile is computed by Python "
            "code that may fail on a line (and createDataFrame fails on an empty file): sparkeq proves such "
            "scripts only when they are the same up to renaming, and does not search them for differences"
        )
        return run.result("unknown", method=METHOD, reason=reason, stats=stats)
    proof = prove_df_scripts(left, right, until=run.deadline, patience_s=PROOF_PATIENCES * run.patience())
    if not isinstance(proof, str):
        run.warnings.extend(w for w in proof.warnings if w not in run.warnings)
        return run.result(
            "equivalent",
            method=proof.method,
            explanation=proof.explanation,
            reason=proof.explanation,
            assumptions=proof.assumptions,
            stats=stats,
        )
    run.said.append(f"df-script proof: {proof}")
    found, pending, tried = search(left, right, run.steps(TRIES_PER_PATIENCE, SEARCH_PATIENCES),
                                   run.options.seed, until=run.deadline)
    run.said.append(f"df-script search: {tried} candidate input file set(s)")
    unmodelled = glue.unmodelled(left) + [w for w in glue.unmodelled(right) if w not in glue.unmodelled(left)]
    if (found is not None or pending is not None) and (glue.is_glue(left) or glue.is_glue(right)):
        shown = found or pending
        assert shown is not None
        if shown.why is not None:  # only Spark could confirm it, and a Glue job does not run on local Spark
            return run.result("unknown", method=METHOD, stats={**stats, "tried": tried}, reason=(
                f"the reference interpreter found input tables on which the jobs write different things, "
                f"but the difference rests on {shown.why}, which only Spark can confirm, and an AWS Glue job "
                "does not run on local Spark"))
        run.warnings.append("an AWS Glue job does not run on local Spark: the counterexample is the "
                            "reference interpreter's, not replayed")
        result = _not_equivalent(left, shown, run, stats)
        return dataclasses.replace(result, stats={k: v for k, v in result.stats.items() if k != "df_found"})
    if found is not None:
        result = _not_equivalent(left, found, run, stats)
        if run.options.replay:
            return replay_df_result(result, left, right, run.options.master, run.services.replayer)
        return result
    if pending is not None:
        if run.options.replay:
            return replay_df_result(
                _not_equivalent(left, pending, run, stats), left, right, run.options.master,
                run.services.replayer,
            )
        reason = (
            f"the reference interpreter found input files on which the scripts write different things "
            f"({json.dumps(input_files(left, pending.tables))}: LEFT {json.dumps(pending.left.to_json())}, "
            f"RIGHT {json.dumps(pending.right.to_json())}), but the difference rests on {pending.why}: only "
            "Spark can confirm it; run with replay (the CLI's default, or check(..., replay=True))"
        )
        return run.result(
            "unknown",
            method=METHOD,
            reason=reason,
            stats={**stats, "pending": True, "df_found": pending, "tried": tried},
        )
    reason = (
        f"no difference on {tried} candidate input file set(s) (empty files, small files with NULLs "
        f"and boundary values, random files), and no proof: {proof}"
    )
    if unmodelled:  # the search cannot compute what the scripts write
        reason = (f"{'; '.join(unmodelled)}, so the interpreter cannot show a difference where one is "
                  f"needed; no proof: {proof}")
    return run.result("unknown", method=METHOD, reason=reason, stats={**stats, "tried": tried})


def _not_equivalent(left: DfScriptProgram, found: DfFound, run: Run, stats: dict[str, Any]) -> Result:
    cex = _not_equivalent_cex(left, found)
    if found.why is None:
        why = f"{found.origin} found input files on which the scripts write different things"
    else:
        why = (
            f"{found.origin} found input files on which the interpreter shows the scripts writing different "
            f"things; the difference rests on {found.why}, so it stands only if Spark reproduces it"
        )
    return run.result(
        "not_equivalent",
        method=METHOD,
        counterexample=cex,
        explanation=why,
        stats={**{k: v for k, v in stats.items() if k != "pending"}, "df_found": found},
    )


def replay_df_result(result: Result, left: DfScriptProgram, right: DfScriptProgram, master: str,
                     replayer: Replayer | None) -> Result:
    """Replay a DataFrame scripts' counterexample; ``not_equivalent`` stands (replayed) only when Spark's
    runs differ and each is what the interpreter predicted; runs that write the same make it ``unknown``."""
    return replay_df_results([(result, left, right)], master, replayer)[0]


def replay_df_results(
    items: Sequence[tuple[Result, DfScriptProgram, DfScriptProgram]], master: str, replayer: Replayer | None
) -> list[Result]:
    import dataclasses

    from verifier.core.script_inputs import ReplayError

    todo = [(r, lsp, rsp, r.stats.get("df_found")) for r, lsp, rsp in items]
    runnable = [(r, lsp, rsp, f) for r, lsp, rsp, f in todo if f is not None]
    try:
        if replayer is None:
            raise RuntimeError(NO_REPLAYER)
        replays = (
            replayer.replay_df_scripts(
                [(lsp, rsp, f.tables, (f.left, f.right)) for _, lsp, rsp, f in runnable], master
            )
            if runnable
            else []
        )
    except (ReplayError, OSError, RuntimeError) as exc:
        return [_warned(r, f"counterexample not replayed on Spark: {exc}") for r, *_ in items]
    done = iter(replays)
    out = []
    for r, lsp, _, f in todo:
        if f is None:
            out.append(r)
            continue
        rep = next(done)
        stats = {
            **r.stats,
            "spark_left": rep.left.as_observation().to_json(),
            "spark_right": rep.right.as_observation().to_json(),
            "replay_seconds": rep.seconds,
        }
        stats.pop("pending", None)
        r = dataclasses.replace(r, stats=stats)
        seen = (
            f"LEFT {json.dumps(rep.left.as_observation().to_json())}, "
            f"RIGHT {json.dumps(rep.right.as_observation().to_json())}"
        )
        broken = _environment_failure(rep)
        if broken is not None:
            out.append(_warned(r, f"counterexample not replayed on Spark: {broken}"))
            continue
        cex = r.counterexample
        if cex is None:  # a pending difference: the candidate behind it
            cex = _not_equivalent_cex(lsp, f)
        if rep.differs and rep.left_agrees and rep.right_agrees:
            out.append(
                dataclasses.replace(
                    r,
                    verdict="not_equivalent",
                    counterexample=dataclasses.replace(cex, replayed_on_spark=True),
                )
            )
            continue
        if not rep.differs:
            reason = (
                f"the reference interpreter found a difference (LEFT {json.dumps(f.left.to_json())}, RIGHT "
                f"{json.dumps(f.right.to_json())}), but run on Spark with the same files both scripts "
                f"write the same ({seen})"
            )
            reason += (
                ": this is a gap in sparkeq's model of Spark, please report it"
                if f.why is None
                else f" (the difference rested on {f.why}, which Spark did not reproduce)"
            )
            out.append(dataclasses.replace(r, verdict="unknown", reason=reason, counterexample=None))
            continue
        if f.why is not None:
            out.append(
                dataclasses.replace(
                    r,
                    verdict="unknown",
                    counterexample=None,
                    reason=(
                        f"the interpreter's difference rests on {f.why}, and Spark's runs differ but "
                        f"not as predicted ({seen}): not confirmed"
                    ),
                )
            )
            continue
        out.append(
            _warned(
                dataclasses.replace(r, counterexample=cex),
                "counterexample not replayed on Spark: "
                f"Spark's runs differ from each other, but not as the interpreter predicted ({seen})",
            )
        )
    return out


def _not_equivalent_cex(sp: DfScriptProgram, f: DfFound) -> Counterexample:
    return Counterexample(
        inputs=input_files(sp, f.tables),
        partitions=None,
        left=f.left.to_json(),
        right=f.right.to_json(),
        replayed_on_spark=False,
        left_outcome=f.left,
        right_outcome=f.right,
        origin=f.origin,
    )


def _environment_failure(rep: Any) -> str | None:  # a DfReplay (verifier.runtime.df_script_replay)
    text = rep.stderr[0] + rep.stderr[1]
    if (
        rep.left.error is not None
        and rep.left.error == rep.right.error
        and not (rep.left_agrees or rep.right_agrees)
    ):
        if (
            "ModuleNotFoundError" in rep.left.error
            or "JAVA_GATEWAY_EXITED" in text
            or "Java gateway process exited" in text
        ):
            tail = (rep.stderr[0].strip().splitlines() or [rep.left.error])[-1]
            return f"both scripts failed on Spark before running a job ({tail})"
    return None


def _warned(result: Result, warning: str) -> Result:
    import dataclasses

    return dataclasses.replace(result, warnings=(*result.warnings, warning))


def _df_script(lp: LoadedProgram) -> bool:
    from frontend.script.df_program import DfScriptProgram

    return isinstance(lp.script, DfScriptProgram)


def _check_df_scripts(lp: LoadedProgram, rp: LoadedProgram, run: Run) -> Result:
    """Two DataFrame scripts (``check_df_scripts``); a DataFrame script against anything else is a located
    input error."""
    if not (_df_script(lp) and _df_script(rp)):
        script, other, side = (lp, rp, "RIGHT") if _df_script(lp) else (rp, lp, "LEFT")
        where = getattr(other.program, "loc", None) or Loc(other.path or "<input>", 1, 1)
        what = "an RDD script" if other.script is not None else "not a script"
        given = other.path or "a program given in memory"
        raise InputError(f"{script.path} is a DataFrame script but {side} ({given}) is {what}: a DataFrame "
                         "script can only be compared with another DataFrame script (docs/scripts.md)", where)
    return check_df_scripts(lp, rp, run)


def congruent_df_scripts(lp: LoadedProgram, rp: LoadedProgram, run: Run) -> Result | None:
    """``equivalent`` by congruence (``verifier.core.congruence``) when the aligned scripts read the same
    inputs alike, write the same sinks and run actions whose plans are equal up to inner names
    (``frontend.script.canonical``); else None, and the proof and search decide."""
    import dataclasses

    from frontend.script import df_session, glue
    from frontend.script.canonical import df_script_key
    from frontend.script.df_program import align_df_sources
    from sparklite.relational.canonical import nondeterminism, renamed
    from verifier.core.congruence import congruent_result
    from verifier.core.df_script_prove import inferred_source

    if not (_df_script(lp) and _df_script(rp)):
        return None
    left: DfScriptProgram = lp.script
    right = align_df_sources(left, rp.script)
    if df_script_key(left) != df_script_key(right):
        return None
    _opaque_warnings(left, rp.script, run)
    n = left.argv_length - 1
    args = ", ".join(f"sys.argv[{i}]" for i in range(1, n + 1)) or "none"
    assumed = [f"both scripts are run with the {n} command-line argument(s) they use ({args})"]
    assumed += [inferred_source(s) for s in left.sources if s.inferred]
    assumed += glue.assumptions(left)  # AWS Glue and operations not modelled (frontend.script.glue)
    assumed += df_session.assumptions(left, rp.script)  # Delta Lake's session (frontend.script.df_session)
    caveats = [c for a in left.actions for c in nondeterminism(a.body)]
    names = [p for a, b in zip(left.actions, right.actions, strict=True) for p in renamed(a.body, b.body)]
    result = congruent_result(run, "scripts", names, assumed, caveats,
                              {"script": describe(left, right), "df_script": True})
    # the statements shown not to matter are listed as check_df_scripts lists them (docs/scripts.md)
    ignored = tuple(i.to_json(side) for side, sp in (("left", left), ("right", rp.script))
                    for i in sp.ignored)
    return dataclasses.replace(result, ignored_statements=ignored) if ignored else result


def _replay_df_scripts(items: Sequence[tuple[Result, Any, Any]], opts: CheckOptions, services: Services
                       ) -> list[Result]:
    """Replay DataFrame scripts' counterexamples (pending ones too), all in one Python process."""
    from frontend.script.df_program import align_df_sources

    ready, out = [], []
    for result, left, right in items:
        run = Run.of(opts, time.monotonic(), services)
        try:
            lp, rp = load_both(left, right, run)
            ready.append((result, lp.script, align_df_sources(lp.script, rp.script)))
        except InputError as exc:  # pragma: no cover - the same sides were loaded by check()
            out.append(with_warning(result, f"counterexample not replayed on Spark: {exc}"))
    return out + replay_df_results(ready, opts.master, services.replayer)


class DfScriptKind:
    """Two whole DataFrame scripts (``verifier.core.kind.ProgramKind``)."""

    name = "df_script"

    def accepts(self, lp: LoadedProgram, rp: LoadedProgram) -> bool:
        return _df_script(lp) or _df_script(rp)

    def congruent(self, lp: LoadedProgram, rp: LoadedProgram, run: Run) -> Result | None:
        return congruent_df_scripts(lp, rp, run)

    def check(self, lp: LoadedProgram, rp: LoadedProgram, run: Run) -> Result:
        return _check_df_scripts(lp, rp, run)

    def made(self, result: Result) -> bool:
        return "df_script" in result.stats

    def replay(self, items: Sequence[tuple[Result, Any, Any]], opts: CheckOptions, services: Services
               ) -> list[Result]:
        """All the counterexamples' scripts run in one Python process (one JVM start)."""
        done = _replay_df_scripts(items, opts, services)
        return [plain_reason(r, left, right, opts, services)
                for r, (_, left, right) in zip(done, items, strict=True)]


DF_SCRIPT = DfScriptKind()
