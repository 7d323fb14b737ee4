# expect-error: lines 4,10: random
"""Nondeterminism inside a UDF (random numbers) cannot be compared."""

import random

from pyspark import RDD


def jitter(R: RDD[int]) -> RDD[int]:
    return R.map(lambda x: x + random.randint(0, 3))
