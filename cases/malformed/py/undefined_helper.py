# expect-error: lines 8: discount
"""A pipeline that calls a helper function nobody defined."""

from pyspark import RDD


def uses_missing_helper(R: RDD[int]) -> RDD[int]:
    return R.map(lambda x: discount(x))
