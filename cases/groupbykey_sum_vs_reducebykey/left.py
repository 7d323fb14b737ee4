"""Group all values of a key, then sum them."""

from pyspark import RDD


def grouped(pairs: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    return pairs.groupByKey().mapValues(sum)
