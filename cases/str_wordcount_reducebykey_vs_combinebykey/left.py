"""Word count from text lines with reduceByKey."""

from operator import add

from pyspark import RDD


def job(lines: RDD[str]) -> RDD[tuple[str, int]]:
    return lines.flatMap(lambda line: line.split()).map(lambda w: (w, 1)).reduceByKey(add)
