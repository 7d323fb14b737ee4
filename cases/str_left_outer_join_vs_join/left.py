"""Orders with their customer's city (inner join)."""

from pyspark import RDD


def with_city(orders: RDD[tuple[str, int]], cities: RDD[tuple[str, str]]) -> RDD[tuple[str, int]]:
    return orders.join(cities).mapValues(lambda p: p[0])
