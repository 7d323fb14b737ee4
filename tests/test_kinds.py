"""The program kinds of ``verifier.core.check`` (issue 19): which kind takes which pair, and the
dependency inversion of replay (the core replays only through the ``Replayer`` the facade hands it)."""

from __future__ import annotations

from pathlib import Path

import verifier
from verifier.core.check import KINDS, check, replay_counterexample
from verifier.core.loading import load
from verifier.core.services import NO_REPLAYER, Services

ROOT = Path(__file__).resolve().parent.parent
LEFT = str(ROOT / "cases/p1_p2_boundary_strict/left.py") + "::p1"
RIGHT = str(ROOT / "cases/p1_p2_boundary_strict/right.py") + "::p2"
SCRIPT = str(ROOT / "cases/scripts/dept_totals.py")
WORD_COUNT_RDD = str(ROOT / "cases/migration/word_count/left.py") + "::word_count"
WORD_COUNT_DF = str(ROOT / "cases/migration/word_count/right.py") + "::word_count"


def _kind(left: str, right: str, **options: str) -> str:
    lp, rp = load(left, **options), load(right, **options)
    return next(k for k in KINDS if k.accepts(lp, rp)).name


def test_each_pair_goes_to_its_kind():
    assert _kind(LEFT, RIGHT) == "rdd"
    assert _kind(SCRIPT, SCRIPT) == "rdd_script"
    assert KINDS[-1].name == "rdd"  # the kind every other pair falls back to
    assert _kind(WORD_COUNT_RDD, WORD_COUNT_DF) == "cross"
    assert _kind(WORD_COUNT_DF, WORD_COUNT_RDD) == "cross"
    assert [k.name for k in KINDS] == ["df_script", "rdd_script", "outputs", "cross", "relational", "rdd"]


def test_script_against_function_is_the_script_kinds_error():
    result = check(SCRIPT, LEFT)
    assert result.verdict == "error"
    assert "can only be compared with another script" in (result.reason or "")


def test_core_without_services_does_not_replay_and_says_why():
    result = check(LEFT, RIGHT, replay=True, timeout=20)
    assert result.verdict == "not_equivalent"
    assert result.counterexample is not None and not result.counterexample.replayed_on_spark
    assert any(NO_REPLAYER in w for w in result.warnings)


def test_replay_goes_back_to_the_kind_that_made_the_result():
    result = check(LEFT, RIGHT, timeout=20)
    assert not any(k.made(result) for k in KINDS[:-1])  # an RDD pair's result: no kind's marker but RDD's
    replayed = replay_counterexample(result, LEFT, RIGHT, services=Services())
    assert any(NO_REPLAYER in w for w in replayed.warnings)


def test_facade_wires_the_runtime_and_the_wording():
    services = verifier.services()
    assert services.replayer is not None and services.summarise is not None
