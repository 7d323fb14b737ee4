"""The three steps that let script mode prove ``avg_per_key_two_ways`` (cases/scripts/manifest.json):

- ``str()`` may raise only for values holding an int (``int_max_str_digits``): type-directed, in the one
  notion of "may raise" (``sparklite.builtins.raises``, asked by ``sparklite.effects``);
- an unused strict ``collect(X)`` is dropped by ``simplify`` when the body computes ``X`` again, whole and
  first;
- the shared-subprogram proof view (``verifier.core.abstraction``) shares subprograms calling defs whose
  bodies are alpha-equivalent, and accepts other raising code that runs only after a shuffle has
  computed the shared (raising) input whole.
"""

from __future__ import annotations

import pytest

from sparklite import ast as A
from sparklite import effects
from sparklite.builtins import BUILTINS, ProgramError, holds_int, raises
from sparklite.interpreter import run
from sparklite.parser import parse
from sparklite.simplify import simplify
from sparklite.typecheck import TypeCheckError, typecheck
from sparklite.types import BOOL, FLOAT, INT, STR, ListType, OptionType, TupleType
from verifier import check
from verifier.core import abstraction

# -- str() is type-directed ---------------------------------------------------------------------------


def _lam(t, body: A.Expr) -> A.Lambda:
    return A.Lambda((A.Param("e", t),), body)


STR_OF_E1 = A.Call("str", (A.Proj(A.Var("e"), 1),))


def test_str_of_a_float_a_bool_a_str_never_raises() -> None:
    for t in (FLOAT, BOOL, STR, TupleType((STR, FLOAT)), ListType(FLOAT), OptionType(STR)):
        assert not holds_int(t)
        assert raises("str", [t]) == frozenset()
    assert not effects.may_raise(_lam(TupleType((STR, FLOAT)), STR_OF_E1))
    assert not effects.may_raise(_lam(TupleType((STR, FLOAT)), A.Call("str", (A.Var("e"),))))


def test_str_of_an_int_still_may_raise() -> None:
    nested = TupleType((FLOAT, TupleType((INT,))))
    for t in (INT, TupleType((STR, INT)), ListType(INT), OptionType(INT), nested):
        assert raises("str", [t]) == BUILTINS["str"].raises
    assert effects.may_raise(_lam(TupleType((STR, INT)), STR_OF_E1))
    assert effects.may_raise(_lam(TupleType((STR, INT)), A.Call("str", (A.Var("e"),))))  # repr of the int
    # and it really does: Python refuses to print an int of more than 4300 digits
    with pytest.raises(ProgramError):
        BUILTINS["str"].impl(10 ** 5000)
    with pytest.raises(ProgramError):
        BUILTINS["str"].impl(("a", 10 ** 5000))


def test_str_of_an_argument_of_unknown_type_may_raise() -> None:
    assert effects.may_raise(_lam(None, STR_OF_E1))
    # an outer typed name hidden by an untyped parameter of the same name is unknown again
    inner = A.Lambda((A.Param("e"),), STR_OF_E1)
    outer = A.Lambda((A.Param("e", TupleType((STR, FLOAT))),), A.Apply(inner, (A.Var("e"),)))
    assert effects.may_raise(outer)
    assert effects.may_raise(A.Call("str", (A.Var("x"),)))  # a name of unknown type


def test_a_float_typed_value_never_holds_an_int_from_a_sum_start() -> None:
    src = "program p(R: Bag[Int]) =\n  map(lambda (x: Int) -> sum([1.5], x))(R)\n"
    with pytest.raises(TypeCheckError):
        typecheck(parse(src))


# -- simplify: the loop's strict collect --------------------------------------------------------------


PARSE = "map(lambda (s: Str) -> int(s))(R)"


def _program(body_fn: str, extra_let: str = "") -> str:
    return (f"program p(R: Bag[Str]) =\n  let job = collect({PARSE})\n{extra_let}"
            f"  (map({body_fn})({PARSE}),)\n")


def _same_outcomes(src: str) -> None:
    program = typecheck(parse(src)).program
    simple = simplify(program)
    for lines in (["1", "x"], ["x", "1"], ["0", "y", "2"], ["3"]):
        for cut in range(len(lines) + 1):
            parts = {"R": [lines[:cut], lines[cut:]]}
            assert run(simple, {}, parts) == run(program, {}, parts), (src, parts)


def test_a_strict_collect_recomputed_first_by_the_body_is_dropped() -> None:
    src = _program("lambda (x: Int) -> str(x > 0) + \"!\"")
    assert [b.name for b in simplify(typecheck(parse(src)).program).lets] == []
    _same_outcomes(src)


def test_the_collect_stays_when_the_body_may_raise_first() -> None:
    src = _program("lambda (x: Int) -> 10 // x")  # on ["0", "y"] the job raises ValueError first
    assert [b.name for b in simplify(typecheck(parse(src)).program).lets] == ["job"]
    _same_outcomes(src)
    src = _program("lambda (x: Int) -> str(x)")  # str() of an int may raise
    assert [b.name for b in simplify(typecheck(parse(src)).program).lets] == ["job"]


def test_the_collect_stays_when_a_later_let_may_raise() -> None:
    src = _program("lambda (x: Int) -> x > 0", "  let m = max(map(lambda (s: Str) -> len(s))(R))\n")
    assert [b.name for b in simplify(typecheck(parse(src)).program).lets] == ["job", "m"]
    _same_outcomes(src)


def test_the_collect_stays_when_the_body_computes_something_else() -> None:
    src = ("program p(R: Bag[Str]) =\n  let job = collect(" + PARSE + ")\n"
           "  (map(lambda (s: Str) -> len(s))(R),)\n")
    assert [b.name for b in simplify(typecheck(parse(src)).program).lets] == ["job"]


# -- the shared-subprogram view -------------------------------------------------------------------------


def _avg(parse_name: str, field: int, agg: str) -> A.Program:
    parse_def = (f"  def {parse_name}(line: Str): (Str, Int) = (py.getitem(str.split(line, \",\"), 0), "
                 f"int(py.getitem(str.split(line, \",\"), {field})))\n")
    parsed = f"map({parse_name})(R)"
    if agg == "reduce":
        grouped = ("map(lambda (kv: (Str, (Int, Int))) -> (kv[0], kv[1][0] / kv[1][1]))("
                   "reduceByKey(lambda (a: (Int, Int), b: (Int, Int)) -> (a[0] + b[0], a[1] + b[1]))("
                   f"map(lambda (kv: (Str, Int)) -> (kv[0], (kv[1], 1)))({parsed})))")
    else:
        grouped = ("map(lambda (kv: (Str, (Int, Int))) -> (kv[0], kv[1][0] / kv[1][1]))("
                   f"groupByKey(sum, len)({parsed}))")
    src = (f"program p(R: Bag[Str]) =\n{parse_def}"
           f"  (map(lambda (e: (Str, Float)) -> str(e[0]) + \" \" + str(e[1]))({grouped}),)\n")
    from verifier.core.kinds.rdd import kernel

    return kernel(typecheck(parse(src)).program)


def test_a_def_with_the_same_body_under_another_name_is_shared() -> None:
    view = abstraction.abstract_shared(_avg("parse", 1, "reduce"), _avg("parse_line", 1, "group"))
    assert view is not None
    names, left, right = view
    assert names == ["map(parse)(R)"]
    assert [p.name for p in left.params] == ["R", "shared_0"] == [p.name for p in right.params]


def test_a_def_with_a_different_body_is_not_shared() -> None:
    assert abstraction.abstract_shared(_avg("parse", 1, "reduce"), _avg("parse", 2, "group")) is None


def test_defs_calling_different_defs_are_not_shared() -> None:
    def prog(k: int) -> A.Program:
        src = ("program p(R: Bag[Str]) =\n"
               f"  def field(line: Str): Str = py.getitem(str.split(line, \",\"), {k})\n"
               "  def parse(line: Str): (Str, Int) = (field(line), 1)\n"
               "  count(map(parse)(R))\n")
        return typecheck(parse(src)).program
    left_tokens, right_tokens = abstraction._def_tokens(prog(0), prog(1), {"R": None})
    assert left_tokens["parse"] != right_tokens["parse"]
    left_tokens, right_tokens = abstraction._def_tokens(prog(0), prog(0), {"R": None})
    assert left_tokens == right_tokens


def test_two_raising_shared_subprograms_are_not_abstracted() -> None:
    """Which of the two a program forces first decides its error: left raises ValueError and right
    ZeroDivisionError on R = ["x"], S = [""], though both views compute count(s0) + count(s1)."""
    s1 = "map(lambda (l: Str) -> int(str.strip(l)))(R)"
    s2 = "map(lambda (l: Str) -> 10 // len(str.strip(l)))(S)"
    def prog(first: str, second: str) -> A.Program:
        src = (f"program p(R: Bag[Str], S: Bag[Str]) =\n  let a = count({first})\n  let b = count({second})\n"
               "  a + b\n")
        return typecheck(parse(src)).program
    left, right = prog(s1, s2), prog(s2, s1)
    inputs = {"R": ["x"], "S": [""]}
    assert run(left, inputs) != run(right, inputs)
    assert abstraction.abstract_shared(left, right) is None


def test_raising_code_before_the_shuffle_keeps_the_view_out() -> None:
    """A division in a map *before* the aggregation may raise before the parse has run on every line."""
    left = _avg("parse", 1, "group")
    src = ("program p(R: Bag[Str]) =\n"
           "  def parse(line: Str): (Str, Int) = (py.getitem(str.split(line, \",\"), 0), "
           "int(py.getitem(str.split(line, \",\"), 1)))\n"
           "  (map(lambda (e: (Str, Float)) -> str(e[0]) + \" \" + str(e[1]))("
           "map(lambda (kv: (Str, (Int, Int))) -> (kv[0], kv[1][0] / kv[1][1]))("
           "groupByKey(sum, len)(map(lambda (kv: (Str, Int)) -> (kv[0], 10 // kv[1]))(map(parse)(R))))),)\n")
    from verifier.core.kinds.rdd import kernel

    right = kernel(typecheck(parse(src)).program)
    assert abstraction.abstract_shared(left, right) is None
    # and the two differ by which error comes first
    parts = {"R": [["a,0"], ["b"]]}
    assert run(left, {}, parts) != run(right, {}, parts)


# -- end to end -----------------------------------------------------------------------------------------


def test_the_scripts_are_proved_equivalent() -> None:
    r = check("cases/scripts/avg_per_key_reduce.py", "cases/scripts/avg_per_key_group.py", replay=False)
    assert r.verdict == "equivalent" and r.method == "AggOneK"
    assert "map(parse)" in (r.explanation or "")


def test_a_script_printing_an_int_sum_with_a_different_parse_is_not_proved(tmp_path) -> None:
    left = open("cases/scripts/avg_per_key_reduce.py").read()
    right = left.replace("int(fields[1])", "int(fields[1]) + 0 * len(fields[2])")
    path = tmp_path / "other.py"
    path.write_text(right)
    r = check("cases/scripts/avg_per_key_reduce.py", str(path), replay=False)
    assert r.verdict != "equivalent"

