# expect-error: lines 8: str|string
"""String operations are outside the integer fragment."""

from pyspark import RDD


def labels(R: RDD[int]) -> RDD[int]:
    return R.map(lambda x: len(str(x) + "!"))
