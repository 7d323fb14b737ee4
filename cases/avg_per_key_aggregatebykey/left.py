"""Average per key: group the values, then integer mean (the count is at least 1 for every key)."""

from pyspark import RDD


def average(sales: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    return sales.groupByKey().mapValues(lambda vs: sum(vs) // len(vs))
