"""Deduplicate, then take parity."""

from pyspark import RDD


def dedup_first(R: RDD[int]) -> RDD[int]:
    return R.distinct().map(lambda x: x % 2)
