"""P15: sum, then triple."""

from pyspark import RDD


def p15(R: RDD[int]) -> int:
    return 3 * R.sum()
