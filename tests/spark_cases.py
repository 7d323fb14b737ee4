"""Run the bundled cases' *original* PySpark functions on a real local Spark, as ground truth.

The expected verdicts in ``cases/manifest.json`` are claims about programs as Spark runs them, so they
are checked against Spark itself, not against sparkeq's own interpreter (which is what sparkeq is tested
against and therefore cannot be the referee for the cases). A pair marked ``equivalent`` must never
differ on random small inputs and partitionings; a pair marked ``not_equivalent`` must differ on some
input, and the input found is stored in the manifest as the pair's ``witness`` so that the test suite
can re-check it with two Spark jobs instead of a search.

This module never imports the verifier or the frontend: it runs user code directly, on purpose.

Run it as a script to (re)check every case and refresh the witnesses::

    .venv/bin/python tests/spark_cases.py [--trials N] [--seed S] [--write-witnesses] [NAME ...]
"""

from __future__ import annotations

import argparse
import ast
import inspect
import json
import random
import re
import sys
import time
import typing
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # running as a script: make the project importable
    sys.path.insert(0, str(REPO))

from sparklite.values import Bag, ErrorOutcome, Outcome, observe_value, outcomes_equal  # noqa: E402

MANIFEST = REPO / "cases" / "manifest.json"


# ---------------------------------------------------------------------------------------------------
# Loading the original functions (without registering a module, so cloudpickle ships them by value)
# ---------------------------------------------------------------------------------------------------


def load_manifest() -> list[dict[str, Any]]:
    return json.loads(MANIFEST.read_text())["cases"]


def split_spec(spec: str) -> tuple[Path, str]:
    path, _, fn = spec.partition("::")
    return REPO / path, fn


def load_function(spec: str) -> Callable[..., Any]:
    """The pipeline function named by ``path::fn``.

    The module is executed into a fresh namespace that is *not* put in ``sys.modules``: cloudpickle then
    pickles the lambdas and helpers by value, so Spark's Python workers need not import the case file.
    """
    path, fn = split_spec(spec)
    namespace: dict[str, Any] = {"__name__": f"sparkeq_case_{path.parent.name}_{path.stem}"}
    exec(compile(path.read_text(), str(path), "exec", dont_inherit=True), namespace)
    return namespace[fn]


# ---------------------------------------------------------------------------------------------------
# Parameter kinds from annotations
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ParamKind:
    name: str
    is_bag: bool
    elem: Any  # int, bool, or a tuple of these kinds (nested) describing the element/scalar type


def _describe(annotation: Any) -> Any:
    if annotation in (int, bool, str, float):
        return annotation
    if typing.get_origin(annotation) is tuple:
        return tuple(_describe(a) for a in typing.get_args(annotation))
    raise TypeError(f"unsupported annotation {annotation!r}")


def param_kinds(fn: Callable[..., Any]) -> list[ParamKind]:
    kinds = []
    for p in inspect.signature(fn).parameters.values():
        ann = p.annotation
        args = typing.get_args(ann)
        if args and getattr(typing.get_origin(ann), "__name__", "") == "RDD":
            kinds.append(ParamKind(p.name, True, _describe(args[0])))
        else:
            kinds.append(ParamKind(p.name, False, _describe(ann)))
    return kinds


# ---------------------------------------------------------------------------------------------------
# Random inputs biased towards the constants the programs mention (boundaries are where bugs live)
# ---------------------------------------------------------------------------------------------------


def interesting_constants(sources: Sequence[str]) -> list[int]:
    """Integer literals of the programs, and their neighbours and negations."""
    found: set[int] = set()
    for text in sources:
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Constant) and type(node.value) is int and abs(node.value) < 10**6:
                c = node.value
                found.update({c - 1, c, c + 1, -c, 2 * c, c // 2, c * 10})
    return sorted(found)


class InputGen:
    """Small random values for a case: mostly tiny integers, sometimes the programs' own constants."""

    def __init__(self, rng: random.Random, constants: Sequence[int]) -> None:
        self.rng = rng
        self.constants = list(constants)

    def int_value(self, key: bool = False) -> int:
        r = self.rng.random()
        if key and r < 0.75:
            return self.rng.randint(0, 3)
        if self.constants and r < 0.45:
            return self.rng.choice(self.constants)
        if r < 0.6:
            return self.rng.randint(0, 110)
        return self.rng.randint(-6, 12)

    def value(self, elem: Any, key: bool = False) -> Any:
        if elem is bool:
            return self.rng.random() < 0.5
        if elem is int:
            return self.int_value(key)
        if elem is str:  # words, separators, digits: what parsing and word counts meet
            if key and self.rng.random() < 0.75:
                return self.rng.choice(["a", "b", ""])
            pieces = ["a", "b", "A", " ", ",", "1", "-2", "3.5", "é", "the", ""]
            return "".join(self.rng.choice(pieces) for _ in range(self.rng.randint(0, 4)))
        if elem is float:  # no NaN keys (Spark places them by identity)
            pool = [0.0, -0.0, 0.1, 0.2, 0.3, 1.5, -2.0, 1e16] if key else \
                [0.0, -0.0, 0.1, 0.2, 0.3, 1.5, -2.0, 1e16, 1e308, float("inf"), float("nan")]
            return self.rng.choice(pool) if self.rng.random() < 0.7 else self.rng.uniform(-10, 10)
        return tuple(self.value(e, key=(i == 0 and len(elem) == 2)) for i, e in enumerate(elem))

    def bag(self, elem: Any, max_size: int) -> list[Any]:
        size = self.rng.choice([0, 1, 1, 2, 2, 3, 3, 4, 5, max_size])
        items = [self.value(elem) for _ in range(size)]
        if items and self.rng.random() < 0.3:  # duplicates matter for bags
            items.append(self.rng.choice(items))
        return items

    def partitioning(self, items: list[Any], max_parts: int) -> list[list[Any]]:
        n = self.rng.randint(1, max_parts)
        parts: list[list[Any]] = [[] for _ in range(n)]
        for x in items:
            parts[self.rng.randrange(n)].append(x)
        return parts


def random_trial(kinds: list[ParamKind], gen: InputGen, max_size: int = 6,
                 max_parts: int = 3) -> tuple[dict[str, Any], dict[str, list[list[Any]]]]:
    inputs: dict[str, Any] = {}
    partitions: dict[str, list[list[Any]]] = {}
    for k in kinds:
        if k.is_bag:
            items = gen.bag(k.elem, max_size)
            partitions[k.name] = gen.partitioning(items, max_parts)
            inputs[k.name] = [x for part in partitions[k.name] for x in part]
        else:
            inputs[k.name] = gen.value(k.elem)
    return inputs, partitions


# ---------------------------------------------------------------------------------------------------
# Running on Spark
# ---------------------------------------------------------------------------------------------------

_PY_ERROR = re.compile(r"(?<![.\w])([A-Z]\w*(?:Error|Exception)):")


def error_kind(exc: BaseException) -> str:
    """The Python exception a Spark job raised: itself on the driver, or the last one named in a worker's
    traceback (Spark wraps worker errors in Java exceptions whose text carries the Python one)."""
    if type(exc).__module__ == "builtins":
        return type(exc).__name__
    names = [n for n in _PY_ERROR.findall(str(exc)) if n not in ("PythonException", "Py4JJavaError")]
    return names[-1] if names else type(exc).__name__


def observe(value: Any) -> Outcome:
    """An output as sparklite's ``Outcome``: RDDs become bags, tuples are observed component-wise, values
    as the interpreter observes them (``values.observe_value``: a list as a ``ListValue``, in Spark's
    order, dicts such as ``countByValue``'s ``defaultdict`` as ``DictValue``; floats and None as they
    are). Without the interpreter's tie groups an ordered result is compared exactly."""
    if hasattr(value, "collect") and hasattr(value, "mapPartitions"):
        return Bag.of(observe_value(v) for v in value.collect())
    if isinstance(value, tuple):
        return tuple(observe(v) for v in value)
    return observe_value(value)


def run_on_spark(sc: Any, fn: Callable[..., Any], kinds: list[ParamKind], inputs: dict[str, Any],
                 partitions: dict[str, list[list[Any]]]) -> Outcome:
    from verifier.spark import exact_rdd

    args = []
    for k in kinds:
        if k.is_bag:
            args.append(exact_rdd(sc, partitions[k.name] if k.name in partitions else [list(inputs[k.name])]))
        else:
            args.append(inputs[k.name])
    try:
        return observe(fn(*args))
    except Exception as exc:  # an exception is an outcome of its own
        return ErrorOutcome(error_kind(exc))


def tuplify(value: Any, elem: Any) -> Any:
    """JSON lists back into the tuples the annotations promise."""
    if isinstance(elem, tuple):
        return tuple(tuplify(v, e) for v, e in zip(value, elem, strict=True))
    return value


def witness_args(kinds: list[ParamKind], witness: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    inputs: dict[str, Any] = {}
    partitions: dict[str, Any] = {}
    for k in kinds:
        if k.is_bag:
            parts = witness["partitions"][k.name]
            partitions[k.name] = [[tuplify(x, k.elem) for x in p] for p in parts]
            inputs[k.name] = [x for p in partitions[k.name] for x in p]
        else:
            inputs[k.name] = tuplify(witness["inputs"][k.name], k.elem)
    return inputs, partitions


@dataclass
class CaseCheck:
    name: str
    truth: str
    trials: int
    difference: tuple[dict[str, Any], dict[str, Any], Outcome, Outcome] | None

    @property
    def ok(self) -> bool:
        return (self.difference is None) == (self.truth == "equivalent")


def check_case(sc: Any, entry: dict[str, Any], trials: int, seed: int, threads: int = 4) -> CaseCheck:
    """Search for a difference between the pair's originals on Spark (a stored witness is tried first)."""
    left, right = load_function(entry["left"]), load_function(entry["right"])
    kinds = param_kinds(left)
    truth = entry.get("truth", entry["expected"])
    sources = [split_spec(entry[s])[0].read_text() for s in ("left", "right")]
    gen = InputGen(random.Random(f"{seed}:{entry['name']}"), interesting_constants(sources))
    attempts: list[tuple[dict[str, Any], dict[str, Any]]] = []
    if "witness" in entry:
        attempts.append(witness_args(kinds, entry["witness"]))
    attempts.extend(random_trial(kinds, gen) for _ in range(trials))

    def both(attempt: tuple[dict[str, Any], dict[str, Any]]) -> tuple[Outcome, Outcome]:
        inputs, partitions = attempt
        return (run_on_spark(sc, left, kinds, inputs, partitions),
                run_on_spark(sc, right, kinds, inputs, partitions))

    # Spark jobs on a local master are latency-bound (scheduling, not computing), so a few concurrent
    # jobs multiply throughput; chunks keep the search stopping soon after the first difference.
    with ThreadPoolExecutor(max_workers=threads) as pool:
        for start in range(0, len(attempts), 2 * threads):
            chunk = attempts[start:start + 2 * threads]
            for (inputs, partitions), (a, b) in zip(chunk, pool.map(both, chunk), strict=True):
                if not outcomes_equal(a, b):
                    return CaseCheck(entry["name"], truth, len(attempts), (inputs, partitions, a, b))
    return CaseCheck(entry["name"], truth, len(attempts), None)


def shrink(sc: Any, entry: dict[str, Any], inputs: dict[str, Any],
           partitions: dict[str, list[list[Any]]]) -> tuple[dict[str, Any], dict[str, list[list[Any]]]]:
    """A smaller input on which the pair still differs: fewer partitions, fewer elements (greedy).

    Witnesses end up in the manifest and in demos; a three-element counterexample explains a bug, a
    twelve-element one hides it."""
    left, right = load_function(entry["left"]), load_function(entry["right"])
    kinds = param_kinds(left)

    def differs(parts: dict[str, list[list[Any]]]) -> bool:
        ins = dict(inputs)
        for name, ps in parts.items():
            ins[name] = [x for p in ps for x in p]
        return not outcomes_equal(run_on_spark(sc, left, kinds, ins, parts),
                                  run_on_spark(sc, right, kinds, ins, parts))

    def candidates(parts: dict[str, list[list[Any]]]) -> list[dict[str, list[list[Any]]]]:
        out = []
        for name, ps in parts.items():
            if len(ps) > 1:  # merge everything into one partition, or drop an empty partition
                out.append({**parts, name: [[x for p in ps for x in p]]})
                out.extend({**parts, name: ps[:i] + ps[i + 1:]} for i, p in enumerate(ps) if not p)
            for i, p in enumerate(ps):
                for j in range(len(p)):
                    smaller = [list(q) for q in ps]
                    del smaller[i][j]
                    out.append({**parts, name: smaller})
        return out

    current = {k: [list(p) for p in v] for k, v in partitions.items()}
    progress = True
    while progress:
        progress = False
        for cand in candidates(current):
            if differs(cand):
                current, progress = cand, True
                break
    ins = dict(inputs)
    for name, ps in current.items():
        ins[name] = [x for p in ps for x in p]
    return ins, current


def _jsonable(x: Any) -> Any:
    if isinstance(x, tuple | list):
        return [_jsonable(v) for v in x]
    if isinstance(x, dict):
        return {k: _jsonable(v) for k, v in x.items()}
    return x


def dump_manifest(data: dict[str, Any]) -> str:
    """The manifest as JSON for people: one key per line, but each witness on a single line."""
    out = ['{\n  "cases": [']
    entries = []
    for entry in data["cases"]:
        fields = [f"      {json.dumps(k)}: {json.dumps(v)}" for k, v in entry.items()]
        entries.append("    {\n" + ",\n".join(fields) + "\n    }")
    out.append(",\n".join(entries))
    out.append("  ]\n}\n")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*")
    ap.add_argument("--trials", type=int, default=150)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--write-witnesses", action="store_true",
                    help="store each found difference of a not_equivalent pair as its witness")
    args = ap.parse_args(argv)

    from verifier.spark import get_context

    sc = get_context()
    data = json.loads(MANIFEST.read_text())
    bad = 0
    for entry in data["cases"]:
        if args.names and entry["name"] not in args.names:
            continue
        start = time.perf_counter()
        res = check_case(sc, entry, args.trials, args.seed)
        took = time.perf_counter() - start
        status = "ok " if res.ok else "BAD"
        bad += not res.ok
        detail = ""
        if res.difference is not None:
            inputs, partitions, a, b = res.difference
            detail = f" differs on {partitions} {inputs}: {a!r} vs {b!r}"
            if args.write_witnesses and res.truth == "not_equivalent":
                inputs, partitions = shrink(sc, entry, inputs, partitions)
                detail += f"\n    shrunk to {partitions} {inputs}"
                entry["witness"] = {"inputs": _jsonable(inputs), "partitions": _jsonable(partitions)}
        print(f"{status} {res.name:45s} truth={res.truth:15s} trials={res.trials:4d} {took:5.1f}s{detail}",
              flush=True)
    if args.write_witnesses:
        MANIFEST.write_text(dump_manifest(data))
    print(f"{bad} case(s) contradict their expected verdict on Spark")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
