"""Left-associated sum of three floats."""


from pyspark import RDD


def job(xs: RDD[tuple[float, float, float]]) -> RDD[float]:
    return xs.map(lambda t: (t[0] + t[1]) + t[2])
