"""P3 with fold and a sentinel standing for +infinity (True on an empty bag)."""

from pyspark import RDD

INF = 1000000000


def p3(R: RDD[tuple[int, int]]) -> bool:
    cheapest = R.map(lambda p: p[1]).fold(INF, lambda a, b: min(a, b))
    return cheapest >= 100
