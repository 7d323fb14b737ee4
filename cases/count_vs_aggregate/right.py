"""Count with aggregate: +1 inside partitions, + across partitions."""

from pyspark import RDD


def aggregate_count(R: RDD[int]) -> int:
    return R.filter(lambda x: x > 0).aggregate(0, lambda a, x: a + 1, lambda a, b: a + b)
