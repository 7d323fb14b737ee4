"""Maximum with reduce."""

from pyspark import RDD


def reduce_max(R: RDD[int]) -> int:
    return R.reduce(lambda a, b: a if a >= b else b)
