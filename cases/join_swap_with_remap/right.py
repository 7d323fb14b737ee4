"""Join B with A and swap the joined values back into (a, b) order."""

from pyspark import RDD


def b_join_a(A: RDD[tuple[int, int]], B: RDD[tuple[int, int]]) -> RDD[tuple[int, tuple[int, int]]]:
    return B.join(A).map(lambda kv: (kv[0], (kv[1][1], kv[1][0])))
