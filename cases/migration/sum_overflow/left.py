"""Bytes served per host: Python's ints never overflow."""

from pyspark import RDD


def traffic(requests: RDD[tuple[str, int]]) -> RDD[tuple[str, int]]:
    return requests.reduceByKey(lambda a, b: a + b)
