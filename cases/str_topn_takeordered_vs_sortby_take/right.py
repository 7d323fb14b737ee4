"""Top 3 words by count: sort by count, descending, then take 3."""

from operator import add

from pyspark import RDD


def top3(words: RDD[str]) -> list[tuple[str, int]]:
    counts = words.map(lambda w: (w, 1)).reduceByKey(add)
    return counts.sortBy(lambda kv: kv[1], ascending=False).take(3)
