"""The same, counted as the keys of a word-count style reduceByKey."""

from operator import add

from pyspark import RDD


def different(R: RDD[int]) -> int:
    return R.map(lambda x: (x, 1)).reduceByKey(add).count()
