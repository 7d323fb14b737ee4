"""max() of (score, id) pairs vs the pair with the largest score by reduce: ties on the score differ."""

from pyspark import RDD


def best(R: RDD[tuple[int, int]]) -> tuple[int, int]:
    return R.max()
