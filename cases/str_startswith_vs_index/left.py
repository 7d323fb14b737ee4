"""Lines starting with "#"."""

from operator import add

from pyspark import RDD


def job(lines: RDD[str]) -> RDD[str]:
    return lines.filter(lambda line: line.startswith("#"))
