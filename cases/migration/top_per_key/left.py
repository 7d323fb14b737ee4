"""Top score per player: the larger of two scores, reduced per key."""

from pyspark import RDD


def best(scores: RDD[tuple[str, int]]) -> RDD[tuple[str, int]]:
    return scores.reduceByKey(lambda a, b: max(a, b))
