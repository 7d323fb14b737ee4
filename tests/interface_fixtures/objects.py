"""Pipelines as Python objects for tests of loading function objects: a closure factory, static
methods and a lambda bound to a name. Never executed by sparkeq (only their source and closure cells
are read)."""

from pyspark import RDD

LIMIT = 50


def above(k: int):
    def keep(R: RDD[int]) -> RDD[int]:  # noqa: N803
        return R.filter(lambda x: x > k)

    return keep


class Jobs:
    @staticmethod
    def double_then_keep(R: RDD[int]) -> RDD[int]:  # noqa: N803
        return R.map(lambda x: x * 2).filter(lambda x: x >= 100)

    @staticmethod
    def keep_then_double(R: RDD[int]) -> RDD[int]:  # noqa: N803
        return R.filter(lambda x: x >= LIMIT).map(lambda x: x * 2)


late = lambda R: R.map(lambda x: x * 2).filter(lambda x: x >= 100)  # noqa: E731
