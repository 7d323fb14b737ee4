"""Group, then count the values of each key."""

from pyspark import RDD


def grouped_len(pairs: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    return pairs.groupByKey().mapValues(len)
