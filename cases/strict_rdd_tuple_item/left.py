"""A tuple holding an RDD and an action: indexing the RDD out of it still ran R.min()."""

from pyspark import RDD


def left(R: RDD[int], S: RDD[int]) -> RDD[int]:
    return (S.map(lambda x: x + 1), R.min())[0]
