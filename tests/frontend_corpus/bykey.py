"""By-key aggregations, groupByKey with whole-group functions, joins, cartesian, union, distinct."""

from operator import add

from pyspark import RDD


def p_reduce_by_key(S: RDD[tuple[int, int]]):
    return S.reduceByKey(add)


def p_fold_by_key_one(S: RDD[tuple[int, int]]):
    return S.foldByKey(1, add)


def p_aggregate_by_key(S: RDD[tuple[int, int]]):
    return S.aggregateByKey(0, lambda acc, v: acc + v * v, lambda a, b: a + b)


def p_combine_by_key(S: RDD[tuple[int, int]]):
    return S.combineByKey(lambda v: (v, 1), lambda c, v: (c[0] + v, c[1] + 1),
                          lambda a, b: (a[0] + b[0], a[1] + b[1]))


def p_group_sum(S: RDD[tuple[int, int]]):
    return S.groupByKey().mapValues(sum)


def p_group_len(S: RDD[tuple[int, int]]):
    return S.groupByKey().mapValues(len).filter(lambda kv: kv[1] > 1 and kv[0] >= 0)


def p_group_avg(S: RDD[tuple[int, int]]):
    return S.groupByKey().mapValues(lambda vs: sum(vs) // len(vs))


def p_group_range(S: RDD[tuple[int, int]]):
    return S.groupByKey().mapValues(lambda vs: (max(vs) - min(vs), len(vs)))


def p_map_values(S: RDD[tuple[int, int]]):
    return S.mapValues(lambda v: v * 10).keys().union(S.values())


def p_join(S: RDD[tuple[int, int]], T: RDD[tuple[int, int]]):
    return S.join(T).map(lambda kv: (kv[0], kv[1][0] - kv[1][1]))


def p_cartesian(R: RDD[int], Q: RDD[int]):
    return R.cartesian(Q).filter(lambda p: p[0] < p[1])


def p_union_distinct(R: RDD[int], Q: RDD[int]):
    return R.union(Q).map(lambda x: x % 3).distinct()


def p_word_count_style(R: RDD[int]):
    return R.map(lambda x: (x % 3, 1)).reduceByKey(lambda a, b: a + b)


def p_key_then_fold(S: RDD[tuple[int, int]]):
    counts = S.reduceByKey(add)
    best = counts.values().fold(0, max)
    return counts, best


def p_join_inferred(S, T):
    return S.join(T).map(lambda kv: (kv[0] % 2, kv[1][0] * kv[1][1])).reduceByKey(add)


def avg_pair(kv):
    k, vs = kv
    return (k, sum(vs) // len(vs))


def p_group_map_styles(S: RDD[tuple[int, int]]):
    a = S.groupByKey().map(lambda x: (x[0], sum(x[1])))
    b = S.groupByKey().map(avg_pair)
    return a, b, S.groupByKey().map(lambda kv: kv[0] * 10 + max(kv[1]))


def p_key_by(R: RDD[int]):
    return R.keyBy(lambda x: x % 3).reduceByKey(lambda a, b: a - b)


def p_mapvalues_keeps_partitioning(S: RDD[tuple[int, int]], T: RDD[tuple[int, int]]):
    # mapValues keeps reduceByKey's hash partitioning, so the union lines partitions up pairwise and
    # fold(1, add) counts fewer partitions than after a plain map.
    a = S.reduceByKey(add).mapValues(lambda v: v + 1)
    return a.union(T.reduceByKey(add)).values().fold(1, add)


def p_map_drops_partitioning(S: RDD[tuple[int, int]], T: RDD[tuple[int, int]]):
    a = S.reduceByKey(add).map(lambda kv: (kv[0], kv[1] + 1))
    return a.union(T.reduceByKey(add)).values().fold(1, add)
