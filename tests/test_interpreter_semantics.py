"""The interpreter pinned to every fact of shared/design/spark-semantics.md and to the PySpark code paths
it models (see docs/semantics-notes.md). Real-Spark confirmation of the same behaviour is in
test_interpreter_vs_spark.py; here the numbers are checked directly."""

from __future__ import annotations

import itertools
import random

import pytest

from sparklite import ast as A
from sparklite.interpreter import LazyBag, evaluate, portable_hash, run
from sparklite.partitions import random_partitioning
from sparklite.types import BOOL, INT, BagType, TupleType
from sparklite.values import Bag, ErrorOutcome

V = A.Var
I = A.IntLit  # noqa: E741
PAIR = TupleType((INT, INT))
ZDE = ErrorOutcome("ZeroDivisionError")
VE = ErrorOutcome("ValueError")


def lam(params: str, body: A.Expr) -> A.Lambda:
    return A.Lambda(tuple(A.Param(n) for n in params.split(",")), body)


def op(sym: str, a: A.Expr, b: A.Expr) -> A.BinOp:
    return A.BinOp(sym, a, b)  # type: ignore[arg-type]


ADD = lam("a,b", op("+", V("a"), V("b")))
SUB = lam("a,b", op("-", V("a"), V("b")))


def prog(body: A.Expr, elem=INT, lets=(), params=None, defs=()) -> A.Program:
    params = params if params is not None else (A.Param("R", BagType(elem)),)
    return A.Program("P", tuple(params), tuple(defs), tuple(lets), body)


def parts_of(program: A.Program, inputs, partitions=None):
    value = evaluate(program, inputs, partitions)
    assert isinstance(value, LazyBag)
    return [list(p) for p in value.parts()]


# -- the facts of spark-semantics.md ----------------------------------------------------------------


def test_fold_applies_zero_per_partition_and_at_the_driver() -> None:
    p = prog(A.Fold(I(10), ADD, V("R")))
    assert run(p, {"R": [1, 2, 3]}) == 26
    assert run(p, {}, {"R": ((1,), (2,), (3,))}) == 46
    assert run(p, {}, {"R": ((), ())}) == 30
    assert run(p, {"R": []}) == 20


def test_counting_with_fold_counts_partitions() -> None:
    p = prog(A.Fold(I(0), lam("a,x", op("+", V("a"), I(1))), V("R")))
    assert run(p, {"R": [1, 2, 3, 4]}) == 1
    assert run(p, {}, {"R": ((1, 2), (3, 4))}) == 2
    ok = prog(A.Aggregate(I(0), lam("a,x", op("+", V("a"), I(1))), ADD, V("R")))
    assert run(ok, {}, {"R": ((1, 2), (3, 4))}) == 4 == run(ok, {"R": [1, 2, 3, 4]})
    assert run(prog(A.SimpleAgg("count", V("R"))), {}, {"R": ((1, 2), (), (3, 4))}) == 4


def test_fold_by_key_zero_per_partition_and_key() -> None:
    p = prog(A.FoldByKey(I(1), ADD, V("R")), elem=PAIR)
    assert run(p, {"R": [(7, 1), (7, 2)]}) == Bag.of([(7, 4)])
    assert run(p, {}, {"R": (((7, 1),), ((7, 2),))}) == Bag.of([(7, 5)])


def test_reduce_min_max_of_empty_raise_value_error_sum_is_zero() -> None:
    for body in (A.Reduce(ADD, V("R")), A.SimpleAgg("min", V("R")), A.SimpleAgg("max", V("R"))):
        assert run(prog(body), {"R": []}) == VE
        assert run(prog(body), {}, {"R": ((), (), ())}) == VE
    assert run(prog(A.SimpleAgg("sum", V("R"))), {"R": []}) == 0
    assert run(prog(A.SimpleAgg("sum", V("R"))), {}, {"R": ((), ())}) == 0
    assert run(prog(A.SimpleAgg("count", V("R"))), {"R": []}) == 0


def test_reduce_skips_empty_partitions_and_depends_on_partitioning() -> None:
    p = prog(A.Reduce(SUB, V("R")))
    assert run(p, {"R": [1, 2, 3]}) == -4                       # (1 - 2) - 3
    assert run(p, {}, {"R": ((1,), (2, 3))}) == 2               # 1 - (2 - 3)
    assert run(p, {}, {"R": ((), (1,), (), (2, 3), ())}) == 2   # empty partitions contribute nothing
    assert run(prog(A.SimpleAgg("min", V("R"))), {}, {"R": ((), (4, -2), (3,))}) == -2


def test_aggregate_uses_comb_at_the_driver_from_zero() -> None:
    seq = lam("a,x", op("+", V("a"), V("x")))
    comb = lam("a,b", op("-", V("a"), V("b")))
    p = prog(A.Aggregate(I(1), seq, comb, V("R")))
    assert run(p, {"R": [1, 2]}) == 1 - (1 + 1 + 2)
    assert run(p, {}, {"R": ((1,), (2,))}) == (1 - 2) - 3


@pytest.mark.parametrize("a,b", list(itertools.product([-7, -6, -1, 0, 1, 6, 7], [-3, -2, -1, 0, 1, 2, 3])))
def test_floor_division_and_modulo_are_pythons(a: int, b: int) -> None:
    p = prog(A.TupleExpr((op("//", V("a"), V("b")), op("%", V("a"), V("b")))),
             params=(A.Param("a", INT), A.Param("b", INT)))
    expected = ZDE if b == 0 else (a // b, a % b)
    assert run(p, {"a": a, "b": b}) == expected


def test_floor_examples_from_the_design() -> None:
    p = prog(op("//", I(-7), I(2)), params=())
    assert run(p, {}) == -4
    assert run(prog(op("%", I(-7), I(2)), params=()), {}) == 1
    assert run(prog(op("%", I(7), I(-2)), params=()), {}) == -1


def test_ints_are_unbounded() -> None:
    p = prog(A.Fold(I(1), lam("a,x", op("*", V("a"), V("x"))), V("R")))
    assert run(p, {"R": [2**40, 2**40, 3]}) == 3 * 2**80


# -- partitions of narrow operators -----------------------------------------------------------------


def test_map_filter_flatmap_keep_partitions() -> None:
    src = ((1, 2), (), (3,))
    m = prog(A.Map(lam("x", op("*", V("x"), I(10))), V("R")))
    assert parts_of(m, {}, {"R": src}) == [[10, 20], [], [30]]
    f = prog(A.Filter(lam("x", op(">", V("x"), I(1))), V("R")))
    assert parts_of(f, {}, {"R": src}) == [[2], [], [3]]
    fm = prog(A.FlatMap(lam("x", A.TupleExpr((V("x"), op("+", V("x"), I(100))))), V("R")))
    assert parts_of(fm, {}, {"R": src}) == [[1, 101, 2, 102], [], [3, 103]]


def test_union_concatenates_and_cartesian_layout() -> None:
    params = (A.Param("R", BagType(INT)), A.Param("S", BagType(INT)))
    u = prog(A.Union(V("R"), V("S")), params=params)
    assert parts_of(u, {}, {"R": ((1,), (2,)), "S": ((3,),)}) == [[1], [2], [3]]
    c = prog(A.Cartesian(V("R"), V("S")), params=params)
    got = parts_of(c, {}, {"R": ((1, 2), (3,)), "S": ((4,), (), (5, 6))})
    assert got == [[(1, 4), (2, 4)], [], [(1, 5), (1, 6), (2, 5), (2, 6)], [(3, 4)], [], [(3, 5), (3, 6)]]


# -- shuffles ---------------------------------------------------------------------------------------


def test_portable_hash_matches_pyspark(monkeypatch: pytest.MonkeyPatch) -> None:
    from pyspark.core.rdd import portable_hash as spark_hash

    monkeypatch.setenv("PYTHONHASHSEED", "0")
    values = [0, 1, -1, -2, 5, 2**61 - 1, 2**64 + 3, -(2**70), True, False, None,
              (1, 2), (-1, (2, 3)), ((1, 2), 3), (True, -5), (), (None, 1)]
    for v in values:
        assert portable_hash(v) == spark_hash(v), v


def test_shuffle_partition_placement_and_order() -> None:
    # keys go to portable_hash(k) % n, n = parent's partition count; first-arrival order per partition
    p = prog(A.ReduceByKey(lam("a,b", op("+", op("*", V("a"), I(10)), V("b"))), V("R")), elem=PAIR)
    src = (((1, 1), (3, 2), (1, 3)), ((3, 4), (2, 5)))
    assert parts_of(p, {}, {"R": src}) == [[(2, 5)], [(1, 13), (3, 24)]]  # seen on Spark, local[2]
    n3 = parts_of(p, {}, {"R": (*src, ())})
    assert len(n3) == 3 and all(portable_hash(k) % 3 == j for j, part in enumerate(n3) for k, _ in part)


def test_merge_combiners_runs_in_map_partition_order() -> None:
    sig = A.CombineByKey(A.Lambda((A.Param("v"),), op("*", V("v"), I(1))),
                         lam("c,v", op("-", op("*", V("c"), I(10)), V("v"))),
                         lam("a,b", op("-", op("*", V("a"), I(100)), V("b"))), V("R"))
    p = prog(sig, elem=PAIR)
    got = run(p, {}, {"R": (((0, 1), (0, 2)), ((0, 3),), ((0, 4),))})
    # map side: 1*10-2 = 8, 3, 4; reduce side in map order: (8*100-3)*100-4
    assert got == Bag.of([(0, (8 * 100 - 3) * 100 - 4)])


def test_hash_partitioned_union_zips_partitions_and_join_uses_it() -> None:
    params = (A.Param("R", BagType(PAIR)), A.Param("S", BagType(PAIR)))
    a = A.ReduceByKey(ADD, V("R"))
    b = A.ReduceByKey(ADD, V("S"))
    inputs = {"R": (((1, 1), (2, 2)), ((1, 3), (3, 4))), "S": (((1, 10),), ((2, 20), (5, 1)))}
    # seen on Spark: 2 partitions, not 4
    assert parts_of(prog(A.Union(a, b), params=params), {}, inputs) == [
        [(2, 2), (2, 20)], [(1, 4), (3, 4), (1, 10), (5, 1)]]
    assert parts_of(prog(A.Join(a, b), params=params), {}, inputs) == [[(2, (2, 20))], [(1, (4, 10))]]
    # filter keeps the hash partitioning, map forgets it
    fa = A.Filter(lam("p", A.BoolLit(True)), a)
    assert len(parts_of(prog(A.Union(fa, b), params=params), {}, inputs)) == 2
    ma = A.Map(lam("p", V("p")), a)
    assert len(parts_of(prog(A.Union(ma, b), params=params), {}, inputs)) == 4
    # different partition counts: plain concatenation
    inputs3 = {**inputs, "S": (((1, 10),), ((2, 20),), ((5, 1),))}
    assert len(parts_of(prog(A.Union(a, b), params=params), {}, inputs3)) == 5


def test_join_of_unpartitioned_bags_groups_over_n1_plus_n2_partitions() -> None:
    params = (A.Param("R", BagType(PAIR)), A.Param("S", BagType(PAIR)))
    got = parts_of(prog(A.Join(V("R"), V("S")), params=params), {},
                   {"R": (((1, 1), (2, 2)), ((1, 3), (3, 4)), ((1, 5),)), "S": (((1, 7),),)})
    assert got == [[], [(1, (1, 7)), (1, (3, 7)), (1, (5, 7))], [], []]  # seen on Spark


def test_distinct_group_by_key_and_join_values() -> None:
    assert parts_of(prog(A.Distinct(V("R"))), {}, {"R": ((1, 2, 1), (2, 3))}) == [[2], [1, 3]]
    g = prog(A.GroupByKeyAgg(("sum", "len", "min", "max"), V("R")), elem=PAIR)
    assert run(g, {"R": [(1, 5), (2, 1), (1, -3)]}) == Bag.of([(1, (2, 2, -3, 5)), (2, (1, 1, 1, 1))])
    g1 = prog(A.GroupByKeyAgg(("len",), V("R")), elem=PAIR)
    assert run(g1, {}, {"R": (((1, 5),), ((1, 6),))}) == Bag.of([(1, 2)])
    params = (A.Param("R", BagType(PAIR)), A.Param("S", BagType(PAIR)))
    j = prog(A.Join(V("R"), V("S")), params=params)
    assert run(j, {"R": [(1, 1), (1, 2), (2, 0)], "S": [(1, 9), (3, 3), (1, 8)]}) == Bag.of(
        [(1, (1, 9)), (1, (1, 8)), (1, (2, 9)), (1, (2, 8))])


def test_aggregate_by_key_and_combine_by_key() -> None:
    seq = lam("a,v", op("-", V("a"), V("v")))
    p = prog(A.AggregateByKey(I(0), seq, ADD, V("R")), elem=PAIR)
    assert run(p, {"R": [(1, 1), (1, 2)]}) == Bag.of([(1, -3)])
    assert run(p, {}, {"R": (((1, 1),), ((1, 2),))}) == Bag.of([(1, -3)])
    p2 = prog(A.AggregateByKey(I(10), seq, ADD, V("R")), elem=PAIR)
    assert run(p2, {}, {"R": (((1, 1),), ((1, 2),))}) == Bag.of([(1, 9 + 8)])


# -- laziness and evaluation order ------------------------------------------------------------------


def test_unused_lets_run_as_python_runs_them() -> None:
    """The driver is strict: an unused action still raises; an unused bag is lazy and never does."""
    boom = (A.LetBinding("boom", A.Reduce(ADD, V("R"))),)
    lazy = (A.LetBinding("B", A.Map(lam("x", op("//", V("x"), I(0))), V("R"))),)
    assert run(prog(A.SimpleAgg("count", V("R")), lets=boom), {"R": []}) == ErrorOutcome("ValueError")
    assert run(prog(A.SimpleAgg("count", V("R")), lets=boom), {"R": [3]}) == 1
    assert run(prog(A.SimpleAgg("count", V("R")), lets=lazy), {"R": [1]}) == 1


def test_a_projected_tuple_evaluates_every_component() -> None:
    body = A.Proj(A.TupleExpr((A.SimpleAgg("max", V("R")), A.SimpleAgg("count", V("R")))), 1)
    assert run(prog(body), {"R": []}) == ErrorOutcome("ValueError")
    assert run(prog(body), {"R": [4, 5]}) == 2


def test_bags_are_lazy_errors_surface_only_when_consumed() -> None:
    boom = A.Map(lam("x", op("//", V("x"), I(0))), V("R"))
    lets = (A.LetBinding("B", boom),)
    assert run(prog(A.SimpleAgg("count", A.Filter(lam("x", A.BoolLit(False)), V("R"))), lets=lets),
               {"R": [1]}) == 0
    assert run(prog(A.SimpleAgg("count", A.Filter(lam("x", A.BoolLit(False)), V("B"))), lets=lets),
               {"R": [1]}) == ZDE
    assert run(prog(V("B"), lets=lets), {"R": []}) == Bag.of([])


def test_cartesian_skips_the_right_side_when_the_left_is_empty() -> None:
    params = (A.Param("R", BagType(INT)), A.Param("S", BagType(INT)))
    right = A.Map(lam("x", op("//", V("x"), I(0))), V("S"))
    p = prog(A.Cartesian(A.Filter(lam("x", A.BoolLit(False)), V("R")), right), params=params)
    assert run(p, {}, {"R": ((1, 2), (3,)), "S": ((1,), (2,))}) == Bag.of([])  # seen on Spark
    assert run(p, {}, {"R": ((), ()), "S": ((1,),)}) == Bag.of([])
    q = prog(A.Cartesian(V("R"), right), params=params)
    assert run(q, {}, {"R": ((), (3,)), "S": ((1,), (2,))}) == ZDE
    assert run(prog(A.Cartesian(right, V("R")), params=params), {}, {"R": ((),), "S": ((1,),)}) == ZDE


def test_errors_left_to_right_and_lets_in_order() -> None:
    params = (A.Param("R", BagType(INT)), A.Param("S", BagType(INT)))
    zde = A.Fold(I(0), lam("a,x", op("//", V("x"), I(0))), V("R"))
    empty = A.Reduce(ADD, V("S"))
    inputs = {"R": [1], "S": []}
    assert run(prog(A.TupleExpr((zde, empty)), params=params), inputs) == ZDE
    assert run(prog(A.TupleExpr((empty, zde)), params=params), inputs) == VE
    # a result bag with an error is collected after all actions ran
    bag_err = A.Map(lam("x", op("//", V("x"), I(0))), V("R"))
    assert run(prog(A.TupleExpr((bag_err, empty)), params=params), inputs) == VE
    lets = (A.LetBinding("a", zde), A.LetBinding("b", empty))
    assert run(prog(op("+", V("b"), V("a")), params=params, lets=lets), inputs) == ZDE


def test_if_and_or_evaluate_only_what_python_would() -> None:
    div0 = op("==", op("//", V("t"), I(0)), I(1))
    params = (A.Param("t", INT),)
    assert run(prog(A.Ite(A.BoolLit(True), I(1), op("//", V("t"), I(0))), params=params), {"t": 3}) == 1
    assert run(prog(op("and", A.BoolLit(False), div0), params=params), {"t": 3}) is False
    assert run(prog(op("or", A.BoolLit(True), div0), params=params), {"t": 3}) is True
    assert run(prog(op("or", A.BoolLit(False), div0), params=params), {"t": 3}) == ZDE


def test_defs_parametric_defs_and_closures() -> None:
    defs = (A.FunDef("sq", (A.Param("a", INT),), INT, op("*", V("a"), V("a"))),
            A.ParamFunDef("geq", (A.Param("y", INT),),
                          A.Lambda((A.Param("x", INT),), op(">=", V("x"), V("y")))))
    lets = (A.LetBinding("m", A.SimpleAgg("min", V("R"))),)
    body = A.Map(lam("x", A.TupleExpr((A.Call("sq", (V("x"),)), op("-", V("x"), V("m")),
                                       A.Apply(A.PApp("geq", (V("t"),)), (V("x"),))))),
                 A.Filter(A.PApp("geq", (I(0),)), V("R")))
    p = prog(body, defs=defs, lets=lets, params=(A.Param("R", BagType(INT)), A.Param("t", INT)))
    assert run(p, {"R": [-2, 1, 3], "t": 2}) == Bag.of([(1, 3, False), (9, 5, True)])
    assert run(prog(A.Call("abs", (I(-3),)), params=()), {}) == 3
    assert run(prog(A.Call("max", (I(-3), I(2))), params=()), {}) == 2


def test_bool_is_distinct_from_int_in_outcomes() -> None:
    p = prog(A.Map(lam("x", op(">", V("x"), I(0))), V("R")))
    out = run(p, {"R": [1, -1]})
    assert out == Bag.of([False, True]) and all(type(x) is bool for x in out.items)
    assert run(prog(A.BoolLit(True), params=(A.Param("b", BOOL),)), {"b": False}) is True


def test_inputs_accept_bags_and_partitions_override() -> None:
    p = prog(A.Fold(I(10), ADD, V("R")))
    assert run(p, {"R": Bag.of([1, 2, 3])}) == 26
    assert run(p, {"R": [1, 2, 3]}, {"R": ((1,), (2,), (3,))}) == 46
    # no partition at all (sc.textFile of an empty file): the driver folds no partition result, so
    # only the zero remains (one empty partition gives 10 + 10)
    assert run(p, {}, {"R": ()}) == 10
    assert run(p, {}, {"R": ((),)}) == 20


def test_fold_result_independent_of_partitioning_for_sum_like_ops() -> None:
    rng = random.Random(0)
    p = prog(A.Fold(I(0), ADD, V("R")))
    for _ in range(50):
        elems = [rng.randint(-5, 5) for _ in range(rng.randint(0, 5))]
        assert run(p, {}, {"R": random_partitioning(elems, rng, 4)}) == sum(elems)
