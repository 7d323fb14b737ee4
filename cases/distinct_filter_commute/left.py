"""Deduplicate, then keep the large values."""

from pyspark import RDD


def large_ids(R: RDD[int]) -> RDD[int]:
    return R.distinct().filter(lambda x: x > 100)
