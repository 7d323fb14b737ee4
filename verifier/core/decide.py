"""The decision steps for a pair of SparkLite programs (RDD programs, and the programs of RDD scripts).

Order of business, soundness first:

1. partition independence of every aggregation (``methods.partition_independence``). A failure is a
   warning, plus a search for one input and two partitionings on which the program's own outputs
   differ; if the *pair* disagrees on either partitioning, that is a counterexample (programs are
   equivalent only if they agree for every input and every partitioning).
2. the paper's proof methods, in order (``verifier.core.methods.PROOF_METHODS``), then on the proof views
   (``verifier.core.abstraction``). ``equivalent`` comes only from a ``Proved``; candidates from
   ``Refuted``/``Inconclusive`` go through ``validate``.
3. bounded disproof, then random differential testing (``verifier.core.difftest``).

Z3 timeouts and resource limits end in ``unknown``, never in an exception. A counterexample of two
scripts is shown as the files they read (``run.script``, a ``ScriptPair``). Why a module of its own:
the RDD kind and the RDD-script kind (``verifier.core.kinds``) both decide with these steps.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

from sparklite.deadline import OutOfTime
from sparklite.values import to_json
from verifier.core.base import Candidate, Inconclusive, NotApplicable, Pair, Proved, Refuted
from verifier.core.result import Counterexample, Result
from verifier.core.run import (
    DEPENDENCE_METHOD,
    DIFFTEST_INPUTS_PER_PATIENCE,
    DIFFTEST_PATIENCES,
    Run,
    json_text,
    out_of_time,
)
from verifier.core.validate import Confirmed, validate


def decide(pair: Pair, run: Run) -> Result:
    """``_steps``, ended early by ``OutOfTime`` from any step: ``unknown``, never a partial verdict."""
    try:
        return _steps(pair, run)
    except OutOfTime as exc:
        run.said.append(f"{exc.where}: stopped (out of time)")
        return out_of_time(run)


def _steps(pair: Pair, run: Run) -> Result:
    from verifier.core.methods import partition_independence as pi

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

    from verifier.core.methods import bounded

    if run.remaining() > 0:
        outcome = _run_method(bounded.NAME, lambda: bounded.run(pair, run.method_options(),
                                                                deadline=run.deadline,
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

    found = difftest_search(pair, run)
    if found is not None:
        return found
    if run.remaining() <= 0:
        return out_of_time(run)
    return run.result("unknown", reason="no proof and no counterexample: " + "; ".join(run.said))


def _prove_in_views(pair: Pair, run: Run) -> Result | None:
    """Try the proof methods on the pair's proof views (``verifier.core.abstraction``): sound rewritings of
    both programs. Only a proof counts; a view's counterexamples stand for no concrete input."""
    from verifier.core import abstraction
    from verifier.core.methods import partition_independence as pi

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


def partition_warnings(program: Any, run: Run, patiences: float) -> None:
    """The partition-dependence warnings of one program (``_dependence_warnings``), searched for at most
    ``patiences`` patiences: for a pair proved without them (congruence), whose verdict they do not
    change but whose user should still hear that the result depends on how Spark partitions the data."""
    from verifier.core.methods import partition_independence as pi

    try:
        checks = pi.check_program(program, run.method_options())
        _dependence_warnings("LEFT", program, checks, run, run.deadline)
    except OutOfTime:
        run.said.append("partition independence: stopped (out of time); only warnings were at stake")
    except Exception as exc:  # noqa: BLE001 - only warnings are at stake
        _internal(run, "partition independence", exc)


def _dependence_warnings(side: str, program: Any, checks: list[Any], run: Run, until: float) -> Any:
    """Warn about each aggregation of ``program`` not proved independent, and look (until ``until``) for
    an input and two partitionings on which its output differs: the witness, or None."""
    from verifier.core.methods import partition_independence as pi

    bad = [c for c in checks if not c.independent]
    if not bad:
        return None
    # a warning is a claim: "partition-dependent" only with a witness the interpreter confirmed
    witness = None
    if run.remaining() > 0:
        try:
            witness = pi.find_witness(program, run.method_options(), deadline=until)
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
        return None
    run.warnings.append(
        f"{side}'s output depends on partitioning: on {_inputs_text(witness.inputs)} it gives "
        f"{json_text(witness.first_outcome)} with partitions {_parts_text(witness.first)} but "
        f"{json_text(witness.second_outcome)} with partitions {_parts_text(witness.second)}")
    return witness


def _partition_dependence(pair: Pair, checks: list[list[Any]], run: Run) -> Result | None:
    """Warn about each aggregation not proved independent; look for a partitioning that separates the
    pair (a program whose output changes with partitioning, where the other does not follow)."""

    for side, program, cs in (("LEFT", pair.left, checks[0]), ("RIGHT", pair.right, checks[1])):
        witness = _dependence_warnings(side, program, cs, run, run.deadline)
        if witness is None:
            continue
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


def _proof_methods(run: Run) -> list[tuple[str, Any]]:
    try:
        methods = importlib.import_module("verifier.core.methods")
    except ImportError as exc:  # pragma: no cover
        run.said.append(f"proof methods unavailable ({exc})")
        return []
    listed = getattr(methods, "PROOF_METHODS", None)
    if not listed:
        run.said.append("no proof methods are installed")
        return []
    return [(getattr(m, "NAME", getattr(m, "__name__", "method")), m) for m in listed]


def _run_method(name: str, call: Callable[[], Any], run: Run) -> Any:
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


def _internal(run: Run, where: str, exc: BaseException) -> None:
    run.internal_errors.append(f"{where}: {type(exc).__name__}: {exc}")


def _validate(pair: Pair, candidates: Any, run: Run) -> Confirmed | None:
    if not candidates:
        return None
    if run.script is not None:
        return run.script.confirm(pair.left, pair.right, candidates, run.validation,
                                  run.deadline + run.slack())
    return validate(pair.left, pair.right, candidates, all_partitions=not pair.sequential_ok,
                    max_parts=run.options.max_partitions, stats=run.validation,
                    deadline=run.deadline + run.slack())


def difftest_search(pair: Pair, run: Run, patiences: float = DIFFTEST_PATIENCES) -> Result | None:
    """F's random differential testing, when installed: another source of *validated* candidates.
    For scripts, string inputs are drawn from lines shaped by the scripts' parsing too, and every
    candidate is run as the scripts would read it (``ScriptPair.search_hook``)."""
    if not run.options.difftest or run.remaining() <= 0:
        return None
    try:
        difftest = importlib.import_module("verifier.core.difftest")
    except ImportError:
        return None
    inputs = run.steps(DIFFTEST_INPUTS_PER_PATIENCE, patiences)  # counted and seeded: deterministic
    script = run.script

    def search() -> Any:
        hooks: dict[str, Any] = {}
        if script is not None:
            hooks = {"strings": script.hints, "evaluate": script.search_hook(pair.left, pair.right)}
        return difftest.search(pair.left, pair.right, seed=run.options.seed, budget_inputs=inputs,
                               time_budget_s=max(0.05, run.remaining()),  # the hard cap only
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


def _not_equivalent(pair: Pair, confirmed: Confirmed, method: str, explanation: str, run: Run) -> Result:
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


def _script_counterexample(pair: Pair, confirmed: Confirmed, method: str, explanation: str, run: Run
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
        left=sp.shown("left", to_json(confirmed.left)),
        right=sp.shown("right", to_json(confirmed.right)),
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


def _inputs_text(inputs: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={json_text(tuple(v) if isinstance(v, list) else v)}" for k, v in inputs.items())


def _parts_text(parts: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={json_text(v)}" for k, v in parts.items())
