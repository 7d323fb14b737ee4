"""The same with reduceByKey: 0 is neutral for max on non-negative values (and applied per partition)."""

from pyspark import RDD


def peak(readings: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    return readings.filter(lambda kv: kv[1] >= 0).reduceByKey(max)
