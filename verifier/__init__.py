"""sparkeq's verifier: ``verifier.check(left, right, **options) -> Result``.

Kept light on purpose: importing ``verifier`` (the CLI does, on every run) must not pay for Z3, the
frontend or Spark; ``check`` imports the pipeline on first call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from verifier.core.result import Result

__all__ = ["Result", "check"]


def check(left: Any, right: Any, **options: Any) -> Result:
    """Check two programs for equivalence under Spark's semantics; see ``verifier.core.api.check``."""
    from verifier.core.api import check as _check

    return _check(left, right, **options)


def __getattr__(name: str) -> Any:
    if name == "Result":
        from verifier.core.result import Result

        return Result
    raise AttributeError(f"module 'verifier' has no attribute {name!r}")
