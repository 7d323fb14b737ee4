"""Count per key by summing ones."""

from operator import add

from pyspark import RDD


def ones_summed(pairs: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    return pairs.mapValues(lambda v: 1).reduceByKey(add)
