"""The same with aggregateByKey and a (sum, count) accumulator."""

from pyspark import RDD


def aggregated(pairs: RDD[tuple[int, int]]) -> RDD[tuple[int, tuple[int, int]]]:
    return pairs.aggregateByKey(
        (0, 0),
        lambda acc, v: (acc[0] + v, acc[1] + 1),
        lambda a, b: (a[0] + b[0], a[1] + b[1]),
    )
