# expect-error: lines 8: syntax|invalid
"""A pipeline with a Python syntax error (an operator without its right operand)."""

from pyspark import RDD


def broken(R: RDD[int]) -> RDD[int]:
    return R.map(lambda x: x +)
