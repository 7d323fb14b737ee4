"""Union, then map."""

from pyspark import RDD


def map_union(R: RDD[int], S: RDD[int]) -> RDD[int]:
    return R.union(S).map(lambda x: x * 10 - 1)
