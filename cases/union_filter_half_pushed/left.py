"""Union, then keep positives."""

from pyspark import RDD


def filter_union(R: RDD[int], S: RDD[int]) -> RDD[int]:
    return R.union(S).filter(lambda x: x > 0)
