"""Sum, plus t once per element: two aggregations over the same bag."""

from pyspark import RDD


def sum_plus_count(R: RDD[int], t: int) -> int:
    return R.sum() + t * R.count()
