"""flatMap with literal results, RDD helper functions, and tuple results mixing RDDs and values."""

from operator import add

from pyspark import RDD


def both(x):
    return [x, -x]


def evens(rdd):
    return rdd.filter(lambda x: x % 2 == 0)


def totals(rdd):
    return rdd.fold(0, add)


def p_flatmap_list(R: RDD[int]):
    return R.flatMap(both)


def p_flatmap_tuple_branches(R: RDD[int]):
    return R.flatMap(lambda x: (x, x + 1) if x > 0 else (0, x))


def p_flatmap_pairs(S: RDD[tuple[int, int]]):
    return S.flatMap(lambda kv: [(kv[0], 1), (kv[1], 1)]).reduceByKey(add)


def p_rdd_helper(R: RDD[int]):
    e = evens(R)
    return e, totals(e)


def p_tuple_result(R: RDD[int], S: RDD[tuple[int, int]]):
    n = R.count()
    return S.keys(), n, R.distinct()


def p_cached(R: RDD[int]):
    r = R.map(lambda x: x + 1).cache()
    return r.sum() + r.count()
