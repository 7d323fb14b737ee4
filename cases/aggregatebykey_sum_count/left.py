"""Group, then (sum, count) of each key's values."""

from pyspark import RDD


def grouped(pairs: RDD[tuple[int, int]]) -> RDD[tuple[int, tuple[int, int]]]:
    return pairs.groupByKey().mapValues(lambda vs: (sum(vs), len(vs)))
