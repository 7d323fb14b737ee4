"""P8 (paper Fig. 4): drop failing grades (< 60) first, then the histogram."""

from operator import add

from pyspark import RDD


def p8(R: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    passing = R.filter(lambda s: s[1] >= 60)
    return passing.map(lambda s: (s[1] // 10, 1)).foldByKey(0, add)
