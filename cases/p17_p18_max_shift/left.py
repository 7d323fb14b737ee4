"""Shift every reading by 5, take the maximum."""

from pyspark import RDD


def p17(R: RDD[int]) -> int:
    return R.map(lambda x: x + 5).max()
