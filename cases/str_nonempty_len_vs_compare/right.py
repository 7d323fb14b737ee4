"""Non-empty lines by comparison with the empty string."""


from pyspark import RDD


def job(lines: RDD[str]) -> RDD[str]:
    return lines.filter(lambda line: line != "")
