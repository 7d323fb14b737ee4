"""Join sides swapped and the values not remapped."""

from pyspark import RDD


def b_join_a(A: RDD[tuple[int, int]], B: RDD[tuple[int, int]]) -> RDD[tuple[int, tuple[int, int]]]:
    return B.join(A)
