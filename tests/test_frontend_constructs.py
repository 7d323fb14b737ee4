# ruff: noqa: E501 - the expected programs are single .sl lines
"""One test per supported construct: the SparkLite the frontend produces (compared as ASTs with the
expected program parsed from .sl text; locations are excluded from AST equality)."""

from __future__ import annotations

import pytest

from frontend import translate_source
from sparklite import ast as sl
from sparklite.parser import parse
from sparklite.printer import pretty
from sparklite.typecheck import typecheck

HEADER = 'from operator import add, mul, sub\nimport operator\nfrom pyspark import RDD\n'

CASES = {
    'map_lambda': (
        'def p(R: RDD[int]):\n'
        '    return R.map(lambda x: x + 1)\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  map(lambda (x: Int) -> x + 1)(R)\n'
    ),
    'filter_def': (
        'def pos(x):\n'
        '    return x > 0\n'
        'def p(R: RDD[int]):\n'
        '    return R.filter(pos)\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  def pos(x: Int): Bool = x > 0\n'
        '  filter(pos)(R)\n'
    ),
    'truthy_def': (
        'def odd(x):\n'
        '    return x % 2\n'
        'def p(R: RDD[int]):\n'
        '    return R.filter(odd)\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  def odd(x: Int): Int = x % 2\n'
        '  filter(lambda (x: Int) -> odd(x) != 0)(R)\n'
    ),
    'helpers': (
        'def a(x):\n'
        '    return x * 2\n'
        'def b(x):\n'
        '    return a(x) + a(1)\n'
        'def p(R: RDD[int]):\n'
        '    return R.map(b)\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  def a(x: Int): Int = x * 2\n'
        '  def b(x: Int): Int = a(x) + a(1)\n'
        '  map(b)(R)\n'
    ),
    'module_lambda': (
        'inc = lambda x: x + 1\n'
        'def p(R: RDD[int]):\n'
        '    return R.map(inc)\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  def inc(x: Int): Int = x + 1\n'
        '  map(inc)(R)\n'
    ),
    'const': (
        'K = 3\n'
        'M = K * 2 + 1\n'
        'def p(R: RDD[int]):\n'
        '    return R.map(lambda x: x * M)\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  map(lambda (x: Int) -> x * 7)(R)\n'
    ),
    'param_helper': (
        'def below(n):\n'
        '    return lambda v: v < n\n'
        'def p(R: RDD[int]):\n'
        '    return R.filter(below(3))\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  def below(n: Int) = lambda (v: Int) -> v < n\n'
        '  filter(below(3))(R)\n'
    ),
    'param_helper_def': (
        'def below(n):\n'
        '    def f(v):\n'
        '        return v < n\n'
        '    return f\n'
        'def p(R: RDD[int], t: int):\n'
        '    return R.filter(below(t + 1))\n'
        ,
        'program p(R: Bag[Int], t: Int) =\n'
        '  def below(n: Int) = lambda (v: Int) -> v < n\n'
        '  filter(below(t + 1))(R)\n'
    ),
    'ops': (
        'def p(R: RDD[int]):\n'
        '    return R.map(lambda x: operator.sub(x, 1)).reduce(add)\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  reduce(lambda (a: Int, b: Int) -> a + b)(map(lambda (x: Int) -> x - 1)(R))\n'
    ),
    'op_value': (
        'def p(R: RDD[int]):\n'
        '    return R.fold(1, mul)\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  fold(1, lambda (a: Int, b: Int) -> a * b)(R)\n'
    ),
    'minmax_value': (
        'def p(R: RDD[int]):\n'
        '    return R.reduce(max)\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  reduce(lambda (a: Int, b: Int) -> max(a, b))(R)\n'
    ),
    'ifelif': (
        'def f(x):\n'
        '    if x > 0:\n'
        '        return 1\n'
        '    elif x < 0:\n'
        '        return -1\n'
        '    else:\n'
        '        return 0\n'
        'def p(R: RDD[int]):\n'
        '    return R.map(f)\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  def f(x: Int): Int = if x > 0 then 1 else if x < 0 then -1 else 0\n'
        '  map(f)(R)\n'
    ),
    'ifexp': (
        'def p(R: RDD[int]):\n'
        '    return R.map(lambda x: x if x > 0 else 0)\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  map(lambda (x: Int) -> if x > 0 then x else 0)(R)\n'
    ),
    'chain': (
        'def p(R: RDD[int]):\n'
        '    return R.filter(lambda x: 0 < x < 10)\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  filter(lambda (x: Int) -> 0 < x and x < 10)(R)\n'
    ),
    'boolops': (
        'def p(R: RDD[int]):\n'
        '    return R.filter(lambda x: not (x > 1 and x < 5) or x == 0)\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  filter(lambda (x: Int) -> not (x > 1 and x < 5) or x == 0)(R)\n'
    ),
    'guard': (
        'def p(R: RDD[int]):\n'
        '    return R.filter(lambda x: x != 0 and 10 // x > 1)\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  filter(lambda (x: Int) -> if x != 0 then 10 // x > 1 else false)(R)\n'
    ),
    'unpack': (
        'def f(pair):\n'
        '    (k, v), (kk, w) = pair\n'
        '    return k + w\n'
        'def p(S: RDD[tuple[tuple[int, int], tuple[int, int]]]):\n'
        '    return S.map(f)\n'
        ,
        'program p(S: Bag[((Int, Int), (Int, Int))]) =\n'
        '  def f(pair: ((Int, Int), (Int, Int))): Int = pair[0][0] + pair[1][1]\n'
        '  map(f)(S)\n'
    ),
    'locals': (
        'def f(x):\n'
        '    y = x * 2\n'
        '    y += 1\n'
        '    return y * y\n'
        'def p(R: RDD[int]):\n'
        '    return R.map(f)\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  def f(x: Int): Int = (x * 2 + 1) * (x * 2 + 1)\n'
        '  map(f)(R)\n'
    ),
    'force': (
        'def f(x):\n'
        '    y = 10 // x\n'
        '    return x\n'
        'def p(R: RDD[int]):\n'
        '    return R.map(f)\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  def f(x: Int): Int = if 10 // x == 10 // x then x else x\n'
        '  map(f)(R)\n'
    ),
    'pow': (
        'def p(R: RDD[int]):\n'
        '    return R.map(lambda x: (x ** 0, x ** 1, x ** 3))\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  map(lambda (x: Int) -> ((x, 1)[1], x, x * x * x))(R)\n'  # x ** 0 evaluates x, then 1
    ),
    'boolint': (
        'def p(R: RDD[int]):\n'
        '    return R.map(lambda x: (x > 0) + 1)\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  map(lambda (x: Int) -> (if x > 0 then 1 else 0) + 1)(R)\n'
    ),
    'intcond': (
        'def p(R: RDD[int]):\n'
        '    return R.map(lambda x: 1 if x % 2 else 0)\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  map(lambda (x: Int) -> if x % 2 != 0 then 1 else 0)(R)\n'
    ),
    'conv': (
        'def p(R: RDD[int]):\n'
        '    return R.map(lambda x: (int(x > 0), bool(x)))\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  map(lambda (x: Int) -> (if x > 0 then 1 else 0, x != 0))(R)\n'
    ),
    'flatmap': (
        'def p(R: RDD[int]):\n'
        '    return R.flatMap(lambda x: [x, x + 1])\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  flatMap(lambda (x: Int) -> (x, x + 1))(R)\n'
    ),
    'mapvalues': (
        'def p(S: RDD[tuple[int, int]]):\n'
        '    return S.mapValues(lambda v: v * 2)\n'
        ,
        'program p(S: Bag[(Int, Int)]) =\n'
        '  map(lambda (kv: (Int, Int)) -> (kv[0], kv[1] * 2), preservesPartitioning)(S)\n'
    ),
    'keys_values': (
        'def p(S: RDD[tuple[int, int]]):\n'
        '    return S.keys().union(S.values())\n'
        ,
        'program p(S: Bag[(Int, Int)]) =\n'
        '  union(map(lambda (kv: (Int, Int)) -> kv[0])(S), map(lambda (kv: (Int, Int)) -> kv[1])(S))\n'
    ),
    'join_cart': (
        'def p(S: RDD[tuple[int, int]], T: RDD[tuple[int, int]], R: RDD[int]):\n'
        '    return S.join(T), R.cartesian(R).distinct()\n'
        ,
        'program p(S: Bag[(Int, Int)], T: Bag[(Int, Int)], R: Bag[Int]) =\n'
        '  (join(S, T), distinct(cartesian(R, R)))\n'
    ),
    'aggs': (
        'def p(R: RDD[int]):\n'
        '    return R.sum(), R.count(), R.min(), R.max()\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  (sum(R), count(R), min(R), max(R))\n'
    ),
    'aggregate': (
        'def p(R: RDD[int]):\n'
        '    s, c = R.aggregate((0, 0), lambda a, x: (a[0] + x, a[1] + 1), lambda a, b: (a[0] + b[0], a[1] + b[1]))\n'
        '    return s // c\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  let s_c = aggregate((0, 0), lambda (a: (Int, Int), x: Int) -> (a[0] + x, a[1] + 1), lambda (a: (Int, Int), b: (Int, Int)) -> (a[0] + b[0], a[1] + b[1]))(R)\n'
        '  s_c[0] // s_c[1]\n'
    ),
    'bykey': (
        'def p(S: RDD[tuple[int, int]]):\n'
        '    return S.foldByKey(0, add), S.reduceByKey(add), S.aggregateByKey(0, add, add), S.combineByKey(lambda v: v, add, add)\n'
        ,
        'program p(S: Bag[(Int, Int)]) =\n'
        '  (foldByKey(0, lambda (a: Int, b: Int) -> a + b)(S), reduceByKey(lambda (a: Int, b: Int) -> a + b)(S), aggregateByKey(0, lambda (a: Int, b: Int) -> a + b, lambda (a: Int, b: Int) -> a + b)(S), combineByKey(lambda (v: Int) -> v, lambda (a: Int, b: Int) -> a + b, lambda (a: Int, b: Int) -> a + b)(S))\n'
    ),
    'group': (
        'def p(S: RDD[tuple[int, int]]):\n'
        '    return S.groupByKey().mapValues(max), S.groupByKey().mapValues(lambda vs: sum(vs) // len(vs))\n'
        ,
        'program p(S: Bag[(Int, Int)]) =\n'
        '  (groupByKey(max)(S), map(lambda (kv: (Int, (Int, Int))) -> (kv[0], kv[1][0] // kv[1][1]), preservesPartitioning)(groupByKey(sum, len)(S)))\n'
    ),
    'scalar_post': (
        'def p(R: RDD[int]):\n'
        '    total = R.sum()\n'
        '    m = -total\n'
        '    return total % 5 == 0, m\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  let total = sum(R)\n'
        '  let m = -total\n'
        '  (total % 5 == 0, m)\n'
    ),
    'agg_index': (
        'def p(R: RDD[int]):\n'
        '    r = R.aggregate((0, 0), lambda a, x: (a[0] + x, a[1]), lambda a, b: (a[0] + b[0], a[1]))\n'
        '    return r[0]\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  let r = aggregate((0, 0), lambda (a: (Int, Int), x: Int) -> (a[0] + x, a[1]), lambda (a: (Int, Int), b: (Int, Int)) -> (a[0] + b[0], a[1]))(R)\n'
        '  r[0]\n'
    ),
    'closure_let': (
        'def p(R: RDD[int], S: RDD[int]):\n'
        '    m = R.max()\n'
        '    return S.map(lambda x: x - m)\n'
        ,
        'program p(R: Bag[Int], S: Bag[Int]) =\n'
        '  let m = max(R)\n'
        '  map(lambda (x: Int) -> x - m)(S)\n'
    ),
    'shadow': (
        'def p(x: RDD[int]):\n'
        '    return x.map(lambda x: x + 1)\n'
        ,
        'program p(x: Bag[Int]) =\n'
        '  map(lambda (x_1: Int) -> x_1 + 1)(x)\n'
    ),
    'rdd_helper': (
        'def evens(rdd):\n'
        '    return rdd.filter(lambda x: x % 2 == 0)\n'
        'def p(R: RDD[int]):\n'
        '    return evens(R).count()\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  count(filter(lambda (x: Int) -> x % 2 == 0)(R))\n'
    ),
    'nested_def': (
        'def p(R: RDD[int], t: int):\n'
        '    def f(x):\n'
        '        return x * t\n'
        '    return R.map(f)\n'
        ,
        'program p(R: Bag[Int], t: Int) =\n'
        '  map(lambda (x: Int) -> x * t)(R)\n'
    ),
    'infer': (
        'def p(R, S, t):\n'
        '    return R.map(lambda x: x + t).cartesian(S.filter(lambda kv: kv[0] > 0).reduceByKey(add))\n'
        ,
        'program p(R: Bag[Int], S: Bag[(Int, Int)], t: Int) =\n'
        '  cartesian(map(lambda (x: Int) -> x + t)(R), reduceByKey(lambda (a: Int, b: Int) -> a + b)(filter(lambda (kv: (Int, Int)) -> kv[0] > 0)(S)))\n'
    ),
    'string_ann': (
        "def p(R: 'RDD[tuple[int, bool]]', n: 'int'):\n"
        '    return R.filter(lambda kv: kv[1]).keys()\n'
        ,
        'program p(R: Bag[(Int, Bool)], n: Int) =\n'
        '  map(lambda (kv: (Int, Bool)) -> kv[0])(filter(lambda (kv: (Int, Bool)) -> kv[1])(R))\n'
    ),
    'typing_tuple': (
        'import typing\n'
        'from typing import Tuple\n'
        'def p(R: RDD[Tuple[int, int]], t: typing.Tuple[int, bool]):\n'
        '    return R.map(lambda kv: kv[0] + t[0])\n'
        ,
        'program p(R: Bag[(Int, Int)], t: (Int, Bool)) =\n'
        '  map(lambda (kv: (Int, Int)) -> kv[0] + t[0])(R)\n'
    ),
    'key_by': (
        'def p(R: RDD[int]):\n'
        '    return R.keyBy(lambda x: x % 3)\n',
        'program p(R: Bag[Int]) =\n'
        '  map(lambda (x_1: Int) -> (x_1 % 3, x_1))(R)\n'
    ),
    'group_map': (
        'def p(S: RDD[tuple[int, int]]):\n'
        '    return S.groupByKey().map(lambda x: (x[0], sum(x[1]) - len(x[1])))\n',
        'program p(S: Bag[(Int, Int)]) =\n'
        '  map(lambda (kv: (Int, (Int, Int))) -> (kv[0], kv[1][0] - kv[1][1]))(groupByKey(sum, len)(S))\n'
    ),
    'group_map_unpack': (
        'def f(kv):\n    k, vs = kv\n    return k + min(vs)\n'
        'def p(S: RDD[tuple[int, int]]):\n'
        '    return S.groupByKey().map(f)\n',
        'program p(S: Bag[(Int, Int)]) =\n'
        '  map(lambda (kv_1: (Int, Int)) -> kv_1[0] + kv_1[1])(groupByKey(min)(S))\n'
    ),
    'rebind_rdd': (
        'def p(R: RDD[int]):\n    R = R.map(lambda x: x + 1)\n    R = R.filter(lambda x: x > 0)\n    return R\n',
        'program p(R: Bag[Int]) =\n'
        '  filter(lambda (x: Int) -> x > 0)(map(lambda (x: Int) -> x + 1)(R))\n'
    ),
    'unused_action_is_kept': (
        'def p(R: RDD[int]):\n    n = R.count()\n    return R\n',
        'program p(R: Bag[Int]) =\n  let n = count(R)\n  R\n'
    ),
    'cache_and_action_statements': (
        'def p(R: RDD[int]):\n    R.cache()\n    R.sum()\n    return R.distinct()\n',
        'program p(R: Bag[Int]) =\n  let unused = sum(R)\n  distinct(R)\n'
    ),
    'unused_raising_action_is_kept': (
        'def p(R: RDD[int]):\n    t = R.reduce(lambda a, b: a + b)\n    return R\n',
        'program p(R: Bag[Int]) =\n  let t = reduce(lambda (a: Int, b: Int) -> a + b)(R)\n  R\n'
    ),
    'projected_tuple_keeps_every_action': (
        'def p(R: RDD[int], S: RDD[int]):\n    return (R.max(), S.count())[1]\n',
        'program p(R: Bag[Int], S: Bag[Int]) =\n  (max(R), count(S))[1]\n'
    ),
    'len_of_a_tuple_evaluates_its_elements': (
        'def p(R: RDD[int]):\n    return len((R.max(), 1))\n',
        'program p(R: Bag[Int]) =\n  (max(R), 1, 2)[2]\n'
    ),
    'rdd_tuple_item_that_raises_is_a_let': (
        'def p(R: RDD[int], S: RDD[int]):\n    return (S, R.min())[0]\n',
        'program p(R: Bag[Int], S: Bag[Int]) =\n  let item = min(R)\n  S\n'
    ),
    'raising_helper_argument_and_raising_action_in_a_tuple': (
        'def p(R: RDD[int], S: RDD[int], t: int):\n'
        '    def geq(y):\n        return lambda x: x >= y\n'
        '    B = R.filter(geq(10 // t)).map(lambda x: 10 // x)\n'
        '    return (S, B.count())[0]\n',
        'program p(R: Bag[Int], S: Bag[Int], t: Int) =\n'
        '  let y_1 = 10 // t\n'
        '  let item = count(map(lambda (x: Int) -> 10 // x)(filter(lambda (x: Int) -> x >= y_1)(R)))\n'
        '  S\n'
    ),
    'local_helper_argument_is_hoisted': (
        'def p(R: RDD[int], S: RDD[int], t: int):\n'
        '    def geq(y):\n        return lambda x: x >= y\n'
        '    B = R.map(lambda x: 10 // x).filter(geq(10 // t))\n'
        '    return (S, B.count())[0]\n',
        'program p(R: Bag[Int], S: Bag[Int], t: Int) =\n'
        '  let y_1 = 10 // t\n'
        '  let item = count(filter(lambda (x: Int) -> x >= y_1)(map(lambda (x: Int) -> 10 // x)(R)))\n'
        '  S\n'
    ),
    'action_over_a_let_bound_rdd_may_raise_through_it': (
        'def geq(y):\n    return lambda x: x >= y\n\n'
        'def p(R: RDD[int], S: RDD[int], t: int):\n'
        '    B = R.map(lambda x: 10 // x).filter(geq(10 // t))\n'
        '    return (S, B.count())[0]\n',
        'program p(R: Bag[Int], S: Bag[Int], t: Int) =\n'
        '  def geq(y: Int) = lambda (x: Int) -> x >= y\n'
        '  let B = filter(geq(10 // t))(map(lambda (x: Int) -> 10 // x)(R))\n'
        '  let item = count(B)\n'
        '  S\n'
    ),
    'rdd_helper_argument_is_evaluated_once_at_the_call': (
        'def scale(A, k):\n    return A.map(lambda x: x // k)\n\n'
        'def p(R: RDD[int], S: RDD[int]):\n    return scale(R, S.count())\n',
        'program p(R: Bag[Int], S: Bag[Int]) =\n  let k_1 = count(S)\n  map(lambda (x: Int) -> x // k_1)(R)\n'
    ),
    'unpacked_tuple_is_one_let': (
        'def p(R: RDD[int], S: RDD[int]):\n    a, b = R.max(), S.count()\n    return b\n',
        'program p(R: Bag[Int], S: Bag[Int]) =\n  let a_b = (max(R), count(S))\n  a_b[1]\n'
    ),
    'local_param_helper': (
        'def p(R: RDD[int], t: int):\n'
        '    def above(n):\n        return lambda v: v > n\n'
        '    def f(x):\n        return above(x + 1)(t)\n'
        '    return R.filter(above(t * 2)).map(f)\n',
        'program p(R: Bag[Int], t: Int) =\n'
        '  let n_2 = t * 2\n'
        '  map(lambda (x: Int) -> apply(lambda (n_1: Int, v: Int) -> v > n_1)(x + 1, t))(filter(lambda (v: Int) -> v > n_2)(R))\n'
    ),
    # --- strings, floats, None, lists and ordered results ---
    'str_word_count': (
        'def p(lines: RDD[str]):\n'
        '    return lines.flatMap(lambda l: l.split()).map(lambda w: (w, 1)).reduceByKey(add)\n'
        ,
        'program p(lines: Bag[Str]) =\n'
        '  reduceByKey(lambda (a: Int, b: Int) -> a + b)(map(lambda (w: Str) -> (w, 1))(flatMap(lambda (l: Str) -> str.split(l))(lines)))\n'
    ),
    'str_unpack_split_in_def': (
        'def pair(line):\n'
        '    k, v = line.split(",")\n'
        '    return (k.strip(), int(v))\n'
        'def p(lines: RDD[str]):\n'
        '    return lines.map(pair)\n'
        ,
        'program p(lines: Bag[Str]) =\n'
        '  def pair(line: Str): (Str, Int) = (str.strip(py.unpack(str.split(line, ","), 2)[0]), int(py.unpack(str.split(line, ","), 2)[1]))\n'
        '  map(pair)(lines)\n'
    ),
    'unpack_evaluated_first_in_python_order': (
        'def f(line):\n'
        '    a, b = line.split(",")\n'
        '    k = int(a)\n'
        '    v = float(b)\n'
        '    return (v, k)\n'
        'def p(R: RDD[str]):\n'
        '    return R.map(f)\n'
        ,
        'program p(R: Bag[Str]) =\n'
        '  def f(line: Str): (Float, Int) = if int(py.unpack(str.split(line, ","), 2)[0]) == int(py.unpack(str.split(line, ","), 2)[0]) then (float(py.unpack(str.split(line, ","), 2)[1]), int(py.unpack(str.split(line, ","), 2)[0])) else (float(py.unpack(str.split(line, ","), 2)[1]), int(py.unpack(str.split(line, ","), 2)[0]))\n'
        '  map(f)(R)\n'
    ),
    'unused_unpacking_still_raises': (
        'def f(line):\n'
        '    a, b = line.split(",")\n'
        '    return 1\n'
        'def p(R: RDD[str]):\n'
        '    return R.map(f)\n'
        ,
        'program p(R: Bag[Str]) =\n'
        '  def f(line: Str): Int = if py.unpack(str.split(line, ","), 2) == py.unpack(str.split(line, ","), 2) then 1 else 1\n'
        '  map(f)(R)\n'
    ),
    'int_operand_converted_to_float': (
        'def p(R: RDD[int]):\n'
        '    return R.map(lambda x: x * 0.5 + 1)\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  map(lambda (x: Int) -> float(x) * 0.5 + 1.0)(R)\n'
    ),
    'left_int_converted_after_a_raising_right': (
        'def p(S: RDD[tuple[int, int]]):\n'
        '    return S.map(lambda kv: kv[0] + 1.0 / kv[1])\n'
        ,
        'program p(S: Bag[(Int, Int)]) =\n'
        '  map(lambda (kv: (Int, Int)) -> apply(lambda (a: Int, b: Float) -> float(a) + b)(kv[0], 1.0 / float(kv[1])))(S)\n'
    ),
    'int_true_division': (
        'def p(S: RDD[tuple[int, int]]):\n'
        '    return S.map(lambda kv: kv[0] / kv[1])\n'
        ,
        'program p(S: Bag[(Int, Int)]) =\n'
        '  map(lambda (kv: (Int, Int)) -> kv[0] / kv[1])(S)\n'
    ),
    'bool_plus_float': (
        'def p(R: RDD[bool]):\n'
        '    return R.map(lambda b: b + 0.5)\n'
        ,
        'program p(R: Bag[Bool]) =\n'
        '  map(lambda (b: Bool) -> (if b then 1.0 else 0.0) + 0.5)(R)\n'
    ),
    'fstring': (
        'def p(R: RDD[int]):\n'
        '    return R.map(lambda x: f"{x}-{x * 2}!")\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  map(lambda (x: Int) -> str(x) + "-" + str(x * 2) + "!")(R)\n'
    ),
    'list_comprehension_with_if': (
        'def p(R: RDD[str]):\n'
        '    return R.map(lambda line: [int(x) for x in line.split(",") if x])\n'
        ,
        'program p(R: Bag[Str]) =\n'
        '  map(lambda (line: Str) -> [int(x) for x: Str in str.split(line, ",") if x != ""])(R)\n'
    ),
    'list_display_in_map': (
        'def p(R: RDD[str]):\n'
        '    return R.map(lambda w: [w, w.upper()])\n'
        ,
        'program p(R: Bag[Str]) =\n'
        '  map(lambda (w: Str) -> [w, str.upper(w)])(R)\n'
    ),
    'list_display_flatmap_is_a_tuple': (
        'def p(R: RDD[str]):\n'
        '    return R.flatMap(lambda w: [w, w.lower()])\n'
        ,
        'program p(R: Bag[Str]) =\n'
        '  flatMap(lambda (w: Str) -> (w, str.lower(w)))(R)\n'
    ),
    'flatmap_string_characters': (
        'def p(R: RDD[str]):\n'
        '    return R.flatMap(lambda s: s).union(R.flatMap(list))\n'
        ,
        'program p(R: Bag[Str]) =\n'
        '  union(flatMap(lambda (s: Str) -> s)(R), flatMap(lambda (a: Str) -> [c for c: Str in a])(R))\n'
    ),
    'none_check_narrows_outer_join_value': (
        'def p(S: RDD[tuple[int, int]], T: RDD[tuple[int, int]]):\n'
        '    return S.leftOuterJoin(T).map(lambda kv: kv[1][1] + 1 if kv[1][1] is not None else 0)\n'
        ,
        'program p(S: Bag[(Int, Int)], T: Bag[(Int, Int)]) =\n'
        '  map(lambda (kv: (Int, (Int, Option[Int]))) -> if not py.is_none(kv[1][1]) then py.unwrap(kv[1][1]) + 1 else 0)(leftOuterJoin(S, T))\n'
    ),
    'none_check_in_if_statement': (
        'def f(kv):\n'
        '    k, (v, w) = kv\n'
        '    if w is None:\n'
        '        return (k, v)\n'
        '    return (k, v + w)\n'
        'def p(S: RDD[tuple[int, int]], T: RDD[tuple[int, int]]):\n'
        '    return S.leftOuterJoin(T).map(f)\n'
        ,
        'program p(S: Bag[(Int, Int)], T: Bag[(Int, Int)]) =\n'
        '  def f(kv: (Int, (Int, Option[Int]))): (Int, Int) = if py.is_none(kv[1][1]) then (kv[0], kv[1][0]) else (kv[0], kv[1][0] + py.unwrap(kv[1][1]))\n'
        '  map(f)(leftOuterJoin(S, T))\n'
    ),
    'unchecked_optional_is_unwrapped': (
        'def p(S: RDD[tuple[int, int]], T: RDD[tuple[int, int]]):\n'
        '    return S.fullOuterJoin(T).mapValues(lambda vw: vw[1] * 2)\n'
        ,
        'program p(S: Bag[(Int, Int)], T: Bag[(Int, Int)]) =\n'
        '  map(lambda (kv: (Int, (Option[Int], Option[Int]))) -> (kv[0], py.unwrap(kv[1][1]) * 2), preservesPartitioning)(fullOuterJoin(S, T))\n'
    ),
    'none_literal_makes_an_option': (
        'def p(R: RDD[int]):\n'
        '    return R.map(lambda x: None if x < 0 else x).filter(lambda v: v is not None and v > 1)\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  filter(lambda (v: Option[Int]) -> if not py.is_none(v) then py.unwrap(v) > 1 else false)(map(lambda (x: Int) -> if x < 0 then None else x)(R))\n'
    ),
    'string_index_slice': (
        'def p(R: RDD[str]):\n'
        '    return R.map(lambda s: (s[0], s[-1], s[1:3], s[:2]))\n'
        ,
        'program p(R: Bag[Str]) =\n'
        '  map(lambda (s: Str) -> (py.getitem(s, 0), py.getitem(s, -1), py.slice(s, 1, 3), py.slice(s, None, 2)))(R)\n'
    ),
    'tuple_negative_index': (
        'def p(S: RDD[tuple[int, int, int]]):\n'
        '    return S.map(lambda t: t[-1] - t[-3])\n'
        ,
        'program p(S: Bag[(Int, Int, Int)]) =\n'
        '  map(lambda (t: (Int, Int, Int)) -> t[2] - t[0])(S)\n'
    ),
    'membership': (
        'def p(R: RDD[str]):\n'
        '    return R.filter(lambda s: s[0] in ("a", "b") and "x" not in s)\n'
        ,
        'program p(R: Bag[Str]) =\n'
        '  filter(lambda (s: Str) -> py.getitem(s, 0) in ["a", "b"] and not "x" in s)(R)\n'
    ),
    'truth_of_str_float_list': (
        'def p(R: RDD[str], F: RDD[float], L: RDD[list[int]]):\n'
        '    return R.filter(lambda s: s), F.filter(lambda f: not f), L.filter(lambda xs: xs)\n'
        ,
        'program p(R: Bag[Str], F: Bag[Float], L: Bag[List[Int]]) =\n'
        '  (filter(lambda (s: Str) -> s != "")(R), filter(lambda (f: Float) -> not f != 0.0)(F), filter(lambda (xs: List[Int]) -> len(xs) != 0)(L))\n'
    ),
    'string_methods': (
        'def p(R: RDD[str]):\n'
        '    return R.map(lambda s: (s.strip().lower(), s.upper(), s.startswith("a"), s.endswith("b"), s.replace("a", "b"), s.split(";")))\n'
        ,
        'program p(R: Bag[Str]) =\n'
        '  map(lambda (s: Str) -> (str.lower(str.strip(s)), str.upper(s), str.startswith(s, "a"), str.endswith(s, "b"), str.replace(s, "a", "b"), str.split(s, ";")))(R)\n'
    ),
    'numeric_builtins': (
        'import math\n'
        'from math import sqrt\n'
        'def p(R: RDD[float]):\n'
        '    return R.map(lambda x: (int(x), round(x), round(x, 2), abs(x), math.floor(x), math.ceil(x), sqrt(x), float("nan"), math.pi))\n'
        ,
        'program p(R: Bag[Float]) =\n'
        '  map(lambda (x: Float) -> (int(x), round(x), round(x, 2), abs(x), math.floor(x), math.ceil(x), math.sqrt(x), float("nan"), 3.141592653589793))(R)\n'
    ),
    'str_and_float_conversions': (
        'def p(R: RDD[str]):\n'
        '    return R.map(lambda s: (int(s), float(s), str(len(s)) + s))\n'
        ,
        'program p(R: Bag[Str]) =\n'
        '  map(lambda (s: Str) -> (int(s), float(s), str(len(s)) + s))(R)\n'
    ),
    'list_builtins': (
        'def p(R: RDD[str]):\n'
        '    return R.map(lambda s: s.split()).filter(lambda ws: ws).map(lambda ws: (len(ws), max(ws), sorted(ws), sum([len(w) for w in ws])))\n'
        ,
        'program p(R: Bag[Str]) =\n'
        '  map(lambda (ws: List[Str]) -> (len(ws), max(ws,), sorted(ws), sum([len(w) for w: Str in ws],)))(filter(lambda (ws: List[Str]) -> len(ws) != 0)(map(lambda (s: Str) -> str.split(s))(R)))\n'
    ),
    'module_constants_of_new_types': (
        'SEP = ","\n'
        'RATE = 1 / 4\n'
        'NAME = "a" + "b"\n'
        'def p(R: RDD[str]):\n'
        '    return R.map(lambda s: (s.split(SEP), RATE, NAME))\n'
        ,
        'program p(R: Bag[Str]) =\n'
        '  map(lambda (s: Str) -> (str.split(s, ","), 0.25, "ab"))(R)\n'
    ),
    'ordered_actions_on_the_driver': (
        'def p(R: RDD[int]):\n'
        '    best = R.top(2)\n'
        '    a, b = R.take(2)\n'
        '    return best[0] + a, R.takeOrdered(3, key=lambda x: -x), R.first()\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  let best = top(2)(R)\n'
        '  let a_b = py.unpack(take(2)(R), 2)\n'
        '  (py.getitem(best, 0) + a_b[0], takeOrdered(3, lambda (x: Int) -> -x)(R), first(R))\n'
    ),
    'returned_collect_is_the_rdd': (
        'def p(R: RDD[int]):\n'
        '    return R.sortBy(lambda x: -x).collect()\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  sortBy(lambda (x: Int) -> -x)(R)\n'
    ),
    'collect_used_on_the_driver': (
        'def p(S: RDD[tuple[str, int]]):\n'
        '    xs = S.collect()\n'
        '    return sorted(S.values().collect()), len(xs)\n'
        ,
        'program p(S: Bag[(Str, Int)]) =\n'
        '  let xs = collect(S)\n'
        '  (sorted(collect(map(lambda (kv: (Str, Int)) -> kv[1])(S))), len(xs))\n'
    ),
    'outer_joins_subtract_intersection': (
        'def p(S: RDD[tuple[int, int]], T: RDD[tuple[int, int]]):\n'
        '    return S.rightOuterJoin(T), S.subtract(T), S.intersection(T), S.keyBy(lambda kv: kv[1])\n'
        ,
        'program p(S: Bag[(Int, Int)], T: Bag[(Int, Int)]) =\n'
        '  (rightOuterJoin(S, T), subtract(S, T), intersection(S, T), map(lambda (x: (Int, Int)) -> (x[1], x))(S))\n'
    ),
    'flat_map_values': (
        'def p(S: RDD[tuple[int, str]]):\n'
        '    return S.flatMapValues(lambda s: s.split()), S.flatMapValues(lambda s: (s, s))\n'
        ,
        'program p(S: Bag[(Int, Str)]) =\n'
        '  (flatMap(lambda (kv: (Int, Str)) -> [(kv[0], y) for y: Str in str.split(kv[1])], preservesPartitioning)(S), flatMap(lambda (kv: (Int, Str)) -> ((kv[0], kv[1]), (kv[0], kv[1])), preservesPartitioning)(S))\n'
    ),
    'group_lists': (
        'def p(S: RDD[tuple[int, str]]):\n'
        '    return S.groupByKey().mapValues(list), S.groupByKey().mapValues(sorted), S.groupByKey().mapValues(lambda vs: [v.upper() for v in vs])\n'
        ,
        'program p(S: Bag[(Int, Str)]) =\n'
        '  (groupByKey(list)(S), map(lambda (kv: (Int, List[Str])) -> (kv[0], sorted(kv[1])), preservesPartitioning)(groupByKey(list)(S)), map(lambda (kv: (Int, List[Str])) -> (kv[0], [str.upper(v) for v: Str in kv[1]]), preservesPartitioning)(groupByKey(list)(S)))\n'
    ),
    'group_average_float': (
        'def p(S: RDD[tuple[str, int]]):\n'
        '    return S.groupByKey().mapValues(lambda vs: sum(vs) / len(vs))\n'
        ,
        'program p(S: Bag[(Str, Int)]) =\n'
        '  map(lambda (kv: (Str, (Int, Int))) -> (kv[0], kv[1][0] / kv[1][1]), preservesPartitioning)(groupByKey(sum, len)(S))\n'
    ),
    'sort_by_key_with_keyfunc': (
        'def p(S: RDD[tuple[str, int]]):\n'
        '    return S.sortByKey(ascending=True, keyfunc=lambda k: k.lower()).take(2)\n'
        ,
        'program p(S: Bag[(Str, Int)]) =\n'
        '  take(2)(sortBy(lambda (kv_1: (Str, Int)) -> str.lower(kv_1[0]))(S))\n'
    ),
    'forced_locals_share_one_test': (
        'def f(line):\n'
        '    parts = line.split(",")\n'
        '    name = parts[0]\n'
        '    qty = int(parts[1])\n'
        '    price = float(parts[2])\n'
        '    return (qty * price, name)\n'
        'def p(R: RDD[str]):\n'
        '    return R.map(f)\n'
        ,
        'program p(R: Bag[Str]) =\n'
        '  def f(line: Str): (Float, Str) = if (py.getitem(str.split(line, ","), 0), int(py.getitem(str.split(line, ","), 1)), float(py.getitem(str.split(line, ","), 2))) == (py.getitem(str.split(line, ","), 0), int(py.getitem(str.split(line, ","), 1)), float(py.getitem(str.split(line, ","), 2))) then (apply(lambda (a: Int, b: Float) -> float(a) * b)(int(py.getitem(str.split(line, ","), 1)), float(py.getitem(str.split(line, ","), 2))), py.getitem(str.split(line, ","), 0)) else (apply(lambda (a: Int, b: Float) -> float(a) * b)(int(py.getitem(str.split(line, ","), 1)), float(py.getitem(str.split(line, ","), 2))), py.getitem(str.split(line, ","), 0))\n'
        '  map(f)(R)\n'
    ),
    'float_sum_divided_by_count': (
        'def p(R: RDD[float]):\n'
        '    return R.sum() / R.count(), R.sum() / 2\n'
        ,
        'program p(R: Bag[Float]) =\n'
        '  (sum(R) / float(count(R)), sum(R) / 2.0)\n'
    ),
    'narrowed_comprehension_element': (
        'def p(R: RDD[list[Optional[int]]]):\n'
        '    return R.map(lambda xs: [x + 1 for x in xs if x is not None])\n'
        ,
        'program p(R: Bag[List[Option[Int]]]) =\n'
        '  map(lambda (xs: List[Option[Int]]) -> [py.unwrap(x) + 1 for x: Option[Int] in xs if not py.is_none(x)])(R)\n'
    ),
    'unpacking_comprehension_target': (
        'def p(R: RDD[str]):\n'
        '    return R.map(lambda line: [(a, int(b)) for a, b in [line.split(",")]])\n'
        ,
        'program p(R: Bag[Str]) =\n'
        '  map(lambda (line: Str) -> [(py.unpack(item, 2)[0], int(py.unpack(item, 2)[1])) for item: List[Str] in [str.split(line, ",")]])(R)\n'
    ),
    'user_defs_named_like_builtins': (
        'def sum(x):\n'
        '    return x + 1\n'
        'def round(a, b):\n'
        '    return a\n'
        'def p(R: RDD[int]):\n'
        '    return R.map(sum).reduce(round)\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  def sum_fn(x: Int): Int = x + 1\n'
        '  def round_fn(a: Int, b: Int): Int = a\n'
        '  reduce(round_fn)(map(sum_fn)(R))\n'
    ),
    'unused_sort_is_built_where_python_builds_it': (
        'def p(R: RDD[int]):\n'
        '    s = R.sortBy(lambda x: 10 // x)\n'
        '    return R.count()\n'
        ,
        'program p(R: Bag[Int]) =\n'
        '  let s = sortBy(lambda (x: Int) -> 10 // x)(R)\n'
        '  count(R)\n'
    ),
    'builtins_as_functions': (
        'def p(R: RDD[list[int]], S: RDD[tuple[int, int]]):\n'
        '    return R.filter(lambda xs: xs).map(max), S.reduceByKey(max), R.map(lambda xs: None).filter(lambda n: n), R.map(len), S.values().map(str)\n'
        ,
        'program p(R: Bag[List[Int]], S: Bag[(Int, Int)]) =\n'
        '  (map(lambda (a: List[Int]) -> max(a,))(filter(lambda (xs: List[Int]) -> len(xs) != 0)(R)), reduceByKey(lambda (a: Int, b: Int) -> max(a, b))(S), filter(lambda (n: None) -> not py.is_none(n))(map(lambda (xs: List[Int]) -> None)(R)), map(lambda (a: List[Int]) -> len(a))(R), map(lambda (a: Int) -> str(a))(map(lambda (kv: (Int, Int)) -> kv[1])(S)))\n'
    ),
    'sorting_and_dicts': (
        'def p(S: RDD[tuple[str, int]]):\n'
        '    return S.sortBy(lambda kv: kv[1], ascending=False).collect(), S.sortByKey(False), S.countByKey(), S.countByValue(), S.collectAsMap()\n'
        ,
        'program p(S: Bag[(Str, Int)]) =\n'
        '  let item = collect(sortBy(lambda (kv: (Str, Int)) -> kv[1], descending)(S))\n'
        '  let item_1 = sortBy(lambda (kv: (Str, Int)) -> kv[0], descending)(S)\n'
        '  let item_2 = countByValue(map(lambda (kv: (Str, Int)) -> kv[0])(S))\n'
        '  let item_3 = countByValue(S)\n'  # may raise (an RDD with no partition): kept in order
        '  (item, item_1, item_2, item_3, collectAsMap(S))\n'
    ),
    'module_list_and_set_constants_in_membership': (
        'STOP = ["a", "the"]\n'
        'MARKS = {".", "!"}\n'
        'PAIR = ("b", "c")\n'
        'def p(R: RDD[str]):\n'
        '    return R.flatMap(lambda l: l.split()).filter(lambda w: w not in STOP and w[-1] not in MARKS and w not in PAIR and w in {"q", "r"})\n'
        ,
        'program p(R: Bag[Str]) =\n'
        '  filter(lambda (w: Str) -> if not w in ["a", "the"] then not py.getitem(w, -1) in ["!", "."] and (not w in ["b", "c"] and w in ["q", "r"]) else false)(flatMap(lambda (l: Str) -> str.split(l))(R))\n'
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_construct(name: str) -> None:
    source, expected = CASES[name]
    program = translate_source(HEADER + source, filename="t.py")
    assert program == parse(expected), pretty(program)
    typecheck(program)


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_node_is_located(name: str) -> None:
    source, _ = CASES[name]
    program = translate_source(HEADER + source, filename="t.py")
    for node in sl.walk(program):
        assert node.loc is not None and node.loc.file == "t.py", node
        assert node.loc.line > len(HEADER.splitlines()), node


def test_program_name_params_and_locations() -> None:
    src = "def other(x):\n    return x\n\ndef pipe(A: 'RDD[int]', t: int):\n    return A.map(lambda x: x + t)\n"
    program = translate_source(src, filename="f.py")
    assert program.name == "pipe"
    assert [p.name for p in program.params] == ["A", "t"]
    assert program.loc == sl.Loc("f.py", 4, 1)
    assert program.params[1].loc == sl.Loc("f.py", 4, 25)
    body = program.body
    assert isinstance(body, sl.Map) and body.loc == sl.Loc("f.py", 5, 12)
    assert isinstance(body.fn, sl.Lambda) and body.fn.loc == sl.Loc("f.py", 5, 18)


def test_explicit_function_choice() -> None:
    src = "def a(R: 'RDD[int]'):\n    return R.count()\n\ndef b(R: 'RDD[int]'):\n    return R.sum()\n"
    assert translate_source(src, "b").body == sl.SimpleAgg("sum", sl.Var("R"))
    assert translate_source(src, "a").name == "a"


def test_rdd_helper_does_not_make_pipeline_ambiguous() -> None:
    src = ("def evens(rdd):\n    return rdd.filter(lambda x: x % 2 == 0)\n\n"
           "def main(R: 'RDD[int]'):\n    return evens(R).count()\n")
    assert translate_source(src).name == "main"


def test_translate_file(tmp_path) -> None:
    from frontend import translate_file

    path = tmp_path / "job.py"
    path.write_text("def job(R: 'RDD[int]'):\n    return R.distinct()\n")
    program = translate_file(str(path))
    assert program == parse("program job(R: Bag[Int]) =\n  distinct(R)\n")
    assert program.loc == sl.Loc(str(path), 1, 1)

