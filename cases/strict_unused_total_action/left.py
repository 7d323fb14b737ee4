"""An unused count() never raises, so dropping it is a refactor (the simplification pass proves it)."""

from pyspark import RDD


def left(R: RDD[int], S: RDD[int]) -> int:
    total = R.count()  # noqa: F841 - the point of the case
    return S.count()
