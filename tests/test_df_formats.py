"""Format specs in DataFrame scripts (issue 20, ``frontend.script.df_formats``): a count's spec rendered as
Python's ``format``, constants formatted by Python, the rest refused located."""

from __future__ import annotations

import pytest

from frontend.script.df_script import translate_df_script
from sparklite.errors import InputError
from verifier.core.df_script_search import observe

HEAD = '''import sys
from pyspark.sql import SparkSession
spark = SparkSession.builder.getOrCreate()
df = spark.read.csv(sys.argv[1], header=True, schema="id INT, name STRING")
n = df.count()
'''


@pytest.mark.parametrize(("line", "rows", "text"), [
    ('print(f"rows: {n:>6,}")', 1234, "rows:  1,234\n"),
    ('print("rows: {:08.2f}".format(n))', 3, "rows: 00003.00\n"),
    ('print("rows: {c:_b} {w:^7}".format(c=n, w="x"))', 5, "rows: 101    x   \n"),
    ('print(f"{df.count():+d} and {2.5:.0%}")', 0, "+0 and 250%\n"),
])
def test_a_count_is_formatted_as_python_does(line: str, rows: int, text: str) -> None:
    sp = translate_df_script(HEAD + line + "\n", "job.py")
    out = observe(sp, {sp.sources[0].param: [(i, "a") for i in range(rows)]})
    assert out.stdout == (("text", text),)


@pytest.mark.parametrize(("line", "text"), [
    ('print(f"{n:c}")', "'c'"),
    ('print(f"{n:.2s}")', "Python raises"),
    ('print(f"{df.first():>9}")', "for a count"),
    ('print(f"{n!r:>5}")', "without a conversion"),
    ('print("{:{w}}".format(n, w=5))', "nested"),
])
def test_what_is_not_modelled_is_refused_located(line: str, text: str) -> None:
    with pytest.raises(InputError) as err:
        translate_df_script(HEAD + line + "\n", "job.py")
    assert err.value.loc is not None and err.value.loc.line == 6, str(err.value)
    assert text in str(err.value)
