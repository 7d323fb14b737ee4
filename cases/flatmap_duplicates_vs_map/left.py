"""Every element twice."""

from pyspark import RDD


def twice(R: RDD[int]) -> RDD[int]:
    return R.flatMap(lambda x: (x, x))
