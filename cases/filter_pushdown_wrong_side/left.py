"""Join orders with customers, keep customers in region 1."""

from pyspark import RDD


def join_then_filter(
    orders: RDD[tuple[int, int]], customers: RDD[tuple[int, int]]
) -> RDD[tuple[int, tuple[int, int]]]:
    return orders.join(customers).filter(lambda kv: kv[1][1] == 1)
