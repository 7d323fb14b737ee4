"""The program kind of two RDD programs (functions over RDDs, or SparkLite ``.sl`` programs).

``check``: both sides type-checked, RIGHT's parameters renamed to LEFT's (parameters match by
position), checked comparable (same parameters, same observed result type: a located input error
otherwise), reduced to the kernel (``kernel``), then decided by ``verifier.core.decide``; a counterexample
is replayed on Spark when asked. ``replay``: the users' own functions run on real Spark with the
counterexample's inputs and partitions (through the facade's ``Replayer``); the verdict stands only if
Spark also shows a difference, else it falls back to ``unknown``: the difference was an artefact of
sparkeq's model, a bug.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from sparklite.ast import Loc, Program
from sparklite.errors import InputError
from sparklite.values import to_json
from verifier.core.base import LoadedProgram, Pair
from verifier.core.decide import decide, partition_warnings
from verifier.core.result import Counterexample, Result
from verifier.core.run import CheckOptions, Run, json_text, load_both, plain_reason, with_warning, z3_watchdog
from verifier.core.services import NO_REPLAYER, ReplayError, Services, SparkUnavailable


def prepare_loaded(lp: LoadedProgram, rp: LoadedProgram, run: Run, compare_results: bool = True
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


WARNING_PATIENCES = 1.0


def congruent_programs(pair: Pair, run: Run, what: str, assumptions: tuple[str, ...], stats: dict[str, Any],
                       extra: tuple[Any, Any] = (None, None)) -> Result | None:
    """``equivalent`` by congruence when the kernels (and ``extra``, what else each side observes) are
    equal up to renaming (``sparklite.canonical``), else None. The verdict needs no solver; the
    partition-dependence warnings the ordinary steps would give are still searched for (briefly), as a
    program whose output depends on how Spark partitions its input is worth a warning even when it is
    compared with itself."""
    from sparklite.canonical import nondeterminism, program_key, renamed
    from verifier.core.congruence import congruent_result

    if extra[0] != extra[1] or program_key(pair.left) != program_key(pair.right):
        return None
    with z3_watchdog(run.deadline):
        partition_warnings(pair.left, run, WARNING_PATIENCES)
    # the keys are read after type-dependent kernel passes: a type taken by default for an
    # unannotated input is an assumption of this proof too (never "every input" silently)
    assumed = tuple(dict.fromkeys(getattr(pair.left, "assumed", ()) + getattr(pair.right, "assumed", ())))
    return congruent_result(run, what, renamed(pair.left, pair.right), assumptions + assumed,
                            nondeterminism(pair.left), stats)


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


def _replay(result: Result, loaded: tuple[LoadedProgram, LoadedProgram], run: Run) -> Result:
    """Run the counterexample on real Spark with the users' own code; keep the verdict only if Spark
    also shows a difference."""
    cex = result.counterexample
    assert cex is not None
    replayer = run.services.replayer
    if replayer is None:
        return with_warning(result, f"counterexample not replayed on Spark: {NO_REPLAYER}")
    inputs = result.stats.get("raw_inputs", {})
    partitions = result.stats.get("raw_partitions") or None
    try:
        references = (cex.left_outcome, cex.right_outcome) if cex.left_outcome is not None else None
        replayed = replayer.replay_functions(loaded[0], loaded[1], inputs, partitions,
                                             master=run.options.master, references=references)
    except SparkUnavailable as exc:
        return with_warning(result, f"counterexample not replayed on Spark: {exc}")
    except ReplayError as exc:
        return with_warning(result, f"counterexample not replayed on Spark: {exc}")
    stats = dict(result.stats)
    stats["spark_left"] = to_json(replayed.left)
    stats["spark_right"] = to_json(replayed.right)
    stats["replay_seconds"] = replayed.seconds
    if not replayed.differs:
        reason = (f"the reference interpreter found a difference (LEFT {json_text(cex.left_outcome)}, "
                  f"RIGHT {json_text(cex.right_outcome)}), but Spark gives "
                  f"{json_text(replayed.left)} for both on the same inputs and partitions: "
                  "this is a bug in sparkeq's model of Spark, please report it")
        return Result("unknown", method=result.method, reason=reason, counterexample=None,
                      warnings=result.warnings, seconds=time.monotonic() - run.started,
                      explanation=result.explanation, stats=stats, sources=result.sources,
                      assumptions=result.assumptions)
    warnings = list(result.warnings)
    from sparklite.values import outcomes_equal

    same_as_model = outcomes_equal(replayed.left, cex.left_outcome) and \
        outcomes_equal(replayed.right, cex.right_outcome)
    if not same_as_model:
        warnings.append(f"Spark's outputs (LEFT {json_text(replayed.left)}, RIGHT "
                        f"{json_text(replayed.right)}) differ from the interpreter's; they still differ "
                        "from each other")
    new_cex = Counterexample(cex.inputs, cex.partitions, cex.left, cex.right, True, cex.left_outcome,
                             cex.right_outcome, cex.origin)
    return Result(result.verdict, method=result.method, reason=result.reason, counterexample=new_cex,
                  warnings=tuple(warnings), seconds=time.monotonic() - run.started,
                  explanation=result.explanation, stats=stats, sources=result.sources,
                  assumptions=result.assumptions)


class RddKind:
    """Two RDD programs: the kind every pair falls back to (``verifier.core.kind.ProgramKind``)."""

    name = "rdd"

    def accepts(self, lp: LoadedProgram, rp: LoadedProgram) -> bool:
        return True

    def congruent(self, lp: LoadedProgram, rp: LoadedProgram, run: Run) -> Result | None:
        pair, _ = prepare_loaded(lp, rp, run)
        return congruent_programs(pair, run, "programs", (), {})

    def check(self, lp: LoadedProgram, rp: LoadedProgram, run: Run) -> Result:
        pair, loaded = prepare_loaded(lp, rp, run)
        with z3_watchdog(run.deadline):
            result = decide(pair, run)
        if result.verdict == "not_equivalent" and run.options.replay:
            result = _replay(result, loaded, run)
        return result

    def made(self, result: Result) -> bool:
        return True

    def replay(self, items: Sequence[tuple[Result, Any, Any]], opts: CheckOptions, services: Services
               ) -> list[Result]:
        out = []
        for result, left, right in items:
            started = time.monotonic() - result.seconds
            run = Run.of(opts, started, services)
            try:
                lp, rp = load_both(left, right, run)
                _, loaded = prepare_loaded(lp, rp, run)
            except InputError as exc:  # pragma: no cover - the same sides were loaded by check()
                out.append(with_warning(result, f"counterexample not replayed on Spark: {exc}"))
                continue
            out.append(plain_reason(_replay(result, loaded, run), left, right, opts, services))
        return out


RDD = RddKind()
