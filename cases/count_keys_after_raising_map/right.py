from pyspark import RDD


def keys(R: RDD[int]) -> int:
    return R.distinct().count()
