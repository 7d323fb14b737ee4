"""Per-key totals above 10."""

from operator import add

from pyspark import RDD


def totals_above(pairs: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    return pairs.reduceByKey(add).filter(lambda kv: kv[1] > 10)
