"""Float total on the driver over the collected list (one fixed order)."""


from pyspark import RDD


def job(xs: RDD[float]) -> float:
    return sum(xs.collect())
