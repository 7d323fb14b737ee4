"""Word count with combineByKey."""


from pyspark import RDD


def job(lines: RDD[str]) -> RDD[tuple[str, int]]:
    words = lines.flatMap(lambda line: line.split())
    return words.map(lambda w: (w, 1)).combineByKey(lambda v: v, lambda c, v: c + v, lambda a, b: a + b)
