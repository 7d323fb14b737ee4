"""P1 (paper Fig. 1): double, then keep those at least 100."""

from pyspark import RDD


def p1(R: RDD[int]) -> RDD[int]:
    return R.map(lambda x: 2 * x).filter(lambda x: x >= 100)
