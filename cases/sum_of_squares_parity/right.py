"""Parity of the plain sum."""

from pyspark import RDD


def sum_parity(R: RDD[int]) -> int:
    return R.sum() % 2
