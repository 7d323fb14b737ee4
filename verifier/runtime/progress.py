"""What replay on Spark is doing, said as it happens, and the time it may still take.

Why: a replay starts a JVM (10-30 s, much more on a loaded machine) and runs both programs; inside a
pre-commit run that was minutes with nothing on screen. The interfaces (``check``, ``hook``) install a
``sink`` that prints each step on stderr (starting Spark, running LEFT, running RIGHT) and a deadline
(``--replay-timeout``); the runtime calls ``say`` at each step and caps the subprocesses it starts
with ``remaining``. Without a sink (the library, tests) ``say`` does nothing.

The state is process-wide on purpose: replays of one run happen one after the other, and the steps are
deep in the runtime (``spark.get_context`` knows when a JVM starts), far from the interface that owns
the terminal.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from typing import Any

_sink: Callable[[str], None] | None = None
_deadline: float | None = None


@contextlib.contextmanager
def reporting(sink: Callable[[str], None] | None, deadline: float | None = None) -> Iterator[None]:
    """Within the block, steps go to ``sink`` and ``remaining()`` counts down to ``deadline``
    (``time.monotonic()`` seconds; None: no limit)."""
    global _sink, _deadline
    saved = _sink, _deadline
    _sink, _deadline = sink, deadline
    try:
        yield
    finally:
        _sink, _deadline = saved


def say(text: str) -> None:
    """Report one step (a no-op when nobody listens)."""
    if _sink is not None:
        _sink(text)


def remaining(default: float) -> float:
    """Seconds left before the replay deadline, at most ``default`` (at least a tenth of a second, so
    a subprocess given it still starts and times out cleanly)."""
    if _deadline is None:
        return default
    return max(0.1, min(default, _deadline - time.monotonic()))


def label(loaded: Any) -> str:
    """A program as messages name it: ``path::function`` (the hook's paths say which version)."""
    path = getattr(loaded, "path", None) or "<source>"
    function = getattr(loaded, "function", None)
    return f"{path}::{function}" if function and "::" not in path else path
