"""Whole scripts through ``verifier.check``, the CLI and the report (docs/scripts.md, issue 12).

What is checked: every pair of cases/scripts/manifest.json gets its expected verdict from the library
(scripts untouched), with counterexamples given as files by path expression; every not-equivalent
pair's counterexample replays on Spark by running the two unmodified scripts (one batch, one JVM
start); the CLI on one pair (exit code, JSON against docs/sparkeq.schema.json, replayed); a script
against a function is a located input error (exit 3); a script whose import writes a file is analysed
without creating it; scripts whose outputs differ in shape give a witness or ``unknown`` naming the
sinks; what counts as an observable difference of two scripts' outputs.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from schema_util import validate

from frontend.script.rdd_script import align_sources, translate_script
from sparklite.values import Bag, ErrorOutcome, ListValue, Sorted
from verifier import check, replay_counterexamples
from verifier.core.base import Candidate
from verifier.core.script_check import ScriptPair, observably_differ
from verifier.interfaces.cli import main

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = json.loads((ROOT / "cases" / "scripts" / "manifest.json").read_text())
PAIRS = MANIFEST["pairs"]
# DataFrame scripts' replays run in tests/test_df_script.py (their own batch, marked slow)
NOT_EQUIVALENT = [p for p in PAIRS if p["expected"] == "not_equivalent" and not p.get("dataframe")]
CLI_PAIR = "dept_totals_wrong_index"  # replayed through the CLI; the others through the library batch


@pytest.fixture(scope="module")
def results():
    """Every manifest pair checked once by the library (no replay), by name."""
    return {p["name"]: check(p["left"], p["right"]) for p in PAIRS}


# --- the corpus ------------------------------------------------------------------------------------


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: p["name"])
def test_corpus_verdict(results, pair):
    result = results[pair["name"]]
    validate(result.to_json())
    assert result.verdict == pair["expected"], (result.reason, result.stats.get("methods"))
    assert "script" in result.stats  # the report names the sources and sinks
    if pair["expected"] == "equivalent":
        assert result.method == pair["method"]
    if pair["expected"] == "unknown":
        assert result.counterexample is None and result.reason
    if pair["expected"] == "not_equivalent":
        cex = result.counterexample
        assert cex is not None and cex.replayed_on_spark is False
        assert set(cex.inputs) == set(pair["witness"]["files"])  # files by path expression
        for lines in cex.inputs.values():
            assert all(isinstance(x, str) and "\n" not in x and "\r" not in x for x in lines)
        assert cex.left != cex.right


@pytest.mark.spark
def test_counterexamples_replay_on_spark(results):
    """Each not-equivalent pair's counterexample, run as ``python script.py FILE`` for both scripts on
    Spark, shows the difference the interpreter predicted. One Python process (one JVM) for all."""
    items = [(results[p["name"]], p["left"], p["right"]) for p in NOT_EQUIVALENT if p["name"] != CLI_PAIR]
    replayed = replay_counterexamples(items)
    for (before, _, _), after, pair in zip(items, replayed, [p for p in NOT_EQUIVALENT
                                                              if p["name"] != CLI_PAIR], strict=True):
        assert after.verdict == "not_equivalent", (pair["name"], after.reason, after.warnings)
        assert after.counterexample is not None
        assert after.counterexample.replayed_on_spark, (pair["name"], after.warnings, after.stats)
        assert after.counterexample.inputs == before.counterexample.inputs
        validate(after.to_json())


@pytest.mark.spark
def test_cli_checks_and_replays_two_scripts():
    pair = next(p for p in PAIRS if p["name"] == CLI_PAIR)
    command = [sys.executable, "-m", "verifier.interfaces.cli", "check", pair["left"], pair["right"],
               "--json"]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert proc.returncode == 1, proc.stderr
    data = validate(json.loads(proc.stdout))
    assert data["verdict"] == "not_equivalent"
    cex = data["counterexample"]
    assert list(cex["inputs"]) == ["sys.argv[1]"] and cex["replayed_on_spark"] is True, data
    assert "input files" in data["reason"]


def test_cli_equivalent_scripts_without_spark():
    pair = next(p for p in PAIRS if p["name"] == "wordcount_two_ways")
    command = [sys.executable, "-m", "verifier.interfaces.cli", "check", pair["left"], pair["right"],
               "--json"]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    data = validate(json.loads(proc.stdout))
    assert data["verdict"] == "equivalent" and data["method"] == "AggOneK"


def test_without_java_the_script_verdict_stands_with_a_warning(tmp_path):
    import os

    pair = next(p for p in PAIRS if p["name"] == CLI_PAIR)
    env = {k: v for k, v in os.environ.items() if k != "JAVA_HOME"}
    env["PATH"] = str(tmp_path)  # no java on PATH: the scripts cannot start Spark
    command = [sys.executable, "-m", "verifier.interfaces.cli", "check", pair["left"], pair["right"],
               "--json"]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)
    assert proc.returncode == 1, proc.stderr
    data = validate(json.loads(proc.stdout))
    assert data["counterexample"]["replayed_on_spark"] is False
    assert any("not replayed on Spark" in w and "Java" in w for w in data["warnings"]), data["warnings"]


def test_human_report_names_sources_and_sinks(capsys):
    pair = next(p for p in PAIRS if p["name"] == CLI_PAIR)
    code = main(["check", pair["left"], pair["right"], "--no-replay"])
    out = capsys.readouterr().out
    assert code == 1
    assert "sources: sys.argv[1] (dept_totals.py:13, dept_totals_wrong_index.py:13)" in out
    assert "1. printed lines (dept_totals.py:15, dept_totals_wrong_index.py:15)" in " ".join(out.split())
    assert "input file" in out


def test_entry_spec_names_main():
    result = check("cases/scripts/wordcount_main.py::main", "cases/scripts/wordcount_example.py")
    assert result.verdict == "equivalent", result.reason


# --- input errors and no execution -----------------------------------------------------------------


def test_script_against_a_function_is_a_located_input_error(capsys):
    script = "cases/scripts/wordcount_example.py"
    function = "cases/p3_p4_min_price/left.py::p3"
    result = check(script, function)
    assert result.verdict == "error"
    assert result.reason.startswith("cases/p3_p4_min_price/left.py:6:1: ")
    assert "can only be compared with another script" in result.reason
    assert main(["check", function, script]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("cases/p3_p4_min_price/left.py:6:1: ")


def test_inputs_that_cannot_be_matched_are_located(tmp_path):
    one = _script(tmp_path, "one.py", "print(lines.count())")
    two = _script(tmp_path, "two.py", "other = sc.textFile(sys.argv[2])\nprint(lines.count(), other.count())")
    result = check(one, two)
    assert result.verdict == "error" and result.reason.startswith(f"{two}:")
    assert "different numbers of inputs" in result.reason


def test_analysis_never_runs_the_script(tmp_path):
    """A check of two scripts whose import would write files (a class body, a sibling module) reads them
    and decides without creating the files."""
    marker, imported = tmp_path / "marker.txt", tmp_path / "imported.txt"
    (tmp_path / "sidecar.py").write_text(f"open({str(imported)!r}, 'w').write('x')\n")
    head = f"import sidecar\n\nclass Config:\n    opened = open({str(marker)!r}, 'w').write('ran')\n\n"
    left = _script(tmp_path, "left.py", "print(lines.count())", head=head)
    right = _script(tmp_path, "right.py", "print(lines.filter(lambda l: l).count())", head=head)
    result = check(left, right)
    assert result.verdict == "not_equivalent", result.reason
    assert result.counterexample is not None and result.counterexample.inputs["sys.argv[1]"] == [""]
    assert not marker.exists() and not imported.exists()


def test_analysis_never_runs_a_dataframe_script(tmp_path):
    """The same for DataFrame scripts (frontend.script.df_script): a class body and a sibling module
    that would write files at import are read, never run."""
    marker, imported = tmp_path / "df_marker.txt", tmp_path / "df_imported.txt"
    (tmp_path / "df_sidecar.py").write_text(f"open({str(imported)!r}, 'w').write('x')\n")
    head = (f"import sys\nimport df_sidecar\nfrom pyspark.sql import SparkSession\n\n"
            f"class Config:\n    opened = open({str(marker)!r}, 'w').write('ran')\n\n"
            "spark = SparkSession.builder.getOrCreate()\n"
            "df = spark.read.csv(sys.argv[1], schema='a INT, b STRING')\n")
    left, right = tmp_path / "left_df.py", tmp_path / "right_df.py"
    left.write_text(head + "print(df.filter(df.a > 1).count())\n")
    right.write_text(head + "print(df.filter(df.a >= 1).count())\n")
    result = check(str(left), str(right))
    assert result.verdict == "not_equivalent", result.reason
    assert result.counterexample is not None and result.counterexample.inputs == {"sys.argv[1]": ["1,"]}
    assert not marker.exists() and not imported.exists()


# --- shapes, inputs and what differs ---------------------------------------------------------------


def test_outputs_of_different_shapes_get_a_witness(tmp_path):
    left = _script(tmp_path, "left.py", "for w in lines.collect():\n    print(w)")
    right = _script(tmp_path, "right.py", "print(lines.count())")
    result = check(left, right)
    assert result.verdict == "not_equivalent", result.reason
    validate(result.to_json())


def test_outputs_of_different_shapes_writing_the_same_text_are_unknown(tmp_path):
    """A loop over an always-empty RDD, then a print, writes what the print alone writes: no witness
    exists, and no proof method compares a different number of outputs."""
    left = _script(tmp_path, "left.py", "for w in lines.filter(lambda l: False).collect():\n    print(w)\n"
                   "print('done')")
    right = _script(tmp_path, "right.py", "print('done')")
    result = check(left, right)
    assert result.verdict == "unknown"
    assert "differ in shape" in result.reason and "printed lines" in result.reason
    assert "left.py:" in result.reason and "right.py:" in result.reason


def test_literal_sources_keep_their_values(tmp_path):
    left = _script(tmp_path, "left.py", "print(sc.parallelize([1, 2, 3]).filter(lambda x: x > 1).count())",
                   read=False)
    right = _script(tmp_path, "right.py", "print(sc.parallelize([1, 2, 3]).filter(lambda x: x >= 1).count())",
                    read=False)
    result = check(left, right)
    assert result.verdict == "not_equivalent"
    assert result.counterexample is not None and result.counterexample.inputs == {}  # nothing to give
    assert list(result.stats["raw_inputs"].values()) == [[1, 2, 3]]
    assert (result.counterexample.left, result.counterexample.right) == (["2\n"], ["3\n"])


TAKE_AFTER_SHUFFLE = """\
import sys
from operator import add
from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
lines = READ
for x in lines.map(lambda l: (l, 1)).reduceByKey(add).take(1):
    print(x)
"""


def test_scripts_reading_a_file_differently_are_compared_as_spark_reads_it(tmp_path):
    """``spark.read.text`` reads a small file as one partition, ``textFile`` splits it: the same pipeline
    then shuffles into another number of partitions, and ``take`` sees other elements first (replayed on
    Spark by hand: the difference is real). Each side runs on its own reading of the file."""
    from frontend.script.rdd_script import translate_script_file
    from verifier.core.kinds.rdd import kernel
    from verifier.core.script_check import layout_sensitive, reading_difference

    left, right = tmp_path / "read_text.py", tmp_path / "text_file.py"
    read_text = "spark.read.text(sys.argv[1]).rdd.map(lambda r: r[0])"
    left.write_text(TAKE_AFTER_SHUFFLE.replace("READ", read_text))
    right.write_text(TAKE_AFTER_SHUFFLE.replace("READ", "spark.sparkContext.textFile(sys.argv[1])"))
    result = check(str(left), str(right))
    assert result.verdict == "not_equivalent", result.reason
    assert result.counterexample is not None and result.counterexample.partitions is not None
    assert any("RIGHT reads sys.argv[1] with sc.textFile" in w for w in result.warnings)
    # the proof methods compare both programs under one partitioning: a proof would not cover this pair
    ls, rs = translate_script_file(str(left)), translate_script_file(str(right))
    assert "spark.read.text" in (reading_difference(ls, align_sources(ls, rs)) or "")
    assert "Take" in (layout_sensitive(kernel(ls.program)) or "")
    words = translate_script_file(str(ROOT / "cases/scripts/wordcount_example.py"))
    assert layout_sensitive(kernel(words.program)) is None  # its collect() loop is a bag


def test_candidates_are_files_a_script_can_read(tmp_path):
    sp = translate_script(_text("print(lines.count())"), str(tmp_path / "a.py"))
    pair = ScriptPair.of(sp, align_sources(sp, sp), "local[2]")
    (param,) = [s.param for s in sp.sources]
    assert pair.realise({param: ["a", "b"]}) == {param: ["a", "b"]}
    assert pair.realise({param: ["a\nb"]}) is None
    assert pair.realise({param: ["a\rb"]}) is None
    assert pair.realise({param: ["\ufeffa"]}) is None  # Hadoop drops a byte-order mark opening a file
    assert pair.realise({param: ["\ud800"]}) is None
    chosen = Candidate({param: ["a", "b", "c"]}, {param: (("a", "b", "c"),)})
    ev = pair.evaluate(sp.program, sp.program, chosen)  # "a\nb\nc\n" in two byte ranges, as Hadoop cuts it
    assert ev is not None and ev.candidate.partitions == {param: (("a", "b"), ("c",))}


def _sinks(*items: tuple[str, str, bool]) -> object:
    """A stand-in ScriptProgram with one sink per item: (kind, observed, stdout)."""
    from frontend.script.rdd_program import ScriptProgram, Sink
    from sparklite.ast import Loc, Program, TupleExpr

    loc = Loc("s.py", 1, 1)
    sinks = tuple(Sink(i, kind, observed, loc, "x", stdout,
                       path="sys.argv[2]" if kind == "save_text" else None)
                  for i, (kind, observed, stdout) in enumerate(items))
    return ScriptProgram(Program("s", (), (), (), TupleExpr(())), (), sinks, 2, "s.py")


TEXT = ("print_value", "text", True)
LINES = ("print_lines", "bag_of_lines", True)
COLLECTION = ("print_collection", "elements", True)
FILES = ("save_text", "files", False)
EXIT = ("exit", "exit_code", False)


def test_observable_difference_is_about_the_text_written():
    text_then_loop, texts_then_loop = _sinks(TEXT, LINES), _sinks(TEXT, LINES)
    # print("a"); loop printing b  ==  print("a"); print("b"); loop printing nothing
    assert not observably_differ(text_then_loop, ("a\n", Bag.of(["b"])), texts_then_loop, ("a\nb\n", Bag(())))
    assert observably_differ(text_then_loop, ("a\n", Bag.of(["b"])), texts_then_loop, ("a\nc\n", Bag(())))
    # a loop of lines (any order) against a print of the same lines: the same text is possible
    assert not observably_differ(_sinks(LINES), (Bag.of(["x", "y"]),), _sinks(TEXT), ("y\nx\n",))
    assert observably_differ(_sinks(LINES), (Bag.of(["x", "y"]),), _sinks(TEXT), ("y\n",))
    # sorted lines: only the order between tie groups is fixed
    two_groups = Sorted((Bag(("a",)), Bag(("b",))))
    one_group = Sorted((Bag(("a", "b")),), None)
    sorted_lines = ("print_lines", "sorted_lines", True)
    assert not observably_differ(_sinks(sorted_lines), (two_groups,), _sinks(sorted_lines), (one_group,))
    assert observably_differ(_sinks(sorted_lines), (two_groups,), _sinks(TEXT), ("b\na\n",))
    # a printed collection: one line, the repr of a list in Spark's order
    assert not observably_differ(_sinks(COLLECTION), (Bag.of([1, 2]),), _sinks(COLLECTION),
                                 (ListValue((2, 1)),))
    assert observably_differ(_sinks(COLLECTION), (Bag.of([1, 2]),), _sinks(COLLECTION), (Bag.of([1, 3]),))
    # exceptions by type, exit codes, files against none
    error = ErrorOutcome("ValueError")
    assert not observably_differ(_sinks(TEXT), error, _sinks(TEXT), error)
    assert observably_differ(_sinks(TEXT), ErrorOutcome("ValueError"), _sinks(TEXT), ("a\n",))
    assert observably_differ(_sinks(TEXT, EXIT), ("a\n", 1), _sinks(TEXT), ("a\n",))
    assert not observably_differ(_sinks(TEXT, EXIT), ("a\n", 0), _sinks(TEXT), ("a\n",))
    assert observably_differ(_sinks(FILES), (Bag(()),), _sinks(TEXT), ("",))
    assert observably_differ(_sinks(FILES), (Bag.of(["a"]),), _sinks(FILES), (Bag.of(["b"]),))


# --- helpers -------------------------------------------------------------------------------------


def _text(body: str, head: str = "", read: bool = True) -> str:
    source = head + "import sys\nfrom pyspark import SparkContext\n\nsc = SparkContext(appName='t')\n"
    if read:
        source += "lines = sc.textFile(sys.argv[1])\n"
    return source + body + "\n"


def _script(tmp_path: Path, name: str, body: str, head: str = "", read: bool = True) -> str:
    path = tmp_path / name
    path.write_text(_text(textwrap.dedent(body), head, read))
    return str(path)
