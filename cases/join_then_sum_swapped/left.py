"""Sum over a join (its output is hash-partitioned by key) of both sides' values."""

from pyspark import RDD


def revenue(orders: RDD[tuple[int, int]], prices: RDD[tuple[int, int]]) -> int:
    return orders.join(prices).map(lambda kv: kv[1][0] * kv[1][1]).sum()
