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
    from frontend.script.rdd_script import translate_script_file
    from verifier.runtime.script_replay import ScriptJob, run_scripts

    refuted = [p for p in PAIRS if p["expected"] == "not_equivalent"]
    items = [(check(str(ROOT / p["left"]), str(ROOT / p["right"]), replay=False), str(ROOT / p["left"]),
              str(ROOT / p["right"])) for p in refuted]
    for pair, after in zip(refuted, replay_counterexamples(items), strict=True):
        assert after.verdict == "not_equivalent", (pair["name"], after.reason, after.warnings)
        assert after.counterexample.replayed_on_spark, (pair["name"], after.warnings)
    data = tmp_path / "in.txt"
    data.write_text(CASES["input"])
    folder = tmp_path / "folder"  # for the scripts that list their input: a directory holding the file
    folder.mkdir()
    (folder / "data.txt").write_text(CASES["input"])
    proved = [p for p in PAIRS if p["expected"] == "equivalent"]
    jobs = []
    for i, p in enumerate(proved):
        sps = {side: translate_script_file(str(ROOT / p[side])) for side in ("left", "right")}
        given = folder if any(s.kind == "dir_listing" for sp in sps.values() for s in sp.sources) else data
        for side in ("left", "right"):  # the same arguments: the input, then output paths of its own
            wd = tmp_path / f"{i}-{side}"
            wd.mkdir()
            n = sps[side].argv_length - 1
            outs = (str(wd / f"out{j}") for j in range(2, n + 1))  # printed without their directory
            jobs.append(ScriptJob(str(ROOT / p[side]), (str(given), *outs), str(wd)))
    runs = run_scripts(jobs)
    masks = ("<RDD>", "'<ResultIterable>'", "<sys.argv[0]>")
    from frontend.script.rdd_program import mask_line

    for i, pair in enumerate(proved):
        left, right = runs[2 * i], runs[2 * i + 1]
        assert left.exception is None and right.exception is None, (left.stderr, right.stderr)
        assert left.stdout_lines, pair["name"]
        shown = [[mask_line(x.replace(str((ROOT / pair[side]).resolve()), "<sys.argv[0]>"), masks)
                  .replace(str(tmp_path / f"{i}-{side}") + "/", "")
                  for x in run.stdout_lines] for side, run in (("left", left), ("right", right))]
        assert shown[0] == shown[1], pair["name"]
