# expect-error: lines 8: THRESHOLD
"""A pipeline that uses a module constant nobody defined."""

from pyspark import RDD


def uses_undefined(R: RDD[int]) -> RDD[int]:
    return R.filter(lambda x: x >= THRESHOLD)
