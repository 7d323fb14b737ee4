"""Prices rounded to whole units with Python's round: half to even (0.5 -> 0.0, 2.5 -> 2.0)."""

from pyspark import RDD


def rounded(prices: RDD[tuple[int, float]]) -> RDD[tuple[int, float]]:
    return prices.map(lambda p: (p[0], round(p[1], 0)))
