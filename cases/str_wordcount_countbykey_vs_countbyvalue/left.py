"""Word count with countByKey on (word, 1) pairs."""


from pyspark import RDD


def job(lines: RDD[str]) -> dict[str, int]:
    return lines.flatMap(lambda line: line.split()).map(lambda w: (w, 1)).countByKey()
