"""Differential testing on real Spark: random inputs through both original programs (``diff_on_spark``),
the CLI's ``--diff-on-spark N`` (``spark_fallback``) and the benchmark's random-testing baseline.

The inputs come from the core's generator (``verifier.core.difftest.InputGenerator``: boundary values,
multiplicities, colliding keys, partitionings); this module only runs them on Spark, which is why it
lives in the runtime while the interpreter-side search that ``check`` uses stays in the core.
"""

from __future__ import annotations

import time
from typing import Any

from sparklite.values import outcomes_equal
from verifier.core.base import Candidate, LoadedProgram
from verifier.core.difftest import NAME, DiffResult, InputGenerator

__all__ = ["diff_on_spark", "spark_fallback"]

def diff_on_spark(
    loaded_left: LoadedProgram,
    loaded_right: LoadedProgram,
    n: int,
    *,
    seed: int = 0,
    max_len: int = 6,
    max_parts: int = 3,
    master: str | None = None,
    time_budget_s: float | None = None,
    naive: bool = False,
) -> DiffResult:
    """Run ``n`` random inputs through both original programs on real Spark (``verifier.runtime.replay``);
    stop at the first difference. Raises ``SparkUnavailable`` when Spark cannot start."""
    from verifier.runtime.replay import replay
    from verifier.runtime.spark import DEFAULT_MASTER

    gen = InputGenerator((loaded_left.program, loaded_right.program), seed=seed, max_len=max_len,
                         max_parts=max_parts, naive=naive)
    started = time.perf_counter()
    tried = 0
    for cand in gen.candidates(n):
        tried += 1
        result = replay(loaded_left, loaded_right, cand.inputs, cand.partitions, master or DEFAULT_MASTER)
        if result.differs:
            elapsed = time.perf_counter() - started
            found = Candidate(cand.inputs, cand.partitions, origin=f"{cand.origin} on Spark")
            return DiffResult(found, tried, result.left, result.right, elapsed, elapsed)
        if time_budget_s is not None and time.perf_counter() - started > time_budget_s:
            break
    return DiffResult(None, tried, seconds=time.perf_counter() - started)


def spark_fallback(result: Any, left: Any, right: Any, n: int, *, master: str | None = None,
                   seed: int = 0) -> Any:
    """``--diff-on-spark N``: run ``n`` random inputs through both original programs on Spark after a
    check, and fold what was seen into its ``Result``.

    Spark is the ground truth: a difference turns ``unknown`` into ``not_equivalent`` (the
    counterexample is replayed by construction), and contradicts a proof (``equivalent`` then becomes
    ``not_equivalent`` with a warning that sparkeq has a bug). Nothing found only adds a warning,
    since testing never proves anything. Errors and existing counterexamples are left alone; a Spark
    that cannot start becomes a warning.
    """
    import dataclasses

    from sparklite.interpreter import run as interpret
    from sparklite.typecheck import typecheck
    from sparklite.values import to_json
    from verifier.core.loading import load
    from verifier.core.result import Counterexample
    from verifier.core.services import ReplayError, SparkUnavailable

    if n <= 0 or result.verdict in ("error", "not_equivalent"):
        return result
    try:
        loaded = []
        for spec in (left, right):
            lp = load(spec)
            if lp.script is not None:  # replay runs a function with RDD arguments, not a whole script
                return dataclasses.replace(result, warnings=(*result.warnings, "--diff-on-spark not run: "
                                                             "it is not available for whole scripts yet"))
            program = getattr(typecheck(lp.program), "program", None) or lp.program
            loaded.append(dataclasses.replace(lp, program=program))
        found = diff_on_spark(loaded[0], loaded[1], n, seed=seed, master=master)
    except (SparkUnavailable, ReplayError) as exc:
        return dataclasses.replace(result, warnings=(*result.warnings, f"--diff-on-spark not run: {exc}"))
    stats = {**result.stats, "diff_on_spark_tried": found.tried, "diff_on_spark_seconds": found.seconds}
    seconds = result.seconds + found.seconds
    if found.found is None:
        note = f"random testing on Spark found no difference on {found.tried} inputs (this proves nothing)"
        return dataclasses.replace(result, warnings=(*result.warnings, note), stats=stats, seconds=seconds)
    cand = found.found
    warnings = list(result.warnings)
    if result.verdict == "equivalent":
        warnings.append("sparkeq had proved these programs equivalent, but Spark disagrees on the input "
                        "below: this is a bug in sparkeq, please report it")
    model = (interpret(loaded[0].program, cand.inputs, cand.partitions),
             interpret(loaded[1].program, cand.inputs, cand.partitions))
    if outcomes_equal(*model):
        warnings.append("sparkeq's reference interpreter does not reproduce this difference (a gap in its "
                        "model of Spark)")
    cex = Counterexample(
        inputs={k: to_json(tuple(v) if isinstance(v, list) else v) for k, v in cand.inputs.items()},
        partitions={k: to_json(v) for k, v in cand.partitions.items()} if cand.partitions else None,
        left=to_json(found.left), right=to_json(found.right), replayed_on_spark=True,
        left_outcome=found.left, right_outcome=found.right, origin=cand.origin)
    return dataclasses.replace(
        result, verdict="not_equivalent", method=NAME + "-spark", reason=None, counterexample=cex,
        warnings=tuple(warnings), stats={**stats, "spark_left": cex.left, "spark_right": cex.right},
        seconds=seconds,
        explanation=f"random differential testing on Spark found a differing input after {found.tried} tries")
