"""Regressions of issue 25: bugs found by running sparkeq over public PySpark code.

Each test fails without its fix: exceptions that escaped the frontends (exit 4) instead of a verdict
or a located input error, a cast of a constant string to a date that blocked proofs, replay of a
DataFrame function taking the session, ``--schema`` ignored for a DataFrame read as RDD code,
back-quoted DDL names, and star imports. (The whole corpus: ``test_realworld_corpus.py``.)
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from frontend.df_script import translate_df_script_file
from sparklite.errors import InputError
from verifier.api import check

HEAD = """\
import sys
from pyspark.sql import SparkSession
spark = SparkSession.builder.appName("x").getOrCreate()
df = spark.read.csv(sys.argv[1], header=True, schema="x STRING, y INT")
"""


def _script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text(HEAD + textwrap.dedent(body))
    return str(path)


# -- internal errors in DataFrame script mode ----------------------------------------------------------


def test_text_joined_with_plus_is_printed_text(tmp_path: Path) -> None:
    """``print("count: " + str(df.count()))`` raised ``KeyError: _StrV``; it is the text it prints."""
    plus = _script(tmp_path, "plus.py", 'print("count: " + str(df.count()))\n')
    fmt = _script(tmp_path, "fmt.py", 'print("count: %s" % df.count())\n')
    other = _script(tmp_path, "other.py", 'print("count:" + str(df.count()))\n')
    assert check(plus, plus).verdict == "equivalent"
    assert check(plus, fmt).verdict == "equivalent"
    result = check(plus, other)
    assert result.verdict == "not_equivalent", result.reason


def test_plus_on_a_row_field_is_a_located_error(tmp_path: Path) -> None:
    """``print(row['x'] + "," + str(row['y']))`` raised ``KeyError: _FieldV``: Python's ``+`` raises on a
    NULL field, which is not modelled, so it is a located input error."""
    path = _script(tmp_path, "rows.py", """\
        for row in df.collect():
            print(row['x'] + "," + str(row['y']))
        """)
    with pytest.raises(InputError) as info:
        translate_df_script_file(path)
    assert info.value.loc is not None and info.value.loc.line == 6
    assert check(path, path).verdict == "error"


def test_argv_formatted_as_text_is_a_located_error(tmp_path: Path) -> None:
    """``"{}".format(sys.argv[1])`` raised ``KeyError: _ArgV``."""
    path = _script(tmp_path, "argv.py", 'print("input: {}".format(sys.argv[1]))\ndf.show()\n')
    with pytest.raises(InputError) as info:
        translate_df_script_file(path)
    assert info.value.loc is not None and info.value.loc.line == 5
    assert "sys.argv" in str(info.value)


def test_a_huge_constant_loop_is_refused_without_building_it(tmp_path: Path) -> None:
    """``for x in range(1000000000): print(...)`` built the list (20 GB, MemoryError) before refusing
    to unroll it."""
    path = tmp_path / "gen.py"
    path.write_text("import random\nfor x in range(1000000000):\n"
                    "    print(str(random.randint(1,10000)) + ',' + str(random.randint(1,5)))\n")
    result = check(str(path), str(path))
    assert result.verdict == "error"
    assert "not unrolled" in (result.reason or "")
