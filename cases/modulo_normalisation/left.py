"""Defensive C-style modulo normalisation."""

from pyspark import RDD


def normalised(R: RDD[int]) -> RDD[int]:
    return R.map(lambda x: (x % 3 + 3) % 3)
