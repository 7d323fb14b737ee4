"""Per-key sums."""

from operator import add

from pyspark import RDD


def by_key(pairs: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    return pairs.reduceByKey(add)
