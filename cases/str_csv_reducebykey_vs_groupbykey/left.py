"""Total per name from name,amount lines (reduceByKey)."""

from operator import add

from pyspark import RDD


def job(lines: RDD[str]) -> RDD[tuple[str, int]]:
    pairs = lines.map(lambda line: (line.split(",")[0], int(line.split(",")[1])))
    return pairs.reduceByKey(add)
