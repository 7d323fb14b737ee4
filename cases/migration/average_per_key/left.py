"""Average sale per store: (sum, count) pairs reduced per key, then divided (true division: a float)."""

from pyspark import RDD


def average(sales: RDD[tuple[int, int]]) -> RDD[tuple[int, float]]:
    totals = sales.map(lambda kv: (kv[0], (kv[1], 1))).reduceByKey(lambda a, b: (a[0] + b[0], a[1] + b[1]))
    return totals.map(lambda kv: (kv[0], kv[1][0] / kv[1][1]))
