"""Strings, floats, None, lists and ordered results in the kernel, the interpreter and the verifier.

Programs are built as SparkLite ASTs (the Python frontend's translations have their own tests), so each
test pins one part: the interpreter's Python/PySpark semantics, the encoder's theories (Z3 strings,
IEEE doubles, shared uninterpreted functions) and the proof views (dict results, shared subprograms).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from sparklite import ast as A
from sparklite.interpreter import run
from sparklite.strhash import str_hash_seed0
from sparklite.typecheck import typecheck
from sparklite.types import FLOAT, INT, STR, BagType, OptionType, TupleType
from sparklite.values import Bag, DictValue, ErrorOutcome, Sorted, outcomes_equal
from verifier.api import check

V = A.Var


def lam(names: str, body: A.Expr) -> A.Lambda:
    return A.Lambda(tuple(A.Param(n) for n in names.split()), body)


def T(*xs: A.Expr) -> A.TupleExpr:  # noqa: N802
    return A.TupleExpr(xs)


def P(e: A.Expr, i: int) -> A.Proj:  # noqa: N802
    return A.Proj(e, i)


def prog(params: dict, body: A.Expr, lets: tuple = ()) -> A.Program:
    return A.Program("p", tuple(A.Param(n, t) for n, t in params.items()), (), lets, body)


LINES = {"lines": BagType(STR)}
ADD = lam("a b", A.BinOp("+", V("a"), V("b")))
WORDS = A.FlatMap(lam("l", A.Call("str.split", (V("l"),))), V("lines"))
PAIRS = A.Map(lam("w", T(V("w"), A.IntLit(1))), WORDS)


# -- interpreter ---------------------------------------------------------------------------------------


def test_string_hash_is_the_workers_seed_zero_hash() -> None:
    words = ["", "a", "word count", "é", "日本語", "😀x", "a" * 40]
    code = "import sys; print([hash(w) for w in sys.argv[1:]])"
    env = dict(os.environ, PYTHONHASHSEED="0")
    out = subprocess.run([sys.executable, "-c", code, *words], env=env, capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == str([str_hash_seed0(w) for w in words])


def test_split_int_and_unpack_raise_as_python_does() -> None:
    parse = lam("l", A.Call("int", (A.Call("py.getitem", (A.Call("str.split", (V("l"), A.StrLit(","))),
                                                          A.IntLit(1))),)))
    p = prog(LINES, A.SimpleAgg("sum", A.Map(parse, V("lines"))))
    assert run(p, {"lines": ["a,1", "b, 2 "]}) == 3  # int() strips whitespace
    assert run(p, {"lines": ["a,x"]}) == ErrorOutcome("ValueError")
    assert run(p, {"lines": ["a"]}) == ErrorOutcome("IndexError")
    unpack = lam("l", A.Call("py.unpack", (A.Call("str.split", (V("l"), A.StrLit(","))), A.IntLit(2))))
    q = prog(LINES, A.Map(unpack, V("lines")))
    assert run(q, {"lines": ["a,b"]}) == Bag((("a", "b"),))
    assert run(q, {"lines": ["a,b,c"]}) == ErrorOutcome("ValueError")


def test_floats_observed_by_representation_nan_equal_to_itself_signed_zeros_apart() -> None:
    # outputs are values as Spark returns them: -0.0 prints and saves as "-0.0" (issue 26)
    assert outcomes_equal(float("nan"), float("nan"))
    assert not outcomes_equal(0.0, -0.0)
    assert outcomes_equal(-0.0, -0.0)
    assert not outcomes_equal(1, 1.0)
    p = prog({"xs": BagType(FLOAT)}, A.Map(lam("x", A.BinOp("/", V("x"), A.FloatLit(0.0))), V("xs")))
    assert run(p, {"xs": [1.0]}) == ErrorOutcome("ZeroDivisionError")
    q = prog({"n": INT}, A.BinOp("/", V("n"), A.IntLit(1)))
    assert run(q, {"n": 10 ** 400}) == ErrorOutcome("OverflowError")


def test_left_outer_join_gives_none_on_the_missing_side() -> None:
    kv = BagType(TupleType((STR, INT)))
    p = prog({"a": kv, "b": kv}, A.OuterJoin("left", V("a"), V("b")))
    assert typecheck(p).result == BagType(TupleType((STR, TupleType((INT, OptionType(INT))))))
    out = run(p, {"a": [("k", 1), ("m", 2)], "b": [("k", 3)]})
    assert out == Bag.of([("k", (1, 3)), ("m", (2, None))])


def test_sorted_results_are_exact_sequences_with_ties_in_input_order() -> None:
    # PySpark's sorts are stable: equal keys come out in input order (seen on local[2] Spark,
    # docs/semantics-notes.md), so the observation is the exact sequence
    kv = BagType(TupleType((STR, INT)))
    p = prog({"r": kv}, A.SortBy(lam("kv", P(V("kv"), 1)), True, V("r")))
    out = run(p, {"r": [("b", 2), ("a", 1), ("c", 1)]})
    assert out == Sorted((Bag((("a", 1),)), Bag((("c", 1),)), Bag((("b", 2),))))
    # the same elements in another order: the tie comes out the other way round
    other = run(p, {}, {"r": ((("c", 1),), (("b", 2), ("a", 1)))})
    assert other == Sorted((Bag((("c", 1),)), Bag((("a", 1),)), Bag((("b", 2),))))
    assert not outcomes_equal(other, out)
    top = prog({"r": kv}, A.TakeOrdered(A.IntLit(1), lam("kv", P(V("kv"), 1)), V("r")))
    assert run(top, {"r": [("b", 2), ("a", 1), ("c", 1)]}) == Bag((("a", 1),))
    assert run(top, {"r": [("b", 2), ("c", 1), ("a", 1)]}) == Bag((("c", 1),))


def test_take_pulls_only_the_elements_it_needs() -> None:
    boom = prog({"xs": BagType(INT)}, A.Take(A.IntLit(1), A.Map(lam("x", A.BinOp("//", A.IntLit(1), V("x"))),
                                                               V("xs"))))
    # PySpark's take scans the first partition and stops: the zero in the second is never divided by
    assert run(boom, {}, {"xs": ((1,), (0,))}) == Bag((1,))
    assert run(boom, {}, {"xs": ((0,), (1,))}) == ErrorOutcome("ZeroDivisionError")
    first = prog({"xs": BagType(INT)}, A.First(V("xs")))
    assert run(first, {"xs": []}) == ErrorOutcome("ValueError")


def test_count_by_value_is_a_dict() -> None:
    p = prog(LINES, A.CountByValue(WORDS))
    assert run(p, {"lines": ["a b a", ""]}) == DictValue((("a", 2), ("b", 1)))


# -- verifier ------------------------------------------------------------------------------------------


def _verdict(left: A.Program, right: A.Program) -> tuple[str, str]:
    r = check(left, right, replay=False, timeout=60)
    return r.verdict, (r.explanation or r.reason or "")


def test_word_count_two_ways_is_proved() -> None:
    left = prog(LINES, A.ReduceByKey(ADD, PAIRS))
    right = prog(LINES, A.CombineByKey(lam("v", V("v")), ADD, ADD, PAIRS))
    verdict, why = _verdict(left, right)
    assert verdict == "equivalent", why


def test_a_shared_subprogram_the_encoder_cannot_read_is_taken_as_an_input() -> None:
    # distinct words: multiplicities collapse, which program terms do not express; both programs share it
    distinct_pairs = A.Map(lam("w", T(V("w"), A.IntLit(1))), A.Distinct(WORDS))
    left = prog(LINES, A.ReduceByKey(ADD, distinct_pairs))
    right = prog(LINES, A.CombineByKey(lam("v", V("v")), ADD, ADD, distinct_pairs))
    verdict, why = _verdict(left, right)
    assert verdict == "equivalent", why
    assert "taken as an input" in why


def test_count_by_value_against_collect_as_map_differs_only_without_partitions() -> None:
    """Equal dicts on every RDD with partitions, but countByValue raises ValueError on one with none (an
    empty text file, issue 26), where collectAsMap gives {}: refuted there. Two countByValues of the
    same words are still proved through the dict-as-bag view."""
    left = prog(LINES, V("d"), (A.LetBinding("d", A.CollectAsMap(A.ReduceByKey(ADD, PAIRS))),))
    right = prog(LINES, V("d"), (A.LetBinding("d", A.CountByValue(WORDS)),))
    r = check(left, right, replay=False, timeout=60)
    assert r.verdict == "not_equivalent", r.reason
    assert r.counterexample is not None and r.counterexample.partitions == {"lines": []}
    kept = A.Filter(lam("w", A.BoolLit(True)), WORDS)
    same = prog(LINES, V("d"), (A.LetBinding("d", A.CountByValue(kept)),))
    verdict, why = _verdict(same, right)
    assert verdict == "equivalent", why
    assert "dictionary results" in why


def test_word_count_with_another_separator_is_refuted_by_a_concrete_input() -> None:
    comma = A.FlatMap(lam("l", A.Call("str.split", (V("l"), A.StrLit(",")))), V("lines"))
    left = prog(LINES, A.ReduceByKey(ADD, PAIRS))
    right = prog(LINES, A.ReduceByKey(ADD, A.Map(lam("w", T(V("w"), A.IntLit(1))), comma)))
    r = check(left, right, replay=False, timeout=60)
    assert r.verdict == "not_equivalent"
    inputs = r.counterexample.inputs
    assert not outcomes_equal(run(left, inputs), run(right, inputs))


def _avg(form: str) -> A.Program:
    sales = {"sales": BagType(TupleType((STR, INT)))}
    comb = lam("a b", T(A.BinOp("+", P(V("a"), 0), P(V("b"), 0)), A.BinOp("+", P(V("a"), 1), P(V("b"), 1))))
    seq = lam("c v", T(A.BinOp("+", P(V("c"), 0), V("v")), A.BinOp("+", P(V("c"), 1), A.IntLit(1))))
    pairs = A.Map(lam("kv", T(P(V("kv"), 0), T(P(V("kv"), 1), A.IntLit(1)))), V("sales"))
    sums = {
        "reduce": lambda: A.ReduceByKey(comb, pairs),
        "aggregate": lambda: A.AggregateByKey(T(A.IntLit(0), A.IntLit(0)), seq, comb, V("sales")),
        "combine": lambda: A.CombineByKey(lam("v", T(V("v"), A.IntLit(1))), seq, comb, V("sales")),
        "fold": lambda: A.FoldByKey(T(A.IntLit(0), A.IntLit(0)), comb, pairs),
        "group": lambda: A.GroupByKeyAgg(("sum", "len"), V("sales")),
    }[form]()
    div = lam("kv", T(P(V("kv"), 0), A.BinOp("/", P(P(V("kv"), 1), 0), P(P(V("kv"), 1), 1))))
    return prog(sales, A.Map(div, sums, preserves_partitioning=True))


@pytest.mark.parametrize("a,b", [("reduce", "aggregate"), ("aggregate", "combine"), ("combine", "fold"),
                                 ("fold", "group"), ("group", "reduce")])
def test_the_five_float_averages_per_key_are_proved(a: str, b: str) -> None:
    verdict, why = _verdict(_avg(a), _avg(b))
    assert verdict == "equivalent", why
    assert "OverflowError" in why  # both raise it on the same keys, which the proof says


def test_floats_are_doubles_not_reals() -> None:
    t3 = {"xs": BagType(TupleType((FLOAT, FLOAT, FLOAT)))}
    left = prog(t3, A.Map(lam("t", A.BinOp("+", A.BinOp("+", P(V("t"), 0), P(V("t"), 1)), P(V("t"), 2))),
                          V("xs")))
    right = prog(t3, A.Map(lam("t", A.BinOp("+", P(V("t"), 0), A.BinOp("+", P(V("t"), 1), P(V("t"), 2)))),
                           V("xs")))
    r = check(left, right, replay=False, timeout=60)
    assert r.verdict == "not_equivalent"
    assert r.counterexample.left != r.counterexample.right  # the interpreter's outputs (JSON forms)
    xs = {"xs": BagType(FLOAT)}
    double = prog(xs, A.Map(lam("x", A.BinOp("*", V("x"), A.FloatLit(2.0))), V("xs")))
    twice = prog(xs, A.Map(lam("x", A.BinOp("+", V("x"), V("x"))), V("xs")))
    assert _verdict(double, twice)[0] == "equivalent"


def test_string_theory_proves_startswith_as_a_slice_and_refutes_indexing() -> None:
    starts = prog(LINES, A.Filter(lam("l", A.Call("str.startswith", (V("l"), A.StrLit("#")))), V("lines")))
    head = A.Call("py.slice", (V("l"), A.NoneLit(), A.IntLit(1)))
    sliced = prog(LINES, A.Filter(lam("l", A.BinOp("==", head, A.StrLit("#"))), V("lines")))
    indexed = prog(LINES, A.Filter(lam("l", A.BinOp("==", A.Call("py.getitem", (V("l"), A.IntLit(0))),
                                                   A.StrLit("#"))), V("lines")))
    assert _verdict(starts, sliced)[0] == "equivalent"
    r = check(starts, indexed, replay=False, timeout=60)
    assert r.verdict == "not_equivalent"
    assert "" in r.counterexample.inputs["lines"]  # the empty line: IndexError on one side only


def test_a_float_fold_is_reported_partition_dependent_with_a_witness() -> None:
    xs = {"xs": BagType(FLOAT)}
    fold = prog(xs, A.Fold(A.FloatLit(0.0), ADD, V("xs")))
    driver = prog(xs, A.Call("sum", (A.Collect(V("xs")),)))
    r = check(fold, driver, replay=False, timeout=60)
    assert r.verdict == "not_equivalent"
    assert any("depends on partitioning" in w for w in r.warnings), r.warnings
    assert r.counterexample.partitions  # shown, since LEFT depends on partitioning
    # outputs as JSON: the empty input already differs (0.0 from the fold, the int 0 from sum([]))
    assert json.dumps(r.counterexample.left) != json.dumps(r.counterexample.right)


def test_top_n_written_three_ways_is_proved_and_a_wrong_direction_refuted() -> None:
    kv = {"r": BagType(TupleType((STR, INT)))}
    neg = lam("kv", A.Neg(P(V("kv"), 1)))
    val = lam("kv", P(V("kv"), 1))
    ordered = prog(kv, A.TakeOrdered(A.IntLit(3), neg, V("r")))
    sorted_take = prog(kv, A.Take(A.IntLit(3), A.SortBy(val, False, V("r"))))
    top = prog(kv, A.TakeOrdered(A.IntLit(3), val, V("r"), top=True))
    verdict, why = _verdict(ordered, sorted_take)
    assert verdict == "equivalent", why
    # top raises ValueError on an RDD with no partition, takeOrdered does not (issue 26)
    assert _verdict(ordered, top)[0] == "not_equivalent"
    # top against top raises alike; with a key that ties only equal elements the order of ties cannot
    # show, so a different (but order-keeping) bag expression is proved too (issue 26, ties)
    kept = A.Filter(lam("kv", A.BoolLit(True)), V("r"))
    whole = lam("kv", V("kv"))
    top_whole = prog(kv, A.TakeOrdered(A.IntLit(3), whole, V("r"), top=True))
    top_again = prog(kv, A.TakeOrdered(A.IntLit(3), whole, kept, top=True))
    verdict, why = _verdict(top_whole, top_again)
    assert verdict == "equivalent", why
    ascending = prog(kv, A.Take(A.IntLit(3), A.SortBy(val, True, V("r"))))
    assert _verdict(ordered, ascending)[0] == "not_equivalent"


def test_a_join_and_its_left_outer_join_form() -> None:
    kv = BagType(TupleType((STR, INT)))
    params = {"a": kv, "b": kv}
    second = P(P(V("kv"), 1), 1)
    loj = A.OuterJoin("left", V("a"), V("b"))
    kept = A.Filter(lam("kv", A.Not(A.Call("py.is_none", (second,)))), loj)
    unwrap = lam("kv", T(P(V("kv"), 0), T(P(P(V("kv"), 1), 0), A.Call("py.unwrap", (second,)))))
    join = prog(params, A.Join(V("a"), V("b")))
    assert _verdict(join, prog(params, A.Map(unwrap, kept)))[0] == "equivalent"
    # without the filter, an unmatched key meets None: TypeError on one side only
    r = check(join, prog(params, A.Map(unwrap, loj)), replay=False, timeout=60)
    assert r.verdict == "not_equivalent"
    assert r.counterexample.right == {"error": "TypeError"}
    # leftOuterJoin(a, b) is rightOuterJoin(b, a) with the sides swapped
    swap = lam("kv", T(P(V("kv"), 0), T(P(P(V("kv"), 1), 1), P(P(V("kv"), 1), 0))))
    roj = prog(params, A.Map(swap, A.OuterJoin("right", V("b"), V("a"))))
    assert _verdict(prog(params, loj), roj)[0] == "equivalent"


def test_float_keys_are_not_grouped_by_the_prover() -> None:
    # Spark groups 0.0 with -0.0 and never groups NaN: the prover leaves float keys alone
    kv = {"r": BagType(TupleType((FLOAT, INT)))}
    from verifier.api import kernel
    from verifier.methods import by_key
    from verifier.methods.base import NotApplicable, Options, Pair

    left = prog(kv, A.ReduceByKey(ADD, V("r")))
    right = prog(kv, A.GroupByKeyAgg(("sum",), V("r")))
    outcome = by_key.run(Pair(kernel(typecheck(left).program), kernel(typecheck(right).program)), Options())
    assert isinstance(outcome, NotApplicable)
    assert "keys holding floats" in outcome.reason


def test_flat_map_of_any_length_is_read_position_by_position() -> None:
    split = A.Call("str.split", (V("l"),))
    one = lam("w", T(V("w"), A.IntLit(1)))
    not_the = lam("w", A.BinOp("!=", V("w"), A.StrLit("the")))
    mapped = prog(LINES, A.ReduceByKey(ADD, A.Map(one, A.Filter(not_the, A.FlatMap(lam("l", split),
                                                                                   V("lines"))))))
    comprehension = prog(LINES, A.ReduceByKey(ADD, A.FlatMap(lam("l", A.ListComp(one, split, not_the)),
                                                             V("lines"))))
    verdict, why = _verdict(mapped, comprehension)
    assert verdict == "equivalent", why
    chars = prog(LINES, A.FlatMap(lam("s", V("s")), V("lines")))
    chars_listed = prog(LINES, A.FlatMap(lam("s", A.ListComp(lam("c", V("c")), V("s"))), V("lines")))
    assert _verdict(chars, chars_listed)[0] == "equivalent"
    unfiltered = prog(LINES, A.ReduceByKey(ADD, A.FlatMap(lam("l", A.ListComp(one, split)), V("lines"))))
    assert _verdict(unfiltered, comprehension)[0] == "not_equivalent"
