"""Increment, then keep results above t + 1."""

from pyspark import RDD


def map_first(R: RDD[int], t: int) -> RDD[int]:
    return R.map(lambda x: x + 1).filter(lambda y: y > t + 1)
