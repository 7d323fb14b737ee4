"""Doubling by multiplication."""


from pyspark import RDD


def job(xs: RDD[float]) -> RDD[float]:
    return xs.map(lambda x: x * 2.0)
