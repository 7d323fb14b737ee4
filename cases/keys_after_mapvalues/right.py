"""Just the keys."""

from pyspark import RDD


def keys_only(pairs: RDD[tuple[int, int]]) -> RDD[int]:
    return pairs.keys()
