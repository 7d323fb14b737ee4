"""S then R."""

from pyspark import RDD


def s_r(R: RDD[int], S: RDD[int]) -> RDD[int]:
    return S.union(R)
