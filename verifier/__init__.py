"""sparkeq's verifier: ``verifier.check(left, right, **options) -> Result``, the public facade.

It wires the layers below it: the decision core (``verifier.core.check``) is handed the Spark runtime's
replayer (``verifier.runtime.replayer.SparkReplayer``) and the plain-language wording of reasons
(``verifier.interfaces.reasons.summarise``) as ``verifier.core.services.Services``, so that the core
depends on neither. The CLI, the hook, batches and ``sparkeq`` call these functions.

Kept light on purpose: importing ``verifier`` (the CLI does, on every run) must not pay for Z3, the
frontend or Spark; ``check`` imports the pipeline on first call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from verifier.core.result import Result
    from verifier.core.services import Services

__all__ = ["Result", "check", "replay_counterexample", "replay_counterexamples"]


def check(left: Any, right: Any, **options: Any) -> Result:
    """Check two programs for equivalence under Spark's semantics; see ``verifier.core.check``."""
    from verifier.core.check import check as _check

    return _check(left, right, services=services(), **options)


def replay_counterexample(result: Result, left: Any, right: Any, **options: Any) -> Result:
    """Replay the counterexample of ``check(..., replay=False)`` on Spark, as ``replay=True`` would have."""
    from verifier.core.check import replay_counterexample as _replay

    return _replay(result, left, right, services=services(), **options)


def replay_counterexamples(items: Sequence[tuple[Result, Any, Any]], **options: Any) -> list[Result]:
    """``replay_counterexample`` for many ``(result, left, right)`` (scripts' replays share one process)."""
    from verifier.core.check import replay_counterexamples as _replay_all

    return _replay_all(items, services=services(), **options)


def services() -> Services:
    """The core's services as the facade wires them: Spark replay and the plain-language reasons."""
    from verifier.core.services import Services
    from verifier.interfaces.reasons import summarise
    from verifier.runtime.replayer import SparkReplayer

    return Services(replayer=SparkReplayer(), summarise=summarise)


def __getattr__(name: str) -> Any:
    if name == "Result":
        from verifier.core.result import Result

        return Result
    raise AttributeError(f"module 'verifier' has no attribute {name!r}")
