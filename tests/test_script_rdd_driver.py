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
from sparklite.interpreter import run as run_program
from sparklite.values import Bag
from verifier import check
from verifier.core.script_check import ScriptPair, observably_differ
from verifier.core.script_inputs import predict, spark_partitions

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


def test_printing_a_text_files_rdd_read_from_a_constant_path_is_refused_where_it_is():
    src = HEAD.replace("sys.argv[1]", "'in.txt'") + "print('lines:', lines)\n"
    with pytest.raises(UnsupportedError) as info:
        translate_script(src, "t.py")
    assert info.value.loc.line == 5 and "path" in str(info.value)


def test_printing_a_text_files_rdd_shows_its_argument_path_then_an_excluded_field():
    """Spark 4 prints ``sc.textFile(p)`` as ``p MapPartitionsRDD[1] at textFile at
    NativeMethodAccessorImpl.java:0``: the path is the argument both scripts get, the rest is masked."""
    sp = translate_script(HEAD + "p = sys.argv[1]\nrdd = sc.textFile(p).cache()\nprint('lines:', lines)\n"
                          "print(rdd)\n", "t.py")
    arg = next(s.param for s in sp.sources if s.kind == "argument")
    text = next(s.param for s in sp.sources if s.kind == "text")
    out = run_program(sp.program, {text: Bag.of(["x"]), arg: "in.txt"})
    assert out[0] == "lines: in.txt <RDD>\nin.txt <RDD>\n"
    assert sp.masks == ("<RDD>",)
    assert mask_line("lines: /w/in.txt MapPartitionsRDD[1] at textFile at NativeMethodAccessorImpl.java:0",
                     sp.masks) == "lines: /w/in.txt <RDD>"


def test_a_printed_groupbykey_result_excludes_the_values_and_compares_the_keys():
    """``print(grouped.collect())`` shows each group's values as ``<pyspark.resultiterable.ResultIterable
    object at 0x...>`` (checked on Spark 4): the keys are compared, the values' text is masked."""
    src = HEAD + ("g = lines.map(lambda l: (l, 1)).groupByKey()\nprint('n', g.count())\n"
                  "print('g =', g.collect())\n")
    sp = translate_script(src, "t.py")
    text = next(s.param for s in sp.sources if s.kind == "text")
    out = run_program(sp.program, {text: Bag.of(["a", "b", "a"])})
    assert out[0] == "n 2\n"
    assert out[1] == Bag.of([("a", "<ResultIterable>"), ("b", "<ResultIterable>")])
    assert "'<ResultIterable>'" in sp.masks
    line = "g = [('a', <pyspark.resultiterable.ResultIterable object at 0x7fc998104e90>)]"
    assert mask_line(line, sp.masks) == "g = [('a', '<ResultIterable>')]"
    assert any(i.construct == "printed ResultIterable objects" for i in sp.ignored)


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



# --- format specs, rendered exactly as CPython does -----------------------------------------------

VALUES = [0, 1, -1, 7, -42, 1234567, -9876543210, 10**20, 0.0, -0.0, 0.5, -2.5, 3.14159, 1e-7, 123456.789,
          -1e22, 2.0**70, float("nan"), float("inf"), float("-inf"), True, False]
PERCENT = ["%d", "%5d", "%-5d|", "%05d", "%+d", "% d", "%i", "%u", "%f", "%.2f", "%8.3f", "%-8.1f|", "%+.0f",
           "%08.2f", "% .3f", "%#.0f", "%e", "%.2E", "%12.4e", "%g", "%.3g", "%G", "%-10g|", "%#g", "%F",
           "%s", "%5s", "%-6s|", "%.3s", "%8.2s", "%-8.2s|"]


def _run_percent(fmt: str, v: object) -> object:
    from frontend.script.rdd_printing import _PERCENT, _percent_spec

    m = _PERCENT.fullmatch(fmt.rstrip("|"))
    assert m is not None
    kind, spec = _percent_spec(m)  # type: ignore[misc]
    conv = {"d": lambda x: int(+x), "f": lambda x: float(+x), "s": str}[kind]
    try:
        return format(conv(v), spec) + ("|" if fmt.endswith("|") else "")
    except Exception as exc:  # noqa: BLE001 - the exception is the outcome compared
        return type(exc)


@pytest.mark.parametrize("fmt", PERCENT)
def test_percent_formats_are_python_s_own(fmt):
    """``fmt % v`` against the ``format()`` script mode reads it as, over ints, floats (nan, inf, -0.0,
    large), bools: the same text, or the same exception type."""
    for v in VALUES:
        try:
            expected: object = fmt % v
        except Exception as exc:  # noqa: BLE001
            expected = type(exc)
        assert _run_percent(fmt, v) == expected, (fmt, v)


def test_percent_fields_not_modelled_are_refused_where_they_are():
    with pytest.raises(UnsupportedError) as info:
        translate_script(HEAD + "print('%.3d' % lines.count())\n", "t.py")
    assert info.value.loc.line == 5 and "%-format" in str(info.value.construct or info.value)
    with pytest.raises(UnsupportedError):
        translate_script(HEAD + "print('%x' % lines.count())\n", "t.py")
    with pytest.raises(UnsupportedError):
        translate_script(HEAD + "print('{!r}'.format(lines.count()))\n", "t.py")


FORMATS = textwrap.dedent("""\
    import sys
    from pyspark import SparkContext
    sc = SparkContext(appName="f")
    lines = sc.textFile(sys.argv[1])
    n = lines.count()
    avg = lines.map(lambda l: float(len(l))).sum() / 3
    print("%5d|%-6.2f|%+.1e|%8s|%-4s|%05.1f%%" % (n, avg, avg, "ab", "c", -avg))
    print("{:>8,}|{:.3g}|{!s:^9}|{x:+08.2f}".format(n * 1000, avg, avg, x=avg))
    print(f"lines: {n:>6,} avg {avg:.2f}|{avg!s:>12}|{-0.0:.1f}|{n:_^9}|{avg:.1%}")
    print("avg" + "\t{:.2f}F".format(avg) + '%6.1f' % avg + "%6s|%-7s|" % (True, n > 1)
          + "{:>6}".format(True))
    for w in lines.map(lambda l: (l, len(l) * 1.5)).collect():
        print(f"{w[0]:<10}{w[1]:8.3f}")
    """)


def test_printed_formats_are_the_text_python_prints():
    """The interpreter's text of a script's %-formats, str.format and f-strings with specs is what
    CPython prints for the same values (checked on Spark too: the same text, docs/semantics-notes.md)."""
    sp = translate_script(FORMATS, "f.py")
    lines = ["abc", "de", ""]
    text, loop = predict(sp, {sp.sources[0].param: lines})
    n, avg = 3, sum(float(len(x)) for x in lines) / 3
    expected = ("%5d|%-6.2f|%+.1e|%8s|%-4s|%05.1f%%\n" % (n, avg, avg, "ab", "c", -avg)  # noqa: UP031
                + f"{n * 1000:>8,}|{avg:.3g}|{avg!s:^9}|{avg:+08.2f}\n"
                + f"lines: {n:>6,} avg {avg:.2f}|{avg!s:>12}|{-0.0:.1f}|{n:_^9}|{avg:.1%}\n"
                + "avg" + f"\t{avg:.2f}F" + '%6.1f' % avg + "%6s|%-7s|" % (True, n > 1)  # noqa: UP031
                + f"{True:>6}" + "\n")  # noqa: UP031
    assert text == expected
    assert loop == Bag.of([f"{w:<10}{len(w) * 1.5:8.3f}" for w in lines])


@pytest.mark.spark
def test_printed_formats_on_spark(tmp_path):
    from verifier.runtime.script_replay import ScriptJob, run_scripts

    script = tmp_path / "formats.py"
    script.write_text(FORMATS)
    (tmp_path / "in.txt").write_text("abc\nde\n\n")
    sp = translate_script(FORMATS, str(script))
    predicted = predict(sp, {sp.sources[0].param: ["abc", "de", ""]})
    (run,) = run_scripts([ScriptJob(str(script), ("in.txt",), str(tmp_path))], "local[2]")
    assert run.exception is None, run
    out = list(run.stdout_lines)
    assert "".join(f"{x}\n" for x in out[:4]) == predicted[0]
    assert Bag.of(out[4:]) == predicted[1]


def test_try_around_the_session_only_and_ordered_dict_loops():
    """A try block that only builds the session never runs its handler (listed as not mattering); a
    loop over OrderedDict(sorted(counts.items())).items() prints the sorted pairs (Frank Kane's
    ratings-counter.py)."""
    src = textwrap.dedent("""\
        import collections
        import sys
        from pyspark import SparkConf, SparkContext
        conf = SparkConf().setMaster("local").setAppName("RatingsHistogram")
        try:
            sc = SparkContext(conf=conf)
            path = "ratings.txt"
        except:
            print("Failed to connect!")
        lines = sc.textFile(path)
        result = lines.map(lambda x: x.split()[2]).countByValue()
        sortedResults = collections.OrderedDict(sorted(result.items()))
        for key, value in sortedResults.items():
            print("%s %i" % (key, value))
        """)
    sp = translate_script(src, "ratings.py")
    assert (8, "except") in {(x.line, x.construct) for x in sp.ignored}
    (lines,) = (s.param for s in sp.sources)
    (printed,) = predict(sp, {lines: ["1 2 3", "4 5 3", "6 7 1"]})
    assert [x for g in printed.groups for x in g.items] == ["1 1", "3 2"]  # in order: sorted keys
    with pytest.raises(UnsupportedError) as info:
        job = 'path = "ratings.txt"\n    n = sc.textFile(path).count()'
        translate_script(src.replace('path = "ratings.txt"', job), "ratings.py")
    assert info.value.loc.line == 5 and "try" in str(info.value)



def test_an_accumulator_is_refused_with_why():
    src = HEAD + "hits = sc.accumulator(0)\nprint(lines.count())\n"
    with pytest.raises(UnsupportedError) as info:
        translate_script(src, "t.py")
    assert (info.value.loc.line, info.value.loc.col) == (5, 11)
    assert "side effect" in str(info.value)


# --- textFile(path, minPartitions) -----------------------------------------------------------------

MIN_PARTS = textwrap.dedent("""\
    import sys
    from pyspark import SparkContext
    sc = SparkContext(appName="mp")
    lines = sc.textFile(sys.argv[1], 4)
    print("n", lines.getNumPartitions())
    print(lines.map(len).fold(0, lambda a, b: a * 2 + b))
    """)


def test_min_partitions_is_how_the_file_is_cut():
    """``textFile(p, 4)`` cuts the file into byte ranges of ``len // 4`` bytes (Spark 4, local[2],
    docs/semantics-notes.md): the prediction uses that partitioning, not the default one (2)."""
    sp = translate_script(MIN_PARTS, "mp.py")
    [lines, count] = sp.sources
    assert lines.kind == "text" and lines.slices == 4 and count.partitions_of == lines.param
    # 4 lines of 3 bytes with their newlines: 12 bytes in ranges of 3; a range reads the lines starting
    # in it after its first byte, up to and including its last: ["ab", "cd"], ["ef"], ["gh"], []
    data = {lines.param: ["ab", "cd", "ef", "gh"]}
    assert spark_partitions(sp, data)[lines.param] == (("ab", "cd"), ("ef",), ("gh",), ())
    # fold's zero once per partition (6, 2, 2, 0), then on the driver: ((0*2+6)*2+2)*2+2)*2+0 = 60;
    # Spark 4 prints the same (test_min_partitions_on_spark)
    assert predict(sp, data) == ("n 4\n60\n",)
    keyword = translate_script(MIN_PARTS.replace("], 4)", "], minPartitions=4)"), "mp.py")
    assert keyword.sources[0].slices == 4
    named = translate_script(MIN_PARTS.replace("], 4)", "], PARTS)").replace("sc = ", "PARTS = 4\nsc = "),
                             "mp.py")
    assert named.sources[0].slices == 4


@pytest.mark.spark
def test_min_partitions_on_spark(tmp_path):
    """The script run by Spark prints what the interpreter predicts with ``textFile(p, 4)``'s ranges,
    on the hand-checked file above and on one with lines of different lengths."""
    from verifier.runtime.script_replay import ScriptJob, run_scripts

    script = tmp_path / "mp.py"
    script.write_text(MIN_PARTS)
    sp = translate_script(MIN_PARTS, str(script))
    files = {"a.txt": ["ab", "cd", "ef", "gh"], "b.txt": ["abcdefg", "", "x", "yz", "", "klmno", "p"]}
    jobs = []
    for name, lines in files.items():
        (tmp_path / name).write_text("".join(f"{x}\n" for x in lines))
        jobs.append(ScriptJob(str(script), (name,), str(tmp_path)))
    runs = run_scripts(jobs, "local[2]")
    for run, lines in zip(runs, files.values(), strict=True):
        assert run.exception is None, run
        assert "".join(f"{x}\n" for x in run.stdout_lines) == predict(sp, {sp.sources[0].param: lines})[0]
def test_min_partitions_differing_between_scripts_sets_proofs_aside(tmp_path):
    """Both scripts read the same file cut differently: no proof under one shared partitioning."""
    from verifier.core.script_check import reading_difference
    body = 'lines = sc.textFile(sys.argv[1]{})\nprint(lines.map(len).sum())\n'
    head = "import sys\nfrom pyspark import SparkContext\nsc = SparkContext()\n"
    left = translate_script(head + body.format(", 3"), "l.py")
    right = translate_script(head + body.format(""), "r.py")
    assert "minPartitions 3 by LEFT and default by RIGHT" in (reading_difference(left, right) or "")
    assert reading_difference(left, left) is None


@pytest.mark.parametrize("call", ["sc.textFile(sys.argv[1], 0)", "sc.textFile(sys.argv[1], n)",
                                  "sc.textFile(sys.argv[1], 2, False)", "sc.textFile()",
                                  "sc.textFile(sys.argv[1], m)"])
def test_min_partitions_other_than_a_positive_constant_is_refused(call):
    src = ("import sys\nfrom pyspark import SparkContext\nsc = SparkContext()\n"
           f"n = len(sys.argv[1]); m = 2; m = 3\nprint({call}.count())\n")
    with pytest.raises(UnsupportedError) as info:
        translate_script(src, "bad.py")
    assert info.value.loc.line == 5 and "textFile" in str(info.value)


def test_one_path_read_with_two_partition_counts_is_refused():
    src = ("import sys\nfrom pyspark import SparkContext\nsc = SparkContext()\n"
           "print(sc.textFile(sys.argv[1]).count())\nprint(sc.textFile(sys.argv[1], 3).count())\n")
    with pytest.raises(UnsupportedError) as info:
        translate_script(src, "two.py")
    assert info.value.loc.line == 5 and "two different partition counts" in str(info.value)


def test_min_partitions_changing_a_partition_dependent_result_is_a_difference(tmp_path):
    """A fold whose operator is not associative prints another number when the file is cut into more
    ranges: not equivalent, with a note saying how each side reads the file."""
    head = "import sys\nfrom pyspark import SparkContext\nsc = SparkContext()\n"
    body = "print(sc.textFile(sys.argv[1]{}).map(len).fold(0, lambda a, b: a * 2 + b))\n"
    (tmp_path / "l.py").write_text(head + body.format(", 3"))
    (tmp_path / "r.py").write_text(head + body.format(""))
    result = check(str(tmp_path / "l.py"), str(tmp_path / "r.py"), replay=False)
    assert result.verdict == "not_equivalent"
    validate(result.to_json())
    assert any("read with sc.textFile(minPartitions=3)" in w for w in result.warnings), result.warnings
