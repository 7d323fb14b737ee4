"""P4 (paper Fig. 2): discount every price by 20, then compare the minimum to 80."""

from pyspark import RDD


def discount(p: tuple[int, int]) -> tuple[int, int]:
    return (p[0], p[1] - 20)


def p4(R: RDD[tuple[int, int]]) -> bool:
    discounted = R.map(discount)
    return discounted.map(lambda p: p[1]).min() >= 80
