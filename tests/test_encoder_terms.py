"""Program terms: presence flags, per-occurrence representative variables, canonical copies, and the
aggregate placeholders with their fold shapes."""

from __future__ import annotations

import pytest
import z3
from test_method_support import PAIR, add, at, bag, lam, op, prog, tup, v

from encoder.aggregates import acc_init, acc_outcome, acc_step
from encoder.terms import (
    BagResult,
    UnsupportedShape,
    ValueResult,
    encode_program,
)
from sparklite import ast as A
from sparklite.types import INT

R = {"R": bag()}


def valid(f: z3.BoolRef) -> bool:
    s = z3.Solver()
    s.add(z3.Not(f))
    return s.check() == z3.unsat


def test_map_filter_term_and_presence():
    p = prog(R, A.Filter(lam("x", op(">=", "x", 100)), A.Map(lam("x", op("*", 2, "x")), v("R"))))
    enc = encode_program(p, "L")
    assert isinstance(enc.result, BagResult)
    t = enc.result.term.canonical("x")
    x = z3.Int("x:R#0")
    assert valid(t.present == (2 * x >= 100))
    assert valid(t.value == 2 * x)
    assert t.rep_var_set() == {"R": 1}


def test_each_occurrence_has_its_own_variable():
    p = prog(R, A.Cartesian(v("R"), v("R")))
    t = encode_program(p, "L").result.term
    assert t.rep_var_set() == {"R": 2} and t.has_self_product()
    a, b = t.canonical("x").value
    assert not valid(a == b)


def test_canonical_names_are_shared_between_programs():
    left = encode_program(prog(R, v("R")), "L").result.term.canonical("x")
    right = encode_program(prog(R, v("R")), "R").result.term.canonical("x")
    assert valid(left.value == right.value)


def test_join_is_keyed_cartesian():
    params = {"R": bag(PAIR), "S": bag(PAIR)}
    t = encode_program(prog(params, A.Join(v("R"), v("S"))), "L").result.term.canonical("x")
    r0, s0 = z3.Int("x:R#0.0"), z3.Int("x:S#0.0")
    assert valid(t.present == (r0 == s0))
    assert str(t.value[0]) == "x:R#0.0"


def test_let_bound_bag_is_a_new_occurrence_per_use():
    p = prog(R, A.Cartesian(v("B"), v("B")), lets={"B": A.Map(lam("x", op("+", "x", 1)), v("R"))})
    assert encode_program(p, "L").result.term.rep_var_set() == {"R": 2}


def test_scalars_are_shared_and_closures_work():
    p = prog({"R": bag(), "t": INT}, A.Filter(lam("x", op(">", "x", "t")), v("R")))
    t = encode_program(p, "L").result.term.canonical("x")
    assert valid(t.present == (z3.Int("x:R#0") > z3.Int("v:t")))


def test_fold_placeholder_and_top_expression():
    p = prog(R, op("%", A.SimpleAgg("count", v("R")), 5))
    enc = encode_program(p, "L")
    assert isinstance(enc.result, ValueResult) and len(enc.aggregates) == 1
    agg = enc.aggregates[0]
    assert agg.shape.kind == "fold"
    acc = agg.acc
    assert valid(acc_step(agg.shape, acc, z3.Int("e"), z3.BoolVal(True)) == acc + 1)
    assert valid(acc_step(agg.shape, acc, z3.Int("e"), z3.BoolVal(False)) == acc)


def test_reduce_is_an_optional_accumulator_and_raises_on_empty():
    enc = encode_program(prog(R, A.SimpleAgg("min", v("R"))), "L")
    agg = enc.aggregates[0]
    raises, _ = acc_outcome(agg.shape, acc_init(agg.shape))
    assert valid(raises)
    has, val = acc_step(agg.shape, acc_init(agg.shape), z3.Int("e"), z3.BoolVal(True))
    assert valid(has) and valid(val == z3.Int("e"))
    assert valid(enc.error == z3.Not(agg.acc[0]))


def test_same_aggregation_is_one_placeholder():
    p = prog(R, op("+", A.SimpleAgg("sum", v("R")), A.SimpleAgg("sum", v("R"))))
    assert len(encode_program(p, "L").aggregates) == 1


def test_by_key_output_is_a_bucket_placeholder():
    p = prog({"R": bag(PAIR)}, A.Filter(lam("kv", op(">", at("kv", 0), 5)),
                                        A.FoldByKey(A.IntLit(0), add(), v("R"))))
    enc = encode_program(p, "L")
    assert len(enc.keyed) == 1 and enc.result.term.keyed == (0,)
    g = enc.keyed[0]
    assert valid(g.shape.first(z3.Int("w")) == z3.Int("w"))  # f(zero, v) = 0 + v


def test_division_hazard_recorded_under_its_path():
    p = prog(R, A.Map(lam("x", op("//", 10, "x")), A.Filter(lam("x", op("!=", "x", 0)), v("R"))))
    enc = encode_program(p, "L")
    s = z3.Solver()
    s.add(z3.Or(*enc.hazards))
    assert s.check() == z3.unsat  # the filter rules the zero divisor out


@pytest.mark.parametrize("body", [
    A.Distinct(v("R")),
    A.ReduceByKey(add(), A.ReduceByKey(add(), v("P"))),  # a by-key aggregation of another's output
])
def test_unsupported_shapes(body):
    with pytest.raises(UnsupportedShape):
        encode_program(prog({**R, "P": bag(PAIR)}, body), "L")


def test_union_concatenates_alternatives_with_their_own_occurrences():
    p = prog({**R, "S": bag()}, A.Map(lam("x", op("+", "x", 1)), A.Union(v("R"), v("S"))))
    alts = encode_program(p, "L").result.alts
    assert [t.rep_var_set() for t in alts] == [{"R": 1}, {"S": 1}]
    assert valid(alts[0].canonical("x").value == z3.Int("x:R#0") + 1)
    assert valid(alts[1].canonical("x").value == z3.Int("x:S#0") + 1)


def test_union_of_a_bag_with_itself_reads_it_twice_independently():
    alts = encode_program(prog(R, A.Union(v("R"), v("R"))), "L").result.alts
    assert len(alts) == 2 and all(t.rep_var_set() == {"R": 1} for t in alts)
    assert str(alts[0].occurrences[0].var) != str(alts[1].occurrences[0].var)


def test_flatmap_components_share_the_source_occurrence():
    p = prog(R, A.FlatMap(lam("x", tup("x", op("*", -1, "x"))),
                          A.Filter(lam("x", op(">", "x", 0)), v("R"))))
    alts = encode_program(p, "L").result.alts
    assert len(alts) == 2
    x = z3.Int("x:R#0")
    a, b = (t.canonical("x") for t in alts)
    assert valid(a.value == x) and valid(b.value == -x)
    assert valid(a.present == (x > 0)) and valid(b.present == (x > 0))
    assert alts[0].occurrences == alts[1].occurrences


def test_cartesian_of_unions_takes_all_pairs_with_per_occurrence_variables():
    p = prog({**R, "S": bag()}, A.Cartesian(A.Union(v("R"), v("S")), A.Union(v("R"), v("S"))))
    alts = encode_program(p, "L").result.alts
    assert [dict(t.rep_var_set()) for t in alts] == [{"R": 2}, {"R": 1, "S": 1}, {"S": 1, "R": 1}, {"S": 2}]
    rr = alts[0].canonical("x").value
    assert not valid(rr[0] == rr[1])  # a self-product: two independent elements of R


def test_fold_over_a_union_keeps_every_alternative():
    p = prog({**R, "S": bag()}, A.SimpleAgg("sum", A.Union(v("R"), v("S"))))
    enc = encode_program(p, "L")
    assert [t.rep_var_set() for t in enc.aggregates[0].elems] == [{"R": 1}, {"S": 1}]


def test_too_many_alternatives_is_unsupported():
    u = A.Union(v("R"), v("R"))
    body = A.Cartesian(A.Cartesian(u, u), A.Cartesian(u, A.Cartesian(u, u)))  # 2^5 alternatives
    with pytest.raises(UnsupportedShape):
        encode_program(prog(R, body), "L")
