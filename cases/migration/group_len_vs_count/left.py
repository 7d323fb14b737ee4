"""Clicks per page: group the clicks and take the length of each group (an int)."""

from pyspark import RDD


def clicks(events: RDD[tuple[str, int]]) -> RDD[tuple[str, int]]:
    return events.groupByKey().mapValues(len)
