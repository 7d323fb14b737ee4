"""A union of two hash-partitioned joins (Spark zips their partitions) feeding a sum."""

from pyspark import RDD


def total(R: RDD[tuple[int, int]], S: RDD[tuple[int, int]]) -> int:
    return R.join(S).union(S.join(R)).map(lambda kv: kv[1][0]).sum()
