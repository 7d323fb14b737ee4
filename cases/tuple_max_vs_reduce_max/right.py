from pyspark import RDD


def best(R: RDD[tuple[int, int]]) -> tuple[int, int]:
    return R.reduce(max)
