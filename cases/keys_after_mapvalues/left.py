"""Transform the values, then take the keys."""

from pyspark import RDD


def keys_of_mapped(pairs: RDD[tuple[int, int]]) -> RDD[int]:
    return pairs.mapValues(lambda v: v * v + 1).keys()
