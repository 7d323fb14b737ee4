"""Filter first, but with >= : 100 itself now passes."""

from pyspark import RDD


def large_ids(R: RDD[int]) -> RDD[int]:
    return R.filter(lambda x: x >= 100).distinct()
