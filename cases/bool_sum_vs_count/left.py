"""Counting positives by summing booleans: Python's sum counts True as 1."""

from pyspark import RDD


def positives(R: RDD[int]) -> int:
    return R.map(lambda x: x > 0).sum()
