"""``open(p).read()`` printed in a DataFrame script (issue 20, ``frontend.script.df_files``): the text of an
input file a Spark source reads, rendered by the search as the replay writes the file; refused located
otherwise."""

from __future__ import annotations

import pytest

from frontend.script.df_script import translate_df_script
from sparklite.errors import InputError
from verifier.core.df_script_search import observe

HEAD = '''import sys
from pyspark.sql import SparkSession
spark = SparkSession.builder.getOrCreate()
'''
READ = 'df = spark.read.csv(sys.argv[1], header=True, schema="id INT, name STRING")\n'


def test_the_printed_text_is_the_input_file_as_written() -> None:
    src = (HEAD + 'f = open(sys.argv[1], "r")\nprint("contents:\\n" + f.read())\nf.close()\n' + READ
           + "df.show()\n")
    sp = translate_df_script(src, "job.py")
    [printed] = [k for k in sp.sinks if k.kind == "print"]
    assert [p.kind for p in printed.parts] == ["lit", "file", "lit"]
    out = observe(sp, {sp.sources[0].param: [(1, "a"), (None, "b")]})
    assert out.stdout[0][0] == "text" and out.stdout[0][1].startswith("contents:\nid,name\n1,a\n,b\n\n")
    assert [(i.construct, i.loc.line) for i in sp.ignored] == [("f.close()", 6)]


def test_a_helper_opening_the_file_before_spark_reads_it() -> None:
    src = HEAD + ("def debug_file(p):\n    f = open(p)\n    print(f.read())\n    f.close()\n"
                  "debug_file(sys.argv[1])\n") + READ + "print(df.count())\n"
    sp = translate_df_script(src, "job.py")
    out = observe(sp, {sp.sources[0].param: []})
    assert out.stdout[0][1].startswith("id,name\n\n")  # the header line, then print's newline


@pytest.mark.parametrize(("code", "line", "text"), [
    ('print(open("notes.txt").read())\n' + READ + "df.show()\n", 4, "does not read with spark.read"),
    ('f = open(sys.argv[1], "w")\n' + READ + "df.show()\n", 4, "mode 'w'"),
    ('f = open(sys.argv[1])\nprint(f.readline())\n' + READ + "df.show()\n", 5, "readline()"),
    ('f = open(sys.argv[1], encoding="latin-1")\n' + READ + "df.show()\n", 4, "UTF-8"),
    ("with open(sys.argv[1]) as f:\n    print(f.read())\n" + READ + "df.show()\n", 4, "with"),
])
def test_what_is_not_modelled_is_refused_located(code: str, line: int, text: str) -> None:
    with pytest.raises(InputError) as err:
        translate_df_script(HEAD + code, "job.py")
    assert err.value.loc is not None and err.value.loc.line == line, str(err.value)
    assert text in str(err.value)


@pytest.mark.parametrize("binding", ["from gzip import open\n", "from gzip import *\n"])
def test_an_open_the_module_binds_is_not_the_builtin(binding: str) -> None:
    src = binding + HEAD + 'print(open(sys.argv[1]).read())\n' + READ + "df.show()\n"
    with pytest.raises(InputError):
        translate_df_script(src, "job.py")
