"""P8': buckets by percentile, every bucket reported as 1: more buckets."""

from operator import add

from pyspark import RDD


def p8_prime(R: RDD[tuple[int, int]]) -> RDD[int]:
    return R.map(lambda s: (s[1], 1)).foldByKey(0, add).map(lambda kv: 1)
