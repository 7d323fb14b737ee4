"""Replay within a time budget (``--replay-timeout``).

Why: ``--timeout`` bounds the decision, not the replay on Spark, which starts a JVM and runs both
programs; in a pre-commit run that once took 364 s. The budget covers everything a run replays (the
JVM start included). The replay runs in a daemon thread; when the budget runs out the caller gets
``ReplayTimedOut`` at once, Spark's running jobs are cancelled (so the thread ends soon), and script
replays, which run in a subprocess, were started with the remaining time as their own timeout
(``progress.remaining``). A JVM still starting is left to finish in the background: it exits with this
process, since PySpark's gateway stops when its parent's pipe closes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class ReplayTimedOut(Exception):
    """The replay did not finish within its budget (seconds in ``args[0]``)."""


def within(seconds: float | None, work: Callable[[], T]) -> T:
    """``work()``, or ``ReplayTimedOut`` once ``seconds`` have passed (None: no limit, run inline)."""
    if seconds is None:
        return work()
    outcome: list[tuple[bool, object]] = []  # (finished normally, its value or exception)

    def target() -> None:
        try:
            outcome.append((True, work()))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread below
            outcome.append((False, exc))

    thread = threading.Thread(target=target, name="sparkeq-replay", daemon=True)
    thread.start()
    thread.join(max(0.0, seconds))
    if not outcome:
        _cancel_spark_jobs()
        raise ReplayTimedOut(seconds)
    finished, value = outcome[0]
    if not finished:
        raise value  # type: ignore[misc]
    return value  # type: ignore[return-value]


def deadline(seconds: float | None) -> float | None:
    """The monotonic time ``seconds`` from now (None: none)."""
    return None if seconds is None else time.monotonic() + seconds


def _cancel_spark_jobs() -> None:
    """Cancel what the process's SparkContext runs, if one was started (never starts one)."""
    from verifier.runtime import spark

    if not spark.get_context.cache_info().currsize:
        return
    try:
        from pyspark import SparkContext

        sc = SparkContext._active_spark_context
        if sc is not None:
            sc.cancelAllJobs()
    except Exception:  # noqa: BLE001 - best effort: the verdict is already decided
        pass
