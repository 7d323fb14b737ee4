"""Aggregate, then shift the keys."""

from operator import add

from pyspark import RDD


def shift_after(pairs: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    return pairs.reduceByKey(add).map(lambda kv: (kv[0] + 100, kv[1]))
