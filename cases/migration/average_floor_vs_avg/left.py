"""Average per key with floor division: an int."""

from pyspark import RDD


def average(sales: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    totals = sales.map(lambda kv: (kv[0], (kv[1], 1))).reduceByKey(lambda a, b: (a[0] + b[0], a[1] + b[1]))
    return totals.map(lambda kv: (kv[0], kv[1][0] // kv[1][1]))
