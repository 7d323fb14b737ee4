"""Word count with countByValue."""


from pyspark import RDD


def job(lines: RDD[str]) -> dict[str, int]:
    return lines.flatMap(lambda line: line.split()).countByValue()
