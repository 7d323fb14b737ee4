"""Sum with reduce (raises on an empty RDD)."""

from operator import add

from pyspark import RDD


def reduce_sum(R: RDD[int]) -> int:
    return R.filter(lambda x: x > 10).reduce(add)
