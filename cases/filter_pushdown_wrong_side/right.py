"""Wrong pushdown: tests the order amount instead of the region."""

from pyspark import RDD


def filter_then_join(
    orders: RDD[tuple[int, int]], customers: RDD[tuple[int, int]]
) -> RDD[tuple[int, tuple[int, int]]]:
    return orders.filter(lambda o: o[1] == 1).join(customers)
