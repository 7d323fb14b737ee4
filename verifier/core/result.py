"""The answer of one equivalence check, shaped exactly like the JSON of ``interfaces.md``.

``Result`` carries the JSON fields (``schema_version``, ``verdict``, ``method``, ``reason``,
``counterexample``, ``warnings``, ``assumptions``, ``seconds``) and, outside the JSON, what a human or a
test wants to see next: the method's explanation, the raw interpreter outcomes of the counterexample
(so the renderer can highlight differing elements) and debug statistics (how many candidates
validation discarded, what each method said). ``to_json()`` emits only the contract's fields, so
adding debug data never changes the contract.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Verdict = Literal["equivalent", "not_equivalent", "unknown", "error"]

EXIT_CODES: Mapping[str, int] = {"equivalent": 0, "not_equivalent": 1, "unknown": 2, "error": 3}

# Version of the JSON contract (docs/json.md, docs/result.schema.json); bumped when a field changes.
SCHEMA_VERSION = 2


@dataclass(frozen=True)
class Counterexample:
    """Concrete inputs on which the two programs' outputs differ, as computed by the interpreter.

    ``inputs``/``partitions``/``left``/``right`` are already JSON values (bags as sorted lists, errors
    as ``{"error": kind}``). ``left_outcome``/``right_outcome`` keep the interpreter's raw outcomes for
    rendering; they are not part of the JSON.
    """

    inputs: Mapping[str, Any]
    partitions: Mapping[str, Any] | None
    left: Any
    right: Any
    replayed_on_spark: bool = False
    left_outcome: Any = field(default=None, compare=False, repr=False)
    right_outcome: Any = field(default=None, compare=False, repr=False)
    origin: str = field(default="", compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "inputs": dict(self.inputs),
            "partitions": dict(self.partitions) if self.partitions is not None else None,
            "left": self.left,
            "right": self.right,
            "replayed_on_spark": self.replayed_on_spark,
        }


@dataclass(frozen=True)
class Result:
    """One check's verdict. ``equivalent`` only ever comes from a method's proof; ``not_equivalent``
    only with a counterexample the reference interpreter confirmed."""

    verdict: Verdict
    method: str | None = None
    reason: str | None = None
    counterexample: Counterexample | None = None
    warnings: tuple[str, ...] = ()
    seconds: float = 0.0
    explanation: str | None = field(default=None, compare=False)
    stats: Mapping[str, Any] = field(default_factory=dict, compare=False)
    sources: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)
    assumptions: tuple[str, ...] = ()
    # statements shown not to change the outputs (scripts): {"side", "line", "col", "construct", "why"}
    ignored_statements: tuple[Mapping[str, Any], ...] = field(default=(), compare=False)

    def __repr__(self) -> str:
        """Short, for a REPL or a log line: the verdict, the method and the start of the reason."""
        reason = self.reason or ""
        if len(reason) > 70:
            reason = reason[:67] + "..."
        parts = [self.verdict] + ([f"method={self.method}"] if self.method else [])
        if reason:
            parts.append(repr(reason))
        return f"<Result {' '.join(parts)} ({self.seconds:.2f} s)>"

    @property
    def exit_code(self) -> int:
        """The CLI's exit status for this verdict (0 equivalent, 1 not, 2 unknown, 3 input error)."""
        return EXIT_CODES[self.verdict]

    def to_json(self) -> dict[str, Any]:
        """Exactly the fields of interfaces.md (schema version 2), in its order; ``ignored_statements``
        only when a script had some (an optional field)."""
        out = {
            "schema_version": SCHEMA_VERSION,
            "verdict": self.verdict,
            "method": self.method,
            "reason": self.reason,
            "counterexample": self.counterexample.to_json() if self.counterexample is not None else None,
            "warnings": list(self.warnings),
            "assumptions": list(self.assumptions),
            "seconds": round(self.seconds, 3),
        }
        if self.ignored_statements:
            out["ignored_statements"] = [dict(i) for i in self.ignored_statements]
        return out
