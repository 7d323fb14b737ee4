"""Spend per customer, 0 for customers without orders: a left outer join pads with None, replaced by 0."""

from pyspark import RDD


def spend(customers: RDD[tuple[int, str]], orders: RDD[tuple[int, int]]) -> RDD[tuple[int, str, int]]:
    totals = orders.reduceByKey(lambda a, b: a + b)
    joined = customers.leftOuterJoin(totals)
    return joined.map(lambda kv: (kv[0], kv[1][0], kv[1][1] if kv[1][1] is not None else 0))
