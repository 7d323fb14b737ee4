"""P5 (paper Fig. 3): is the cheapest price exactly 100?"""

from pyspark import RDD


def p5(R: RDD[tuple[int, int]]) -> bool:
    return R.map(lambda p: p[1]).reduce(lambda a, b: min(a, b)) == 100
