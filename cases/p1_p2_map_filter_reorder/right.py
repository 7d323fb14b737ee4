"""P2 (paper Fig. 1): keep elements at least 50, then double them."""

from pyspark import RDD


def p2(R: RDD[int]) -> RDD[int]:
    kept = R.filter(lambda x: x >= 50)
    return kept.map(lambda x: 2 * x)
