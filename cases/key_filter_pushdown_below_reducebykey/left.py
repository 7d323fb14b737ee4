"""Aggregate, then keep even keys."""

from operator import add

from pyspark import RDD


def late(pairs: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    return pairs.reduceByKey(add).filter(lambda kv: kv[0] % 2 == 0)
