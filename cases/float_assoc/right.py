"""Right-associated sum (equal over the reals, not over doubles)."""


from pyspark import RDD


def job(xs: RDD[tuple[float, float, float]]) -> RDD[float]:
    return xs.map(lambda t: t[0] + (t[1] + t[2]))
