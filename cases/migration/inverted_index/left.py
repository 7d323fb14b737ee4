"""Inverted index statistics: in how many documents each word occurs (a word twice in one document
counts once)."""

from pyspark import RDD


def document_frequency(postings: RDD[tuple[int, str]]) -> RDD[tuple[str, int]]:
    pairs = postings.map(lambda p: (p[1], p[0])).distinct()
    return pairs.map(lambda wd: (wd[0], 1)).reduceByKey(lambda a, b: a + b)
