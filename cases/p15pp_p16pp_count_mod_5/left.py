"""P15'': is the number of elements a multiple of 5? Counted with aggregate."""

from operator import add

from pyspark import RDD


def p15pp(R: RDD[int]) -> bool:
    n = R.aggregate(0, lambda a, x: a + 1, add)
    return n % 5 == 0
