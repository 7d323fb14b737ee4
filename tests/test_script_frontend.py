"""Script mode's frontend (frontend/script/): whole scripts read with ast, never run.

What is checked: every script of the corpus (cases/scripts) is translated with its sources and sinks
at the right lines; the printed text is modelled as Python prints it (the interpreter's result on a
small input is the exact stdout text or bag of lines); driver code is read as Python runs it (argument
checks, main(), logging); scripts outside the fragment are located input errors; a script whose import
has side effects is translated without them.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from frontend.script.rdd_program import fixed_inputs, input_files, text_input_hints
from frontend.script.rdd_script import (
    align_sources,
    is_script,
    is_script_entry,
    translate_script,
    translate_script_file,
)
from sparklite.errors import InputError, UnsupportedError
from sparklite.interpreter import run
from sparklite.types import BagType, StrType
from sparklite.values import Bag, ErrorOutcome, Sorted

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "cases" / "scripts"
MANIFEST = json.loads((CORPUS / "manifest.json").read_text())

# script -> (sources: (param, kind, reader, path, line)), (sinks: (kind, observed, line, index))
EXPECTED = {
    "wordcount_example": ([("lines", "text", "spark.read.text", "sys.argv[1]", 20)],
                          [("print_lines", "bag_of_lines", 25, 0)]),
    "wordcount_main": ([("text", "text", "sc.textFile", "sys.argv[1]", 20)],
                       [("print_lines", "bag_of_lines", 24, 0)]),
    "wordcount_tabs": ([("lines_1", "text", "sc.textFile", "sys.argv[1]", 15)],
                       [("print_lines", "bag_of_lines", 19, 0)]),
    "wordcount_skip_empty_before": ([("lines", "text", "sc.textFile", "sys.argv[1]", 14)],
                                    [("print_lines", "bag_of_lines", 19, 0)]),
    "wordcount_skip_empty_after": ([("lines", "text", "sc.textFile", "sys.argv[1]", 14)],
                                   [("print_lines", "bag_of_lines", 20, 0)]),
    "avg_per_key_reduce": ([("lines_1", "text", "sc.textFile", "sys.argv[1]", 18)],
                           [("print_lines", "bag_of_lines", 22, 0)]),
    "avg_per_key_group": ([("lines_1", "text", "sc.textFile", "sys.argv[1]", 18)],
                          [("print_lines", "bag_of_lines", 20, 0)]),
    "dept_totals": ([("lines_1", "text", "sc.textFile", "sys.argv[1]", 13)],
                    [("print_lines", "bag_of_lines", 15, 0)]),
    "dept_totals_wrong_index": ([("lines_1", "text", "sc.textFile", "sys.argv[1]", 13)],
                                [("print_lines", "bag_of_lines", 15, 0)]),
    "max_salary_header": ([("lines_1", "text", "sc.textFile", "sys.argv[1]", 10)],
                          [("print_value", "text", 11, 0), ("print_value", "text", 12, 0)]),
    "max_salary_skip_header": ([("lines", "text", "sc.textFile", "sys.argv[1]", 10)],
                               [("print_value", "text", 13, 0), ("print_value", "text", 14, 0)]),
    "wordcount_save_fstring": ([("lines_1", "text", "sc.textFile", "sys.argv[1]", 10)],
                               [("save_text", "files", 12, 0)]),
    "wordcount_save_concat": ([("lines_1", "text", "sc.textFile", "sys.argv[1]", 12)],
                              [("save_text", "files", 16, 0)]),
    "error_report_if": ([("log", "text", "sc.textFile", "sys.argv[1]", 12)],
                        [("print_branch", "text", 16, 0)]),
    "error_report_plain": ([("log", "text", "sc.textFile", "sys.argv[1]", 9)],
                           [("print_value", "text", 11, 0)]),
}


def script(source: str, name: str = "job.py", entry: str | None = None):
    return translate_script(textwrap.dedent(source), name, entry)


def located(source: str, construct_or_text: str, line: int, col: int | None = None,
            cls: type = UnsupportedError) -> InputError:
    with pytest.raises(cls) as info:
        script(source)
    err = info.value
    assert err.loc.line == line, (err, err.loc)
    if col is not None:
        assert err.loc.col == col, (err, err.loc)
    assert construct_or_text in (getattr(err, "construct", "") or "") + " " + str(err), err
    return err


# --- the corpus ------------------------------------------------------------------------------------


def test_corpus_is_complete():
    # DataFrame scripts (pairs marked "dataframe") are read by frontend.script.df_script:
    # tests/test_df_script.py
    dataframe = {Path(p[side]).stem for p in MANIFEST["pairs"] if p.get("dataframe")
                 for side in ("left", "right")}
    # DataFrame pairs in the corpus's style (issue 20): cases/scripts/corpus_style.json,
    # tests/test_df_script_cases.py
    corpus_style = json.loads((CORPUS / "corpus_style.json").read_text())
    dataframe |= {Path(p[side]).stem for p in corpus_style["pairs"] for side in ("left", "right")}
    # book-style scripts (printed Spark objects, literals, printed paths): tests/test_script_rdd_driver.py
    book = {p.stem for p in CORPUS.glob("book_*.py")}
    # RDD pairs in the corpus's style (issue 20): cases/scripts/rdd_corpus_style.json,
    # tests/test_rdd_script_cases.py
    rdd_style = {p.stem for p in CORPUS.glob("rddc_*.py")}
    scripts = {p.stem for p in CORPUS.glob("*.py")} - dataframe - book - rdd_style
    assert scripts == set(EXPECTED)
    assert len(scripts) >= 12
    used = {Path(p[side]).stem for p in MANIFEST["pairs"] for side in ("left", "right")} - dataframe
    assert used == scripts | book
    truths = {p.get("truth", p["expected"]) for p in MANIFEST["pairs"]}  # "truth" where sparkeq says unknown
    assert truths == {"equivalent", "not_equivalent"}
    for pair in MANIFEST["pairs"]:
        assert (pair.get("truth", pair["expected"]) == "not_equivalent") == ("witness" in pair), pair["name"]
        assert ("truth" in pair) == (pair["expected"] == "unknown"), pair["name"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_script_translates(name):
    path = CORPUS / f"{name}.py"
    assert is_script(path.read_text(), str(path))
    sp = translate_script_file(str(path))
    sources, sinks = EXPECTED[name]
    assert [(s.param, s.kind, s.reader, s.path, s.loc.line) for s in sp.sources] == sources
    assert [(k.kind, k.observed, k.loc.line, k.index) for k in sp.sinks] == sinks
    assert [p.name for p in sp.program.params] == [s.param for s in sp.sources]
    assert all(p.type == BagType(StrType()) for p in sp.program.params)
    assert sp.argv_length == max(s.argv_index for s in sp.sources) + 1 + (name.startswith("wordcount_save"))
    assert all(k.text for k in sp.sinks)


@pytest.mark.parametrize("pair", [p for p in MANIFEST["pairs"] if "witness" in p and not p.get("dataframe")
                                  and not p["name"].startswith("book_")],  # test_script_rdd_driver.py
                         ids=lambda p: p["name"])
def test_witness_differs_in_the_interpreter(pair):
    """Every not-equivalent pair's witness file makes the two translated programs differ, and the
    predicted stdout is the one the manifest lists."""
    left = translate_script_file(str(ROOT / pair["left"]))
    right = align_sources(left, translate_script_file(str(ROOT / pair["right"])))
    outcomes = []
    for sp, side in ((left, "left"), (right, "right")):
        inputs = {s.param: pair["witness"]["files"][s.path] for s in sp.sources}
        outcome = run(sp.program, inputs)
        outcomes.append(outcome)
        if f"{side}_exception" in pair["witness"]:
            assert outcome == ErrorOutcome(pair["witness"][f"{side}_exception"])
            continue
        expected = pair["witness"][f"{side}_stdout"]
        (item,) = outcome
        if isinstance(item, str):
            assert item == "".join(f"{line}\n" for line in expected)
        else:
            assert item == Bag.of(expected)
    assert outcomes[0] != outcomes[1]


# --- how printed text is modelled -------------------------------------------------------------------

HEAD = """\
import sys
from operator import add
from pyspark.sql import SparkSession

spark = SparkSession.builder.appName("t").getOrCreate()
sc = spark.sparkContext
lines = sc.textFile(sys.argv[1])
"""


def run_script(body: str, lines: list[str], entry: str | None = None, **more):
    sp = script(HEAD + textwrap.dedent(body), entry=entry)
    return sp, run(sp.program, {"lines": lines, **more})


def test_print_formats_are_python_text():
    sp, out = run_script("""
        n = lines.count()
        print("lines:", n)
        print("%s=%d%%" % ("n", n))
        print("{}/{k}".format(n, k="x"))
        print(f"<{n}>", "end", sep="|")
        print()
        print(n / 2)
    """, ["a", "b", "c"])
    assert out == ("lines: 3\nn=3%\n3/x\n<3>|end\n\n1.5\n",)
    assert [k.index for k in sp.sinks] == [0] * 6


def test_percent_d_truncates_floats_and_rejects_strings():
    _, out = run_script("""
        s = lines.map(float).sum()
        print("%d" % s)
    """, ["2.75"])
    assert out == ("2\n",)
    with pytest.raises(InputError, match="Str is used as a number"):
        script(HEAD + 'print("%d" % lines.first())\n')


def test_percent_s_of_a_tuple_name():
    _, out = run_script("""
        pair = (lines.count(), "x")
        print("%s and %s" % pair)
    """, ["a"])
    assert out == ("1 and x\n",)
    err = located(HEAD + 'pair = (lines.count(), "x")\nprint("%s" % pair)\n', "%-format of a tuple", 9)
    assert "tuple" in str(err)


def test_loop_over_collect_is_a_bag_of_lines():
    sp, out = run_script("""
        counts = lines.flatMap(lambda l: l.split()).map(lambda w: (w, 1)).reduceByKey(add)
        for w, c in counts.collect():
            print(w, c)
    """, ["a b a"])
    assert out == (Bag.of(["a 2", "b 1"]),)
    assert sp.sinks[0].kind == "print_lines" and sp.sinks[0].observed == "bag_of_lines"


def test_loop_body_with_assignments_and_if_prints_a_list_per_element():
    sp, out = run_script("""
        counts = lines.map(lambda l: (l, len(l)))
        for word, n in counts.collect():
            double = n * 2
            if n > 1:
                print("long", word, double)
            print("seen", word)
    """, ["ab", "c"])
    assert out == (Bag.of(["long ab 4", "seen ab", "seen c"]),)


def test_loop_over_a_sorted_rdd_and_over_take():
    sp, out = run_script("""
        for x in lines.sortBy(lambda x: x).collect():
            print(x)
        for x in lines.take(2):
            print("took", x)
    """, ["b", "a", "c"])
    assert [k.observed for k in sp.sinks] == ["sorted_lines", "lines_in_order"]
    assert isinstance(out[0], Sorted)
    assert [g.items for g in out[0].groups] == [("a",), ("b",), ("c",)]
    assert out[1] == Sorted((Bag(("took b",)), Bag(("took a",))))


def test_print_of_a_collected_list_is_its_elements():
    sp, out = run_script("""
        words = lines.flatMap(lambda l: l.split())
        print(words.collect())
        print(words.take(1))
        print(words.countByValue())
    """, ["x y x"])
    assert [k.kind for k in sp.sinks] == ["print_collection"] * 3
    assert [k.observed for k in sp.sinks] == ["elements"] * 3
    assert out[0] == Bag.of(["x", "y", "x"])
    assert out[1] == Bag.of(["x"])


def test_range_loop_is_unrolled_and_driver_if_prints_the_branch_taken():
    _, out = run_script("""
        n = lines.count()
        for i in range(2):
            print(i, n)
        if n > 1:
            print("many")
        elif n == 1:
            pass
        else:
            print("none")
            print("at all")
    """, [])
    assert out == ("0 0\n1 0\nnone\nat all\n",)


def test_final_exit_code_is_an_output():
    sp, out = run_script("""
        n = lines.filter(lambda l: l == "bad").count()
        print(n)
        sys.exit(1 if n > 0 else 0)
    """, ["ok", "bad"])
    assert [k.kind for k in sp.sinks] == ["print_value", "exit"]
    assert out == ("1\n", 1)


def test_logging_and_stderr_are_not_outputs_but_still_run():
    sp, out = run_script("""
        import logging
        logging.basicConfig(level=logging.INFO)
        log = logging.getLogger("job")
        total = lines.map(int).reduce(add)
        log.info("total %d", total)
        print("max", lines.map(len).max(), file=sys.stderr)
        sc.setLogLevel("WARN")
        print(total)
    """, [])
    assert [k.kind for k in sp.sinks] == ["print_value"]
    assert out == ErrorOutcome("ValueError")  # reduce of an empty RDD, as Python raises it
    assert run(sp.program, {"lines": ["2", "3"]}) == ("5\n",)


def test_save_as_text_file_is_a_bag_of_str_lines():
    sp, out = run_script("""
        pairs = lines.map(lambda l: (l, 1))
        pairs.saveAsTextFile(sys.argv[2])
    """, ["a"])
    assert sp.sinks[0].kind == "save_text" and sp.sinks[0].argv_index == 2 and not sp.sinks[0].stdout
    assert sp.argv_length == 3
    assert out == (Bag.of(["('a', 1)"]),)


def test_parallelize_of_a_literal_and_an_argument_value():
    sp = script(HEAD + textwrap.dedent("""
        stop = sc.parallelize(["the", "a"])
        limit = int(sys.argv[2])
        words = lines.flatMap(lambda l: l.split()).subtract(stop).filter(lambda w: len(w) <= limit)
        print(sorted(words.collect()))
    """))
    kinds = {s.param: (s.kind, s.path, s.values) for s in sp.sources}
    assert kinds["stop"] == ("literal", "['the', 'a']", ("the", "a"))
    arg = next(s for s in sp.sources if s.kind == "argument")
    assert arg.argv_index == 2 and arg.path == "sys.argv[2]"
    types = {p.name: p.type for p in sp.program.params}
    assert types[arg.param] == StrType() and types["stop"] == BagType(StrType())
    out = run(sp.program, {"lines": ["the cat sat", "a dog"], "stop": ["the", "a"], arg.param: "3"})
    assert out == (Sorted(tuple(Bag((w,)) for w in ("cat", "dog", "sat"))),)


def test_literal_values_give_the_parameter_type():
    sp = script("""
        from pyspark import SparkContext
        sc = SparkContext()
        data = sc.parallelize([(1, "a"), (2, "b")], 3)
        print(data.count())
    """)
    (src,) = sp.sources
    assert src.kind == "literal" and src.slices == 3 and src.values == ((1, "a"), (2, "b"))
    assert str(sp.program.params[0].type) == "Bag[(Int, Str)]"


def test_main_with_arguments_and_an_entry():
    src = """
        import sys
        from pyspark import SparkContext

        def run(sc, path):
            n = sc.textFile(path).count()
            print(n)

        def main():
            sc = SparkContext(appName="x")
            run(sc, sys.argv[1])
            sc.stop()
    """
    with pytest.raises(InputError, match="no output found"):
        script(src)
    sp = script(src, entry="main")
    assert [s.path for s in sp.sources] == ["sys.argv[1]"]
    assert run(sp.program, {sp.sources[0].param: ["a", "b"]}) == ("2\n",)


def test_argument_check_is_decided_with_the_arguments_given():
    sp = script("""
        import sys
        from pyspark import SparkContext
        if len(sys.argv) < 3 or len(sys.argv) > 3:
            print("usage: job <in> <out>")
            sys.exit(-1)
        sc = SparkContext()
        sc.textFile(sys.argv[1]).saveAsTextFile(sys.argv[2])
    """)
    assert sp.argv_length == 3 and [k.kind for k in sp.sinks] == ["save_text"]


def test_align_sources_matches_by_path():
    left = script(HEAD + 'other = sc.textFile(sys.argv[2])\nprint(lines.count() - other.count())\n')
    right = script("""
        import sys
        from pyspark import SparkContext
        sc = SparkContext()
        b = sc.textFile(sys.argv[2])
        a = sc.textFile(sys.argv[1])
        print(a.count() - b.count())
    """)
    aligned = align_sources(left, right)
    assert [s.path for s in aligned.sources] == ["sys.argv[1]", "sys.argv[2]"]
    assert [p.name for p in aligned.program.params] == ["a", "b"]
    ins = {"a": ["x"], "b": []}
    assert run(aligned.program, ins) == run(left.program, {"lines": ["x"], "other": []}) == ("1\n",)


def test_is_script_keeps_pipeline_files_out():
    for case in ("p3_p4_min_price", "str_csv_index_vs_unpack", "avg_per_key_reducebykey"):
        path = ROOT / "cases" / case / "left.py"
        assert not is_script(path.read_text(), str(path))
    assert is_script(HEAD + "print(lines.count())\n")
    assert is_script("def f(x):\n    return x\n")  # no pipeline function at all
    assert not is_script("def p(R:")  # a syntax error is the ordinary loader's to report


def test_text_input_hints_find_the_wrong_index():
    left = translate_script_file(str(CORPUS / "dept_totals.py"))
    right = translate_script_file(str(CORPUS / "dept_totals_wrong_index.py"))
    hints = text_input_hints(left)
    assert "a,b,1" in hints and "" in hints
    assert all("\n" not in h for h in hints)
    differing = [h for h in hints
                 if run(left.program, {"lines_1": [h]}) != run(right.program, {"lines_1": [h]})]
    assert differing


# --- located errors for scripts outside the fragment -----------------------------------------------


def test_while_loop_is_located():
    located(HEAD + "n = lines.count()\nwhile n > 0:\n    n = n - 1\nprint(n)\n", "while loop", 9, 1)


def test_writing_a_global_is_located():
    located(HEAD + textwrap.dedent("""
        seen = 0
        def bump(x):
            global seen
            seen += 1
            return x
        print(lines.map(bump).count())
    """), "global", 11)


def test_accumulating_in_a_loop_is_located():
    located(HEAD + "total = 0\nfor x in lines.collect():\n    total += len(x)\nprint(total)\n",
            "loop without print", 9, 1)


def test_reading_a_file_with_open_is_located():
    located(HEAD + 'stop = open("stop.txt").read().split()\nprint(lines.filter(lambda w: w in '
                   'stop).count())\n',
            "open", 8, 8)
    located(HEAD + 'with open("stop.txt") as fh:\n    stop = fh.read()\nprint(stop)\n', "with", 8, 1)


def test_dataframe_sources_are_not_yet_supported():
    located(HEAD + 'df = spark.read.csv(sys.argv[1], header=True)\nprint(df.count())\n', "spark.read", 8, 6)
    located(HEAD + 'df = spark.createDataFrame([(1, "a")])\nprint(df.count())\n', "createDataFrame", 8, 6)
    located(HEAD + 'w = sc.wholeTextFiles(sys.argv[1])\nprint(w.count())\n', "wholeTextFiles", 8, 8)


def test_unsupported_driver_code_is_located():
    located(HEAD + "print(lines.count(), end='')\n", "print end", 8, 26)
    located(HEAD + "n = lines.count()\nsys.exit(n)\nprint(n)\n", "sys.exit", 9, 1)
    located(HEAD + 'spark.conf.set("spark.default.parallelism", "8")\nprint(lines.count())\n',
            "Spark configuration", 8, 16)
    located(HEAD + "print('%.3d' % lines.count())\n", "%-format", 8, 7)
    located(HEAD + "try:\n    print(lines.count())\nexcept ValueError:\n    pass\n", "try", 8, 1)
    located(HEAD + "b = sc.broadcast(3)\nprint(lines.count())\n", "broadcast", 8, 8)
    located(HEAD + "print(sc.textFile(sys.argv[1], 4, False).count())\n", "textFile arguments", 8, 7)
    # minPartitions is read (tests/test_script_rdd_driver.py), but not a second count for HEAD's path
    located(HEAD + "print(sc.textFile(sys.argv[1], 4).count())\n", "textFile minPartitions", 8, 7)
    located("import sys\nif len(sys.argv) != 3:\n    sys.exit(1)\nfrom pyspark import SparkContext\n"
            "print(SparkContext().textFile(sys.argv[1]).count())\n", "argument check", 2, 4)


def test_script_without_output_is_an_input_error():
    with pytest.raises(InputError, match="no output found"):
        script(HEAD + "n = lines.count()\n")


def test_a_script_is_never_run(tmp_path):
    """Module-level code with side effects (a class body, a logging file handler, a sibling module's
    import) is read, never executed: the markers are not created."""
    marker = tmp_path / "marker.txt"
    log_marker = tmp_path / "marker.log"
    (tmp_path / "sidecar.py").write_text(f"open({str(tmp_path / 'imported.txt')!r}, 'w').write('x')\n")
    path = tmp_path / "job.py"
    path.write_text(textwrap.dedent(f"""
        import logging
        import sys
        import sidecar
        from pyspark import SparkContext

        logging.basicConfig(filename={str(log_marker)!r})

        class Config:
            opened = open({str(marker)!r}, "w").write("ran at import")

        sc = SparkContext(appName="noexec")
        print(sc.textFile(sys.argv[1]).count())
    """))
    sp = translate_script_file(str(path))
    assert [k.kind for k in sp.sinks] == ["print_value"]
    assert not marker.exists() and not log_marker.exists() and not (tmp_path / "imported.txt").exists()


def test_module_function_reading_a_driver_value_is_located():
    located("""\
import sys
from pyspark import SparkContext
limit = int(sys.argv[2])
def keep(x):
    return len(x) > limit
sc = SparkContext()
print(sc.textFile(sys.argv[1]).filter(keep).count())
""", "module function reading a driver value", 5, 21)


def test_main_calling_a_driver_helper_is_inlined():
    sp = script("""
        import sys
        from pyspark import SparkContext

        def report(n):
            print("count:", n)

        def run():
            sc = SparkContext()
            report(sc.textFile(sys.argv[1]).count())

        def main():
            run()

        if __name__ == "__main__":
            main()
    """)
    assert [(k.kind, k.loc.line) for k in sp.sinks] == [("print_value", 6)]
    assert run(sp.program, {sp.sources[0].param: ["x"]}) == ("count: 1\n",)


def test_entry_names_a_script_main():
    path = CORPUS / "wordcount_main.py"
    text = path.read_text()
    assert is_script_entry(text, str(path), "main")
    assert not is_script_entry(text, str(path), "split_words")
    pipeline = ROOT / "cases" / "p3_p4_min_price" / "left.py"
    assert not is_script_entry(pipeline.read_text(), str(pipeline), "p3")
    whole = translate_script_file(str(path))
    entry = translate_script_file(str(path), entry="main")
    assert entry.entry == "main" and entry.program.body == whole.program.body
    assert [k.loc for k in entry.sinks] == [k.loc for k in whole.sinks]


def test_counterexample_helpers():
    sp = script(HEAD + 'stop = sc.parallelize(["a"])\nprint(lines.subtract(stop).count(), sys.argv[2])\n')
    assert fixed_inputs(sp) == {"stop": ["a"]}
    arg = next(s.param for s in sp.sources if s.kind == "argument")
    assert input_files(sp, {"lines": ["x"], "stop": ["a"], arg: "7"}) == {"sys.argv[1]": ["x"],
                                                                         "sys.argv[2]": "7"}


def test_loops_over_a_counted_dict():
    """Learning Spark's word count: ``result = words.countByValue()`` then ``for key, value in
    result.items()``; the dict's order is Spark's choice, so the lines are a bag (sorted: in order)."""
    sp, out = run_script("""
        result = lines.flatMap(lambda line: line.split(" ")).countByValue()
        for key, value in result.items():
            print("%s %i" % (key, value))
        for key, value in sorted(result.items()):
            print(key, value)
        for key in result:
            print(key)
    """, ["a b a", "c"])
    assert [k.observed for k in sp.sinks] == ["bag_of_lines", "lines_in_order", "bag_of_lines"]
    assert out[0] == Bag.of(["a 2", "b 1", "c 1"]) and out[2] == Bag.of(["a", "b", "c"])
    assert [g.items for g in out[1].groups] == [("a 2",), ("b 1",), ("c 1",)]
    located(HEAD + "m = lines.map(lambda l: (l, 1)).collectAsMap()\n"
            "for k, v in m.items():\n    print(k, v)\n", "loop over collectAsMap", 9)
