"""Sum with fold (0 on an empty RDD)."""

from operator import add

from pyspark import RDD


def fold_sum(R: RDD[int]) -> int:
    return R.filter(lambda x: x > 10).fold(0, add)
