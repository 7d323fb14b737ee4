from pyspark import RDD


def right(R: RDD[int], S: RDD[int]) -> int:
    return S.count()
