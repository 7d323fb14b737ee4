"""The correct rewrite with a positive divisor."""

from pyspark import RDD


def ceil_negated(R: RDD[int]) -> RDD[int]:
    return R.map(lambda x: -((x + 1) // 2))
