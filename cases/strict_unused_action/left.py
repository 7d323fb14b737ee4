"""An action run only for its effect (a sanity check someone left in): reduce raises on an empty RDD."""

from operator import add

from pyspark import RDD


def left(R: RDD[int], S: RDD[int]) -> int:
    R.reduce(add)
    return S.count()
