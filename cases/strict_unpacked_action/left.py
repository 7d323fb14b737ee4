"""Tuple unpacking evaluates both actions; the unused `top` still raises on an empty R."""

from pyspark import RDD


def left(R: RDD[int], S: RDD[int]) -> RDD[int]:
    top, n = R.max(), S.count()  # noqa: F841 - the point of the case
    return S.map(lambda x: x * n)
