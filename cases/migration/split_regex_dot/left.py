"""Version parts, RDD style: each version string cut at its dots (Python's str.split: a literal
separator), one (part, 1) pair per part, counted per part."""

from pyspark import RDD


def parts(versions: RDD[tuple[str]]) -> RDD[tuple[str, int]]:
    return versions.flatMap(lambda v: v[0].split(".")).map(lambda p: (p, 1)).reduceByKey(lambda a, b: a + b)
