# expect-error: lines 9,15: for|loop
"""A helper with a loop: UDFs must be loop-free expressions."""

from pyspark import RDD


def triangle(n: int) -> int:
    total = 0
    for i in range(n):
        total = total + i
    return total


def triangles(R: RDD[int]) -> RDD[int]:
    return R.map(triangle)
