"""Largest non-negative reading per sensor, with foldByKey and 0 as the zero value."""

from pyspark import RDD


def peak(readings: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    return readings.filter(lambda kv: kv[1] >= 0).foldByKey(0, max)
