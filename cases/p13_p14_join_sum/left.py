"""Total amount of orders from customers in region 1: join, then filter, then sum."""

from operator import add

from pyspark import RDD


def revenue(orders: RDD[tuple[int, int]], customers: RDD[tuple[int, int]]) -> int:
    joined = orders.join(customers)
    in_region = joined.filter(lambda kv: kv[1][1] == 1)
    return in_region.map(lambda kv: kv[1][0]).fold(0, add)
