"""How many distinct users visited: the user of every visit, deduplicated, counted."""

from pyspark import RDD


def users(visits: RDD[tuple[int, str]]) -> int:
    return visits.map(lambda v: v[0]).distinct().count()
