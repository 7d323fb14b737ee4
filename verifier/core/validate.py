"""Candidates become counterexamples only when the reference interpreter says so.

A method's candidate comes from a Z3 model of *its* encoding; the encoding may over-approximate
(unreachable accumulators, a shuffle's partitioning guessed, a nonlinear term). So every candidate is
re-run on both *original* SparkLite programs with the interpreter, under its partitioning; only a real
difference of observable outcomes (``outcomes_equal``) survives. When the pair's aggregations are not
known to be partition-independent, a candidate that agrees on its own partitioning is also tried on
every partitioning of its bags (small inputs only): the programs must agree on all of them.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sparklite.ast import Program
from sparklite.types import BagType, BoolType, TupleType
from sparklite.values import Outcome, Partitioning, definitely_differ, tasks_with_data
from verifier.core.base import Candidate

# All partitionings of every bag are tried only while their product stays this small.
MAX_PARTITIONING_COMBOS = 64


@dataclass(frozen=True)
class Confirmed:
    """A candidate both programs really disagree on, with the interpreter's outcomes."""

    inputs: Mapping[str, Any]
    partitions: Mapping[str, Partitioning] | None
    left: Outcome
    right: Outcome
    origin: str = ""


@dataclass
class ValidationStats:
    """How many candidates were tried and how many the interpreter showed to be spurious."""

    tried: int = 0
    discarded: int = 0
    interpreter_failures: list[str] = field(default_factory=list)


def bag_params(program: Program) -> list[str]:
    return [p.name for p in program.params if isinstance(p.type, BagType)]


def normalise_inputs(program: Program, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """Bags as lists (the interpreter's and replay's input form), scalars as they are; a parameter a
    candidate leaves out gets the simplest value (an empty bag, 0, False)."""
    result: dict[str, Any] = {}
    for p in program.params:
        if p.name in inputs:
            value = inputs[p.name]
            result[p.name] = list(value) if isinstance(p.type, BagType) else value
        else:
            result[p.name] = _simplest(p.type)
    return result


def _simplest(t: Any) -> Any:
    if isinstance(t, BagType):
        return []
    if isinstance(t, TupleType):
        return tuple(_simplest(e) for e in t.elems)
    if isinstance(t, BoolType):
        return False
    return 0


def one_partition(program: Program, inputs: Mapping[str, Any]) -> dict[str, Partitioning]:
    return {name: (tuple(inputs.get(name, ())),) for name in bag_params(program)}


def full_partitions(program: Program, inputs: Mapping[str, Any],
                    partitions: Mapping[str, Partitioning] | None) -> dict[str, Partitioning]:
    """Explicit partitions for every bag: the candidate's where given, one partition otherwise."""
    result = one_partition(program, inputs)
    for name, parts in (partitions or {}).items():
        if name in result:
            result[name] = tuple(tuple(p) for p in parts)
    return result


def run_program(program: Program, inputs: Mapping[str, Any],
                partitions: Mapping[str, Partitioning] | None) -> Outcome:
    from sparklite.interpreter import run

    return run(program, dict(inputs), dict(partitions) if partitions is not None else None)


def differs(left: Program, right: Program, inputs: Mapping[str, Any],
            partitions: Mapping[str, Partitioning] | None) -> tuple[bool, Outcome, Outcome]:
    out_l = run_program(left, inputs, partitions)
    out_r = run_program(right, inputs, partitions)
    return definitely_differ(out_l, out_r, tasks_with_data(inputs, partitions)), out_l, out_r


def partitionings_of(program: Program, inputs: Mapping[str, Any], max_parts: int
                     ) -> Iterable[dict[str, Partitioning]]:
    """Every combination of partitionings (into up to ``max_parts`` parts) of the bag inputs, while
    their number stays small."""
    from sparklite.partitions import all_partitionings

    names = bag_params(program)
    options = [list(itertools.islice(all_partitionings(tuple(inputs.get(n, ())), max_parts),
                                     MAX_PARTITIONING_COMBOS)) for n in names]
    count = 1
    for o in options:
        count *= max(len(o), 1)
    if count > MAX_PARTITIONING_COMBOS:
        return []
    return (dict(zip(names, combo, strict=True)) for combo in itertools.product(*options))


def validate(left: Program, right: Program, candidates: Iterable[Candidate], *,
             all_partitions: bool = False, max_parts: int = 2, stats: ValidationStats | None = None,
             deadline: float | None = None) -> Confirmed | None:
    """The first candidate on which the programs' interpreted outcomes differ, or None.

    ``all_partitions``: also try every partitioning of each candidate (when the pair is not known to be
    partition-independent). Interpreter failures (a bug, not a program error) discard the candidate.
    """
    stats = stats if stats is not None else ValidationStats()
    for cand in candidates:
        if deadline is not None and time.monotonic() > deadline:
            break
        stats.tried += 1
        inputs = normalise_inputs(left, cand.inputs)
        tries: list[Mapping[str, Partitioning] | None] = [full_partitions(left, inputs, cand.partitions)]
        if all_partitions:
            tries.extend(partitionings_of(left, inputs, max_parts))
        try:
            for parts in tries:
                bad, out_l, out_r = differs(left, right, inputs, parts)
                if bad:
                    return Confirmed(inputs, parts, out_l, out_r, cand.origin)
        except Exception as exc:  # noqa: BLE001 - an interpreter crash must not become a verdict
            stats.interpreter_failures.append(f"{type(exc).__name__}: {exc}")
        stats.discarded += 1
    return None


def varies_with_partitioning(program: Program, inputs: Mapping[str, Any],
                             parts_a: Mapping[str, Partitioning], parts_b: Mapping[str, Partitioning]
                             ) -> tuple[bool, Outcome, Outcome]:
    """Does ``program`` give different outcomes on the same inputs under two partitionings?"""
    out_a = run_program(program, inputs, parts_a)
    out_b = run_program(program, inputs, parts_b)
    return definitely_differ(out_a, out_b, max(tasks_with_data(inputs, parts_a),
                                               tasks_with_data(inputs, parts_b))), out_a, out_b
