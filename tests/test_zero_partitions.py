"""RDDs with no partition at all (issue 26, "an empty text file has no partitions").

Spark 4 reads an empty text file (or a folder with no part file) as an RDD with *zero* partitions, and
``countByValue()``, ``countByKey()`` and ``top(n)`` end with ``reduce`` over one value per partition, so
they raise ``ValueError`` there, while an empty RDD with partitions gives ``{}``/``[]``
(``docs/semantics-notes.md``). A loop over ``countByValue().items()`` was proved equal to a loop over
``reduceByKey(add).collect()``; these tests pin the facts in the interpreter, the shared notion of "may
raise", the proof views and methods, script mode, and (marked ``spark``) on Spark itself.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

import verifier
from sparklite import ast as A
from sparklite import effects
from sparklite.interpreter import run
from sparklite.no_partitions import no_partitions
from sparklite.types import INT, STR, BagType
from sparklite.values import Bag, DictValue, ErrorOutcome, ListValue, Sorted

Int, V = A.IntLit, A.Var


def _prog(body: A.Expr, *bags: str, elem: Any = INT) -> A.Program:
    return A.Program("P", tuple(A.Param(b, BagType(elem)) for b in bags), (), (), body)


def _plain(outcome: Any) -> Any:
    """An interpreter outcome as plain Python: dicts, lists, values (errors stay ``ErrorOutcome``)."""
    if isinstance(outcome, DictValue):
        return dict(outcome.items)
    if isinstance(outcome, ListValue | Bag):
        return list(outcome.items)
    if isinstance(outcome, Sorted):
        return [x for g in outcome.groups for x in g.items]
    return outcome


def _pairs(src: A.Expr) -> A.Expr:
    return A.Map(A.Lambda((A.Param("x"),), A.TupleExpr((V("x"), Int(1)))), src)


ADD = A.Lambda((A.Param("a"), A.Param("b")), A.BinOp("+", V("a"), V("b")))


# --- the interpreter ------------------------------------------------------------------------------


@pytest.mark.parametrize("body", [
    A.CountByValue(V("R")),
    A.CountByValue(A.Map(A.Lambda((A.Param("x"),), V("x")), V("R"))),
    A.TakeOrdered(Int(2), None, V("R"), top=True),
    A.TakeOrdered(Int(0), None, V("R"), top=True),  # top(0) still reduces one list per partition
    A.CountByValue(A.CombineByKey(A.Lambda((A.Param("v"),), V("v")), ADD, ADD, _pairs(V("R")))),
])
def test_count_by_value_and_top_raise_without_partitions(body: A.Expr) -> None:
    p = _prog(body, "R")
    assert run(p, {"R": []}, {"R": ()}) == ErrorOutcome("ValueError")
    assert not isinstance(run(p, {"R": []}, {"R": ((),)}), ErrorOutcome)  # an empty partition: {} / []


@pytest.mark.parametrize("body,expected", [
    (A.TakeOrdered(Int(2), None, V("R")), []),
    (A.SimpleAgg("count", V("R")), 0),
    (A.SimpleAgg("sum", V("R")), 0),
    (A.Aggregate(Int(7), ADD, ADD, V("R")), 7),  # no partition result: the zero alone
    (A.Take(Int(2), A.SortBy(A.Lambda((A.Param("x"),), V("x")), True, V("R"))), []),
    (A.CollectAsMap(_pairs(V("R"))), {}),
])
def test_other_actions_do_not_raise_without_partitions(body: A.Expr, expected: Any) -> None:
    assert _plain(run(_prog(body, "R"), {"R": []}, {"R": ()})) == expected


@pytest.mark.parametrize("body", [A.First(V("R")), A.Reduce(ADD, V("R")), A.SimpleAgg("max", V("R"))])
def test_empty_actions_raise_either_way(body: A.Expr) -> None:
    for parts in ((), ((),), ((), ())):
        assert run(_prog(body, "R"), {"R": []}, {"R": parts}) == ErrorOutcome("ValueError")


def test_partition_counts_after_unions_joins_and_cartesians() -> None:
    """Seen on Spark 4: union adds partition counts (0 + 2 = 2 partitions: countByValue gives {}),
    join and subtract too, cartesian multiplies them."""
    union = A.CountByValue(A.Union(V("R"), V("S")))
    cart = A.CountByValue(A.Cartesian(V("R"), V("S")))
    join = A.CountByValue(A.Join(_pairs(V("R")), _pairs(V("S"))))
    for body, none_when_one_empty in ((union, False), (cart, True), (join, False)):
        p = _prog(body, "R", "S")
        both = run(p, {"R": [], "S": []}, {"R": (), "S": ()})
        one = run(p, {"R": [], "S": []}, {"R": (), "S": ((), ())})
        assert both == ErrorOutcome("ValueError")
        assert (one == ErrorOutcome("ValueError")) == none_when_one_empty
        for z, expected in (({"R"}, none_when_one_empty), ({"R", "S"}, True), (set(), False)):
            assert no_partitions(body.source, frozenset(z), {}) == expected


def test_may_raise_knows_count_by_value_and_top() -> None:
    assert effects.may_raise(A.CountByValue(V("R")))
    assert effects.may_raise(A.TakeOrdered(Int(1), None, V("R"), top=True))
    assert not effects.may_raise(A.TakeOrdered(Int(1), None, V("R")))
    assert not effects.may_raise(A.CollectAsMap(V("R")))


# --- function pairs -------------------------------------------------------------------------------

FUNCS = '''
from operator import add
from pyspark import RDD


def by_count(lines: RDD[str]) -> dict[str, int]:
    return lines.flatMap(lambda line: line.split()).countByValue()


def by_key(lines: RDD[str]) -> dict[str, int]:
    return lines.flatMap(lambda line: line.split()).map(lambda w: (w, 1)).countByKey()


def by_reduce(lines: RDD[str]) -> dict[str, int]:
    return lines.flatMap(lambda line: line.split()).map(lambda w: (w, 1)).reduceByKey(add).collectAsMap()


def by_count_filtered(lines: RDD[str]) -> dict[str, int]:
    return lines.flatMap(lambda line: line.split()).filter(lambda w: True).countByValue()


def top_two(nums: RDD[int]) -> list[int]:
    return nums.top(2)


def top_two_filtered(nums: RDD[int]) -> list[int]:
    return nums.filter(lambda v: True).top(2)


def ordered_two(nums: RDD[int]) -> list[int]:
    return nums.takeOrdered(2, key=lambda v: -v)


def sorted_two(nums: RDD[int]) -> list[int]:
    return nums.sortBy(lambda v: -v).take(2)


def count_union(a: RDD[int], b: RDD[int]) -> dict[int, int]:
    return a.union(b).countByValue()


def count_union_swapped(a: RDD[int], b: RDD[int]) -> dict[int, int]:
    return b.union(a).countByValue()
'''


@pytest.fixture(scope="module")
def funcs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("zp") / "jobs.py"
    path.write_text(FUNCS)
    return path


@pytest.mark.parametrize("left,right", [
    ("by_count", "by_reduce"),  # was proved (AggOneK through the dict-as-bag view)
    ("top_two", "ordered_two"),  # was proved (Ordered)
    ("top_two", "sorted_two"),
])
def test_raising_side_is_not_equated_with_a_non_raising_one(funcs: Path, left: str, right: str) -> None:
    r = verifier.check(f"{funcs}::{left}", f"{funcs}::{right}", replay=False)
    assert r.verdict == "not_equivalent", r.reason
    cex = r.counterexample
    assert cex is not None and {"error": "ValueError"} in (cex.left, cex.right)
    assert cex.partitions is not None and list(cex.partitions.values()) == [[]]  # no partition


@pytest.mark.parametrize("left,right", [
    ("by_count", "by_key"),
    ("by_count", "by_count_filtered"),
    ("top_two", "top_two_filtered"),
    ("count_union", "count_union_swapped"),
])
def test_both_raising_alike_is_still_proved(funcs: Path, left: str, right: str) -> None:
    r = verifier.check(f"{funcs}::{left}", f"{funcs}::{right}", replay=False)
    assert r.verdict == "equivalent", r.reason


# --- scripts --------------------------------------------------------------------------------------

HEAD = '''
import sys
from operator import add
from pyspark.sql import SparkSession

spark = SparkSession.builder.appName("wc").getOrCreate()
sc = spark.sparkContext
words = sc.textFile(sys.argv[1]).flatMap(lambda line: line.split())
'''

SCRIPTS = {
    "count_loop": HEAD + "result = words.countByValue()\nfor key, value in result.items():\n"
                         "    print(key, value)\n",
    "count_loop_inline": HEAD + "for key, value in words.countByValue().items():\n    print(key, value)\n",
    "reduce_loop": HEAD + "counts = words.map(lambda w: (w, 1)).reduceByKey(add)\n"
                          "for key, value in counts.collect():\n    print(key, value)\n",
    "key_loop": HEAD + "for key, value in words.map(lambda w: (w, 1)).countByKey().items():\n"
                       "    print(key, value)\n",
    "read_text_count_loop": HEAD.replace("words = sc.textFile(sys.argv[1])",
                                         "lines = spark.read.text(sys.argv[1]).rdd.map(lambda r: r[0])\n"
                                         "words = lines")
    + "for key, value in words.countByValue().items():\n    print(key, value)\n",
    "top_loop": HEAD + "for w in words.top(2):\n    print(w)\n",
    "ordered_loop": HEAD + "for w in words.takeOrdered(2, key=lambda s: s):\n    print(w)\n",
}


@pytest.fixture(scope="module")
def scripts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("zp_scripts")
    out = {}
    for name, text in SCRIPTS.items():
        path = root / f"{name}.py"
        path.write_text(textwrap.dedent(text) + "spark.stop()\n")
        out[name] = str(path)
    return out


@pytest.mark.parametrize("left,right", [
    ("count_loop", "reduce_loop"),  # the example: was proved by AggOneK
    ("count_loop_inline", "reduce_loop"),
    ("key_loop", "reduce_loop"),
    ("read_text_count_loop", "reduce_loop"),  # spark.read.text of an empty file: no partition either
])
def test_script_count_loop_is_not_a_reduce_loop(scripts: dict[str, str], left: str, right: str) -> None:
    r = verifier.check(scripts[left], scripts[right], replay=False)
    assert r.verdict == "not_equivalent", r.reason
    cex = r.counterexample
    assert cex is not None
    assert cex.inputs == {"sys.argv[1]": []}  # the empty file
    assert cex.partitions == {"sys.argv[1]": []}  # Spark reads it with no partition
    assert cex.left == {"error": "ValueError"}


def test_script_count_loops_raising_alike_are_proved(scripts: dict[str, str]) -> None:
    assert verifier.check(scripts["count_loop"], scripts["count_loop"], replay=False).verdict == "equivalent"
    r = verifier.check(scripts["count_loop"], scripts["count_loop_inline"], replay=False)
    assert r.verdict == "equivalent", r.reason


def test_script_top_is_not_take_ordered(scripts: dict[str, str]) -> None:
    r = verifier.check(scripts["top_loop"], scripts["ordered_loop"], replay=False)
    assert r.verdict != "equivalent", r.reason


# --- on Spark -------------------------------------------------------------------------------------


@pytest.mark.spark
def test_zero_partition_facts_on_spark(spark_context: Any, tmp_path: Path) -> None:
    """What the interpreter predicts on ``()`` is what Spark computes on ``sc.textFile`` of an empty file
    and on ``exact_rdd(sc, [])`` (``sc.emptyRDD()``)."""
    from operator import add

    from verifier.spark import exact_rdd

    sc = spark_context
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    sources = [sc.textFile(str(empty)), exact_rdd(sc, [])]
    actions = {
        "countByValue": (lambda r: r.countByValue(), A.CountByValue(V("R"))),
        "countByKey": (lambda r: r.map(lambda x: (x, 1)).countByKey(),
                       A.CountByValue(A.Map(A.Lambda((A.Param("x"),), V("x")), V("R")))),
        "top": (lambda r: r.top(2), A.TakeOrdered(Int(2), None, V("R"), top=True)),
        "takeOrdered": (lambda r: r.takeOrdered(2), A.TakeOrdered(Int(2), None, V("R"))),
        "fold": (lambda r: r.fold("z", add), A.Aggregate(A.StrLit("z"), ADD, ADD, V("R"))),
    }
    for rdd in sources:
        assert rdd.getNumPartitions() == 0
        for name, (on_spark, body) in actions.items():
            try:
                got: Any = on_spark(rdd)
                got = dict(got) if isinstance(got, dict) else got
            except Exception as exc:  # noqa: BLE001 - the Python exception inside the job
                got = ErrorOutcome(type(exc).__name__)
            predicted = _plain(run(_prog(body, "R", elem=STR), {"R": []}, {"R": ()}))
            assert got == predicted, (name, got, predicted)
    # an empty RDD *with* partitions: {} and []
    assert dict(sc.parallelize([], 2).countByValue()) == {} and sc.parallelize([], 2).top(2) == []


@pytest.mark.spark
@pytest.mark.slow
@pytest.mark.parametrize("left", ["count_loop", "read_text_count_loop"])
def test_script_counterexample_replays_on_spark(scripts: dict[str, str], left: str) -> None:
    r = verifier.check(scripts[left], scripts["reduce_loop"], replay=True)
    assert r.verdict == "not_equivalent", r.reason
    assert r.counterexample is not None and r.counterexample.replayed_on_spark, r.warnings


ZERO_CASES = 60


def _zero_case(seed: int) -> tuple[A.Program, dict[str, Any], dict[str, Any]]:
    """A random rich program whose bag inputs each have, with even odds, no partition (and so no
    element) or a random partitioning (``test_interpreter_vs_spark_rich.make_case``'s programs)."""
    import random

    from test_interpreter_vs_spark_rich import MAX_TASKS, spark_tasks

    from sparklite.generate import random_inputs, random_partitionings, random_program

    rng = random.Random(f"zero:{seed}")
    while True:
        program = random_program(rng, max_depth=3, flavor="rich")
        inputs = random_inputs(rng, program, max_len=4)
        parts = random_partitionings(rng, inputs, max_parts=3)
        for name in list(parts):
            if rng.random() < 0.5:
                inputs[name], parts[name] = [], ()
        if spark_tasks(program, parts) <= MAX_TASKS and any(p == () for p in parts.values()):
            return program, inputs, parts


@pytest.mark.spark
def test_interpreter_agrees_with_spark_on_inputs_without_partitions(spark_context: Any) -> None:
    """Random rich programs (unions, joins, cartesians, sorts, countByValue, top, folds...) over inputs
    of which some have no partition (``exact_rdd``: ``sc.emptyRDD()``): the interpreter's outcome is
    Spark's."""
    from test_interpreter_vs_spark_rich import disagreements

    failures = disagreements(spark_context, _zero_case, range(ZERO_CASES))
    assert not failures, f"{len(failures)} of {ZERO_CASES} disagree:\n\n" + "\n\n".join(failures[:5])


def test_zero_cases_reach_the_actions_that_raise() -> None:
    """Some cases above raise only because a bag has no partition (with one empty partition instead,
    the same program does not raise): the Spark comparison covers the new behaviour."""
    only_without = 0
    for seed in range(ZERO_CASES):
        program, inputs, parts = _zero_case(seed)
        out = run(program, inputs, parts)
        with_one = run(program, inputs, {k: v if v != () else ((),) for k, v in parts.items()})
        only_without += out == ErrorOutcome("ValueError") and not isinstance(with_one, ErrorOutcome)
    assert only_without > 0
