"""Keep elements above t, then increment."""

from pyspark import RDD


def filter_first(R: RDD[int], t: int) -> RDD[int]:
    return R.filter(lambda x: x > t).map(lambda x: x + 1)
