"""``os.listdir(d)`` printed in a DataFrame script next to ``spark.read`` of ``d + "/*.csv"`` (issue 20,
``frontend.script.df_listing``): one value both scripts see alike, a check writes the directory holding
``data.csv``; refused located where the listing is used otherwise or may change (a write)."""

from __future__ import annotations

from pathlib import Path

import pytest

from frontend.script.df_program import align_df_sources
from frontend.script.df_script import translate_df_script
from sparklite.errors import InputError
from sparklite.relational.types import parse_ddl
from verifier.core.df_script_search import observe

HEAD = '''import os
import sys
from pyspark.sql import SparkSession
spark = SparkSession.builder.getOrCreate()
input_dir = sys.argv[1]
'''
LIST = 'dir_listing = os.listdir(input_dir)\nprint("dir_listing = ", dir_listing)\n'
READ = ('df = spark.read.format("csv").option("header", "false").option("inferSchema", "true")'
        '.load(input_dir + "/*.csv")\n')
SCHEMA = {"df": parse_ddl("_c0 STRING, _c1 INT")}
UNIT = Path("/work/shared/corpora/realworld/mahmoudparsian__pyspark-algorithms/code/chap03/"
            "dataframe_creation_from_directory.py")


def _translate(src: str, name: str = "job.py"):
    return translate_df_script(src, name, schemas=SCHEMA)


def test_the_listing_is_the_one_file_a_check_writes(tmp_path) -> None:
    from verifier.runtime.df_script_replay import _write_inputs

    sp = _translate(HEAD + LIST + READ + "df.show()\n")
    [src] = sp.sources
    assert (src.path, src.argv_index, src.dir_glob) == ("sys.argv[1] + '/*.csv'", 1, "*.csv")
    [printed] = [k for k in sp.sinks if k.kind == "print"]
    assert [(p.kind, p.text) for p in printed.parts][:2] == [("lit", "dir_listing =  "),
                                                             ("listing", "sys.argv[1]")]
    out = observe(sp, {src.param: [("a", 1)]})
    assert out.stdout[0][0] == "text" and out.stdout[0][1].startswith("dir_listing =  ['data.csv']\n")
    argv = _write_inputs(sp, {src.param: [("a", 1)]}, str(tmp_path))
    assert argv == [str(tmp_path / "input_1")]
    assert (tmp_path / "input_1" / "data.csv").read_text() == "a,1\n"


def test_the_listing_is_compared_as_one_shared_value() -> None:
    left = _translate(HEAD + LIST + READ + "df.show()\n", "l.py")
    renamed = LIST.replace("dir_listing = os", "names = os").replace(", dir_listing)", ", names)")
    right = _translate(HEAD + renamed + READ + "df.show()\n", "r.py")
    right = align_df_sources(left, right)
    assert [k.parts for k in left.sinks] == [k.parts for k in right.sinks]


@pytest.mark.parametrize(("code", "line", "text"), [
    ('d = os.listdir(input_dir)\nprint(len(d))\n' + READ + "df.show()\n", 7, "only printed"),
    ('d = os.listdir(input_dir)\nprint(d[0])\n' + READ + "df.show()\n", 7, ""),
    ('d = os.listdir(input_dir)\nfor n in d:\n    print(n)\n' + READ + "df.show()\n", 7, ""),
    (LIST + 'df = spark.read.csv(sys.argv[1], schema="a STRING")\ndf.show()\n', 6, "does not read"),
    (LIST + READ + 'df.write.csv(sys.argv[2])\n', 6, "writes files"),
    (LIST + READ + 'df.write.csv("out")\n', 6, "writes files"),
    (READ + 'j = spark.read.json(input_dir + "/*.json", schema="a STRING")\n' + "df.show()\n", 6,
     "another source"),
])
def test_other_uses_of_a_listing_are_refused_located(code: str, line: int, text: str) -> None:
    with pytest.raises(InputError) as err:
        _translate(HEAD + code)
    assert err.value.loc is not None and err.value.loc.line == line, str(err.value)
    assert text in str(err.value)


def test_a_directory_and_a_file_are_not_matched_as_one_input() -> None:
    left = _translate(HEAD + READ + "df.show()\n", "l.py")
    file_read = 'df = spark.read.csv(input_dir, schema="_c0 STRING, _c1 INT")\ndf.show()\n'
    right = _translate(HEAD + file_read, "r.py")
    with pytest.raises(InputError, match="cannot be matched"):
        align_df_sources(left, right)


@pytest.mark.spark
@pytest.mark.skipif(not UNIT.is_file(), reason="the corpus is not here")
def test_the_book_s_chapter_3_unit_against_a_changed_listing_line(tmp_path) -> None:
    """The corpus unit reads and is proved equal to itself; printing more after the listing is a
    difference Spark reproduces (the replay writes the directory and runs both unmodified scripts)."""
    from verifier import check

    schema = ["df=_c0 STRING, _c1 INT"]
    same = check(str(UNIT), str(UNIT), replay=False, timeout=20, schema=schema)
    assert same.verdict == "equivalent", same.reason
    right = tmp_path / "right.py"
    right.write_text(UNIT.read_text().replace('print("dir_listing = ",  dir_listing)',
                                              'print("dir_listing = ",  str(dir_listing) + "!")'))
    result = check(str(UNIT), str(right), replay=True, timeout=20, schema=schema)
    assert result.verdict == "not_equivalent", result.reason
    assert result.counterexample is not None and result.counterexample.replayed_on_spark is True
