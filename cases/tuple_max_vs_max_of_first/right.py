from pyspark import RDD


def best(R: RDD[tuple[int, int]]) -> tuple[int, int]:
    return R.reduce(lambda a, b: b if b[0] > a[0] else a)
