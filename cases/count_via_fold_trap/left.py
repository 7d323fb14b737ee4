"""Correct count."""

from pyspark import RDD


def builtin_count(R: RDD[int]) -> int:
    return R.count()
