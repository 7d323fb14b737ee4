"""P3 (paper Fig. 2): is the cheapest product at least 100? (Products are (id, price).)"""

from pyspark import RDD


def p3(R: RDD[tuple[int, int]]) -> bool:
    prices = R.map(lambda p: p[1])
    return prices.min() >= 100
