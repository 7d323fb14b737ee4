"""Two filters in a row."""

from pyspark import RDD


def chained(R: RDD[int]) -> RDD[int]:
    return R.filter(lambda x: x > 3).filter(lambda x: x % 2 == 0)
