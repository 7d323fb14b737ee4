"""Halve with a negative divisor."""

from pyspark import RDD


def neg_divisor(R: RDD[int]) -> RDD[int]:
    return R.map(lambda x: x // -2)
