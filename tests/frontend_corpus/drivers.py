"""Driver-code styles: rebinding RDD names, nested defs closing over parameters, bool elements,
actions inside expressions, and unpacking of tuple results."""

from operator import add

from pyspark import RDD


def p_rebind(R: RDD[int]):
    R = R.map(lambda x: x - 1)
    R = R.filter(lambda x: x != 0)
    return R.map(lambda x: 12 // x)


def p_nested_closure(R: RDD[int], k: int):
    def scale(x):
        y = x * k
        if y > 3:
            return y - 3
        return -y
    return R.map(scale).reduce(add)


def p_bool_elements(B: RDD[bool]):
    return B.map(lambda b: b + 1).sum(), B.filter(lambda b: not b).count()


def p_bool_pairs(P: RDD[tuple[int, bool]]):
    return P.filter(lambda kv: kv[1] or kv[0] > 2).map(lambda kv: (kv[0], not kv[1])).distinct()


def p_inline_actions(R: RDD[int], S: RDD[int]):
    return R.count() * 10 + S.count() - (R.sum() if R.count() > 1 else 0)


def p_unpack_results(R: RDD[int]):
    lo, hi = R.aggregate((100, -100), lambda a, x: (min(a[0], x), max(a[1], x)),
                         lambda a, b: (min(a[0], b[0]), max(a[1], b[1])))
    return hi - lo, lo < hi


def p_driver_division(R: RDD[int]):
    n = R.count()
    return R.fold(0, add) // n, n
