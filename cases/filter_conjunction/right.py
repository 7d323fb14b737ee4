"""One filter with the conjunction, in the other order."""

from pyspark import RDD


def combined(R: RDD[int]) -> RDD[int]:
    return R.filter(lambda x: x % 2 == 0 and x > 3)
