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
    ('f = open(sys.argv[1], "w")\nprint(spark.sparkContext.textFile(sys.argv[1]).count())\n',
     "open() in another mode than reading text", 4),
    ('print(open(sys.argv[1], encoding="latin-1").read())\n'
     'print(spark.sparkContext.textFile(sys.argv[1]).count())\n', "encoding other than UTF-8", 4),
])
def test_other_uses_of_open_are_refused_where_they_are(code, words, line):
    with pytest.raises(UnsupportedError, match=re.escape(words)) as info:
        translate_script(HEAD + code, "job.py")
    assert info.value.loc.line == line, info.value


def test_a_script_defining_its_own_open_is_not_read_as_the_builtin():
    code = HEAD + "def open(p):\n    return p\nprint(open(sys.argv[1]).read())\n"
    with pytest.raises(InputError) as info:  # not the text of a file: the script's own function
        translate_script(code, "job.py")
    assert "file_text" not in str(info.value)
