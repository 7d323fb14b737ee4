"""The largest (score, id) pair: max() of tuples compares lexicographically, as reduce(max) does."""

from pyspark import RDD


def best(R: RDD[tuple[int, int]]) -> tuple[int, int]:
    return R.max()
