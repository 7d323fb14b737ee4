"""Keep even keys, then aggregate."""

from operator import add

from pyspark import RDD


def early(pairs: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    return pairs.filter(lambda kv: kv[0] % 2 == 0).reduceByKey(add)
