"""Map each side, then union."""

from pyspark import RDD


def union_maps(R: RDD[int], S: RDD[int]) -> RDD[int]:
    return R.map(lambda x: x * 10 - 1).union(S.map(lambda x: x * 10 - 1))
