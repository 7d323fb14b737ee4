"""mapValues, then values."""

from pyspark import RDD


def map_then_values(pairs: RDD[tuple[int, int]]) -> RDD[int]:
    return pairs.mapValues(lambda v: v - 7).values()
