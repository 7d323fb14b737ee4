"""The minimum."""

from pyspark import RDD


def minimum(R: RDD[int]) -> int:
    return R.min()
