# expect-error: lines 8: S|RDD|bag
"""A UDF that touches another RDD: Spark forbids RDD operations inside transformations."""

from pyspark import RDD


def nested(R: RDD[int], S: RDD[int]) -> RDD[int]:
    return R.map(lambda x: x + S.count())
