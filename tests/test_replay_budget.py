"""Replay within a budget (``--replay-timeout``) and its progress lines (issue 24). The timeouts here are
far apart from the work's duration (a sleep of seconds against a budget of milliseconds, a JVM start
against a millisecond), so no test depends on the machine's speed."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from verifier.runtime import progress
from verifier.runtime.bounded import ReplayTimedOut, within

ROOT = Path(__file__).resolve().parent.parent
SPARKEQ = Path(sys.executable).parent / "sparkeq"
REFUTED = ("cases/p1_p2_boundary_strict/left.py::p1", "cases/p1_p2_boundary_strict/right.py::p2")


def test_within_returns_raises_or_times_out() -> None:
    assert within(None, lambda: 7) == 7
    assert within(10, lambda: 8) == 8
    with pytest.raises(ZeroDivisionError):
        within(10, lambda: 1 // 0)
    started = time.monotonic()
    with pytest.raises(ReplayTimedOut):
        within(0.05, lambda: time.sleep(5))
    assert time.monotonic() - started < 4  # the caller does not wait for the work


def test_progress_goes_to_the_sink_and_remaining_counts_down() -> None:
    said: list[str] = []
    progress.say("nobody listens")
    with progress.reporting(said.append, time.monotonic() + 100):
        progress.say("starting Spark")
        assert 90 < progress.remaining(1000) <= 100
        assert progress.remaining(5) == 5
    assert said == ["starting Spark"]
    assert progress.remaining(5) == 5  # no deadline outside the block


@pytest.mark.spark
def test_check_past_its_replay_budget_keeps_the_verdict() -> None:
    proc = subprocess.run([str(SPARKEQ), "check", *REFUTED, "--json", "--replay-timeout", "0.001"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    data = json.loads(proc.stdout)
    assert proc.returncode == 1 and data["verdict"] == "not_equivalent"
    assert data["counterexample"]["replayed_on_spark"] is False
    assert any("not replayed on Spark: timed out" in w for w in data["warnings"])
