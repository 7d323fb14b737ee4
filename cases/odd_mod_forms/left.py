"""Odd elements, tested with == 1."""

from pyspark import RDD


def odd_eq(R: RDD[int]) -> RDD[int]:
    return R.filter(lambda x: x % 2 == 1)
