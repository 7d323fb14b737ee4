"""Wrong pushdown: per-key totals of the values above 10."""

from operator import add

from pyspark import RDD


def values_above(pairs: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    return pairs.filter(lambda kv: kv[1] > 10).reduceByKey(add)
