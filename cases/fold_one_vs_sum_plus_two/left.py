"""fold with a non-neutral zero."""

from operator import add

from pyspark import RDD


def fold_one(R: RDD[int]) -> int:
    return R.fold(1, add)
