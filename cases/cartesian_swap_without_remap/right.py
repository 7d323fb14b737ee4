"""Pairs (s, r): the operands were swapped and the pairs not remapped."""

from pyspark import RDD


def s_times_r(R: RDD[int], S: RDD[int]) -> RDD[tuple[int, int]]:
    return S.cartesian(R)
