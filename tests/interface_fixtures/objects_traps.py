"""Function objects whose source alone would mislead the loader (found in review)."""

import functools

from pyspark import RDD

inc = lambda R: R.map(lambda x: x + 1); dec = lambda R: R.map(lambda x: x - 1)  # noqa: E702, E731


def times_ten(f):
    @functools.wraps(f)
    def wrapper(R):
        return f(R).map(lambda x: x * 10)
    return wrapper


@times_ten
def decorated(R: RDD[int]) -> RDD[int]:
    return R.filter(lambda x: x > 2)


def plain(R: RDD[int]) -> RDD[int]:
    return R.filter(lambda x: x > 2)


def dup(R: RDD[int]) -> RDD[int]:
    return R.filter(lambda x: x > 2)


first_dup = dup


def dup(R: RDD[int]) -> RDD[int]:  # noqa: F811 - the point: the name now means another function
    return R.filter(lambda x: x > 100)
