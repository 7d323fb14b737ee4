"""The same as a left outer join that drops the orders without a city."""

from pyspark import RDD


def with_city(orders: RDD[tuple[str, int]], cities: RDD[tuple[str, str]]) -> RDD[tuple[str, tuple[int, str]]]:
    joined = orders.leftOuterJoin(cities)
    return joined.filter(lambda kv: kv[1][1] is not None)
