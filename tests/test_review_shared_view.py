"""Adversarial review of 08a5636/d1965ff: type-directed ``str()`` risk, the shared-subprogram view that
shares defs and accepts raising code after a shuffle, and simplify's dropping of a recomputed collect.

Failing tests are real bugs (expected vs actual in each docstring); the passing ones pin tricky cases
the change gets right.
"""

from __future__ import annotations

import itertools

from sparklite import effects
from sparklite.builtins import BUILTINS, holds_int, raises
from sparklite.desugar import desugar
from sparklite.interpreter import ErrorOutcome, run
from sparklite.parser import parse
from sparklite.simplify import simplify
from sparklite.typecheck import typecheck
from sparklite.types import FLOAT, INT, STR, DictType, OptionType, TupleType
from verifier import check
from verifier.core import abstraction
from verifier.core.kinds.rdd import kernel

HUGE = 10 ** 400  # more than a float holds (about 1.8e308), fewer digits than str() refuses (4300)


def _program(src: str):  # noqa: ANN202
    return typecheck(parse(src)).program


def _outcome(program, inputs, parts=None):  # noqa: ANN001, ANN202
    """The interpreter's outcome, or the Python exception that escaped it (a crash of the reference)."""
    try:
        return run(program, inputs, parts)
    except Exception as exc:  # noqa: BLE001 - the point is to see it
        return f"interpreter crashed: {type(exc).__name__}: {exc}"


# -- BUG: sum() of Ints with a Float start may raise OverflowError, and nothing knows ---------------


SUM_FLOAT_START = "lambda (x: Int) -> sum([x], 0.5)"


def test_sum_of_ints_with_a_float_start_may_raise() -> None:
    """Python: ``sum([10**400], 0.5)`` raises ``OverflowError: int too large to convert to float``.

    08a5636 made ``sum`` of Floats need a Float start (``_sum``), but the converse, a list of Ints with a
    Float start (typed Float), is accepted, and the builtin table gives ``sum`` no ``raises``.
    Expected: ``effects.may_raise`` says it may raise, and the interpreter gives
    ``ErrorOutcome('OverflowError')``. Actual: ``may_raise`` is False and the OverflowError escapes the
    interpreter (``sparklite/builtins.py``: ``_add("sum", ...)`` has no ``OVERFLOW_ERROR`` and no guard)."""
    src = f"program p(R: Bag[Int]) =\n  collect(map({SUM_FLOAT_START})(R))\n"
    p = _program(src)
    assert _outcome(p, {"R": [HUGE]}) == ErrorOutcome("OverflowError")
    assert effects.may_raise(p.body)


def test_an_unused_sum_with_a_float_start_is_not_dropped_as_harmless() -> None:
    """An unused let still runs (strict driver): on R = [10**400] the left raises OverflowError in PySpark,
    the right returns 1. Expected: not ``equivalent``. Actual: ``equivalent`` (AggOne), because simplify
    drops the let as one that cannot raise."""
    left = (f"program p(R: Bag[Int]) =\n  let u = count(map({SUM_FLOAT_START})(R))\n"
            "  count(R)\n")
    right = "program p(R: Bag[Int]) =\n  count(R)\n"
    assert check(left, right, timeout=20, replay=False).verdict != "equivalent"  # actual: equivalent


def test_simplify_drop_reorders_an_overflow_before_the_jobs_error() -> None:
    """The dropped ``collect(X)`` raised ValueError on "x" (partition 1); without it the body's map raises
    OverflowError on partition 0 first. Simplify trusts ``may_raise`` of the body's function, which misses
    the OverflowError. Expected: same outcome before/after simplify (ValueError). Actual: the simplified
    program raises OverflowError (today: the interpreter crashes on it)."""
    parse_ = "map(lambda (s: Str) -> int(s))(R)"
    src = (f"program p(R: Bag[Str]) =\n  let job = collect({parse_})\n"
           f"  (map(lambda (x: Int) -> sum([x], 0.5) > 0.0)({parse_}),)\n")
    p = desugar(_program(src))
    s = simplify(p)
    parts = {"R": [["1" * 400], ["x"]]}
    assert _outcome(p, {}, parts) == ErrorOutcome("ValueError")
    assert _outcome(s, {}, parts) == _outcome(p, {}, parts)


# -- str() type-directed: holds right -------------------------------------------------------------------


def test_str_of_containers_holding_an_int_still_may_raise() -> None:
    for t in (OptionType(INT), DictType(STR, INT), DictType(INT, FLOAT), TupleType((FLOAT, OptionType(INT)))):
        assert holds_int(t)
        assert raises("str", [t]) == BUILTINS["str"].raises
    assert raises("str", [None]) == BUILTINS["str"].raises  # unknown type: the table's answer


def test_a_float_typed_value_holds_at_most_the_int_zero() -> None:
    """``sum`` of an empty Float list is the int 0 (prints ``0``, not ``0.0``), but never a big int:
    ``str`` of it never raises, and the two spellings are told apart."""
    def prog(extra: str) -> str:
        return ("program p(R: Bag[Str]) =\n  collect(map(lambda (s: Str) -> "
                f"str(sum([1.5 for y: Str in str.split(s, \",\") if y == \"z\"]{extra})))(R))\n")
    left, right = prog(","), prog(", 0.0")
    assert run(_program(left), {"R": ["a"]}) != run(_program(right), {"R": ["a"]})
    assert check(left, right, timeout=20, replay=False).verdict != "equivalent"


# -- simplify: the recomputed collect -------------------------------------------------------------------


PARSE = "map(lambda (s: Str) -> 10 // int(s))(R)"  # ValueError on "x", ZeroDivisionError on "0"


def _same_outcomes(src: str) -> list[str]:
    p = desugar(_program(src))
    s = simplify(p)
    lines = ["1", "x", "0", "2"]
    for n in range(len(lines) + 1):
        for perm in itertools.permutations(lines, n):
            for cut in range(n + 1):
                parts = {"R": [list(perm[:cut]), list(perm[cut:])]}
                assert run(s, {}, parts) == run(p, {}, parts), (src, parts)
    return [b.name for b in s.lets]


def test_a_collect_is_kept_when_the_body_stops_early() -> None:
    for part in (f"first({PARSE})", f"take(1)({PARSE})",
                 f"takeOrdered(1)(map(lambda (x: Int) -> x + 1)({PARSE}))"):
        src = f"program p(R: Bag[Str]) =\n  let job = collect({PARSE})\n  ({part},)\n"
        assert _same_outcomes(src) == ["job"]


def test_a_collect_is_kept_when_a_later_sortby_samples_a_raising_source() -> None:
    """sortBy over two partitions runs a sampling job when the let is built (driver_may_raise)."""
    src = (f"program p(R: Bag[Str]) =\n  let job = collect({PARSE})\n"
           "  let c = sortBy(lambda (x: Int) -> x)(map(lambda (s: Str) -> len(s) // (len(s) - 1))(R))\n"
           f"  (map(lambda (x: Int) -> x > 0)({PARSE}), c)\n")
    assert _same_outcomes(src) == ["job", "c"]


def test_a_collect_recomputed_through_distinct_or_union_is_kept() -> None:
    for part in (f"distinct({PARSE})", f"union(map(lambda (s: Str) -> 1)(R), {PARSE})",
                 f"sortBy(lambda (x: Int) -> x)({PARSE})"):
        src = f"program p(R: Bag[Str]) =\n  let job = collect({PARSE})\n  ({part},)\n"
        assert _same_outcomes(src) == ["job"]


def test_a_collect_recomputed_whole_is_dropped_with_the_same_outcomes() -> None:
    src = (f"program p(R: Bag[Str]) =\n  let job = collect({PARSE})\n"
           "  let n = count(R)\n"
           f"  (n, filter(lambda (x: Int) -> x > 0)(flatMap(lambda (x: Int) -> (x, x))({PARSE})))\n")
    assert _same_outcomes(src) == ["n"]


# -- the shared-subprogram view --------------------------------------------------------------------------


def _avg_src(tail: str) -> str:
    return ("program p(R: Bag[Str], S: Bag[Str]) =\n"
            "  def parse(line: Str): (Str, Int) = (py.getitem(str.split(line, \",\"), 0), "
            "int(py.getitem(str.split(line, \",\"), 1)))\n"
            f"  {tail}\n")


GROUPED = "groupByKey(sum, len)(map(parse)(R))"
AVG = f"map(lambda (kv: (Str, (Int, Int))) -> (kv[0], kv[1][0] / kv[1][1]))({GROUPED})"


def test_the_view_refuses_raising_code_after_a_cartesian_with_the_shared_input() -> None:
    """cartesian(S', P) never opens P when S' is empty: P's parse error may never be raised."""
    left = kernel(_program(_avg_src(
        f"(collect(map(lambda (e: (Str, Float)) -> e[1] > 0.0)({AVG})),)")))
    right = kernel(_program(_avg_src(
        "(collect(map(lambda (e: (Str, Float)) -> e[1] > 0.0)("
        "map(lambda (kv: (Str, (Int, Int))) -> (kv[0], kv[1][0] / kv[1][1]))("
        "groupByKey(sum, len)(map(lambda (e: (Str, (Str, Int))) -> e[1])("
        "cartesian(S, map(parse)(R))))))),)")))
    assert abstraction.abstract_shared(left, right) is None


def test_the_view_refuses_raising_code_reading_the_shared_input_without_a_shuffle() -> None:
    """A raising map pipelined with the parse interleaves its errors with the parse's."""
    left = kernel(_program(_avg_src(f"(count(S), collect({AVG}))")))
    right = kernel(_program(_avg_src(
        f"(count(map(lambda (kv: (Str, Int)) -> 10 // kv[1])(map(parse)(R))), collect({AVG}))")))
    assert abstraction.abstract_shared(left, right) is None
    parts = {"R": [["a,0"], ["b"]], "S": [[]]}
    assert run(left, {}, parts) == ErrorOutcome("IndexError")
    assert run(right, {}, parts) == ErrorOutcome("ZeroDivisionError")
