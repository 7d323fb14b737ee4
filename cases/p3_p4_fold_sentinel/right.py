"""P4 with fold: discounted prices compared with 80."""

from pyspark import RDD

INF = 1000000000


def p4(R: RDD[tuple[int, int]]) -> bool:
    cheapest = R.map(lambda p: p[1] - 20).fold(INF, lambda a, b: min(a, b))
    return cheapest >= 80
