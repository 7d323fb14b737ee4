"""Non-empty lines by length."""


from pyspark import RDD


def job(lines: RDD[str]) -> RDD[str]:
    return lines.filter(lambda line: len(line) > 0)
