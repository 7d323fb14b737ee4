"""Top 3 words by count with takeOrdered on the negated count."""

from operator import add

from pyspark import RDD


def top3(words: RDD[str]) -> list[tuple[str, int]]:
    counts = words.map(lambda w: (w, 1)).reduceByKey(add)
    return counts.takeOrdered(3, key=lambda kv: -kv[1])
