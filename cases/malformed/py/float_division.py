# expect-error: lines 8: /|division|float
"""True division returns a float: sparkeq handles integers only (use // for floor division)."""

from pyspark import RDD


def halves(R: RDD[int]) -> RDD[int]:
    return R.map(lambda x: x / 2)
