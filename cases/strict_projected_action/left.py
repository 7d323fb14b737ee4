"""Python builds the whole tuple before projecting it: R.max() raises ValueError when R is empty,
even though only the count is returned."""

from pyspark import RDD


def left(R: RDD[int], S: RDD[int]) -> int:
    return (R.max(), S.count())[1]
