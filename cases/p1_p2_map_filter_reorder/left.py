"""P1 (paper Fig. 1): double every element, then keep those at least 100."""

from pyspark import RDD


def p1(R: RDD[int]) -> RDD[int]:
    doubled = R.map(lambda x: 2 * x)
    return doubled.filter(lambda x: x >= 100)
