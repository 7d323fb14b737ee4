"""Large orders with their customer's name: join on the customer id, keep orders above 100."""

from pyspark import RDD


def big_orders(orders: RDD[tuple[int, int]], customers: RDD[tuple[int, str]]) -> RDD[tuple[int, str, int]]:
    joined = orders.join(customers)
    big = joined.filter(lambda kv: kv[1][0] > 100)
    return big.map(lambda kv: (kv[0], kv[1][1], kv[1][0]))
