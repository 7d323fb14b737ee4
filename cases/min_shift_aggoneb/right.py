"""The same with a filter that never removes anything (x - min >= 0)."""

from pyspark import RDD


def distances_checked(R: RDD[int]) -> RDD[int]:
    m = R.min()
    return R.map(lambda x: x - m).filter(lambda d: d >= 0)
