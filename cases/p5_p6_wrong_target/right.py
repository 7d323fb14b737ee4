"""A wrong P6: compares the discounted minimum with the undiscounted target."""

from pyspark import RDD


def p6(R: RDD[tuple[int, int]]) -> bool:
    return R.map(lambda p: p[1] - 20).min() == 100
