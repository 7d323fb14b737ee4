"""P1 with the paper's named functions: double and the parametric geq(THRESHOLD)."""

from pyspark import RDD

THRESHOLD = 100


def double(x: int) -> int:
    return 2 * x


def geq(y: int):
    return lambda x: x >= y


def p1(R: RDD[int]) -> RDD[int]:
    return R.map(double).filter(geq(THRESHOLD))
