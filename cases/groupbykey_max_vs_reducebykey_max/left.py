"""Group, then the largest value per key."""

from pyspark import RDD


def grouped_max(pairs: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    return pairs.groupByKey().mapValues(max)
