"""P16: triple every element, then sum."""

from operator import add

from pyspark import RDD


def p16(R: RDD[int]) -> int:
    return R.map(lambda x: 3 * x).fold(0, add)
