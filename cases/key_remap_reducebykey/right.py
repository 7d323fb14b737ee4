"""Shift the keys, then aggregate: buckets are the same because the shift is injective."""

from operator import add

from pyspark import RDD


def shift_before(pairs: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    return pairs.map(lambda kv: (kv[0] + 100, kv[1])).reduceByKey(add)
