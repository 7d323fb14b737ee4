"""Add the scalar t to every element, then sum."""

from pyspark import RDD


def shifted_sum(R: RDD[int], t: int) -> int:
    return R.map(lambda x: x + t).sum()
