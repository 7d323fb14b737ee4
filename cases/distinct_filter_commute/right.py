"""Filter first (less to shuffle), then deduplicate: the same set."""

from pyspark import RDD


def large_ids(R: RDD[int]) -> RDD[int]:
    return R.filter(lambda x: x > 100).distinct()
