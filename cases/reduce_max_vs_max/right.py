"""Maximum with max()."""

from pyspark import RDD


def builtin_max(R: RDD[int]) -> int:
    return R.max()
