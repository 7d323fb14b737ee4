"""Distance of every element from the minimum."""

from pyspark import RDD


def distances(R: RDD[int]) -> RDD[int]:
    m = R.min()
    return R.map(lambda x: x - m)
