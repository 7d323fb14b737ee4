"""Lines starting with "#"."""


from pyspark import RDD


def job(lines: RDD[str]) -> RDD[str]:
    return lines.filter(lambda line: line.startswith("#"))
