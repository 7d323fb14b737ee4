"""Filters moved below the map: (x - 5) is even iff x is odd."""

from pyspark import RDD


def early_filter(R: RDD[int]) -> RDD[int]:
    return R.filter(lambda x: x % 2 == 1).filter(lambda x: x > 0).map(lambda x: x - 5)
