"""Odd elements, tested with != 0 (same thing: Python's % 2 is 0 or 1)."""

from pyspark import RDD


def odd_ne(R: RDD[int]) -> RDD[int]:
    return R.filter(lambda x: x % 2 != 0)
