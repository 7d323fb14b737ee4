"""Is any value positive? max() of booleans (False < True) vs reduce with `or`."""

from pyspark import RDD


def any_positive(R: RDD[int]) -> bool:
    return R.map(lambda x: x > 0).max()
