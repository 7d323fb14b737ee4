"""Map, then deduplicate: fine because the map is injective."""

from pyspark import RDD


def dedup_last(R: RDD[int]) -> RDD[int]:
    return R.map(lambda x: 2 * x + 1).distinct()
