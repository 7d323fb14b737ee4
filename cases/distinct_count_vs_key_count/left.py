"""How many different values?"""

from pyspark import RDD


def different(R: RDD[int]) -> int:
    return R.distinct().count()
