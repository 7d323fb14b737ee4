"""Filter R first, then the product."""

from pyspark import RDD


def filter_then_product(R: RDD[int], S: RDD[int]) -> RDD[tuple[int, int]]:
    return R.filter(lambda x: x > 0).cartesian(S)
