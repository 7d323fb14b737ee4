"""Per-key sum, then plus one: agrees only while every key sits in one partition."""

from operator import add

from pyspark import RDD


def reduce_then_inc(pairs: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    return pairs.reduceByKey(add).mapValues(lambda s: s + 1)
