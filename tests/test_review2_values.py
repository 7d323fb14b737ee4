"""Second adversarial review of strings, floats, None/options, lists, dict and ordered results.

``WRONG`` pairs were once proved ``equivalent`` although the reference interpreter shows different
outcomes on the input and partitioning given (``take(0)`` of a sorted bag that may raise; fixed in the
Ordered method). ``HELD`` pairs are attacks the verifier withstood: the interpreter tells
the programs apart, and the verdict is not ``equivalent``. ``PROVED`` pairs are truly equivalent (the
interpreter agrees on the sample inputs) and must never be refuted.
"""

from __future__ import annotations

import pytest

from sparklite.interpreter import run
from sparklite.parser import parse
from sparklite.values import outcomes_equal
from verifier.api import check

NAN = float("nan")


def prog(params: str, body: str):
    return parse(f"program P({params}) =\n{body}\n")


KV = "R: Bag[(Int, Int)]"
TEXT = "L: Bag[Str], p: Str, n: Int"
OJ = "A: Bag[(Int, Int)], B: Bag[(Int, Int)]"
AB = "A: Bag[Int], B: Bag[Int]"
BY_KEY_DIV = "map(lambda kv -> (kv[0], 10 // kv[1]))(reduceByKey(lambda (a, b) -> a + b)(R))"
BY_KEY_DIV2 = "map(lambda kv -> (kv[0], 10 // kv[1]))(reduceByKey(lambda (a, b) -> b + a)(R))"
TWO_PARTS = {"R": (((1, 0),), ((2, 1),))}

# (params, left, right, inputs, partitions)
WRONG = {
    # take(0) of a sortBy runs a sampling job over the (raising) bag when it has more than one partition;
    # takeOrdered(0)/top(0) never reads it. Ordered accepts the pair because the bags were proved equal
    # by the by-key method with open hazards ("both raise ZeroDivisionError on the same buckets").
    "take0_sortby_vs_takeordered0_raising_by_key_bag": (
        KV, f"take(0)(sortBy(lambda kv -> kv[0])({BY_KEY_DIV}))",
        f"takeOrdered(0, lambda kv -> kv[0])({BY_KEY_DIV2})", {"R": [(1, 0), (2, 1)]}, TWO_PARTS),
    "take0_sortby_vs_takeordered0_same_bag": (
        KV, f"take(0)(sortBy(lambda kv -> kv[0])({BY_KEY_DIV}))",
        f"takeOrdered(0, lambda kv -> kv[0])({BY_KEY_DIV})", {"R": [(1, 0), (2, 1)]}, TWO_PARTS),
    "take0_sortby_descending_vs_top0": (
        KV, f"take(0)(sortBy(lambda kv -> kv[0], descending)({BY_KEY_DIV}))",
        f"top(0, lambda kv -> kv[0])({BY_KEY_DIV2})", {"R": [(1, 0), (2, 1)]}, TWO_PARTS),
    # issue 26: on an RDD with no partition (an empty text file) top and countByValue raise ValueError,
    # takeOrdered and collectAsMap do not (seen on Spark 4); these two were listed as true equivalences
    "top_vs_take_ordered_of_the_negated_key": (
        KV, "top(2, lambda x -> x[0])(R)", "takeOrdered(2, lambda x -> -x[0])(R)", {"R": []}, {"R": ()}),
    "count_by_value_vs_collect_as_map_of_counts": (
        AB, "countByValue(A)",
        "collectAsMap(map(lambda kv -> (kv[0], kv[1]))(reduceByKey(lambda (a, b) -> a + b)"
        "(map(lambda x -> (x, 1))(A))))", {"A": [], "B": []}, {"A": (), "B": ((),)}),
}

HELD = {
    # -- ordered results
    "take0_sortby_vs_takeordered0_raising_map": (
        "R: Bag[Int]", "take(0)(sortBy(lambda x -> x)(map(lambda x -> 1 // x)(R)))",
        "takeOrdered(0)(map(lambda x -> 1 // x)(R))", {"R": [0, 1]}, {"R": ((0,), (1,))}),
    "sort_key_getitem_vs_slice": (
        TEXT, "sortBy(lambda s -> py.getitem(s, 0))(L)", "sortBy(lambda s -> py.slice(s, 0, 1))(L)",
        {"L": ["", "a"], "p": "", "n": 0}, None),
    "sort_key_reads_a_negative_scalar": (
        "R: Bag[Int], n: Int", "sortBy(lambda x -> x * n)(R)", "sortBy(lambda x -> x)(R)",
        {"R": [1, 2], "n": -1}, None),
    "sort_key_upper_vs_lower": (
        TEXT, "sortBy(lambda s -> str.upper(s))(L)", "sortBy(lambda s -> str.lower(s))(L)",
        {"L": ["a", "_"], "p": "", "n": 0}, None),
    # the same bug as WRONG with IndexError: today random testing finds this one before Ordered proves it
    "take0_sortby_vs_top0_index_error_after_by_key": (
        KV, "take(0)(sortBy(lambda kv -> kv[0])(map(lambda kv -> (kv[0], py.getitem('abc', kv[1])))"
        "(reduceByKey(lambda (a, b) -> a + b)(R))))",
        "top(0, lambda kv -> kv[0])(map(lambda kv -> (kv[0], py.getitem('abc', kv[1])))"
        "(reduceByKey(lambda (a, b) -> a + b)(R)))", {"R": [(1, 5), (2, 1)]}, {"R": (((1, 5),), ((2, 1),))}),
    "take0_sortby_union_changes_partition_count": (
        KV, "take(0)(sortBy(lambda kv -> kv[0])"
            f"(union({BY_KEY_DIV}, filter(lambda kv -> false)({BY_KEY_DIV}))))",
        f"take(0)(sortBy(lambda kv -> kv[0])({BY_KEY_DIV}))", {"R": [(1, 0)]}, None),
    # -- floats: max is order-dependent with NaN and -0.0
    "reduce_max_swapped_nan": (
        "R: Bag[Float]", "reduce(lambda (a, b) -> max(a, b))(R)", "reduce(lambda (a, b) -> max(b, a))(R)",
        {"R": [NAN, 1.0]}, None),
    "str_of_max_with_minus_zero": (
        "R: Bag[Float]", "map(lambda x -> str(max(x, 0.0)))(R)", "map(lambda x -> str(max(0.0, x)))(R)",
        {"R": [-0.0]}, None),
    "reduce_by_key_max_minus_zero_then_str": (
        "R: Bag[(Str, Float)]",
        "map(lambda kv -> (kv[0], str(kv[1])))(reduceByKey(lambda (a, b) -> max(a, b))(R))",
        "map(lambda kv -> (kv[0], str(kv[1])))(reduceByKey(lambda (a, b) -> max(b, a))(R))",
        {"R": [("a", 0.0), ("a", -0.0)]}, None),
    "str_of_x_plus_zero": (
        "R: Bag[Float]", "map(lambda x -> str(x + 0.0))"
            "(R)", "map(lambda x -> str(x))(R)", {"R": [-0.0]}, None),
    # -- int / int and float(n) of big ints
    "int_true_division_vs_float_division": (
        "R: Bag[Int]", "map(lambda n -> n / 3)(R)", "map(lambda n -> float(n) / 3.0)(R)",
        {"R": [2 ** 53 + 1]}, None),
    "int_of_float_of_big_int": (
        "R: Bag[Int]", "map(lambda n -> int(float(n)))"
            "(R)", "map(lambda n -> n)(R)", {"R": [2 ** 53 + 1]}, None),
    "float_of_big_int_equals_it": (
        "R: Bag[Int]", "filter(lambda n -> float(n) == n)(R)", "R", {"R": [2 ** 53 + 1]}, None),
    "big_int_halved_vs_times_half": (
        "R: Bag[Int]", "map(lambda n -> n / 2)(R)", "map(lambda n -> float(n) * 0.5)(R)",
        {"R": [2 ** 1024 + 2 ** 1000]}, None),
    # -- strings
    "split_with_an_empty_computed_separator": (
        TEXT, "map(lambda s -> 1)(L)", "map(lambda s -> len(str.split(s, p)) * 0 + 1)(L)",
        {"L": ["a"], "p": "", "n": 0}, None),
    "word_count_split_vs_split_space": (
        "L: Bag[Str]",
        "reduceByKey(lambda (a, b) -> a + b)(map(lambda w -> (w, 1))(flatMap(lambda s -> str.split(s))(L)))",
        "reduceByKey(lambda (a, b) -> a + b)(flatMap(lambda s -> [(w, 1) for w in str.split(s, ' ')])(L))",
        {"L": [" a "]}, None),
    "flatmap_upper_of_string_vs_upper_of_chars": (
        "L: Bag[Str]", "flatMap(lambda s -> str.upper(s))(L)", "flatMap(lambda s -> [str.upper(c) for c in "
            "s])(L)",
        {"L": ["\u00df"]}, None),
    "literal_beyond_the_solvers_alphabet": (
        TEXT, "filter(lambda s -> s == '\\U00030000')(L)", "filter(lambda s -> false)(L)",
        {"L": ["\U00030000"], "p": "", "n": 0}, None),
    "in_with_a_character_beyond_the_alphabet": (
        TEXT, "filter(lambda s -> '\\U00030000' in s)(L)", "filter(lambda s -> false)(L)",
        {"L": ["\U00030000"], "p": "", "n": 0}, None),
    "one_character_strings_beyond_the_alphabet": (
        TEXT, "filter(lambda s -> len(s) == 1 and s != 'a' and s != 'b')(L)", "filter(lambda s -> false)(L)",
        {"L": ["\U00030000"], "p": "", "n": 0}, None),
    "negative_index_of_an_empty_string": (
        TEXT, "map(lambda s -> py.getitem(s, -1))(L)", "map(lambda s -> py.slice(s, len(s) - 1, len(s)))(L)",
        {"L": [""], "p": "", "n": 0}, None),
    "index_below_minus_length": (
        TEXT, "map(lambda s -> py.getitem(s, n))(L)", "map(lambda s -> py.getitem(s, n + len(s)))(L)",
        {"L": ["abc"], "p": "", "n": -4}, None),
    "negative_slice_start": (
        TEXT, "map(lambda s -> py.slice(s, n, 3))(L)", "map(lambda s -> py.slice(s, max(n, 0), 3))(L)",
        {"L": ["abc"], "p": "", "n": -1}, None),
    "fold_concat_vs_reversed_concat": (
        "L: Bag[Str]", "fold('', lambda (a, b) -> a + b)(L)", "fold('', lambda (a, b) -> b + a)(L)",
        {"L": ["a", "b"]}, None),
    "reduce_by_key_concat_vs_reversed": (
        "R: Bag[(Int, Str)]", "reduceByKey(lambda (a, b) -> a + b)"
            "(R)", "reduceByKey(lambda (a, b) -> b + a)(R)",
        {"R": [(1, "a"), (1, "b")]}, None),
    # -- flatMap of variable length (#index)
    "flatmap_two_copies_vs_one": (
        "R: Bag[Int]", "count(flatMap(lambda x -> [x, x])(R))", "count(flatMap(lambda x -> [x])(R))",
        {"R": [0]}, None),
    # -- outer joins and options
    "outer_join_other_side_filtered": (
        OJ, "leftOuterJoin(A, B)", "leftOuterJoin(A, filter(lambda kv -> kv[1] > 0)(B))",
        {"A": [(1, 1)], "B": [(1, -1)]}, None),
    "outer_join_other_side_rekeyed": (
        OJ, "map(lambda kv -> kv[1][0])(leftOuterJoin(A, B))",
        "map(lambda kv -> kv[1][0])(leftOuterJoin(A, map(lambda kv -> (kv[0] + 1, 0))(B)))",
        {"A": [(1, 1)], "B": [(1, 5), (1, 3)]}, None),
    "outer_join_then_by_key_count": (
        OJ, "reduceByKey(lambda (a, b) -> a + b)(map(lambda kv -> (kv[0], 1))(leftOuterJoin(A, B)))",
        "reduceByKey(lambda (a, b) -> a + b)(map(lambda kv -> (kv[0], 1))(A))",
        {"A": [(1, 1)], "B": [(1, 5), (1, 3)]}, None),
    "option_result_vs_plain_result": (
        OJ, "map(lambda kv -> kv[1][1])(leftOuterJoin(A, B))", "map(lambda kv -> kv[1][1])(join(A, B))",
        {"A": [(1, 1)], "B": []}, None),
    # -- dictionary results
    "collect_as_map_of_a_union_in_either_order": (
        OJ, "collectAsMap(union(A, B))", "collectAsMap(union(B, A))", {"A": [(1, 1)], "B": [(1, 2)]}, None),
    "collect_as_map_with_duplicate_keys_filtered": (
        OJ, "collectAsMap(filter(lambda kv -> kv[1] > 0)(A))", "collectAsMap(A)",
        {"A": [(1, 1), (1, -2)], "B": []}, None),
    "count_by_value_vs_max_by_key": (
        AB, "countByValue(A)",
        "collectAsMap(map(lambda kv -> (kv[0], kv[1]))(reduceByKey(lambda (a, b) -> max(a, b))"
        "(map(lambda x -> (x, 1))(A))))", {"A": [1, 1], "B": []}, None),
}

PROVED = {
    "flatmap_string_vs_comprehension": ("L: Bag[Str]", "flatMap(lambda s -> s)(L)",
                                        "flatMap(lambda s -> [c for c in s])(L)"),
    "flatmap_filter_vs_comprehension_condition": (
        "L: Bag[Str]", "filter(lambda c -> c != 'a')(flatMap(lambda s -> s)(L))",
        "flatMap(lambda s -> [c for c in s if c != 'a'])(L)"),
    "word_count_two_ways": (
        "L: Bag[Str]",
        "reduceByKey(lambda (a, b) -> a + b)(map(lambda w -> (w, 1))(flatMap(lambda s -> str.split(s))(L)))",
        "reduceByKey(lambda (a, b) -> a + b)(flatMap(lambda s -> [(w, 1) for w in str.split(s)])(L))"),
    "full_outer_join_swapped": (
        OJ, "fullOuterJoin(A, B)", "map(lambda kv -> (kv[0], (kv[1][1], kv[1][0])))(fullOuterJoin(B, A))"),
    "startswith_vs_prefix_slice": (
        TEXT, "filter(lambda s -> str.startswith(s, p))(L)", "filter(lambda s -> py.slice(s, 0, len(p)) == "
            "p)(L)"),
    "last_character_two_ways": (
        TEXT, "map(lambda s -> py.getitem(s, -1))(filter(lambda s -> len(s) > 0)(L))",
        "map(lambda s -> py.slice(s, len(s) - 1, len(s)))(filter(lambda s -> len(s) > 0)(L))"),
}

SAMPLES = {
    "L": [[], ["a b", " a ", "\u00df", "", "ab"], ["\U00030000", "x,y", "a"]],
    "R": [[], [(1, 2), (1, -3), (0, 5)], [(2, 2), (-1, 0)]],
    "A": [[], [1, 1, 2], [(1, 1), (2, 2)]],
}


@pytest.mark.parametrize("name", sorted(WRONG))
def test_once_wrongly_proved(name: str) -> None:
    # Ordered proved take(0)(sortBy(...)) equal to takeOrdered(0)/top(0) over a bag the by-key method
    # proved equal with open hazards; sortBy samples (forces) the bag when it has several partitions
    _refuted_or_unknown(WRONG[name], name)


@pytest.mark.parametrize("name", sorted(HELD))
def test_attack_held(name: str) -> None:
    _refuted_or_unknown(HELD[name], name)


def _refuted_or_unknown(case: tuple, name: str) -> None:
    params, left_src, right_src, inputs, partitions = case
    left, right = prog(params, left_src), prog(params, right_src)
    assert not outcomes_equal(run(left, inputs, partitions), run(right, inputs, partitions)), \
        "the pair no longer shows the difference it was written for"
    result = check(left, right, replay=False, timeout=30)
    assert result.verdict != "equivalent", f"{name}: {result.explanation}"


@pytest.mark.parametrize("name", sorted(PROVED))
def test_true_equivalence_not_refuted(name: str) -> None:
    params, left_src, right_src = PROVED[name]
    left, right = prog(params, left_src), prog(params, right_src)
    names = [p.name for p in left.params]
    for i in range(3):
        inputs = {}
        for n in names:
            if n in ("p",):
                inputs[n] = ["", "a", " "][i]
            elif n == "n":
                inputs[n] = [0, -1, 2][i]
            elif n == "B":
                inputs[n] = [[], [(1, 7)], [(3, 3), (1, 0)]][i]
            else:
                inputs[n] = SAMPLES[n][i] if n != "A" or "Bag[Int]" in params.split(",")[0] else \
                    [[], [(1, 1), (2, 2)], [(2, 5)]][i]
        if "A: Bag[Int]" in params:
            inputs["A"] = [[], [1, 1, 2], [3]][i]
            inputs["B"] = [[], [2], [1]][i]
        assert outcomes_equal(run(left, inputs, None), run(right, inputs, None)), (name, inputs)
    assert check(left, right, replay=False, timeout=30).verdict != "not_equivalent"
