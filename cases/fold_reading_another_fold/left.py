"""An aggregation whose function reads another aggregation's final result (found in review: the
joint-fold proof read the running maximum instead of the final one and wrongly proved this)."""

from pyspark import RDD


def left(R: RDD[int]) -> int:
    P = R.filter(lambda x: x > 0)
    m = P.fold(0, lambda a, x: max(a, x))
    c = P.count()
    s = P.aggregate(0, lambda a, x: a + (x - m if x > m else 0), lambda a, b: a + b)
    return s if c >= 2 else m
