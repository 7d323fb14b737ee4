"""Strings, floats, None and ordered results: word counts, CSV parsing, averages, outer joins, top-N,
sorted and collected results, dictionaries of counts."""

import math
from math import sqrt
from operator import add

from pyspark import RDD

LINES = ["the cat", "the dog  sat", "", "a cat", "Dog", " the end "]
CSV = ["a,1", "b,2", "a,3", "c,10", "b,-4", " a , 5"]
BAD_CSV = [*CSV, "a,x", "b", "c,1,2"]
PRICES = ["a,1.5", "b,2.25", "a,0.1", "c,-3.0", "b,4", "a,1e3"]
DNA = ["ACGT", "AAC", "", "GGT", "TTA"]
SEP = ","
THRESHOLD = 1.5
HALF = 1 / 2

SAMPLES = {
    "p_word_count": {"lines": LINES},
    "p_word_count_lower": {"lines": LINES},
    "p_word_lengths": {"lines": LINES},
    "p_csv_ints": {"lines": CSV},
    "p_csv_bad_lines": {"lines": BAD_CSV},
    "p_csv_comprehension": {"lines": ["1,2,3", "4", "5,6", "-1,0"]},
    "p_csv_comprehension_bad": {"lines": ["1,2,3", "4", "5,,6", "x"]},
    "p_prices": {"lines": PRICES},
    "p_dna_list": {"seqs": DNA},
    "p_dna_chars": {"seqs": DNA},
    "p_dna_count_by_value": {"seqs": DNA},
    "p_top_words": {"lines": LINES},
    "p_first_word": {"lines": LINES},
    "p_words_sorted": {"lines": LINES},
    "p_labels": {"lines": CSV},
    "p_flat_map_values": {"docs": [(1, "a b"), (2, ""), (1, "c"), (3, "a a")]},
    "p_key_by_length": {"words": ["a", "bb", "cc", "d", ""]},
    "p_string_slices": {"words": ["hello", "a", "", "xy", "abc"]},
    "p_string_tests": {"words": ["apple", "banana", "", "Avocado", "cab"]},
}


def p_word_count(lines: RDD[str]):
    return lines.flatMap(lambda line: line.split()).map(lambda w: (w, 1)).reduceByKey(add)


def p_word_count_lower(lines: RDD[str]):
    words = lines.flatMap(lambda line: line.lower().split(" ")).filter(lambda w: w != "")
    return words.map(lambda w: (w, 1)).reduceByKey(lambda a, b: a + b).filter(lambda kv: kv[1] > 1)


def p_word_lengths(lines: RDD[str]):
    return lines.flatMap(lambda line: [len(w) for w in line.split() if w]).sum()


def parse_pair(line):
    name, qty = line.split(SEP)
    return (name.strip(), int(qty))


def p_csv_ints(lines: RDD[str]):
    return lines.map(parse_pair).reduceByKey(add)


def p_csv_bad_lines(lines: RDD[str]):
    # "a,x" raises ValueError in int(), "b" and "c,1,2" in the unpacking
    return lines.map(parse_pair).reduceByKey(add).count()


def p_csv_comprehension(lines: RDD[str]):
    return lines.map(lambda line: sum([int(x) for x in line.split(",")]))


def p_csv_comprehension_bad(lines: RDD[str]):
    return lines.map(lambda line: [int(x) for x in line.split(",") if x != "6"]).map(len)


def parse_price(line):
    parts = line.split(",")
    return parts[0], float(parts[1])


def p_prices(lines: RDD[str]):
    prices = lines.map(parse_price)
    return prices.filter(lambda kv: kv[1] > THRESHOLD).mapValues(lambda p: round(p * 1.1, 2))


# --- average per key, five ways ----------------------------------------------------------------


def p_avg_reduce_by_key(S: RDD[tuple[str, float]]):
    sums = S.mapValues(lambda v: (v, 1)).reduceByKey(lambda a, b: (a[0] + b[0], a[1] + b[1]))
    return sums.mapValues(lambda s: s[0] / s[1])


def p_avg_aggregate_by_key(S: RDD[tuple[str, int]]):
    sums = S.aggregateByKey((0, 0), lambda acc, v: (acc[0] + v, acc[1] + 1),
                            lambda a, b: (a[0] + b[0], a[1] + b[1]))
    return sums.mapValues(lambda s: s[0] / s[1])


def p_avg_combine_by_key(S: RDD[tuple[str, float]]):
    sums = S.combineByKey(lambda v: (v, 1), lambda c, v: (c[0] + v, c[1] + 1),
                          lambda a, b: (a[0] + b[0], a[1] + b[1]))
    return sums.map(lambda kv: (kv[0], kv[1][0] / kv[1][1]))


def p_avg_group_by_key(S: RDD[tuple[str, int]]):
    return S.groupByKey().mapValues(lambda vs: sum(vs) / len(vs))


def p_avg_fold_by_key(S: RDD[tuple[str, float]]):
    sums = S.mapValues(lambda v: (v, 1)).foldByKey((0.0, 0), lambda a, b: (a[0] + b[0], a[1] + b[1]))
    return sums.mapValues(lambda s: s[0] / s[1])


# --- DNA base counts ---------------------------------------------------------------------------


def p_dna_list(seqs: RDD[str]):
    return seqs.flatMap(list).map(lambda b: (b, 1)).reduceByKey(add)


def p_dna_chars(seqs: RDD[str]):
    return seqs.flatMap(lambda s: s).filter(lambda b: b in "GC").count()


def p_dna_count_by_value(seqs: RDD[str]):
    return seqs.flatMap(lambda s: s).countByValue()


# --- ordered results ---------------------------------------------------------------------------


def p_top_words(lines: RDD[str]):
    counts = lines.flatMap(lambda line: line.split()).map(lambda w: (w, 1)).reduceByKey(add)
    return counts.takeOrdered(2, key=lambda kv: -kv[1]), counts.top(2, key=lambda kv: kv[1])


def p_top_numbers(R: RDD[int]):
    best = R.top(3)
    return best, R.takeOrdered(2), R.take(2)


def p_top_first_element(R: RDD[int]):
    best = R.top(2)
    return best[0] - best[-1]


def p_sort_by_collect(S: RDD[tuple[str, int]]):
    return S.sortBy(lambda kv: kv[1], ascending=False).collect()


def p_sort_by_key(S: RDD[tuple[int, str]]):
    return S.sortByKey(False).map(lambda kv: kv[1])


def p_sorted_collect(R: RDD[float]):
    xs = sorted(R.collect())
    return xs, len(xs)


def p_collect_used(R: RDD[int]):
    xs = R.map(lambda x: x * x).collect()
    return max(xs) - min(xs) if xs else -1


def p_first_word(lines: RDD[str]):
    # empty input: first() raises ValueError
    return lines.filter(lambda line: "cat" in line).first()


def p_first_of_empty(R: RDD[int]):
    return R.filter(lambda x: x > 100).first()


def p_words_sorted(lines: RDD[str]):
    return lines.flatMap(lambda line: line.split()).distinct().sortBy(lambda w: w).take(3)


# --- joins with None ---------------------------------------------------------------------------


def p_join_names(names: RDD[tuple[int, str]], orders: RDD[tuple[int, float]]):
    return names.join(orders).map(lambda kv: (kv[1][0], kv[1][1])).reduceByKey(add)


def p_left_outer_join_names(names: RDD[tuple[int, str]], orders: RDD[tuple[int, float]]):
    joined = names.leftOuterJoin(orders)
    return joined.map(lambda kv: (kv[1][0], kv[1][1] if kv[1][1] is not None else 0.0)).reduceByKey(add)


def p_left_outer_join_raw(S: RDD[tuple[int, int]], T: RDD[tuple[int, str]]):
    return S.leftOuterJoin(T)


def p_full_outer_join(S: RDD[tuple[int, int]], T: RDD[tuple[int, int]]):
    def total(kv):
        k, (a, b) = kv
        if a is None:
            return (k, b)
        if b is None:
            return (k, a)
        return (k, a + b)
    return S.fullOuterJoin(T).map(total)


def p_right_outer_join_missing(S: RDD[tuple[int, int]], T: RDD[tuple[int, int]]):
    return S.rightOuterJoin(T).filter(lambda kv: kv[1][0] is None).keys().distinct()


def p_outer_join_unchecked(S: RDD[tuple[int, int]], T: RDD[tuple[int, int]]):
    # None + 1 raises TypeError when a key of S is missing in T
    return S.leftOuterJoin(T).mapValues(lambda vw: vw[1] + 1)


def p_optional_values(R: RDD[int]):
    opt = R.map(lambda x: None if x < 0 else x)
    return opt.filter(lambda v: v is not None).map(lambda v: v * 2), opt.filter(lambda v: v is None).count()


# --- dictionaries and sets ---------------------------------------------------------------------


def p_count_by_value(R: RDD[str]):
    return R.countByValue()


def p_count_by_key(S: RDD[tuple[str, int]]):
    return S.countByKey()


def p_collect_as_map(S: RDD[tuple[int, str]]):
    return S.reduceByKey(lambda a, b: a + b).collectAsMap()


def p_subtract_intersection(R: RDD[str], Q: RDD[str]):
    return R.subtract(Q), R.intersection(Q)


# --- string and float UDFs ---------------------------------------------------------------------


def p_labels(lines: RDD[str]):
    return lines.map(parse_pair).map(lambda kv: f"{kv[0]}={kv[1]}")


def p_flat_map_values(docs: RDD[tuple[int, str]]):
    return docs.flatMapValues(lambda text: text.split()).map(lambda kv: (kv[1], kv[0])).groupByKey() \
        .mapValues(sorted)


def p_key_by_length(words: RDD[str]):
    return words.keyBy(len).groupByKey().mapValues(len)


def p_group_lists(S: RDD[tuple[int, str]]):
    return S.groupByKey().mapValues(list)


def p_string_slices(words: RDD[str]):
    return words.filter(lambda w: len(w) > 0).map(lambda w: (w[0], w[-1], w[1:3], w[:2].upper()))


def p_string_tests(words: RDD[str]):
    return words.map(lambda w: (w.startswith("a") or w.endswith("b"), "an" in w, w.replace("a", "o"),
                                w.strip().lower()))


def p_index_error(words: RDD[str]):
    return words.map(lambda w: w[2])


def p_float_math(R: RDD[float]):
    return R.map(lambda x: (math.floor(x), math.ceil(x), int(x), round(x), abs(x) + HALF))


def p_float_sqrt(R: RDD[float]):
    # sqrt of a negative number raises ValueError
    return R.map(lambda x: sqrt(x) if x >= 0 else -sqrt(-x)).map(lambda y: round(y, 3)).sum()


def p_mixed_arithmetic(R: RDD[int]):
    return R.map(lambda x: x * 0.5 + 1).filter(lambda y: y < 2 * THRESHOLD).map(lambda y: y / 2)


def p_int_division(R: RDD[int]):
    return R.map(lambda x: 10 / x)


def p_nan_and_inf(R: RDD[float]):
    big = float("inf")
    return R.map(lambda x: x * big).filter(lambda y: y == y).map(lambda y: y > 0), float("nan") != 0


def p_str_of_numbers(R: RDD[int]):
    return R.map(lambda x: str(x) + "!" if x % 2 == 0 else f"odd {x}").map(lambda s: len(s))


def p_float_keys_by_bucket(R: RDD[float]):
    return R.map(lambda x: (math.floor(x), x)).reduceByKey(max).sortByKey().collect()


def p_unpack_in_def(S: RDD[str]):
    def parse(line):
        a, b = line.split(" ")
        return b + a
    return S.map(parse)


SAMPLES["p_unpack_in_def"] = {"S": ["x y", "a b", "ab", "c d e", "1 2"]}
SAMPLES["p_index_error"] = {"words": ["abc", "hello", "ab", "xyz"]}
SAMPLES["p_count_by_value"] = {"R": ["a", "b", "a", "c"]}
