"""``out = []`` then ``for x in xs: [if c:] out.append(e)`` in a function Spark runs is read as the list
comprehension it is (frontend.python.loops): the translation gives what CPython gives, exceptions
included, and the shapes a comprehension would change (the list read inside the loop, the loop variable
read after it) are still refused where the loop is."""

from __future__ import annotations

import pytest

from frontend import translate_source
from sparklite.errors import UnsupportedError
from sparklite.interpreter import run
from sparklite.values import Bag, ErrorOutcome

HEADER = "from pyspark import RDD\n"

TOKENIZE = """\
def tokenize(record):
    tokens = record.split()
    mylist = []
    for word in tokens:
        if len(word) > 2:
            mylist.append(word)
    return mylist


def p(R: RDD[str]):
    return R.flatMap(tokenize)
"""

RAISES = """\
def lengths(record):
    out = []
    for t in record.split(","):
        out.append(10 // len(t))
    return out


def p(R: RDD[str]):
    return R.flatMap(lengths)
"""


def _python(source: str, fn: str, lines: list[str]) -> object:
    """What CPython computes for the test's own function (test code, not user code)."""
    env: dict = {}
    exec(compile(source.split("\n\ndef p(")[0], "t", "exec"), env)  # noqa: S102
    try:
        return Bag.of([x for line in lines for x in env[fn](line)])
    except ZeroDivisionError:
        return ErrorOutcome("ZeroDivisionError")


@pytest.mark.parametrize("lines", [[], ["the cat sat on a mat"], ["ab abc", "", "  abcd  x"]])
def test_a_filtered_append_loop_is_the_comprehension(lines):
    program = translate_source(HEADER + TOKENIZE, filename="t.py")
    assert run(program, {"R": lines}) == _python(TOKENIZE, "tokenize", lines)


@pytest.mark.parametrize("lines", [["a,bb"], ["a,,b"], []])
def test_an_append_loop_raises_where_python_does(lines):
    program = translate_source(HEADER + RAISES, filename="t.py")
    assert run(program, {"R": lines}) == _python(RAISES, "lengths", lines)


@pytest.mark.parametrize("body, line", [
    # the list read while it is built: a comprehension's list is not visible yet
    ("    out = []\n    for t in r.split():\n        out.append(len(out))\n    return out\n", 4),
    # the loop variable read after the loop: a for leaves it bound, a comprehension does not
    ("    out = []\n    for t in r.split():\n        out.append(t)\n    return out + [t]\n", 4),
    # more than an append in the body
    ("    out = []\n    for t in r.split():\n        u = t\n        out.append(u)\n    return out\n", 4),
])
def test_other_loops_are_still_refused_where_they_are(body, line):
    source = "def f(r):\n" + body + "\n\ndef p(R: RDD[str]):\n    return R.flatMap(f)\n"
    with pytest.raises(UnsupportedError) as info:
        translate_source(HEADER + source, filename="t.py")
    assert info.value.loc.line == line and "for loop" in str(info.value), info.value


# --- s.encode('ascii', 'ignore') used as text (frontend.python.loops.fold_ascii_bytes) --------------

WORDS = """\
import sys
from pyspark import SparkContext
sc = SparkContext()
counts = sc.textFile(sys.argv[1]).flatMap(lambda x: x.split()).countByValue()
for word, count in counts.items():
    clean = word.encode('ascii', 'ignore')
    if (clean):
        print(clean.decode() + " " + str(count))
"""


@pytest.mark.parametrize("s", ["", "abc", "café", "日本", "a\\u00e9b", "\\ud800x", "naïve résumé"])
def test_ascii_ignore_is_python_s_own(s):
    from sparklite.builtins import BUILTINS

    assert BUILTINS["str.ascii_ignore"].impl(s) == s.encode("ascii", "ignore").decode()


def test_cleaned_words_are_printed_as_python_prints_them():
    from frontend.script.rdd_script import translate_script

    sp = translate_script(WORDS, "w.py")
    text = next(s.param for s in sp.sources if s.kind == "text")
    out = run(sp.program, {text: ["café 日本 b", "b"]})
    assert out == (Bag.of(["caf 1", "b 2"]),)  # 日本 cleans to '' (not printed); one line per word


def test_cleaned_bytes_used_as_bytes_are_still_refused_where_they_are():
    from frontend.script.rdd_script import translate_script

    with pytest.raises(UnsupportedError) as info:
        translate_script(WORDS.replace("clean.decode()", "str(clean)"), "w.py")
    assert info.value.loc.line == 6, info.value
