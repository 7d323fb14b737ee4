"""The sequential reading of fold(1, add)."""

from pyspark import RDD


def sum_plus_one(R: RDD[int]) -> int:
    return R.sum() + 1
