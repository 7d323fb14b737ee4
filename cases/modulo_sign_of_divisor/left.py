"""Remainder by -3."""

from pyspark import RDD


def rem_neg(R: RDD[int]) -> RDD[int]:
    return R.map(lambda x: x % -3)
