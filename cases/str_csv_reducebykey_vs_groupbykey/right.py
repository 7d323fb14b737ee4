"""Total per name from name,amount lines (groupByKey then sum)."""


from pyspark import RDD


def job(lines: RDD[str]) -> RDD[tuple[str, int]]:
    pairs = lines.map(lambda line: (line.split(",")[0], int(line.split(",")[1])))
    return pairs.groupByKey().mapValues(sum)
