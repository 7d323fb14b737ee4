"""Sum with sum()."""

from pyspark import RDD


def builtin_sum(R: RDD[int]) -> int:
    return R.map(lambda x: x * 2).sum()
