"""The same two outputs, spelled with foldByKey and a keyed map."""

from operator import add

from pyspark import RDD


def stats(sales: RDD[tuple[int, int]]) -> tuple[RDD[tuple[int, int]], RDD[tuple[int, int]]]:
    totals = sales.foldByKey(0, add)
    counts = sales.map(lambda kv: (kv[0], 1)).reduceByKey(lambda a, b: b + a)
    return totals, counts
