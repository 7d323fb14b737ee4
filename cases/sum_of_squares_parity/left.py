"""Parity of the sum of squares."""

from pyspark import RDD


def squares_parity(R: RDD[int]) -> int:
    return R.map(lambda x: x * x).sum() % 2
