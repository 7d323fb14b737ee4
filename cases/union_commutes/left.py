"""R then S."""

from pyspark import RDD


def r_s(R: RDD[int], S: RDD[int]) -> RDD[int]:
    return R.union(S)
