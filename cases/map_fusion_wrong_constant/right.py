"""A wrong fusion that forgot to distribute the multiplication."""

from pyspark import RDD


def fused(R: RDD[int]) -> RDD[int]:
    return R.map(lambda x: 3 * x + 1)
