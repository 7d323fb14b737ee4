"""Take the maximum with reduce, then shift it."""

from pyspark import RDD


def p18(R: RDD[int]) -> int:
    return R.reduce(lambda a, b: max(a, b)) + 5
