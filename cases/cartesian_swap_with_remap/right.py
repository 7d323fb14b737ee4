"""Pairs (s, r), swapped back to (r, s)."""

from pyspark import RDD


def s_times_r_swapped(R: RDD[int], S: RDD[int]) -> RDD[tuple[int, int]]:
    return S.cartesian(R).map(lambda p: (p[1], p[0]))
