"""Count with count()."""

from pyspark import RDD


def builtin_count(R: RDD[int]) -> int:
    return R.filter(lambda x: x > 0).count()
