"""The shape every verification method shares: applicable? -> conditions -> proof or candidates.

A method module exposes ``NAME`` and ``run(pair, options) -> MethodOutcome``. Inside, it decides whether
the pair is in its class (``NotApplicable`` with the reason otherwise), builds its verification
conditions, discharges them with Z3, and answers:

- ``Proved``: every condition is valid. Only a method whose conditions imply equivalence *under Spark's
  semantics as modelled by the interpreter* may answer this (see ``Pair.sequential_ok``).
- ``Refuted``: a condition whose failure means the programs differ failed; the method supplies concrete
  *candidate* inputs. Candidates are never reported as they are: ``verifier.core.decide`` re-runs both
  original programs on them with the reference interpreter and keeps only those that really differ.
- ``Inconclusive``: the conditions could not be settled (Lemma 1's step failed on possibly unreachable
  accumulators, Z3 said unknown or timed out, ...). It may still carry candidates worth validating.

Methods never raise on a Z3 ``unknown`` or timeout: they answer ``Inconclusive`` with the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from sparklite.ast import Program
from sparklite.deadline import Deadline
from sparklite.values import Partitioning

if TYPE_CHECKING:  # the frontend is imported only where a script is loaded
    from frontend.script.rdd_program import ScriptProgram


@dataclass(frozen=True)
class Options:
    """Knobs shared by all methods. ``timeout_s`` is each Z3 query's patience, in seconds of an idle
    machine, given to Z3 as a resource limit (``verifier.core.budget``: deterministic, never the
    clock); ``deadline`` is the whole check's wall-clock hard cap, which long Python-side loops check
    (``Deadline.check`` raises ``OutOfTime``) and at which the watchdog cancels Z3."""

    timeout_s: float = 10.0
    bound: int = 3  # bounded disproof: bags of 1..bound elements
    max_partitions: int = 2  # bounded disproof: partitionings into up to this many partitions
    seed: int = 0
    deadline: Deadline = field(default_factory=Deadline)


@dataclass(frozen=True)
class Pair:
    """Two comparable, type-checked programs (same parameter names and types, same result type).

    ``sequential_ok`` is True when every aggregation in both programs was *proved* partition-independent
    (``verifier.core.methods.partition_independence``): only then does Spark's partitioned result equal the
    paper's sequential fold, so only then may the paper's methods (which reason about the sequential
    fold) answer ``Proved``. Methods must check it before proving anything about aggregations.
    """

    left: Program
    right: Program
    sequential_ok: bool = True


@dataclass(frozen=True)
class Candidate:
    """A concrete input to try: every program parameter gets a value (bags as lists of elements).

    ``partitions`` gives an explicit partitioning per bag parameter where partitioning matters; None
    (or a missing bag) means one partition holding the bag's elements in list order.
    """

    inputs: Mapping[str, Any]
    partitions: Mapping[str, Partitioning] | None = None
    origin: str = ""


@dataclass(frozen=True)
class Proved:
    method: str
    explanation: str  # why the method applies and what was proved, for the user


@dataclass(frozen=True)
class Refuted:
    method: str
    explanation: str
    candidates: tuple[Candidate, ...]


@dataclass(frozen=True)
class Inconclusive:
    method: str
    reason: str
    candidates: tuple[Candidate, ...] = ()


@dataclass(frozen=True)
class NotApplicable:
    method: str
    reason: str


MethodOutcome = Proved | Refuted | Inconclusive | NotApplicable


@dataclass(frozen=True)
class LoadedProgram:
    """A program together with where it came from, so that replay can run the *original* code.

    ``language`` is ``python`` (``path`` and ``function`` name the PySpark function; ``source`` is the
    file's text), ``sql`` (a ``.sql`` file; ``source`` is the query as ``spark.sql`` takes it),
    ``script`` (a whole script, ``docs/scripts.md``: ``script`` holds its sources and sinks, ``program``
    is ``script.program``, ``function`` the entry named by ``file.py::main`` if any; replay runs the
    file itself), ``sparklite`` (a ``.sl`` file) or ``ast`` (built in memory; no source).
    """

    program: Program  # or a ``sparklite.relational.ast.RelProgram`` (DataFrame code, SQL text)
    language: Literal["python", "sparklite", "ast", "sql", "script"]
    path: str | None = None
    function: str | None = None
    source: str | None = None
    warnings: tuple[str, ...] = field(default=())
    script: ScriptProgram | None = None
    # one output of a function returning several (frontend.dataframe.outputs): replay takes this position
    component: int | None = None
