"""Take parity, then deduplicate: collapses different elements with the same parity."""

from pyspark import RDD


def dedup_last(R: RDD[int]) -> RDD[int]:
    return R.map(lambda x: x % 2).distinct()
