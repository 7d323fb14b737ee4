"""Two passes: add one, then triple."""

from pyspark import RDD


def two_maps(R: RDD[int]) -> RDD[int]:
    return R.map(lambda x: x + 1).map(lambda y: y * 3)
