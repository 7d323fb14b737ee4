"""Join A with B."""

from pyspark import RDD


def a_join_b(A: RDD[tuple[int, int]], B: RDD[tuple[int, int]]) -> RDD[tuple[int, tuple[int, int]]]:
    return A.join(B)
