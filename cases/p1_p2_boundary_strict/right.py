"""A wrong P2: the pushed-down filter became strict (x > 50), so 50 -> 100 is lost."""

from pyspark import RDD


def p2(R: RDD[int]) -> RDD[int]:
    return R.filter(lambda x: x > 50).map(lambda x: 2 * x)
