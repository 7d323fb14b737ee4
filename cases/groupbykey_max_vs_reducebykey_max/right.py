"""Largest value per key with reduceByKey."""

from pyspark import RDD


def reduced_max(pairs: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    return pairs.reduceByKey(lambda a, b: max(a, b))
