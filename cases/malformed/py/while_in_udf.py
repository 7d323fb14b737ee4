# expect-error: lines 8,14: while|loop
"""A helper with a while loop."""

from pyspark import RDD


def halvings(n: int) -> int:
    while n > 1:
        n = n // 2
    return n


def pipeline(R: RDD[int]) -> RDD[int]:
    return R.map(halvings)
