"""The time budget of one check, passed down to every loop that can run long.

Why an object and an exception: Z3 calls are bounded by per-query timeouts and cancelled by the
watchdog in ``verifier.core.run``, but the Python-side work around them -- building terms, instantiating
candidate witnesses, unrolling programs over bounded inputs, running the interpreter on candidates --
is not, and on wide tuples or long pipelines it dominates (a 7-way join with ``--timeout 3`` once took
26 s). Those loops call ``Deadline.check`` and stop with ``OutOfTime``, which ``verifier.core.decide`` turns
into ``unknown`` ("ran out of time"). Stopping early can only lose a verdict, never make one up: a proof
is only reported once all of its conditions were shown valid.

It lives in ``sparklite`` (not ``verifier``) so that every layer can check it -- the bounded unrolling
in ``encoder`` included -- without importing upwards, and because ``sparklite`` is light to import.
"""

from __future__ import annotations

import time
from dataclasses import dataclass


class OutOfTime(Exception):  # noqa: N818 - the name says what happened; "Error" would suggest a bug
    """The check's time budget is spent; ``where`` says which step noticed."""

    def __init__(self, where: str) -> None:
        super().__init__(f"out of time in {where}")
        self.where = where


@dataclass(frozen=True)
class Deadline:
    """A point in ``time.monotonic()`` time (None: no limit). Immutable, so it can be shared by every
    step of a check, and by the watchdog thread, without coordination."""

    at: float | None = None

    @staticmethod
    def after(seconds: float) -> Deadline:
        return Deadline(time.monotonic() + seconds)

    def remaining(self) -> float:
        """Seconds left (infinite without a limit; negative once passed)."""
        return float("inf") if self.at is None else self.at - time.monotonic()

    def expired(self) -> bool:
        return self.at is not None and time.monotonic() >= self.at

    def check(self, where: str) -> None:
        """Raise ``OutOfTime`` once the deadline has passed. Cheap enough for inner loops."""
        if self.at is not None and time.monotonic() >= self.at:
            raise OutOfTime(where)

    def cap(self, seconds: float, floor: float = 0.01) -> float:
        """``seconds``, shortened so that a call given it ends by the deadline (never below ``floor``,
        so a Z3 timeout stays positive; an already expired deadline is for ``check`` to report)."""
        return max(floor, min(seconds, self.remaining()))
