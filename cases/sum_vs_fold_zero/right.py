"""Sum with fold(0, add)."""

from operator import add

from pyspark import RDD


def fold_sum(R: RDD[int]) -> int:
    return R.map(lambda x: x * 2).fold(0, add)
