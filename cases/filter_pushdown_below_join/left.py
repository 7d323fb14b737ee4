"""Join orders (customer, amount) with customers (customer, region), then keep big orders."""

from pyspark import RDD


def join_then_filter(
    orders: RDD[tuple[int, int]], customers: RDD[tuple[int, int]]
) -> RDD[tuple[int, tuple[int, int]]]:
    joined = orders.join(customers)
    return joined.filter(lambda kv: kv[1][0] > 100)
