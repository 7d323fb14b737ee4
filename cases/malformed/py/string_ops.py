# expect-error: lines 8: format|string methods
"""String formatting with .format(): outside the string methods sparkeq reads."""

from pyspark import RDD


def labels(R: RDD[int]) -> RDD[str]:
    return R.map(lambda x: "{}!".format(x))
