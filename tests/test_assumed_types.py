"""Assumed types are assumptions (issue 24): an unannotated RDD parameter taken as ``int`` is listed in
``assumptions`` and the proof does not claim "every input" silently; evidence in the code decides the
type where it can. Also: a DataFrame reason shows the differing rows, not a cut JSON prefix."""

from __future__ import annotations

from pathlib import Path

import verifier
from frontend import translate_source

README_LEFT = "def left(R):\n    return R.filter(lambda x: x > 1).map(lambda x: x + 1)\n"
README_RIGHT = "def right(R):\n    return R.map(lambda x: x + 1).filter(lambda x: x > 2)\n"
ASSUMED_R = "R's elements are assumed to be int (no annotation; annotate R: RDD[float] to check floats)"


def test_readme_pair_lists_the_assumed_int() -> None:
    result = verifier.check((README_LEFT, "left"), (README_RIGHT, "right"))
    assert result.verdict == "equivalent", result.reason
    assert result.assumptions == (ASSUMED_R,)
    assert result.reason.startswith("Proved for every input the assumptions allow")
    assert result.to_json()["assumptions"] == [ASSUMED_R]


def test_annotated_parameters_assume_nothing() -> None:
    left = "from pyspark import RDD\n" + README_LEFT.replace("(R)", "(R: RDD[int])")
    right = "from pyspark import RDD\n" + README_RIGHT.replace("(R)", "(R: RDD[int])")
    result = verifier.check((left, "left"), (right, "right"))
    assert result.verdict == "equivalent" and result.assumptions == ()
    assert result.reason.startswith("Proved for every input and every partitioning")


def test_evidence_in_the_code_decides_the_type() -> None:
    """``s.split(",")`` shows the elements are strings: nothing is assumed."""
    program = translate_source("def f(R):\n    return R.map(lambda s: len(s.split(',')))\n", "f")
    assert program.assumed == ()
    scalar = translate_source("def f(R, t):\n    return R.map(lambda x: x * t)\n", "f")
    assert scalar.assumed == (ASSUMED_R, "t is assumed to be int (no annotation; annotate t: float to "
                                          "check floats)")


def test_human_report_shows_the_assumption() -> None:
    from rich.console import Console

    from verifier.interfaces.render import render

    result = verifier.check((README_LEFT, "left"), (README_RIGHT, "right"))
    console = Console(record=True, width=200)
    render(result, console, left="left", right="right")
    assert "R's elements are assumed to be int" in console.export_text()


def test_dataframe_reason_names_the_differing_rows(tmp_path: Path) -> None:
    left = tmp_path / "l.py"
    right = tmp_path / "r.py"
    head = "from pyspark.sql import DataFrame\nimport pyspark.sql.functions as F\n"
    left.write_text(head + "def f(t: DataFrame):\n    return t.filter(F.col('a') > 1)\n")
    right.write_text(head + "def f(t: DataFrame):\n    return t.filter(F.col('a') >= 1)\n")
    result = verifier.check(str(left), str(right), schema=["t=a INT NOT NULL"])
    assert result.verdict == "not_equivalent", result.reason
    assert 'RIGHT has 1 row LEFT lacks: {"a": 1}' in result.reason
    assert "..." not in result.reason
