"""Scores doubled in Python: no overflow."""

from pyspark import RDD


def doubled(scores: RDD[tuple[str, int]]) -> RDD[tuple[str, int]]:
    return scores.map(lambda s: (s[0], s[1] * 2))
