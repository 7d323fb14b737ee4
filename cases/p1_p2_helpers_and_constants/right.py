"""P2 with the same helpers: the filter runs first, on half the threshold."""

from pyspark import RDD

THRESHOLD = 100


def double(x: int) -> int:
    return 2 * x


def geq(y: int):
    return lambda x: x >= y


def p2(R: RDD[int]) -> RDD[int]:
    return R.filter(geq(THRESHOLD // 2)).map(double)
