"""min() of booleans is "all", not "any": differs as soon as one value is positive and one is not."""

from pyspark import RDD


def any_positive(R: RDD[int]) -> bool:
    return R.map(lambda x: x > 0).min()
