"""P7 (paper Fig. 4)."""

from operator import add

from pyspark import RDD


def p7(R: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    return R.map(lambda s: (s[1] // 10, 1)).foldByKey(0, add).filter(lambda kv: kv[0] >= 6)
