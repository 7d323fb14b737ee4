# expect-error: lines 8: 1.5|float
"""A float literal in a UDF."""

from pyspark import RDD


def scaled(R: RDD[int]) -> RDD[int]:
    return R.map(lambda x: x * 1.5)
