"""Negate the halved value: truncation intuition, wrong for odd x under floor division."""

from pyspark import RDD


def negate_after(R: RDD[int]) -> RDD[int]:
    return R.map(lambda x: -(x // 2))
