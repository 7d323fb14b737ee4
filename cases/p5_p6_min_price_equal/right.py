"""P6 (paper Fig. 3): is the cheapest discounted price exactly 80?"""

from pyspark import RDD


def discount(p: tuple[int, int]) -> tuple[int, int]:
    return (p[0], p[1] - 20)


def p6(R: RDD[tuple[int, int]]) -> bool:
    return R.map(discount).map(lambda p: p[1]).reduce(lambda a, b: min(a, b)) == 80
