"""Log parsing: parsed log records (level, status), errors counted per status."""

from pyspark import RDD


def errors(logs: RDD[tuple[str, int]]) -> RDD[tuple[int, int]]:
    errs = logs.filter(lambda r: r[0] == "ERROR")
    return errs.map(lambda r: (r[1], 1)).reduceByKey(lambda a, b: a + b)
