"""Sessionisation by key: each user's session as its first and last event time and its event count."""

from pyspark import RDD


def sessions(events: RDD[tuple[int, int]]) -> RDD[tuple[int, int, int, int]]:
    spans = events.map(lambda e: (e[0], (e[1], e[1], 1)))
    merged = spans.reduceByKey(lambda a, b: (min(a[0], b[0]), max(a[1], b[1]), a[2] + b[2]))
    return merged.map(lambda kv: (kv[0], kv[1][0], kv[1][1], kv[1][2]))
