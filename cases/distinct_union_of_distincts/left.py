"""Deduplicate each source, combine, deduplicate again."""

from pyspark import RDD


def all_ids(R: RDD[int], S: RDD[int]) -> RDD[int]:
    return R.distinct().union(S.distinct()).distinct()
