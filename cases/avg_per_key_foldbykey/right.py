"""Average per key with foldByKey over (value, 1) pairs."""

from pyspark import RDD


def average(sales: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    ones = sales.mapValues(lambda v: (v, 1))
    totals = ones.foldByKey((0, 0), lambda a, b: (a[0] + b[0], a[1] + b[1]))
    return totals.mapValues(lambda p: p[0] // p[1])
