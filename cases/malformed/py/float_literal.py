# expect-error: lines 8: complex
"""A complex literal in a UDF: complex numbers are outside what sparkeq reads."""

from pyspark import RDD


def rotated(R: RDD[int]) -> RDD[complex]:
    return R.map(lambda x: x * 1.5j)
