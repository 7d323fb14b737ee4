"""RDD scripts as real jobs write them (issue 20): statements shown not to matter, printed Spark objects
excluded from the comparison, collections printed with text, data written in the script, a path that
is also printed.

What is checked: the text the interpreter predicts is the text CPython prints (the literal's ``str``,
print's separators), the placeholders stand where Spark 4 prints its objects (``mask_line`` on the
texts Spark 4.3 printed, docs/semantics-notes.md), the ignored statements are listed with their lines
in the JSON (validated against docs/sparkeq.schema.json) and in the human report, a printed path is one
shared argument the replay names the file after, and, on Spark, the new book-style pairs of
cases/scripts print what the verdict says (the same masked text where the truth is ``equivalent``).
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from schema_util import validate

from frontend.script.rdd_program import fixed_inputs, mask_line, path_name, share_path_arguments
from frontend.script.rdd_script import align_sources, translate_script
from sparklite.errors import UnsupportedError
from sparklite.values import Bag
from verifier import check
from verifier.core.script_check import ScriptPair, observably_differ
from verifier.core.script_inputs import predict

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = json.loads((ROOT / "cases" / "scripts" / "manifest.json").read_text())
BOOK_PAIRS = [p for p in MANIFEST["pairs"] if p["name"].startswith("book_")]

BOOK = textwrap.dedent("""\
    from __future__ import print_function
    import logging
    import sys
    from pyspark.sql import SparkSession

    if __name__ == '__main__':
        spark = SparkSession.builder.appName("t").getOrCreate()
        spark.sparkContext.setLogLevel("WARN")
        print("spark=", spark)
        data = [('alex', 'Ames', 25), ('mary', 'Ames', 22), ('alex', 'Cupertino', 5)]
        print("data = ", data)
        rdd = spark.sparkContext.parallelize(data)
        rdd.cache()
        print("rdd = ", rdd, "!")
        logging.info("n=%d", rdd.count())
        print("rdd.count() = ", rdd.count())
        sums = rdd.map(lambda t: (t[0], t[2])).reduceByKey(lambda a, b: a + b)
        print("sums.collect() = ", sums.collect(), "(done)", sep="|")
        spark.stop()
    """)


def test_book_script_is_read_with_its_text_as_python_prints_it():
    sp = translate_script(BOOK, "book.py")
    [source] = sp.sources
    assert source.kind == "literal" and source.values == (('alex', 'Ames', 25), ('mary', 'Ames', 22),
                                                          ('alex', 'Cupertino', 5))
    outcome = predict(sp, fixed_inputs(sp))
    data = [('alex', 'Ames', 25), ('mary', 'Ames', 22), ('alex', 'Cupertino', 5)]
    text = f"spark= <SparkSession>\ndata =  {data}\nrdd =  <RDD> !\nrdd.count() =  3\n"
    assert outcome[0] == text  # str() of the literal is CPython's own
    assert outcome[1] == Bag.of([("alex", 30), ("mary", 22)])
    sink = sp.sinks[-1]
    assert (sink.kind, sink.prefix, sink.suffix) == ("print_collection", "sums.collect() = |", "|(done)")
    assert sp.masks == ("<RDD>", "<SparkSession>")


def test_statements_shown_not_to_matter_are_listed_with_their_place():
    sp = translate_script(BOOK, "book.py")
    found = {(x.line, x.construct) for x in sp.ignored}
    assert (8, "spark.sparkContext.setLogLevel(...)") in found
    assert (9, "printed SparkSession object") in found
    assert (13, "rdd.cache()") in found
    assert (14, "printed RDD object") in found
    assert (15, "logging.info(...)") in found
    assert (19, "spark.stop()") in found
    assert all(x.why for x in sp.ignored)


def test_masks_match_what_spark_4_prints():
    """Texts printed by PySpark 4.3 on local[2] (docs/semantics-notes.md)."""
    masks = ("<RDD>", "<SparkContext>", "<SparkSession>")
    assert mask_line("spark= <pyspark.sql.session.SparkSession object at 0x7efe387f3e50>", masks) \
        == "spark= <SparkSession>"
    assert mask_line("sc= <SparkContext master=local[2] appName=x>", masks) == "sc= <SparkContext>"
    assert mask_line("rdd = ParallelCollectionRDD[0] at readRDDFromFile at PythonRDD.scala:326", masks) \
        == "rdd = <RDD>"
    assert mask_line("rdd2 = PythonRDD[5] at RDD at PythonRDD.scala:59 2 2", masks) == "rdd2 = <RDD> 2 2"
    assert mask_line("no object here: RDD[x]", masks) == "no object here: RDD[x]"


HEAD = "import sys\nfrom pyspark import SparkContext\nsc = SparkContext()\nlines = sc.textFile(sys.argv[1])\n"


def test_printing_a_text_files_rdd_is_refused_where_it_is():
    src = HEAD + "print('lines:', lines)\n"
    with pytest.raises(UnsupportedError) as info:
        translate_script(src, "t.py")
    assert info.value.loc.line == 5 and "path" in str(info.value)


def test_a_collection_with_computed_text_is_still_refused():
    src = HEAD + "print(lines.count(), lines.collect())\n"
    with pytest.raises(UnsupportedError) as info:
        translate_script(src, "t.py")
    assert info.value.loc.line == 5 and "constant text" in str(info.value)


PATH = textwrap.dedent("""\
    import sys
    from pyspark import SparkContext
    sc = SparkContext(appName="p")
    input_path = sys.argv[1]
    print("input path : ", input_path)
    print(sc.textFile(input_path).count())
    """)


def test_a_printed_path_is_shared_text_the_file_is_named_after():
    left = translate_script(PATH, "left.py")
    right = translate_script(PATH.replace('print("input path : ", input_path)\n', ""), "right.py")
    assert [(s.kind, s.path_too) for s in left.sources] == [("argument", True), ("text", False)]
    assert [s.kind for s in right.sources] == ["text"]
    left2, right2 = share_path_arguments(left, right)
    assert left2 == left and [s.kind for s in right2.sources] == ["text", "argument"]
    right2 = align_sources(left2, right2)
    pair = ScriptPair.of(left2, right2, "local[2]")
    arg, text = (s.param for s in left2.sources)
    realised = pair.realise({arg: "a/b\x01", text: ["x"]})
    assert realised is not None and realised[arg] == "path1.txt"  # not a file name: one is chosen
    assert pair.realise({arg: "in.txt", text: ["x"]})[arg] == "in.txt"  # type: ignore[index]
    assert path_name("input_1.txt", 1) == "path1.txt"  # the names the replay gives other files


def test_path_print_pair_is_not_equivalent_and_cached_pair_is_equivalent():
    ne = next(p for p in BOOK_PAIRS if p["name"] == "book_word_count_path_print")
    result = check(ne["left"], ne["right"], replay=False)
    assert result.verdict == "not_equivalent"
    assert result.counterexample is not None
    assert result.counterexample.inputs["sys.argv[1] (its text)"] == "path1.txt"
    eq = next(p for p in BOOK_PAIRS if p["name"] == "book_word_count_cached")
    result = check(eq["left"], eq["right"], replay=False)
    assert result.verdict == "equivalent"
    data = validate(result.to_json())
    constructs = {(x["side"], x["construct"]) for x in data["ignored_statements"]}
    assert {("right", "conf.setAppName(...)"), ("right", "rdd.persist()"), ("right", "rdd.unpersist()"),
            ("left", "printed SparkSession object"), ("left", "spark.stop()")} <= constructs
    assert all(x["line"] >= 1 and x["col"] >= 1 for x in data["ignored_statements"])


def test_text_around_printed_collections_is_compared():
    left = translate_script(BOOK, "l.py")
    right = translate_script(BOOK.replace('"sums.collect() = "', '"sums = "'), "r.py")
    lo, ro = predict(left, fixed_inputs(left)), predict(right, fixed_inputs(right))
    assert lo == ro  # the same values...
    assert observably_differ(left, lo, right, ro)  # ...printed after different text
    assert not observably_differ(left, lo, left, lo)


def test_human_report_lists_what_was_not_compared(capsys):
    from verifier.interfaces.cli import main

    eq = next(p for p in BOOK_PAIRS if p["name"] == "book_word_count_cached")
    code = main(["check", eq["left"], eq["right"], "--no-replay"])
    out = capsys.readouterr().out
    assert code == 0
    assert "not compared:" in out and "rdd.persist()" in out and "book_word_count_cached.py:23:5" in out


@pytest.mark.spark
def test_book_pairs_print_what_their_verdict_says_on_spark(tmp_path):
    """Both scripts of each new pair run on Spark (python script.py FILE) on one file: where the truth
    is ``equivalent`` they print the same text once the excluded fields are masked; where it is
    ``not_equivalent`` they print different text."""
    from verifier.runtime.script_replay import ScriptJob, run_scripts

    (tmp_path / "words.txt").write_text("to be or not to be\nthat is\n")
    jobs, names = [], []
    for p in BOOK_PAIRS:
        for side in ("left", "right"):
            wd = tmp_path / f"{p['name']}-{side}"
            wd.mkdir()
            (wd / "words.txt").write_text((tmp_path / "words.txt").read_text())
            jobs.append(ScriptJob(str(ROOT / p[side]), ("words.txt",), str(wd)))
        names.append(p)
    runs = run_scripts(jobs, "local[2]")
    masks = ("<RDD>", "<SparkContext>", "<SparkSession>")
    for i, p in enumerate(names):
        left, right = runs[2 * i], runs[2 * i + 1]
        assert left.exception is None and right.exception is None, (p["name"], left, right)
        lt = [mask_line(x, masks) for x in left.stdout_lines]
        rt = [mask_line(x, masks) for x in right.stdout_lines]
        truth = p.get("truth", p["expected"])
        assert (lt == rt) == (truth == "equivalent"), (p["name"], lt, rt)
        assert "spark= <SparkSession>" in lt


BOOK_EXPECTED = {  # sources (param, kind, path, line) and sinks (kind, observed, line, item, prefix)
    "book_word_count": ([("arg1_1", "argument", "sys.argv[1]", 15), ("records", "text", "sys.argv[1]", 17)],
                        [("print_value", "text", 13, 0, ""), ("print_value", "text", 15, 0, ""),
                         ("print_collection", "elements", 21, 1, "frequencies.collect() =  ")]),
    "book_word_count_quiet": ([("records", "text", "sys.argv[1]", 16)],
                              [("print_value", "text", 13, 0, ""),
                               ("print_collection", "elements", 20, 1, "frequencies.collect() =  ")]),
    "book_avg_by_key": ([("rdd", "literal", "[('alex', 'Sunnyvale', 25), ('alex', 'Sunnyvale', 33), "
                          "('mary', 'Ames', 22), ('mary', 'Cupertino', 66), ('jane', 'Ames', 20), "
                          "('bob', 'Ames', 26)]", 20)],
                        [*(("print_value", "text", line, 0, "") for line in (15, 19, 21, 22, 26)),
                         ("print_collection", "elements", 27, 1, "sums.collect() =  ")]),
}


@pytest.mark.parametrize("name", sorted(BOOK_EXPECTED))
def test_book_scripts_sources_and_sinks(name):
    from frontend.script.rdd_script import translate_script_file

    sp = translate_script_file(str(ROOT / "cases" / "scripts" / f"{name}.py"))
    sources, sinks = BOOK_EXPECTED[name]
    assert [(s.param, s.kind, s.path, s.loc.line) for s in sp.sources] == sources
    assert [(k.kind, k.observed, k.loc.line, k.index, k.prefix) for k in sp.sinks] == sinks
    assert [s.path_too for s in sp.sources if s.kind == "argument"] in ([], [True])


@pytest.mark.parametrize("pair", [p for p in BOOK_PAIRS if "witness" in p], ids=lambda p: p["name"])
def test_book_witness_prints_the_manifest_text_in_the_interpreter(pair):
    """The witness (an empty file named by the argument) makes each script print the manifest's lines."""
    from frontend.script.rdd_program import input_files
    from frontend.script.rdd_script import translate_script_file

    left, right = share_path_arguments(translate_script_file(str(ROOT / pair["left"])),
                                       translate_script_file(str(ROOT / pair["right"])))
    right = align_sources(left, right)
    texts = []
    for sp, side in ((left, "left"), (right, "right")):
        inputs = {}
        for s in sp.sources:
            key = next(iter(input_files(sp, {s.param: ""})), None)  # none for a partition count
            inputs[s.param] = pair["witness"]["files"][key] if key is not None else 0
        text, collected = predict(sp, inputs)
        sink = sp.sinks[-1]
        assert collected == Bag.of([])
        printed = text + f"{sink.prefix}[]{sink.suffix}\n"
        assert printed == "".join(f"{line}\n" for line in pair["witness"][f"{side}_stdout"])
        texts.append(printed)
    assert texts[0] != texts[1]


COUNTS = textwrap.dedent("""\
    import sys
    from pyspark import SparkContext
    sc = SparkContext(appName="np")
    lines = sc.textFile(sys.argv[1])
    counts = lines.flatMap(lambda l: l.split(" ")).map(lambda w: (w, 1)).reduceByKey(lambda a, b: a + b)
    print("partitions:", counts.getNumPartitions())
    print("inline:", sc.textFile(sys.argv[1]).map(len).getNumPartitions())
    DATA = [1, 2, 3, 4, 5]
    print("par", sc.parallelize(DATA, 3).getNumPartitions())
    """)


def test_partition_counts_follow_the_source_and_spark_s_partitioning():
    """Counts as Spark 4 gives them (docs/semantics-notes.md): a textFile of a small file has 2
    partitions on local[2] (none when empty), reduceByKey keeps its parent's, parallelize(d, 3) has 3."""
    sp = translate_script(COUNTS, "counts.py")
    kinds = [(s.kind, s.partitions_of) for s in sp.sources]
    assert kinds == [("text", None), ("partitions", "lines"), ("literal", None), ("partitions", "data_1")]
    lines = sp.sources[0].param
    assert predict(sp, {lines: ["a b", "c"], "data_1": [1, 2, 3, 4, 5]}) == (
        "partitions: 2\ninline: 2\npar 3\n",)
    assert predict(sp, {lines: [], "data_1": [1, 2, 3, 4, 5]}) == ("partitions: 0\ninline: 0\npar 3\n",)


def test_a_partition_count_not_followed_is_refused_where_it_is():
    src = COUNTS.replace("reduceByKey(lambda a, b: a + b)", "reduceByKey(lambda a, b: a + b, 4)")
    with pytest.raises(UnsupportedError) as info:
        translate_script(src, "counts.py")
    assert info.value.loc.line == 6 and "getNumPartitions" in str(info.value)


def test_partition_count_in_one_script_only_is_a_difference():
    pair = next(p for p in BOOK_PAIRS if p["name"] == "book_word_count_partition_count")
    result = check(pair["left"], pair["right"], replay=False)
    assert result.verdict == "not_equivalent"
    validate(result.to_json())
    assert "frequencies.getNumPartitions() =  0" in result.counterexample.right[0]  # type: ignore[union-attr]

