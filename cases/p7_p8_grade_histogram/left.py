"""P7 (paper Fig. 4): histogram of grades by decile, then drop failing deciles (< 6)."""

from operator import add

from pyspark import RDD


def p7(R: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    deciles = R.map(lambda s: (s[1] // 10, 1))
    histogram = deciles.foldByKey(0, add)
    return histogram.filter(lambda kv: kv[0] >= 6)
