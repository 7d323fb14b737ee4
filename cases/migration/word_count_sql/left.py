"""Word count, RDD style: one (word, 1) pair per word, summed per word."""

from pyspark import RDD


def word_count(words: RDD[tuple[str]]) -> RDD[tuple[str, int]]:
    return words.map(lambda w: (w[0], 1)).reduceByKey(lambda a, b: a + b)
