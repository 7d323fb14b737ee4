"""len() of a tuple evaluates every element first: an empty R makes R.max() raise."""

from pyspark import RDD


def left(R: RDD[int], S: RDD[int]) -> int:
    return len((R.max(), S.count()))
