"""Smallest value per key, then keep keys whose smallest value is positive."""

from pyspark import RDD


def late(pairs: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    return pairs.reduceByKey(min).filter(lambda kv: kv[1] > 0)
