"""The corpus-style RDD script pairs of cases/scripts/rdd_corpus_style.json (issue 20): each gets its
expected verdict without Spark (equivalent ones by a proof, not-equivalent ones with the text that tells
them apart). With Spark (slow): every counterexample replays, and both scripts of each equivalent pair
print the same lines on the same input once the excluded fields (RDD ids, addresses) are masked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from case_verdicts import assert_verdict

from verifier import check, replay_counterexamples

ROOT = Path(__file__).resolve().parent.parent
CASES = json.loads((ROOT / "cases" / "scripts" / "rdd_corpus_style.json").read_text())
PAIRS = CASES["pairs"]


@pytest.fixture(scope="module")
def results():
    return {p["name"]: check(str(ROOT / p["left"]), str(ROOT / p["right"]), replay=False) for p in PAIRS}


def test_pairs_of_both_verdicts():
    assert len(PAIRS) >= 7
    assert {p["expected"] for p in PAIRS} == {"equivalent", "not_equivalent"}


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: p["name"])
def test_verdict(results, pair):
    assert_verdict(results[pair["name"]], pair, output=str)


def test_what_was_not_compared_is_listed(results):
    def listed(name):
        return {(i["side"], i["construct"]) for i in results[name].ignored_statements}

    assert ("left", "printed ResultIterable objects") in listed("average_groupbykey_cached")
    assert ("right", "printed RDD object") in listed("average_groupbykey_cached")
    assert ("left", "except") in listed("word_count_function_vs_inline")


@pytest.mark.spark
@pytest.mark.slow
def test_verdicts_hold_on_spark(tmp_path):
    from verifier.runtime.script_replay import ScriptJob, run_scripts

    refuted = [p for p in PAIRS if p["expected"] == "not_equivalent"]
    items = [(check(str(ROOT / p["left"]), str(ROOT / p["right"]), replay=False), str(ROOT / p["left"]),
              str(ROOT / p["right"])) for p in refuted]
    for pair, after in zip(refuted, replay_counterexamples(items), strict=True):
        assert after.verdict == "not_equivalent", (pair["name"], after.reason, after.warnings)
        assert after.counterexample.replayed_on_spark, (pair["name"], after.warnings)
    data = tmp_path / "in.txt"
    data.write_text(CASES["input"])
    proved = [p for p in PAIRS if p["expected"] == "equivalent"]
    jobs = [ScriptJob(str(ROOT / p[side]), (str(data),), str(tmp_path))
            for p in proved for side in ("left", "right")]
    runs = run_scripts(jobs)
    masks = ("<RDD>", "'<ResultIterable>'")
    from frontend.script.rdd_program import mask_line

    for i, pair in enumerate(proved):
        left, right = runs[2 * i], runs[2 * i + 1]
        assert left.exception is None and right.exception is None, (left.stderr, right.stderr)
        assert left.stdout_lines, pair["name"]
        assert [mask_line(x, masks) for x in left.stdout_lines] == \
            [mask_line(x, masks) for x in right.stdout_lines], pair["name"]
