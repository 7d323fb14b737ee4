"""Emit the doubled values directly."""

from pyspark import RDD


def flat_fused(R: RDD[int]) -> RDD[int]:
    return R.flatMap(lambda x: (2 * x, -2 * x))
