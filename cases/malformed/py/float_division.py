# expect-error: lines 8: \*\*|exponent
"""A float power: '**' is read only with a small constant integer exponent."""

from pyspark import RDD


def roots(R: RDD[int]) -> RDD[float]:
    return R.map(lambda x: x ** 0.5)
