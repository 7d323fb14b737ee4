"""Per-key sums, then coarser keys (k // 2): keys collide without merging."""

from operator import add

from pyspark import RDD


def halve_after(pairs: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    return pairs.reduceByKey(add).map(lambda kv: (kv[0] // 2, kv[1]))
