"""Faithfulness of the frontend against real Spark.

For every pipeline ``p_*`` in ``tests/frontend_corpus``: random small inputs and random explicit
partitionings; the reference interpreter's outcome on the *translation* must equal the outcome of
running the *original* Python function on local Spark (bags as multisets, errors by kind). Importing
the corpus here is test code, not analysis: the frontend itself only reads the files.
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
from sparklite.types import BagType, BoolType, IntType, TupleType, Type
from sparklite.values import Bag, ErrorOutcome, outcomes_equal

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


def gen_value(t: Type, rng: random.Random, key: bool = False, bound: int = 5) -> Any:
    """Ints in -bound..bound (keys of pairs in 0..2, so that keys collide), bools, tuples."""
    if isinstance(t, IntType):
        return rng.randint(0, 2) if key else rng.randint(-bound, bound)
    if isinstance(t, BoolType):
        return rng.random() < 0.5
    assert isinstance(t, TupleType)
    pair = len(t.elems) == 2
    return tuple(gen_value(e, rng, key=pair and i == 0, bound=bound) for i, e in enumerate(t.elems))


def gen_partitions(elem: Type, rng: random.Random, trial: int) -> tuple[tuple[Any, ...], ...]:
    """Trial 0 has empty inputs (empty reduce, division by a zero count), trial 1 values in -1..1
    (division by zero inside UDFs), the others 0..4 elements in -5..5; always 1..3 partitions."""
    size = 0 if trial == 0 else rng.randint(1, 4) if trial == 1 else rng.randint(0, 4)
    data = [gen_value(elem, rng, bound=1 if trial == 1 else 5) for _ in range(size)]
    n = rng.randint(1, 3)
    cuts = sorted(rng.randint(0, len(data)) for _ in range(n - 1))
    bounds = [0, *cuts, len(data)]
    return tuple(tuple(data[bounds[i]:bounds[i + 1]]) for i in range(n))


def observe_spark(value: Any) -> Any:
    if hasattr(value, "collect") and hasattr(value, "getNumPartitions"):
        return Bag.of(value.collect())
    if isinstance(value, tuple):
        return tuple(observe_spark(v) for v in value)
    return value


def run_spark(fn: Any, args: list[Any]) -> Any:
    try:
        return observe_spark(fn(*args))
    except Exception as exc:  # noqa: BLE001 - any exception is an outcome to compare
        text = f"{type(exc).__name__}: {exc}"
        if "ZeroDivisionError" in text:
            return ErrorOutcome("ZeroDivisionError")
        if isinstance(exc, ValueError):
            return ErrorOutcome("ValueError")
        raise


@pytest.mark.spark
@pytest.mark.parametrize("path,name", PIPELINES, ids=[f"{p.stem}::{n}" for p, n in PIPELINES])
def test_translation_agrees_with_spark(spark_context: Any, path: pathlib.Path, name: str) -> None:
    from verifier.spark import exact_rdd

    program = translate_file(str(path), name)
    typecheck(program)  # the frontend's output must type-check
    fn = getattr(_load(path), name)
    rng = random.Random(zlib.crc32(name.encode()))
    trials = []
    for trial in range(TRIALS):
        inputs: dict[str, Any] = {}
        partitions: dict[str, Any] = {}
        for p in program.params:
            assert p.type is not None
            if isinstance(p.type, BagType):
                parts = gen_partitions(p.type.elem, rng, trial)
                partitions[p.name] = parts
                inputs[p.name] = [x for part in parts for x in part]
            else:
                inputs[p.name] = gen_value(p.type, rng)
        trials.append((inputs, partitions))

    def on_spark(trial: tuple[dict[str, Any], dict[str, Any]]) -> Any:
        inputs, partitions = trial
        args = [exact_rdd(spark_context, partitions[p.name]) if p.name in partitions else inputs[p.name]
                for p in program.params]
        return run_spark(fn, args)

    with ThreadPoolExecutor(WORKERS) as pool:
        spark_outcomes = list(pool.map(on_spark, trials))
    for (inputs, partitions), expected in zip(trials, spark_outcomes, strict=True):
        got = run(program, inputs, partitions)
        assert outcomes_equal(got, expected), (
            f"{name} disagrees on {partitions or inputs}: interpreter {got!r}, Spark {expected!r}")


def test_corpus_is_large_enough() -> None:
    assert len(PIPELINES) >= 40
