from pyspark import RDD


def any_positive(R: RDD[int]) -> bool:
    return R.map(lambda x: x > 0).reduce(lambda a, b: a or b)
