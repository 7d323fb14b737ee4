"""One pass with a (sum, count) accumulator."""

from pyspark import RDD


def one_pass(R: RDD[int]) -> tuple[int, int]:
    return R.aggregate(
        (0, 0),
        lambda acc, x: (acc[0] + x, acc[1] + 1),
        lambda a, b: (a[0] + b[0], a[1] + b[1]),
    )
