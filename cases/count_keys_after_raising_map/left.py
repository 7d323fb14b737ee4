"""Counting the keys of a by-key output still runs the map after it: 1 // 0 raises (found in review)."""

from operator import add

from pyspark import RDD


def keys(R: RDD[int]) -> int:
    return R.map(lambda x: (x, 0)).reduceByKey(add).map(lambda kv: 1 // kv[1]).count()
