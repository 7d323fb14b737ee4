"""Two passes over the data."""

from pyspark import RDD


def two_passes(R: RDD[int]) -> tuple[int, int]:
    return (R.sum(), R.count())
