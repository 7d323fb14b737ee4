"""Deduplicate, then map."""

from pyspark import RDD


def dedup_first(R: RDD[int]) -> RDD[int]:
    return R.distinct().map(lambda x: 2 * x + 1)
