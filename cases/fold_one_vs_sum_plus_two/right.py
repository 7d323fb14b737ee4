"""What fold(1, add) gives on a single partition."""

from pyspark import RDD


def sum_plus_two(R: RDD[int]) -> int:
    return R.sum() + 2
