from pyspark import RDD


def right(R: RDD[int]) -> int:
    P = R.filter(lambda x: x > 0)
    return P.fold(0, lambda a, x: max(a, x))
