# expect-error: lines 9: never used|unused
"""An action whose result is never used still runs (and raises on an empty RDD) under Spark: sparkeq
asks the user to use it or remove it rather than guess."""

from pyspark import RDD


def pipeline(R: RDD[int]) -> RDD[int]:
    smallest = R.min()
    return R.map(lambda x: x + 1)
