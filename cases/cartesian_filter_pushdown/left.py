"""All pairs, then keep those whose left component is positive."""

from pyspark import RDD


def product_then_filter(R: RDD[int], S: RDD[int]) -> RDD[tuple[int, int]]:
    return R.cartesian(S).filter(lambda p: p[0] > 0)
