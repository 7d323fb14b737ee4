"""Increment, then filter on the unadjusted threshold."""

from pyspark import RDD


def map_first(R: RDD[int], t: int) -> RDD[int]:
    return R.map(lambda x: x + 1).filter(lambda y: y > t)
