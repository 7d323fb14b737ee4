"""Actions: fold, reduce, aggregate and the simple aggregations, with scalar code after them.

Several are partition-dependent on purpose (``fold(1, add)``, counting with ``fold``, ``reduce(sub)``).
"""

import operator
from operator import add, sub

from pyspark import RDD


def p_sum_mod(R: RDD[int]):
    total = R.sum()
    return total % 5 == 0


def p_fold_zero(R: RDD[int]):
    return R.fold(0, add)


def p_fold_one(R: RDD[int]):
    return R.fold(1, add)


def p_fold_count_bug(R: RDD[int]):
    return R.fold(0, lambda acc, x: acc + 1)


def p_reduce_sub(R: RDD[int]):
    return R.reduce(sub)


def p_reduce_max(R: RDD[int]):
    return R.reduce(lambda a, b: a if a > b else b)


def p_min_max(R: RDD[int]):
    m = R.max()
    return -m, R.min()


def p_count(R):
    return R.map(lambda x: x * x).count()


def p_aggregate_pair(R: RDD[int]):
    s, c = R.aggregate((0, 0), lambda acc, x: (acc[0] + x, acc[1] + 1),
                       lambda a, b: (a[0] + b[0], a[1] + b[1]))
    return s * 2 - c


def p_aggregate_index(R: RDD[int]):
    result = R.aggregate((0, 0), lambda acc, x: (acc[0] + x, max(acc[1], x)),
                         lambda a, b: (a[0] + b[0], max(a[1], b[1])))
    return result[1], result[0] // 2


def p_mean_floor(R: RDD[int]):
    total = R.sum()
    n = R.count()
    return total // n


def p_operator_module(R: RDD[int]):
    return R.map(lambda x: x + 1).fold(0, operator.add)


def p_closure_over_action(R: RDD[int], S: RDD[int]):
    m = R.count()
    return S.filter(lambda x: x < m)


def p_reduce_mul(R: RDD[int]):
    return R.map(lambda x: x % 3 + 1).reduce(operator.mul)
