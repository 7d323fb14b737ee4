"""Shift by -5, then keep the even results among positives."""

from pyspark import RDD


def late_filter(R: RDD[int]) -> RDD[int]:
    shifted = R.filter(lambda x: x > 0).map(lambda x: x - 5)
    return shifted.filter(lambda y: y % 2 == 0)
