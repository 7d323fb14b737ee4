"""A wrong average: the count starts at 1 (and the zero is applied per partition and key)."""

from pyspark import RDD


def average(sales: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    totals = sales.aggregateByKey(
        (0, 1),
        lambda acc, v: (acc[0] + v, acc[1] + 1),
        lambda a, b: (a[0] + b[0], a[1] + b[1]),
    )
    return totals.mapValues(lambda p: p[0] // p[1])
