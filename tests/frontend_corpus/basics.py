"""Maps and filters written with lambdas, defs, helpers calling helpers, and module constants."""

from pyspark import RDD

OFFSET = 2
SCALE = OFFSET * 3
LIMIT = -1


def double(x):
    return x * 2


def shifted(x):
    return double(x) + OFFSET


def classify(x):
    """if/elif/else with returns."""
    if x < LIMIT:
        return -1
    elif x == 0:
        return 0
    else:
        return x * SCALE


def p_map_lambda(R: RDD[int]):
    return R.map(lambda x: x * 3 - 1)


def p_map_def(R: RDD[int]):
    return R.map(shifted)


def p_filter_chain(R: RDD[int]):
    return R.filter(lambda x: 0 < x < 4).map(lambda x: x ** 2)


def p_if_elif(R: RDD[int]):
    return R.map(classify).filter(lambda y: y != 0)


def p_local_names(R: RDD[int]):
    evens = R.filter(lambda x: x % 2 == 0)
    f = lambda x: x // 2 + OFFSET  # noqa: E731
    return evens.map(f)


def p_builtins(R: RDD[int]):
    return R.map(lambda x: (abs(x), min(x, 1), max(x, -1, LIMIT), -x))


def p_bool_as_int(R):
    return R.map(lambda x: (x > 0) + (x > 2) * 2)


def p_truthy_filter(R):
    return R.filter(lambda x: x % 3)


def p_int_condition(R: RDD[int]):
    def sign(x):
        if x:
            return x // abs(x)
        return 0
    return R.map(sign)


def p_conversions(R: RDD[int]):
    return R.map(lambda x: (int(x > 1), bool(x), not x))


def p_scalar_param(R: RDD[int], t: int):
    return R.filter(lambda x: x >= t).map(lambda x: x - t)


def p_floor_ops(R: RDD[int]):
    return R.map(lambda x: (x // 2, x % 3, -x // 2, x % -2))


def p_and_or(R: RDD[int]):
    return R.filter(lambda x: x > 0 and x % 2 == 1 or x == -4 or not x < 3)
