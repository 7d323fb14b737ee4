"""Emit x and -x, then double each."""

from pyspark import RDD


def flat_then_map(R: RDD[int]) -> RDD[int]:
    return R.flatMap(lambda x: (x, -x)).map(lambda y: 2 * y)
