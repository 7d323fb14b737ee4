"""reduceByKey spelling."""

from operator import add

from pyspark import RDD


def reduced(pairs: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    return pairs.reduceByKey(add)
