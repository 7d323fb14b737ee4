"""The sources in the other order, the addition written the other way round."""

from pyspark import RDD


def totals(jan: RDD[tuple[int, int]], feb: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    return feb.union(jan).reduceByKey(lambda a, b: b + a)
