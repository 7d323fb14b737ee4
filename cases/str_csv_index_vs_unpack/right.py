"""Parse name,amount lines by unpacking the split (exactly two fields, else ValueError)."""

from operator import add

from pyspark import RDD


def parse(line: str) -> tuple[str, int]:
    name, amount = line.split(",")
    return (name, int(amount))


def job(lines: RDD[str]) -> RDD[tuple[str, int]]:
    return lines.map(parse).reduceByKey(add)
