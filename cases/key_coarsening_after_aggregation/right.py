"""Coarser keys first, then per-key sums: keys 0 and 1 are merged into one bucket."""

from operator import add

from pyspark import RDD


def halve_before(pairs: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    return pairs.map(lambda kv: (kv[0] // 2, kv[1])).reduceByKey(add)
