"""Average per key with the zero value held in a local variable (once a false partition warning)."""

from pyspark import RDD


def average(sales: RDD[tuple[int, int]]) -> RDD[tuple[int, int]]:
    zero = (0, 0)

    def add(acc, v):
        return acc[0] + v, acc[1] + 1

    def merge(a, b):
        return a[0] + b[0], a[1] + b[1]

    return sales.aggregateByKey(zero, add, merge).mapValues(lambda p: p[0] // p[1])
