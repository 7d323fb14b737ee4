"""Average per key with true division (aggregatebykey)."""


from pyspark import RDD


def job(sales: RDD[tuple[str, int]]) -> RDD[tuple[str, float]]:
    sums = sales.aggregateByKey((0, 0), lambda acc, v: (acc[0] + v, acc[1] + 1),
                                lambda a, b: (a[0] + b[0], a[1] + b[1]))
    return sums.mapValues(lambda p: p[0] / p[1])
