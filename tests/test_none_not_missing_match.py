"""Issue 26, "a None value is not a missing match", and the Option precision items found with it.

An outer join pads a side that has no match with ``None``; an input may also hold ``None`` as a value
(``Optional`` data, or a conditional ``None``). Python, Spark and the interpreter see one value, ``None``,
either way, so ``kv[1][1] is None`` holds for both. The prover once encoded the padded side as an option
*wrapping* the data's option, and ``is None`` read only the padding: ``leftOuterJoin(r, s).filter(is not
None)`` was proved equal to ``join(r, s)`` and the unmatched count to ``count(loj) - count(join)``, both
false when ``s`` holds ``('a', None)`` (checked on Spark 4: ``docs/semantics-notes.md``). The padding is
now or-ed into the data's own None flag (``encoder.basic.padded``).

``WRONG`` pairs were proved ``equivalent`` before the fix; ``HELD`` ones were refuted by luck (a
mis-shaped comparison) and must stay refuted; ``PROVED`` ones are true equivalences the fix made
provable (the nested option compared unequal to the join's).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import z3

import verifier
from encoder.basic import Opt
from encoder.terms import encode_program
from sparklite.interpreter import run
from sparklite.parser import parse
from sparklite.values import Bag, outcomes_equal

HEAD = "from typing import Optional\nfrom pyspark import RDD\n\n"
INT_KV = '"RDD[tuple[str, int]]"'
OPT_KV = '"RDD[tuple[str, Optional[int]]]"'

# name: (type of r, type of s, body)
PROGRAMS = {
    "loj_not_none": (INT_KV, OPT_KV, "r.leftOuterJoin(s).filter(lambda kv: kv[1][1] is not None)"),
    "join": (INT_KV, OPT_KV, "r.join(s)"),
    "join_not_none": (INT_KV, OPT_KV, "r.join(s).filter(lambda kv: kv[1][1] is not None)"),
    "loj_unmatched": (INT_KV, OPT_KV, "r.leftOuterJoin(s).filter(lambda kv: kv[1][1] is None).count()"),
    "loj_minus_join": (INT_KV, OPT_KV, "r.leftOuterJoin(s).count() - r.join(s).count()"),
    "loj_matched": (INT_KV, OPT_KV, "r.leftOuterJoin(s).filter(lambda kv: kv[1][1] is not None).count()"),
    "join_count": (INT_KV, OPT_KV, "r.join(s).count()"),
    "loj_not_none_left": (INT_KV, OPT_KV, "r.leftOuterJoin(s).filter(lambda kv: kv[1][1] is not None)"
                                          ".map(lambda kv: (kv[0], kv[1][0]))"),
    "join_left": (INT_KV, OPT_KV, "r.join(s).map(lambda kv: (kv[0], kv[1][0]))"),
    "loj_values": (INT_KV, OPT_KV, "r.leftOuterJoin(s).mapValues(lambda p: p[1])"
                                   ".filter(lambda kv: kv[1] is not None)"),
    "join_values": (INT_KV, OPT_KV, "r.join(s).mapValues(lambda p: p[1])"),
    "join_values_not_none": (INT_KV, OPT_KV, "r.join(s).mapValues(lambda p: p[1])"
                                             ".filter(lambda kv: kv[1] is not None)"),
    # a None made by a conditional, no Optional annotation
    "loj_cond_keys": (INT_KV, INT_KV, "r.leftOuterJoin(s.mapValues(lambda v: None if v < 0 else v))"
                                      ".filter(lambda kv: kv[1][1] is not None).keys()"),
    "join_cond_keys": (INT_KV, INT_KV, "r.join(s.mapValues(lambda v: None if v < 0 else v)).keys()"),
    # None on the left side of a rightOuterJoin
    "roj_unmatched": (OPT_KV, INT_KV, "r.rightOuterJoin(s).filter(lambda kv: kv[1][0] is None).count()"),
    "roj_minus_join": (OPT_KV, INT_KV, "r.rightOuterJoin(s).count() - r.join(s).count()"),
    "roj_keys": (OPT_KV, INT_KV, "r.rightOuterJoin(s).filter(lambda kv: kv[1][0] is not None).keys()"),
    "join_keys_opt_int": (OPT_KV, INT_KV, "r.join(s).keys()"),
    "roj_not_none": (OPT_KV, INT_KV, "r.rightOuterJoin(s).filter(lambda kv: kv[1][0] is not None)"),
    "join_opt_int": (OPT_KV, INT_KV, "r.join(s)"),
    # None on both sides of a fullOuterJoin
    "foj_unmatched": (OPT_KV, OPT_KV, "r.fullOuterJoin(s).filter(lambda kv: kv[1][0] is None "
                                      "or kv[1][1] is None).count()"),
    "foj_minus_join": (OPT_KV, OPT_KV, "r.fullOuterJoin(s).count() - r.join(s).count()"),
    "foj_keys": (OPT_KV, OPT_KV, "r.fullOuterJoin(s).filter(lambda kv: kv[1][0] is not None "
                                 "and kv[1][1] is not None).keys()"),
    "join_keys_opt_opt": (OPT_KV, OPT_KV, "r.join(s).keys()"),
    "foj_both": (OPT_KV, OPT_KV, "r.fullOuterJoin(s).filter(lambda kv: kv[1][0] is not None "
                                 "and kv[1][1] is not None)"),
    "join_opt_opt": (OPT_KV, OPT_KV, "r.join(s)"),
    # the same shapes without a None in the data: true equivalences, still proved
    "loj_not_none_plain": (INT_KV, INT_KV, "r.leftOuterJoin(s).filter(lambda kv: kv[1][1] is not None)"),
    "join_plain": (INT_KV, INT_KV, "r.join(s)"),
    "loj_unmatched_plain": (INT_KV, INT_KV, "r.leftOuterJoin(s).filter(lambda kv: kv[1][1] is None).count()"),
    "loj_minus_join_plain": (INT_KV, INT_KV, "r.leftOuterJoin(s).count() - r.join(s).count()"),
}

WRONG = [
    ("loj_unmatched", "loj_minus_join"),
    ("loj_matched", "join_count"),
    ("loj_not_none_left", "join_left"),
    ("loj_cond_keys", "join_cond_keys"),
    ("roj_unmatched", "roj_minus_join"),
    ("roj_keys", "join_keys_opt_int"),
    ("foj_unmatched", "foj_minus_join"),
    ("foj_keys", "join_keys_opt_opt"),
]
HELD = [
    ("loj_not_none", "join"),
    ("loj_values", "join_values"),
    ("roj_not_none", "join_opt_int"),
    ("foj_both", "join_opt_opt"),
]
PROVED = [
    ("loj_not_none", "join_not_none"),
    ("loj_values", "join_values_not_none"),
    ("loj_not_none_plain", "join_plain"),
    ("loj_unmatched_plain", "loj_minus_join_plain"),
]


@pytest.fixture(scope="module")
def pipelines(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("none_vs_missing")
    for name, (rt, st, body) in PROGRAMS.items():
        (root / f"{name}.py").write_text(f"{HEAD}def f(r: {rt}, s: {st}):\n    return {body}\n")
    return root


def _check(root: Path, left: str, right: str, replay: bool = False):
    return verifier.check(f"{root / left}.py::f", f"{root / right}.py::f", replay=replay, timeout=30)


def _holds_data_none(inputs: dict, made_by_condition: bool) -> bool:
    """The input holds a None (or, for ``None if v < 0 else v``, a negative value of ``s``)."""
    if made_by_condition:
        return any(v < 0 for _, v in inputs["s"])
    return any(v is None for rows in inputs.values() for _, v in rows)


@pytest.mark.parametrize(("left", "right"), WRONG + HELD, ids=[f"{a}-{b}" for a, b in WRONG + HELD])
def test_a_none_in_the_data_tells_the_join_forms_apart(pipelines: Path, left: str, right: str) -> None:
    result = _check(pipelines, left, right)
    assert result.verdict == "not_equivalent", result.explanation
    # the difference rests on a None stored in the data (validated by the interpreter in verifier.api)
    assert _holds_data_none(dict(result.counterexample.inputs), "cond" in left), result.counterexample


@pytest.mark.parametrize(("left", "right"), PROVED, ids=[f"{a}-{b}" for a, b in PROVED])
def test_the_true_join_forms_are_proved(pipelines: Path, left: str, right: str) -> None:
    result = _check(pipelines, left, right)
    assert result.verdict == "equivalent", result.explanation


def test_the_interpreter_sees_one_none_either_way() -> None:
    """The observed values stay Python's: a padded side and a stored None both print as None."""
    p = parse("program P(r: Bag[(Str, Int)], s: Bag[(Str, Option[Int])]) =\n"
              "  filter(lambda kv -> py.is_none(kv[1][1]))(leftOuterJoin(r, s))\n")
    out = run(p, {"r": [("a", 1), ("b", 2)], "s": [("a", None), ("c", 3)]})
    assert outcomes_equal(out, Bag.of([("a", (1, None)), ("b", (2, None))]))


@pytest.mark.parametrize("kind", ["left", "right", "full"])
def test_the_padded_side_is_none_when_the_data_is_none(kind: str) -> None:
    """In the program terms, the matched alternative's optional side is None exactly when the stored value
    is (not never, as the nested option said), and the padded alternative's always is."""
    p = parse(f"program P(r: Bag[(Int, Option[Int])], s: Bag[(Int, Option[Int])]) =\n"
              f"  {kind}OuterJoin(r, s)\n")
    alts = encode_program(p, "L").result.alts
    matched = alts[0].canonical("x")
    for side, var in ((0, "x:r#0.1.none"), (1, "x:s#0.1.none")):
        value = matched.value[1][side]
        assert isinstance(value, Opt) and not isinstance(value.value, Opt)  # never an option of an option
        solver = z3.Solver()
        solver.add(value.is_none != z3.Bool(var))
        assert solver.check() == z3.unsat, (side, value.is_none)
    for padded in alts[1:]:
        sides = padded.value[1]
        assert all(isinstance(s, Opt) and not isinstance(s.value, Opt) for s in sides)
        assert any(z3.is_true(z3.simplify(s.is_none)) for s in sides)


def test_an_rdd_script_reaches_the_same_trap(tmp_path: Path) -> None:
    """Script mode hands its pipeline to the same prover: a None made while parsing lines."""
    head = textwrap.dedent('''\
        import sys
        from pyspark import SparkContext

        if __name__ == "__main__":
            sc = SparkContext(appName="j")
            r = sc.textFile(sys.argv[1]).map(lambda l: (l[:1], l[1:]))
            s = sc.textFile(sys.argv[2]).map(lambda l: (l[:1], None if l[1:] == "" else l[1:]))
        ''')
    tail = "    for k in matched.collect():\n        print(k)\n    sc.stop()\n"
    left = tmp_path / "left.py"
    right = tmp_path / "right.py"
    left.write_text(head + "    matched = r.leftOuterJoin(s).filter(lambda kv: kv[1][1] is not None)"
                    ".map(lambda kv: kv[0] + kv[1][0])\n" + tail)
    right.write_text(head + "    matched = r.join(s).map(lambda kv: kv[0] + kv[1][0])\n" + tail)
    result = verifier.check(str(left), str(right), replay=False, timeout=30)
    assert result.verdict == "not_equivalent", result.explanation


# ---------------------------------------------------------------------------------------------------
# Option precision: str() of an optional value, and a conditional that fills a None
# ---------------------------------------------------------------------------------------------------

STR_BODIES = {
    "after_filter": "r.leftOuterJoin(s).filter(lambda kv: kv[1][1] is not None)"
                    ".map(lambda kv: kv[0] + ':' + str(kv[1][1]))",
    "unfiltered": "r.leftOuterJoin(s).map(lambda kv: kv[0] + ':' + str(kv[1][1]))",
    "fstring": "r.leftOuterJoin(s).filter(lambda kv: kv[1][1] is not None)"
               ".map(lambda kv: f'{kv[0]} {kv[1][1]}')",
    "spelled_out": "r.leftOuterJoin(s).map(lambda kv: kv[0] + ':' + ('None' if kv[1][1] is None "
                   "else str(kv[1][1])))",
    "empty_for_none": "r.leftOuterJoin(s).map(lambda kv: kv[0] + ':' + ('' if kv[1][1] is None "
                      "else str(kv[1][1])))",
}


def _str_pipeline(tmp_path: Path, name: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(f'{HEAD}def f(r: {INT_KV}, s: "RDD[tuple[str, str]]"):\n    return {STR_BODIES[name]}\n')
    return f"{path}::f"


@pytest.mark.parametrize("name", ["after_filter", "unfiltered", "fstring"])
def test_str_of_an_optional_value_is_accepted(tmp_path: Path, name: str) -> None:
    """Python prints None as 'None' (``str(None)``), so ``str()`` of an outer join's side is fine, with
    or without a filter before it (once "Option[Str] used as the argument of str()")."""
    spec = _str_pipeline(tmp_path, name)
    assert verifier.check(spec, spec, replay=False, timeout=30).verdict == "equivalent"


def test_str_of_none_is_the_text_none(tmp_path: Path) -> None:
    proved = verifier.check(_str_pipeline(tmp_path, "unfiltered"), _str_pipeline(tmp_path, "spelled_out"),
                            replay=False, timeout=30)
    assert proved.verdict == "equivalent", proved.explanation
    refuted = verifier.check(_str_pipeline(tmp_path, "unfiltered"), _str_pipeline(tmp_path, "empty_for_none"),
                             replay=False, timeout=30)
    assert refuted.verdict == "not_equivalent", refuted.explanation
    p = parse("program P(r: Bag[(Str, Int)], s: Bag[(Str, Int)]) =\n"
              "  map(lambda kv -> str(kv[1][1]))(leftOuterJoin(r, s))\n")
    assert run(p, {"r": [("a", 1), ("b", 2)], "s": [("a", 5)]}) == Bag.of(["5", "None"])


def test_a_script_prints_an_outer_join_side(tmp_path: Path) -> None:
    script = tmp_path / "job.py"
    script.write_text(textwrap.dedent('''\
        import sys
        from pyspark import SparkContext

        if __name__ == "__main__":
            sc = SparkContext(appName="j")
            r = sc.textFile(sys.argv[1]).map(lambda l: (l[:1], len(l)))
            s = sc.textFile(sys.argv[2]).map(lambda l: (l[:1], l[1:]))
            for k, (a, b) in r.leftOuterJoin(s).filter(lambda kv: kv[1][1] is not None).collect():
                print(k, a, b)
            for k, (a, b) in r.leftOuterJoin(s).collect():
                print(k + " " + str(b))
            sc.stop()
        '''))
    result = verifier.check(str(script), str(script), replay=False, timeout=30)
    assert result.verdict == "equivalent", result.explanation


FILLS = {
    "lambda": "r.leftOuterJoin(s).map(lambda kv: kv[1][1]).map(lambda v: v if v is not None else -1).max()",
    "negated": "r.leftOuterJoin(s).map(lambda kv: kv[1][1]).map(lambda v: -1 if v is None else v).max()",
    "by_key": "r.leftOuterJoin(s).mapValues(lambda p: p[1] if p[1] is not None else -1).groupByKey()"
              ".mapValues(max)",
    "reduce": "r.leftOuterJoin(s).values().map(lambda p: p[1] if p[1] is not None else -1).reduce(max)",
    "two_args": "r.leftOuterJoin(s).map(lambda kv: max(kv[1][0], kv[1][1] if kv[1][1] is not None else -1))",
    "rebound": "r.leftOuterJoin(s).map(fill).max()",
}


@pytest.mark.parametrize("name", sorted(FILLS))
def test_a_filled_none_is_an_int_for_max(tmp_path: Path, name: str) -> None:
    """``v if v is not None else -1`` is an ``Int`` (the test narrows ``v``), so ``max`` accepts it."""
    helper = "def fill(kv):\n    v = kv[1][1]\n    v = v if v is not None else -1\n    return v\n\n\n"
    path = tmp_path / f"{name}.py"
    path.write_text(f"{HEAD}{helper}def f(r: {INT_KV}, s: {INT_KV}):\n    return {FILLS[name]}\n")
    result = verifier.check(f"{path}::f", f"{path}::f", replay=False, timeout=30)
    assert result.verdict != "error", result.reason


# ---------------------------------------------------------------------------------------------------
# On Spark
# ---------------------------------------------------------------------------------------------------


@pytest.mark.spark
@pytest.mark.parametrize(("left", "right"), [("loj_unmatched", "loj_minus_join"),
                                             ("roj_keys", "join_keys_opt_int"),
                                             ("foj_unmatched", "foj_minus_join")])
def test_the_counterexamples_differ_on_spark(pipelines: Path, left: str, right: str, spark_context) -> None:
    result = _check(pipelines, left, right, replay=True)
    assert result.verdict == "not_equivalent", result.explanation
    assert result.counterexample.replayed_on_spark is True
    assert result.stats["spark_left"] != result.stats["spark_right"]
