"""The corpus-style DataFrame script pairs of cases/scripts/corpus_style.json (issue 20): each gets its
expected verdict without Spark (equivalent ones by a proof, listing the ignored statements; not-equivalent
ones with the line that tells them apart). With Spark (slow): every counterexample replays, and both
scripts of each equivalent pair print the same lines on the same input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from case_verdicts import assert_verdict

from verifier import check, replay_counterexamples

ROOT = Path(__file__).resolve().parent.parent
PAIRS = json.loads((ROOT / "cases" / "scripts" / "corpus_style.json").read_text())["pairs"]
EMP_CSV = (
    "id,name,salary,dept\n1001,alex,67000,SALES\n1002,bob,24000,SALES\n1005,betty,,SOFTWARE\n"
    "1006,jeff,59000,\n"
)


@pytest.fixture(scope="module")
def results():
    return {p["name"]: check(str(ROOT / p["left"]), str(ROOT / p["right"])) for p in PAIRS}


def test_five_pairs_with_a_notebook():
    assert len(PAIRS) >= 5
    assert any(p["left"].endswith(".ipynb") for p in PAIRS)


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: p["name"])
def test_verdict(results, pair):
    assert_verdict(results[pair["name"]], pair)


def test_excluded_diagnostics_are_listed(results):
    result = results["emp_report_diagnostics_removed"]
    listed = {(i["side"], i["construct"]) for i in result.ignored_statements}
    assert ("left", "df.explain()") in listed and ("right", "sparkContext.setLogLevel()") in listed
    assert sum("nondeterministic output excluded" in w for w in result.warnings) == 2


@pytest.mark.spark
@pytest.mark.slow
def test_verdicts_hold_on_spark(results, tmp_path):
    from verifier.runtime.script_replay import ScriptJob, run_scripts

    refuted = [p for p in PAIRS if p["expected"] == "not_equivalent"]
    items = [(results[p["name"]], str(ROOT / p["left"]), str(ROOT / p["right"])) for p in refuted]
    for pair, after in zip(refuted, replay_counterexamples(items), strict=True):
        assert after.verdict == "not_equivalent", (pair["name"], after.reason, after.warnings)
        assert after.counterexample.replayed_on_spark, (pair["name"], after.warnings)
    data = tmp_path / "emp.csv"
    data.write_text(EMP_CSV)
    proved = [p for p in PAIRS if p["expected"] == "equivalent"]
    jobs = [ScriptJob(str(ROOT / p[s]), (str(data),) if "emp" in p[s] else (), str(tmp_path))
            for p in proved for s in ("left", "right")]
    runs = run_scripts(jobs)
    masked = [[re.sub(r"0x[0-9a-f]+>", "0x…>", line) for line in r.stdout_lines] for r in runs]
    for i, pair in enumerate(proved):
        assert runs[2 * i].exception is None, runs[2 * i].stderr
        assert masked[2 * i] == masked[2 * i + 1], pair["name"]
