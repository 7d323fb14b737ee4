# expect-error: lines 9: zipWithIndex
"""zipWithIndex numbers elements by partition position: outside the fragment sparkeq can model."""

from pyspark import RDD


def numbered(R: RDD[int]) -> RDD[tuple[int, int]]:
    positive = R.filter(lambda x: x > 0)
    return positive.zipWithIndex()
