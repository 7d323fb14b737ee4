"""DNA base count with reduceByKey over the characters."""

from operator import add

from pyspark import RDD


def job(seqs: RDD[str]) -> dict[str, int]:
    return seqs.flatMap(lambda s: s.upper()).map(lambda b: (b, 1)).reduceByKey(add).collectAsMap()
