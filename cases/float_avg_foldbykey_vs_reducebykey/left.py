"""Average per key with true division (foldbykey)."""


from pyspark import RDD


def job(sales: RDD[tuple[str, int]]) -> RDD[tuple[str, float]]:
    pairs = sales.mapValues(lambda v: (v, 1))
    sums = pairs.foldByKey((0, 0), lambda a, b: (a[0] + b[0], a[1] + b[1]))
    return sums.mapValues(lambda p: p[0] / p[1])
