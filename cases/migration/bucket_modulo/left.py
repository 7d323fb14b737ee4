"""Bucket each id into one of 8 buckets with Python's % (always 0..7 for a positive divisor)."""

from pyspark import RDD


def buckets(ids: RDD[tuple[int, str]]) -> RDD[tuple[int, str]]:
    return ids.map(lambda r: (r[0] % 8, r[1]))
