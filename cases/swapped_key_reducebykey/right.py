"""Keys and values swapped first: sums keys per value."""

from operator import add

from pyspark import RDD


def by_value(pairs: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    return pairs.map(lambda kv: (kv[1], kv[0])).reduceByKey(add)
