"""Pairs (r, s)."""

from pyspark import RDD


def r_times_s(R: RDD[int], S: RDD[int]) -> RDD[tuple[int, int]]:
    return R.cartesian(S)
