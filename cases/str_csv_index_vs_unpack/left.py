"""Parse name,amount lines by indexing the split."""

from operator import add

from pyspark import RDD


def job(lines: RDD[str]) -> RDD[tuple[str, int]]:
    pairs = lines.map(lambda line: line.split(","))
    return pairs.map(lambda p: (p[0], int(p[1]))).reduceByKey(add)
