"""Totals per key over two sources: union, then reduceByKey."""

from operator import add

from pyspark import RDD


def totals(jan: RDD[tuple[int, int]], feb: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    return jan.union(feb).reduceByKey(add)
