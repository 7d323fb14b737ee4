"""The classic wrong count: the driver step applies a + 1 to every partition result."""

from pyspark import RDD


def fold_count(R: RDD[int]) -> int:
    return R.fold(0, lambda a, x: a + 1)
