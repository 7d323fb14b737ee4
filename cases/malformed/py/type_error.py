# expect-error: lines 8:
"""Projecting a component out of an int: a type error in the UDF."""

from pyspark import RDD


def first_components(R: RDD[int]) -> RDD[int]:
    return R.map(lambda x: x[0])
