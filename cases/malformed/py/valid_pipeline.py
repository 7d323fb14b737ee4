"""A valid pipeline: used with a function name that does not exist (a bad spec)."""

from pyspark import RDD


def present(R: RDD[int]) -> RDD[int]:
    return R.map(lambda x: x + 1)
