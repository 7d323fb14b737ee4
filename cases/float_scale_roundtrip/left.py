"""x * 0.1 * 10."""


from pyspark import RDD


def job(xs: RDD[float]) -> RDD[float]:
    return xs.map(lambda x: x * 0.1 * 10.0)
