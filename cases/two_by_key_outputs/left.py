"""Two aggregations per key in one job: the total and the number of sales."""

from operator import add

from pyspark import RDD


def stats(sales: RDD[tuple[int, int]]) -> tuple[RDD[tuple[int, int]], RDD[tuple[int, int]]]:
    return sales.reduceByKey(add), sales.mapValues(lambda v: 1).reduceByKey(add)
