"""Values, then map."""

from pyspark import RDD


def values_then_map(pairs: RDD[tuple[int, int]]) -> RDD[int]:
    return pairs.values().map(lambda v: v - 7)
