"""The filter pushed into R only: non-positive elements of S leak through."""

from pyspark import RDD


def half_pushed(R: RDD[int], S: RDD[int]) -> RDD[int]:
    return R.filter(lambda x: x > 0).union(S)
