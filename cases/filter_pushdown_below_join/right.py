"""The filter pushed below the join, onto the orders side."""

from pyspark import RDD


def filter_then_join(
    orders: RDD[tuple[int, int]], customers: RDD[tuple[int, int]]
) -> RDD[tuple[int, tuple[int, int]]]:
    big = orders.filter(lambda o: o[1] > 100)
    return big.join(customers)
