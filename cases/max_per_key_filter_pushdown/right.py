"""Drop non-positive values first: the max per key is positive iff some value is, and then it is the same."""

from pyspark import RDD


def early(pairs: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    return pairs.filter(lambda kv: kv[1] > 0).reduceByKey(max)
