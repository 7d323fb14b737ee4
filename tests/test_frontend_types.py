"""Types from annotations and from inference (unification over the translated program)."""

from __future__ import annotations

import pytest

from frontend import translate_source
from sparklite.errors import AnnotationNeededError, TypeCheckError, UnsupportedError
from sparklite.interpreter import run
from sparklite.types import BOOL, FLOAT, INT, STR, BagType, ListType, OptionType, TupleType
from sparklite.values import Bag

PAIR = TupleType((INT, INT))


def types(source: str, function: str | None = None) -> dict[str, object]:
    program = translate_source(source, function)
    return {p.name: p.type for p in program.params}


@pytest.mark.parametrize("annotation,expected", [
    ("RDD[int]", BagType(INT)),
    ("RDD[tuple[int, int]]", BagType(PAIR)),
    ("RDD[tuple[int, tuple[int, int]]]", BagType(TupleType((INT, PAIR)))),
    ("pyspark.RDD[tuple[bool, int]]", BagType(TupleType((BOOL, INT)))),
    ("RDD[typing.Tuple[int, int]]", BagType(PAIR)),
    ("'RDD[Tuple[int, bool]]'", BagType(TupleType((INT, BOOL)))),
    ("RDD[str]", BagType(STR)),
    ("RDD[tuple[str, float]]", BagType(TupleType((STR, FLOAT)))),
    ("RDD[Optional[int]]", BagType(OptionType(INT))),
    ("RDD[typing.Optional[str]]", BagType(OptionType(STR))),
    ("RDD[int | None]", BagType(OptionType(INT))),
    ("'RDD[list[str]]'", BagType(ListType(STR))),
    ("RDD[List[tuple[str, int]]]", BagType(ListType(TupleType((STR, INT))))),
])
def test_annotations(annotation: str, expected: object) -> None:
    src = (f"def p(R: {annotation}, n: int, b: bool, t: 'tuple[int, int]'):\n"
           "    return R.distinct(), n, b, t\n")
    assert types(src) == {"R": expected, "n": INT, "b": BOOL, "t": PAIR}


def test_inference_from_arithmetic_indexing_and_keyed_ops() -> None:
    src = ("from operator import add\n"
           "def total(vw):\n    v, w = vw\n    return v + w\n"
           "def p(R, S, T, k):\n"
           "    a = R.map(lambda x: x * k)\n"
           "    b = S.reduceByKey(add).filter(lambda kv: kv[0] > 0)\n"
           "    c = T.mapValues(total).filter(lambda t: t[0] > 0)\n"
           "    return a, b, c\n")
    assert types(src) == {"R": BagType(INT), "S": BagType(PAIR), "k": INT,
                          "T": BagType(TupleType((INT, PAIR)))}


def test_inference_through_helpers_and_unpacking() -> None:
    src = ("def f(pair):\n    (k, v), w = pair\n    return k + v - w\n\n"
           "def p(R):\n    return R.map(f)\n")
    assert types(src) == {"R": BagType(TupleType((PAIR, INT)))}


def test_bool_elements_inferred_from_use_as_condition_and_comparison() -> None:
    src = "def p(R):\n    return R.filter(lambda kv: kv[1] == (kv[0] > 0)).keys()\n"
    assert types(src) == {"R": BagType(TupleType((INT, BOOL)))}


def test_local_lambda_used_at_two_types_gets_fresh_types() -> None:
    src = ("def p(R: 'RDD[int]', S: 'RDD[tuple[int, int]]'):\n"
           "    ident = lambda x: x\n"
           "    return R.map(ident), S.map(ident)\n")
    program = translate_source(src)
    assert run(program, {"R": [1], "S": [(1, 2)]}) == (Bag.of([1]), Bag.of([(1, 2)]))


def test_named_helper_is_monomorphic() -> None:
    src = ("def ident(x):\n    return x\n\n"
           "def p(R: 'RDD[int]', S: 'RDD[tuple[int, int]]'):\n    return R.map(ident), S.map(ident)\n")
    with pytest.raises(TypeCheckError):
        translate_source(src)


@pytest.mark.parametrize("source,message", [
    ("def p(R):\n    return R.count()\n", "R: RDD[int]"),
    ("def p(R):\n    return R.distinct()\n", "R: RDD[int]"),
    ("def p(R):\n    return R.keys().map(lambda k: k + 1)\n", "R: RDD[tuple[int, int]]"),
    ("def p(R: 'RDD[int]', t):\n    return R\n", "t: int"),
    ("def p(R):\n    return R.filter(lambda x: x)\n", "R: RDD[int]"),
])
def test_annotation_needed(source: str, message: str) -> None:
    with pytest.raises(AnnotationNeededError) as info:
        translate_source(source, filename="a.py")
    assert message in str(info.value)
    assert info.value.loc is not None and info.value.loc.line == 1


def test_bool_as_int_is_faithful() -> None:
    src = "def p(R: 'RDD[bool]'):\n    return R.map(lambda b: b + 1), R.filter(lambda b: b).count()\n"
    program = translate_source(src)
    assert run(program, {"R": [True, False]}) == (Bag.of([2, 1]), 1)


@pytest.mark.parametrize("annotation", ["RDD[set[int]]", "RDD[dict[str, int]]", "RDD[int | str]",
                                        "Optional[Optional[int]]", "RDD[tuple[int, ...]]"])
def test_unsupported_annotation(annotation: str) -> None:
    with pytest.raises(UnsupportedError):
        translate_source(f"def p(R: '{annotation}'):\n    return R\n")


def test_inference_of_strings_and_floats() -> None:
    src = ("def p(R, S, sep, T: 'RDD[tuple[str, Optional[int]]]'):\n"
           "    words = R.flatMap(lambda line: line.split(sep))\n"
           "    halves = S.map(lambda x: x / 2 + 0.5)\n"
           "    return words, halves, T.filter(lambda kv: kv[1] is not None).mapValues(lambda v: v + 1)\n")
    assert types(src)["R"] == BagType(STR)
    assert types(src)["sep"] == STR
    assert types(src)["S"] == BagType(INT)  # used as a number only: an int, as before strings and floats


def test_float_inputs_keep_float_arithmetic() -> None:
    src = "def p(R: 'RDD[float]'):\n    return R.map(lambda x: x * 2 + 1)\n"
    program = translate_source(src)
    result = run(program, {"R": [1.5, 2.0]})
    assert result == Bag.of([4.0, 5.0]) and all(type(x) is float for x in result.items)


def test_outer_join_values_are_optional() -> None:
    src = ("def p(S: 'RDD[tuple[int, str]]', T: 'RDD[tuple[int, float]]'):\n"
           "    return S.fullOuterJoin(T)\n")
    program = translate_source(src)
    from sparklite.typecheck import typecheck

    result = typecheck(program).result
    assert result == BagType(TupleType((INT, TupleType((OptionType(STR), OptionType(FLOAT))))))


@pytest.mark.parametrize("source,message", [
    ("def p(R):\n    return R.map(lambda x: len(x))\n", "R: RDD[str]"),
    ("def p(R):\n    return R.sortBy(lambda x: x)\n", "R: RDD[int]"),
    ("def p(R):\n    return R.map(lambda x: x[1:])\n", "R: RDD[str]"),
])
def test_annotation_needed_for_new_types(source: str, message: str) -> None:
    with pytest.raises(AnnotationNeededError) as info:
        translate_source(source, filename="a.py")
    assert message in str(info.value)
