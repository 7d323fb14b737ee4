"""One deduplication of the combined sources is enough."""

from pyspark import RDD


def all_ids(R: RDD[int], S: RDD[int]) -> RDD[int]:
    return R.union(S).distinct()
