# expect-error: lines 7: annotat
"""R's element type is neither annotated nor inferable from what the pipeline does with it."""

from pyspark import RDD


def how_many(R) -> int:
    return R.distinct().count()
