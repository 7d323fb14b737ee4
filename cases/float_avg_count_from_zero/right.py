"""Average per key, counting from 0 (one short)."""


from pyspark import RDD


def job(sales: RDD[tuple[str, int]]) -> RDD[tuple[str, float]]:
    sums = sales.combineByKey(lambda v: (v, 0), lambda c, v: (c[0] + v, c[1] + 1),
                              lambda a, b: (a[0] + b[0], a[1] + b[1]))
    return sums.mapValues(lambda p: p[0] / p[1])
