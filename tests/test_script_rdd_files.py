"""``open(p).read()`` in RDD scripts (frontend/script/rdd_files.py, issue 20): the printed text of a file
a ``textFile`` source reads is that file's text in every run, shared by both scripts in a proof; other
uses of ``open`` are refused where they are."""

from __future__ import annotations

import re
import textwrap

import pytest

from frontend.script.rdd_program import share_path_arguments, with_partition_counts
from frontend.script.rdd_script import align_sources, translate_script
from sparklite.errors import InputError, UnsupportedError
from sparklite.interpreter import run as run_program
from verifier import check
from verifier.core.script_inputs import predict

HEAD = "import sys\nfrom pyspark.sql import SparkSession\nspark = SparkSession.builder.getOrCreate()\n"

DEBUG = HEAD + textwrap.dedent('''\
    def debug_file(input_path):
        f = open(input_path, 'r')
        file_contents = f.read()
        print("file_contents = \\n" + file_contents)
        f.close()
    input_path = sys.argv[1]
    debug_file(input_path)
    rdd = spark.sparkContext.textFile(input_path)
    print("rdd.count = ", rdd.count())
''')


def test_the_books_debug_file_prints_the_text_of_the_file_spark_reads():
    sp = translate_script(DEBUG, "job.py")
    text = next(s for s in sp.sources if s.kind == "text")
    shown = next(s for s in sp.sources if s.kind == "file_text")
    assert shown.text_of == text.param and shown.path == text.path == "sys.argv[1]"
    assert ("f.close()", 8) in {(i.construct, i.line) for i in sp.ignored}
    inputs = {text.param: ["a,1", "", "b,2"], shown.param: "not the file"}
    out = predict(sp, inputs)  # a run sets the text from the lines, as the check writes the file
    assert out == ("file_contents = \na,1\n\nb,2\n\nrdd.count =  3\n",)
    assert with_partition_counts(sp, {text.param: []}, {})[shown.param] == ""
    empty = run_program(sp.program, with_partition_counts(sp, {text.param: []}, {text.param: ()}),
                        {text.param: ()})
    assert empty == ("file_contents = \n\nrdd.count =  0\n",)


def test_a_script_printing_its_input_is_refuted_against_one_that_does_not():
    quiet = DEBUG.replace("debug_file(input_path)\n", "")
    left, right = translate_script(DEBUG, "l.py"), translate_script(quiet, "r.py")
    left, right = share_path_arguments(left, right)
    right = align_sources(left, right)  # the file's text is an unused input of RIGHT
    assert [s.kind for s in right.sources] == [s.kind for s in left.sources]


def test_inline_open_read_and_the_helper_are_proved_equal(tmp_path):
    inline = DEBUG.replace("debug_file(input_path)\n",
                           'print("file_contents = \\n" + open(input_path, encoding="utf-8").read())\n')
    (tmp_path / "l.py").write_text(DEBUG)
    (tmp_path / "r.py").write_text(inline)
    (tmp_path / "w.py").write_text(inline.replace('"file_contents = \\n"', '"contents:\\n"'))
    proved = check(str(tmp_path / "l.py"), str(tmp_path / "r.py"), replay=False)
    assert proved.verdict == "equivalent", proved.reason
    refuted = check(str(tmp_path / "l.py"), str(tmp_path / "w.py"), replay=False)
    assert refuted.verdict == "not_equivalent", refuted.reason


@pytest.mark.parametrize("code, words, line", [
    ('print(open("notes.txt").read())\nprint(spark.sparkContext.textFile(sys.argv[1]).count())\n',
     "a file the script does not read with sc.textFile", 4),
    ('f = open(sys.argv[1])\nprint(f.readlines())\nprint(spark.sparkContext.textFile(sys.argv[1]).count())\n',
     "readlines() of a file opened with open() is not modelled", 5),
    ('f = open(sys.argv[1])\nfor line in f:\n    print(line)\n'
     'print(spark.sparkContext.textFile(sys.argv[1]).count())\n', "this iterable (f) is not understood", 5),
    ('f = open(sys.argv[1])\nprint(f.read())\nprint(f.read())\n'
     'print(spark.sparkContext.textFile(sys.argv[1]).count())\n', "a second f.read() of the same file", 6),
    ('f = open(sys.argv[1], "w")\nprint(spark.sparkContext.textFile(sys.argv[1]).count())\n',
     "open() in another mode than reading text", 4),
    ('print(open(sys.argv[1], encoding="latin-1").read())\n'
     'print(spark.sparkContext.textFile(sys.argv[1]).count())\n', "encoding other than UTF-8", 4),
    ('import os\nd = os.listdir(sys.argv[1])\nprint(len(d))\n'
     'print(spark.sparkContext.textFile(sys.argv[1]).count())\n',
     "is used in a way script mode does not understand here: it is modelled only printed", 6),
    ('import os\nd = os.listdir(sys.argv[2])\nprint(d)\n'
     'print(spark.sparkContext.textFile(sys.argv[1]).count())\n',
     "a directory the script does not read with sc.textFile", 5),
    ('import os\nd = os.listdir(sys.argv[1])\nprint(d, open(sys.argv[1]).read())\n'
     'print(spark.sparkContext.textFile(sys.argv[1]).count())\n', "both opened as a file and listed", 6),
])
def test_other_uses_of_open_and_listdir_are_refused_where_they_are(code, words, line):
    with pytest.raises(UnsupportedError, match=re.escape(words)) as info:
        translate_script(HEAD + code, "job.py")
    assert info.value.loc.line == line, info.value


def test_a_script_defining_its_own_open_is_not_read_as_the_builtin():
    code = HEAD + "def open(p):\n    return p\nprint(open(sys.argv[1]).read())\n"
    with pytest.raises(InputError) as info:  # not the text of a file: the script's own function
        translate_script(code, "job.py")
    assert "file_text" not in str(info.value)


# --- the command line printed (frontend/script/rdd_argv.py) ----------------------------------------

ARGV = HEAD + textwrap.dedent('''\
    print("script:", sys.argv[0])
    print("args:", str(sys.argv), len(sys.argv))
    src, dst = sys.argv[1], sys.argv[2]
    print("in:", sys.argv[1], "out:", sys.argv[2])
    counts = spark.sparkContext.textFile(sys.argv[1]).map(lambda l: (l, 1)).reduceByKey(lambda a, b: a + b)
    print("first print done")
    counts.saveAsTextFile(sys.argv[2])
''')


def test_the_command_line_is_printed_with_the_script_path_excluded():
    sp = translate_script(ARGV, "job.py")
    assert sp.masks == ("<sys.argv[0]>",)
    placed = {(i.construct, i.line) for i in sp.ignored}
    assert placed >= {("printed sys.argv[0]", 4), ("printed sys.argv[0]", 5)}
    args = {s.argv_index: s.param for s in sp.sources if s.kind == "argument"}
    text = next(s.param for s in sp.sources if s.kind == "text")
    out = predict(sp, {args[1]: "a.txt", args[2]: "b", text: ["x"]})
    assert out[0] == ("script: <sys.argv[0]>\nargs: ['<sys.argv[0]>', 'a.txt', 'b'] 3\nin: a.txt out: b\n"
                      "first print done\n")


def test_the_replay_masks_the_absolute_path_it_runs_the_script_by(tmp_path):
    from verifier.runtime.script_replay import ScriptRun, observe_run

    script = tmp_path / "dir with space" / "job v2.py"
    sp = translate_script(ARGV, str(script))
    own = str(script.resolve())
    run = ScriptRun(exit_code=0, exception=None, stdout_lines=(
        f"script: {own}", f"args: ['{own}', '{tmp_path}/a.txt', '{tmp_path}/b'] 3", "in: a.txt out: b",
        "first print done"), stderr="", files_written={"b": ("('x', 1)",)}, seconds=0.0)
    args = {s.argv_index: s.param for s in sp.sources if s.kind == "argument"}
    text = next(s.param for s in sp.sources if s.kind == "text")
    ref = predict(sp, {args[1]: "a.txt", args[2]: "b", text: ["x"]})
    seen = observe_run(sp, run, ref, [f"{tmp_path}/a.txt", f"{tmp_path}/b"], str(tmp_path))
    assert seen[0] == ("script: <sys.argv[0]>\nargs: ['<sys.argv[0]>', 'a.txt', 'b'] 3\nin: a.txt out: b\n"
                       "first print done\n")


def test_a_saved_directory_after_several_prints_is_found_by_its_item():
    from verifier.runtime.script_replay import saved_dir

    sp = translate_script(ARGV, "job.py")
    save = next(k for k in sp.sinks if k.kind == "save_text")
    assert save.index != sp.sinks.index(save)  # the prints before it share one item
    assert saved_dir(sp, save.index, ["in.txt", "out_2"], "/w") == "out_2"


# --- a directory listed with os.listdir (frontend/script/rdd_files.py) ------------------------------

LISTED = "import os\n" + HEAD + textwrap.dedent('''\
    dir_path = sys.argv[1]
    dir_listing = os.listdir(dir_path)
    print("dir_listing = ", dir_listing)
    rdd = spark.sparkContext.textFile(dir_path)
    print("rdd.count = ", rdd.count())
''')


def test_a_listed_directory_is_one_shared_value_and_written_as_a_directory(tmp_path):
    from frontend.script.rdd_program import DIR_FILE, listed_dirs
    from verifier.runtime.script_replay import write_inputs

    sp = translate_script(LISTED, "job.py")
    text = next(s for s in sp.sources if s.kind == "text")
    listing = next(s for s in sp.sources if s.kind == "dir_listing")
    assert listing.text_of == text.param and listed_dirs(sp) == {text.param}
    assert predict(sp, {text.param: ["a", "b"], listing.param: "?"}) == (
        "dir_listing =  ['data.txt']\nrdd.count =  2\n",)
    argv = write_inputs(sp, {text.param: ["a", "b"], listing.param: ""}, str(tmp_path))
    assert (tmp_path / "input_1.txt" / DIR_FILE).read_text() == "a\nb\n"
    assert argv == [str(tmp_path / "input_1.txt")]


def test_a_script_that_does_not_list_the_directory_gets_the_listing_as_an_unused_input():
    quiet = LISTED.replace('dir_listing = os.listdir(dir_path)\nprint("dir_listing = ", dir_listing)\n', "")
    left, right = share_path_arguments(translate_script(LISTED, "l.py"), translate_script(quiet, "r.py"))
    right = align_sources(left, right)
    assert [s.kind for s in right.sources] == [s.kind for s in left.sources]
    from frontend.script.rdd_program import listed_dirs

    assert listed_dirs(right)  # its replay writes the same directory


def test_str_find_in_a_lambda_is_cpython_s():
    from frontend.rdd.loader import translate_source

    src = textwrap.dedent('''\
        from pyspark import RDD
        def p(r: RDD[str]) -> RDD[int]:
            return r.filter(lambda s: s.find('3') != -1).map(lambda s: s.find(''))
    ''')
    prog = translate_source(src, "p")
    inputs = ["", "a3", "33", "x"]
    assert sorted(run_program(prog, {prog.params[0].name: inputs}).items) == [0, 0]
    assert [s.find("3") for s in inputs] == [-1, 1, 0, -1]


def test_a_second_read_of_one_handle_is_refused_in_dataframe_scripts_too():
    """``f.read()`` twice prints the text, then '' (checked with CPython on Spark 4): reading both as the
    file's text proved such a script equal to one that opens the file again."""
    from frontend.script.df_script import translate_df_script

    code = HEAD + textwrap.dedent('''\
        df = spark.read.csv(sys.argv[1], schema="a STRING")
        f = open(sys.argv[1], "r")
        print("one:" + f.read())
        print("two:" + {second})
        print(df.count())
    ''')
    translate_df_script(code.format(second='open(sys.argv[1], "r").read()'), "job.py")  # two handles
    with pytest.raises(UnsupportedError, match="a second read") as info:
        translate_df_script(code.format(second="f.read()"), "job.py")
    assert info.value.loc.line == 7
