"""The distinct words longer than three characters."""

from pyspark import RDD


def long_words(words: RDD[tuple[str]]) -> RDD[str]:
    return words.map(lambda w: w[0]).filter(lambda w: len(w) > 3).distinct()
