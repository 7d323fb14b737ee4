"""Lines whose first character is "#" (a slice: no error on an empty line)."""


from pyspark import RDD


def job(lines: RDD[str]) -> RDD[str]:
    return lines.filter(lambda line: line[:1] == "#")
