"""A projected tuple bound to a local and captured by a UDF: the tuple still ran R.max()."""

from pyspark import RDD


def left(R: RDD[int], S: RDD[int]) -> RDD[int]:
    stats = (R.max(), S.count())
    n = stats[1]
    return S.filter(lambda x: x > n)
