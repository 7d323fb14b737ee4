"""A wrong P8: the early filter's threshold does not match the decile cut."""

from operator import add

from pyspark import RDD


def p8(R: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    return R.filter(lambda s: s[1] >= 55).map(lambda s: (s[1] // 10, 1)).foldByKey(0, add)
