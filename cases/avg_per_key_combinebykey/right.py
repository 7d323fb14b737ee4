"""Average per key with combineByKey."""

from pyspark import RDD


def average(sales: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    totals = sales.combineByKey(
        lambda v: (v, 1),
        lambda acc, v: (acc[0] + v, acc[1] + 1),
        lambda a, b: (a[0] + b[0], a[1] + b[1]),
    )
    return totals.mapValues(lambda p: p[0] // p[1])
