"""Minus the maximum of the negated elements."""

from pyspark import RDD


def neg_max_neg(R: RDD[int]) -> int:
    return -R.map(lambda x: -x).max()
