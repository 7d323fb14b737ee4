"""The region filter pushed onto the customers side before the join."""

from pyspark import RDD


def revenue(orders: RDD[tuple[int, int]], customers: RDD[tuple[int, int]]) -> int:
    local = customers.filter(lambda c: c[1] == 1)
    return orders.join(local).map(lambda kv: kv[1][0]).sum()
