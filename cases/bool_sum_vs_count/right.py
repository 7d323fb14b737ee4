from pyspark import RDD


def positives(R: RDD[int]) -> int:
    return R.filter(lambda x: x > 0).count()
