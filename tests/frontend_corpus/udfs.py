"""UDF bodies: unpacking, local assignments, conditional expressions, errors (ZeroDivisionError)."""

import operator
from operator import add, mul

from pyspark import RDD

BASE = 10


def below(n):
    return lambda v: v < n


def scaled(k):
    m = k + 1
    return lambda v: v * m


def swap(pair):
    (k, v) = pair
    return (v, k)


def nested(p):
    (a, b), c = p
    total = a + b
    total += c
    return total


def inv(x):
    return BASE // x


def p_parametric(R: RDD[int], t: int):
    return R.filter(below(t)).map(scaled(2))


def p_parametric_in_udf(R: RDD[int]):
    return R.map(lambda x: below(2)(x) and below(4)(x + 1))


def p_swap(S: RDD[tuple[int, int]]):
    return S.map(swap)


def p_nested_unpack(T: RDD[tuple[tuple[int, int], int]]):
    return T.map(nested)


def p_division_error(R: RDD[int]):
    return R.map(inv)


def p_guarded_division(R: RDD[int]):
    return R.filter(lambda x: x != 0 and BASE // x > 3)


def p_unused_raising_local(R: RDD[int]):
    def f(x):
        unused = 1 // (x + 1)  # noqa: F841 - evaluated (and may raise) though unused
        return x * 2
    return R.map(f)


def p_branch_assign(R: RDD[int]):
    def f(x):
        if x > 1:
            y = x - 1
        else:
            y = 1 - x
        return operator.mul(y, y)
    return R.map(f)


def p_conditional_expr(R: RDD[int]):
    return R.map(lambda x: x if x >= 0 else -x).filter(lambda x: x <= (3 if BASE > 5 else 1))


def p_operator_funcs(R: RDD[int]):
    return R.map(lambda x: add(x, 1)).map(lambda x: mul(x, x))


def p_tuple_index(S: RDD[tuple[int, int]]):
    return S.map(lambda kv: (kv[0] + kv[1], kv[1] - kv[0] > 0))
