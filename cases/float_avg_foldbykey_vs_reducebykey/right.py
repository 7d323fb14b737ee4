"""Average per key with true division (reducebykey)."""


from pyspark import RDD


def job(sales: RDD[tuple[str, int]]) -> RDD[tuple[str, float]]:
    pairs = sales.mapValues(lambda v: (v, 1))
    sums = pairs.reduceByKey(lambda a, b: (a[0] + b[0], a[1] + b[1]))
    return sums.mapValues(lambda p: p[0] / p[1])
