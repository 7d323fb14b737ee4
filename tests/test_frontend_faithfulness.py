"""Faithfulness of the frontend against real Spark.

For every pipeline ``p_*`` in ``tests/frontend_corpus``: random small inputs and random explicit
partitionings; the reference interpreter's outcome on the *translation* must equal the outcome of
running the *original* Python function on local Spark (bags as multisets, ordered results as sequences
modulo ties, lists and dicts as values, errors by kind). Importing the corpus here is test code, not
analysis: the frontend itself only reads the files.

Inputs are random values of the parameters' types; a corpus module may give, in a module-level dict
``SAMPLES = {"p_name": {"R": [...]}}``, the values a pipeline's input elements (or scalar parameters)
are drawn from (lines of a CSV, words), so that realistic jobs see realistic data and bad lines too.
"""

from __future__ import annotations

import importlib.util
import pathlib
import random
import sys
import zlib
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from frontend import translate_file
from sparklite.interpreter import run
from sparklite.typecheck import typecheck
from sparklite.types import (
    BagType,
    BoolType,
    FloatType,
    IntType,
    ListType,
    NoneType_,
    OptionType,
    StrType,
    TupleType,
    Type,
)
from sparklite.values import Bag, ErrorOutcome, ListValue, Sorted, outcomes_equal

CORPUS = pathlib.Path(__file__).parent / "frontend_corpus"
TRIALS = 6
WORKERS = 3  # trials of one pipeline run as concurrent Spark jobs (job latency dominates, not CPU)


def _corpus() -> list[tuple[pathlib.Path, str]]:
    out = []
    for path in sorted(CORPUS.glob("*.py")):
        if path.name == "__init__.py":
            continue
        for line in path.read_text().splitlines():
            if line.startswith("def p_"):
                out.append((path, line[4:line.index("(")]))
    return out


PIPELINES = _corpus()


def _load(path: pathlib.Path) -> Any:
    name = f"frontend_corpus_{path.stem}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    from pyspark import cloudpickle

    cloudpickle.register_pickle_by_value(module)  # workers cannot import the corpus by name
    return module


STRINGS = ["", "a", "b", "ab", "a b", "b a a", "A", " x ", "1", "-3", "1.5", "a,1", "b,2", "a,x", "c,3,4"]
KEY_STRINGS = ["a", "b", "c"]
FLOATS = [0.0, -0.0, 1.0, -1.5, 2.5, 3.25, 0.1]
KEY_FLOATS = [0.5, 1.5]


def gen_value(t: Type, rng: random.Random, key: bool = False, bound: int = 5) -> Any:
    """Ints in -bound..bound (keys of pairs in 0..2, so that keys collide), bools, short strings (keys
    from three), a few floats (signed zeros included), None, short lists, tuples."""
    if isinstance(t, IntType):
        return rng.randint(0, 2) if key else rng.randint(-bound, bound)
    if isinstance(t, BoolType):
        return rng.random() < 0.5
    if isinstance(t, StrType):
        return rng.choice(KEY_STRINGS if key else STRINGS)
    if isinstance(t, FloatType):
        return rng.choice(KEY_FLOATS if key else FLOATS)
    if isinstance(t, NoneType_):
        return None
    if isinstance(t, OptionType):
        return None if rng.random() < 0.3 else gen_value(t.elem, rng, key, bound)
    if isinstance(t, ListType):
        return [gen_value(t.elem, rng, bound=bound) for _ in range(rng.randint(0, 3))]
    assert isinstance(t, TupleType)
    pair = len(t.elems) == 2
    return tuple(gen_value(e, rng, key=pair and i == 0, bound=bound) for i, e in enumerate(t.elems))


def gen_partitions(elem: Type, rng: random.Random, trial: int, pool: list[Any] | None = None
                   ) -> tuple[tuple[Any, ...], ...]:
    """Trial 0 has empty inputs (empty reduce, division by a zero count), trial 1 values in -1..1
    (division by zero inside UDFs), the others 0..4 elements in -5..5; always 1..3 partitions. With a
    ``pool`` the elements are drawn from it."""
    size = 0 if trial == 0 else rng.randint(1, 4) if trial == 1 else rng.randint(0, 4)
    if pool is not None:
        data = [rng.choice(pool) for _ in range(size)]
    else:
        data = [gen_value(elem, rng, bound=1 if trial == 1 else 5) for _ in range(size)]
    n = rng.randint(1, 3)
    cuts = sorted(rng.randint(0, len(data)) for _ in range(n - 1))
    bounds = [0, *cuts, len(data)]
    return tuple(tuple(data[bounds[i]:bounds[i + 1]]) for i in range(n))


def collect_rdds(value: Any) -> Any:
    """What the pipeline returned, with every RDD collected (in partition order) into a list."""
    if hasattr(value, "collect") and hasattr(value, "getNumPartitions"):
        return value.collect()
    if isinstance(value, tuple):
        return tuple(collect_rdds(v) for v in value)
    return value


def run_spark(fn: Any, args: list[Any]) -> Any:
    """The pipeline's result on Spark (RDDs collected), or the ``ErrorOutcome`` of what it raised."""
    from verifier.runtime.replay import _exception_name

    try:
        return collect_rdds(fn(*args))
    except Exception as exc:  # noqa: BLE001 - any exception is an outcome to compare
        return ErrorOutcome(_exception_name(exc))


def observe_like(actual: Any, reference: Any) -> Any:
    """Spark's concrete result observed the way the interpreter's outcome is: a list as a bag when the
    reference is a bag, as the reference itself when it is one of the orders the reference allows
    (``Sorted``: equal sort keys in any order), else as a list; dicts and nested lists as values."""
    from sparklite import values

    shared = getattr(values, "observe_like", None)
    if shared is not None:
        return shared(actual, reference)
    if isinstance(actual, ErrorOutcome):
        return actual
    if isinstance(reference, tuple) and isinstance(actual, tuple) and len(actual) == len(reference):
        return tuple(observe_like(a, r) for a, r in zip(actual, reference, strict=True))
    if isinstance(actual, list) and isinstance(reference, Bag):
        return Bag.of(_value(x) for x in actual)
    if isinstance(actual, list) and isinstance(reference, Sorted):
        items = [_value(x) for x in actual]
        return reference if _linearizes(items, reference) else ListValue(tuple(items))
    return _value(actual)


def _value(x: Any) -> Any:
    from sparklite.values import DictValue

    if isinstance(x, tuple):
        return tuple(_value(v) for v in x)
    if isinstance(x, list):
        return ListValue(tuple(_value(v) for v in x))
    if isinstance(x, dict):
        return DictValue.of({_value(k): _value(v) for k, v in x.items()})
    return x


def _linearizes(items: list[Any], reference: Sorted) -> bool:
    """Whether ``items`` lists the groups of ``reference`` in order, each group in some order (the last
    one cut to ``taken`` elements of its candidates)."""
    start = 0
    for i, group in enumerate(reference.groups):
        last_cut = reference.taken is not None and i == len(reference.groups) - 1
        size = reference.taken if last_cut else len(group)
        run = items[start:start + size]  # type: ignore[operator]
        start += size  # type: ignore[operator]
        rest = list(group.items)
        for x in run:
            match = next((j for j, y in enumerate(rest) if outcomes_equal(x, y)), None)
            if match is None:
                return False
            del rest[match]
        if rest and not last_cut:
            return False
    return start == len(items)


@pytest.mark.spark
@pytest.mark.parametrize("path,name", PIPELINES, ids=[f"{p.stem}::{n}" for p, n in PIPELINES])
def test_translation_agrees_with_spark(spark_context: Any, path: pathlib.Path, name: str) -> None:
    from verifier.runtime.spark import exact_rdd

    program = translate_file(str(path), name)
    typecheck(program)  # the frontend's output must type-check
    module = _load(path)
    fn = getattr(module, name)
    pools = getattr(module, "SAMPLES", {}).get(name, {})
    rng = random.Random(zlib.crc32(name.encode()))
    trials = []
    for trial in range(TRIALS):
        inputs: dict[str, Any] = {}
        partitions: dict[str, Any] = {}
        for p in program.params:
            assert p.type is not None
            pool = pools.get(p.name)
            if isinstance(p.type, BagType):
                parts = gen_partitions(p.type.elem, rng, trial, pool)
                partitions[p.name] = parts
                inputs[p.name] = [x for part in parts for x in part]
            else:
                inputs[p.name] = rng.choice(pool) if pool else gen_value(p.type, rng)
        trials.append((inputs, partitions))

    def on_spark(trial: tuple[dict[str, Any], dict[str, Any]]) -> Any:
        inputs, partitions = trial
        args = [exact_rdd(spark_context, partitions[p.name]) if p.name in partitions else inputs[p.name]
                for p in program.params]
        return run_spark(fn, args)

    with ThreadPoolExecutor(WORKERS) as pool_:
        spark_results = list(pool_.map(on_spark, trials))
    for (inputs, partitions), actual in zip(trials, spark_results, strict=True):
        got = run(program, inputs, partitions)
        expected = observe_like(actual, got)
        assert outcomes_equal(got, expected), (
            f"{name} disagrees on {partitions or inputs}: interpreter {got!r}, Spark {expected!r}")


def test_corpus_is_large_enough() -> None:
    assert len(PIPELINES) >= 40
