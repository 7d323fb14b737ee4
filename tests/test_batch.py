"""``sparkeq batch`` and ``sparkeq.check_many``: the same verdicts as one ``check`` at a time, whether
the pairs run in this process, in a process pool or as Spark tasks on local[2]; JSONL output valid
against the schema; JUnit XML with one test case per pair; located errors for a malformed file."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from schema_util import validate

import sparkeq
from verifier.interfaces.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIX = Path(__file__).resolve().parent / "interface_fixtures"
PAIRS = [
    ("p1_p2_map_filter_reorder/left.py::p1", "p1_p2_map_filter_reorder/right.py::p2"),
    ("p1_p2_boundary_strict/left.py::p1", "p1_p2_boundary_strict/right.py::p2"),
    ("groupbykey_sum_vs_reducebykey/left.py", "groupbykey_sum_vs_reducebykey/right.py"),
    ("map_fusion_wrong_constant/left.py::two_maps", "map_fusion_wrong_constant/right.py::fused"),
]


def pairs() -> list[dict[str, str]]:
    items = [{"id": left.split("/")[0], "left": f"cases/{left}", "right": f"cases/{right}"}
             for left, right in PAIRS]
    items.append({"id": "division", "left": f"{FIX}/div_old.py::scale", "right": f"{FIX}/div_new.py::scale",
                  "timeout": 20})
    items.append({"id": "missing", "left": "cases/nope.py::f", "right": "cases/nope.py::g"})
    return items


def essentials(result: sparkeq.Result) -> tuple:
    """What must not depend on where a check ran: verdict, method, reason and the counterexample's
    shape. Not compared: what an unknown's search covered (how many random inputs fit in the time
    budget depends on the machine's load) and which separating input Z3's model picked (Z3's choice
    depends on the queries the process ran before; any confirmed difference is a valid witness)."""
    data = result.to_json()
    reason = data["reason"]
    if data["verdict"] == "unknown":
        reason = reason.split(" Searched")[0]
    cex = data["counterexample"]
    if cex is not None:
        assert cex["left"] != cex["right"]
        reason = reason.split(",")[0]
        cex = sorted(cex["inputs"])
    return data["verdict"], data["method"], reason, cex


@pytest.fixture(scope="module")
def sequential() -> list[sparkeq.Result]:
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(ROOT)
        return [sparkeq.check(p["left"], p["right"], timeout=p.get("timeout")) for p in pairs()]


def test_pool_equals_sequential(sequential: list[sparkeq.Result], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    seen: list[int] = []
    results = sparkeq.check_many(pairs(), workers=2, progress=lambda i, r: seen.append(i))
    assert [essentials(r) for r in results] == [essentials(r) for r in sequential]
    assert sorted(seen) == list(range(len(pairs())))
    assert [r.verdict for r in results] == ["equivalent", "not_equivalent", "equivalent", "not_equivalent",
                                            "unknown", "error"]


@pytest.mark.spark
def test_spark_local2_equals_sequential(sequential: list[sparkeq.Result], spark_context: object,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    results = sparkeq.check_many(pairs(), master="local[2]")
    assert [essentials(r) for r in results] == [essentials(r) for r in sequential]


def test_cli_jsonl_and_junit(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    source = tmp_path / "pairs.jsonl"
    source.write_text("# a comment\n" + "\n".join(json.dumps(p) for p in pairs()) + "\n\n")
    junit = tmp_path / "report.xml"
    code = main(["batch", str(source), "--workers", "1", "--junit-xml", str(junit)])
    out, err = capsys.readouterr()
    assert code == 1  # a refuted pair wins over the unknown and the input error
    lines = [validate(json.loads(line), "batch_line") for line in out.splitlines()]
    assert [line["id"] for line in lines] == [p["id"] for p in pairs()]
    assert lines[1]["left"] == "cases/p1_p2_boundary_strict/left.py::p1"  # as the user gave it
    assert lines[1]["result"]["counterexample"]["inputs"] == {"R": [50]}
    assert "cases/nope.py:1:1: no such file" in err
    suite = ET.parse(junit).getroot()
    assert suite.get("tests") == "6" and suite.get("failures") == "2" and suite.get("errors") == "1"
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    assert cases["p1_p2_boundary_strict"].find("failure") is not None
    assert cases["division"].find("skipped") is not None
    assert cases["p1_p2_map_filter_reorder"].find("failure") is None


def test_malformed_jsonl_is_a_located_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "pairs.jsonl"
    source.write_text('{"left": "a.py", "right": "b.py"}\n{"left": "a.py", "right": }\n')
    assert main(["batch", str(source)]) == 3
    assert capsys.readouterr().err.startswith(f"{source}:2:")
    source.write_text('{"left": "a.py", "rihgt": "b.py"}\n')
    assert main(["batch", str(source)]) == 3
    assert "'left' and 'right'" in capsys.readouterr().err


@pytest.mark.parametrize("options", ['"timeout": "abc"', '"timeout": -5', '"bound": 0', '"seed": 1.5'])
def test_bad_per_pair_options_are_located_input_errors(tmp_path: Path, options: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Found in review: a bad per-pair option was an internal error of the check, not an input error."""
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text('{"left": "a.py", "right": "b.py", ' + options + "}\n")
    code = main(["batch", str(pairs)])
    err = capsys.readouterr().err
    assert code == 3, err
    assert f"{pairs}:1:1:" in err and "Traceback" not in err
