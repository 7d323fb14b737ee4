"""Log parsing: the class of each status code (2 for 2xx...) by floor division."""

from pyspark import RDD


def classes(logs: RDD[tuple[str, int]]) -> RDD[tuple[str, int]]:
    return logs.map(lambda r: (r[0], r[1] // 100))
