from pyspark import RDD


def right(R: RDD[int], S: RDD[int]) -> RDD[int]:
    n = S.count()
    return S.map(lambda x: x * n)
