"""Python's ``re`` and comprehensions with several ``for`` clauses in functions Spark runs (issue 20:
Frank Kane's word-count-better, mahmoudparsian chap12). The interpreter computes what CPython computes
(it calls the same ``re``; a nested comprehension is flattened in Python's evaluation order), uses that
are not read are located input errors, and a pair differing only in such a function is refuted."""

from __future__ import annotations

import re

import pytest

import verifier
from frontend import translate_source
from sparklite import ast as A
from sparklite.interpreter import run
from sparklite.values import Bag, ErrorOutcome

H = "import re\nfrom pyspark import RDD\n\n"
TEXTS = ["", "a", "Hello, World!", "  x--y  ", "é à,b", "a1_b2 c3", "\t\n", "ab\u2028cd", ",,"]


def _run(body: str, elems: list) -> object:
    program = translate_source(H + f"def f(R: RDD[str]):\n    return R.flatMap(lambda s: {body})\n", "f")
    return run(program, {"R": elems})


def _calls(program: A.Program) -> list[A.Call]:
    found: list[A.Call] = []

    def walk(node: object) -> None:
        if isinstance(node, A.Call):
            found.append(node)
        if isinstance(node, A.Node):
            for value in vars(node).values():
                for item in value if isinstance(value, tuple) else (value,):
                    walk(item)

    for d in program.defs:
        walk(d)
    walk(program.body)
    return found


@pytest.mark.parametrize(("body", "python"), [
    ("re.compile(r'\\W+', re.UNICODE).split(s.lower())", lambda s: re.split(r"\W+", s.lower())),
    ("re.split(r'[,\\s]+', s)", lambda s: re.split(r"[,\s]+", s)),
    ("re.findall(r'[a-z]+', s)", lambda s: re.findall(r"[a-z]+", s)),
    ("[re.sub(r'[^a-zA-Z0-9_]+', '_', s)]", lambda s: [re.sub(r"[^a-zA-Z0-9_]+", "_", s)]),
    ("re.compile('A', re.I | re.M).split(s)", lambda s: re.split("A", s, flags=re.I | re.M)),
    ("re.compile(r'\\w+', re.ASCII).findall(s)", lambda s: re.findall(r"\w+", s, flags=re.A)),
])
def test_the_interpreter_runs_pythons_re(body, python) -> None:
    for text in TEXTS:
        assert _run(body, [text]) == Bag.of(python(text)), text


def test_flags_are_written_into_the_pattern() -> None:
    program = translate_source(H + "def f(R: RDD[str]):\n    return R.flatMap(lambda s: "
                               "re.compile('a.b', re.IGNORECASE | re.DOTALL).split(s))\n", "f")
    (call,) = [c for c in _calls(program) if c.func == "re.split"]
    assert call.args[1] == A.StrLit("(?is)a.b", loc=call.args[1].loc)


@pytest.mark.parametrize(("body", "construct"), [
    ("re.split(s, s)", "re pattern"),
    ("re.split(r'(,)', s)", "re pattern with groups"),
    ("re.split(r'[', s)", "re pattern"),
    ("re.split(',', s, 1)", "re arguments"),
    ("re.split(',', s, maxsplit=1)", "re keyword argument"),
    ("[re.sub(r'(a)', r'\\1', s)]", "re.sub replacement"),
    ("[re.match('a', s)]", "re.match"),
    ("re.compile(',', re.ASCII | re.UNICODE).split(s)", "re pattern"),
    ("re.compile(',', 2 + 2).split(s)", "re flags"),
])
def test_uses_that_are_not_read_are_located(body, construct) -> None:
    from sparklite.errors import InputError

    with pytest.raises(InputError) as info:
        translate_source(H + f"def f(R: RDD[str]):\n    return R.flatMap(lambda s: {body})\n", "f")
    assert info.value.construct == construct, str(info.value)
    assert info.value.loc is not None and info.value.loc.line == 5


def test_a_different_pattern_is_refuted() -> None:
    left = H + "def f(R: RDD[str]):\n    return R.flatMap(lambda s: re.split(r'\\W+', s))\n"
    right = H + "def f(R: RDD[str]):\n    return R.flatMap(lambda s: re.split(r'\\s+', s))\n"
    result = verifier.check((left, "f"), (right, "f"), replay=False, timeout=20)
    assert result.verdict == "not_equivalent", result.reason
    assert verifier.check((left, "f"), (left, "f"), replay=False, timeout=20).verdict == "equivalent"


NESTED = [
    "[(c, 1) for w in s.split() for c in w]",
    "[w + c for w in s.split(',') if w for c in w if c != 'a']",
    "[(i, j, k) for i in s.split() for j in i for k in [j, j + j]]",
    "[len(a) // len(b) for a in s.split(',') for b in s.split(';')]",
]


@pytest.mark.parametrize("body", NESTED)
def test_nested_comprehensions_compute_what_python_does(body) -> None:
    fn = eval(f"lambda s: {body}")  # the test's own expression, run by CPython for reference
    for text in [*TEXTS, "ab,,cd;e", "a;b,", ";"]:
        try:
            expected: object = Bag.of(fn(text))
        except ZeroDivisionError:
            expected = ErrorOutcome("ZeroDivisionError")
        assert _run(body, [text]) == expected, text


def test_nested_comprehension_pair_refuted() -> None:
    left = H + "def f(R: RDD[str]):\n    return R.flatMap(lambda s: [c for w in s.split() for c in w])\n"
    right = H + "def f(R: RDD[str]):\n    return R.flatMap(lambda s: [c for c in s])\n"
    result = verifier.check((left, "f"), (right, "f"), replay=False, timeout=20)
    assert result.verdict == "not_equivalent", result.reason
