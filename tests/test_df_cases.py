"""The DataFrame/SQL pairs of ``cases/df``: their truths checked on real Spark, and sparkeq's verdicts.

Each manifest entry claims a ``truth`` about two programs as Spark 4 runs them (ANSI mode on, the
session's defaults). The claim is checked against Spark itself, never against sparkeq's interpreter:

- a not-equivalent pair carries a ``witness`` (tables, optionally their exact partitions) on which the two
  *original* programs must give different outcomes;
- an equivalent pair must give the same outcome on random small tables (NULLs, zeros, INT/BIGINT bounds,
  NaN, -0.0, the programs' own constants, primary keys respected) in one to three partitions.

An outcome is what a user sees: for a DataFrame, ``df.dtypes`` and the collected rows, compared as a bag,
or as a sequence when both results end in a sort (the sorted cases select only their sort key, so ties
are equal rows); for an action, its value; for a failure, the exception's class and Spark's error
condition (``ArithmeticException [DIVIDE_BY_ZERO]`` is not ``[ARITHMETIC_OVERFLOW]``). Floats are
compared by ``repr`` so that NaN equals NaN and -0.0 differs from 0.0.

DataFrame functions are loaded by exec'ing the bundled case file in a fresh namespace and run as written;
a ``.sql`` side runs through ``spark.sql`` over temporary views named like the tables (each worker thread
has its own ``spark.newSession()`` with the default configuration, so its views never leak into other
tests). Random tables respect NOT NULL and declared keys; each has one to three partitions, some empty.

``SPARKEQ_DF_TRIALS`` sets the number of random trials per equivalent pair (default 4, which keeps the
Spark checks near two minutes on a two-core machine); the corpus was validated with 30. Run this file as
a script to validate with more trials and print every outcome (``--search`` also runs the random trials
on the not-equivalent pairs, to see how many of them random tables expose)::

    .venv/bin/python tests/test_df_cases.py [--trials 30] [--search] [NAME ...]
"""

from __future__ import annotations

import inspect
import json
import os
import random
import re
import sys
import threading
import typing
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # running as a script
    sys.path.insert(0, str(REPO))

from sparklite.relational.types import Schema, parse_ddl  # noqa: E402

MANIFEST = REPO / "cases" / "df" / "manifest.json"
TRIALS = int(os.environ.get("SPARKEQ_DF_TRIALS", "4"))
WORKERS = 2
INT_MIN, INT_MAX = -(2**31), 2**31 - 1
LONG_MIN, LONG_MAX = -(2**63), 2**63 - 1


def load_manifest() -> list[dict[str, Any]]:
    return json.loads(MANIFEST.read_text())["cases"]


CASES = load_manifest()
EQUIVALENT = [c for c in CASES if c["truth"] == "equivalent"]
DIFFERENT = [c for c in CASES if c["truth"] == "not_equivalent"]


def _ids(cases: Sequence[dict[str, Any]]) -> list[str]:
    return [c["name"] for c in cases]


# ---------------------------------------------------------------------------------------------------
# Schemas: --schema values (FILE.sql of CREATE TABLE statements, or NAME=DDL) and Annotated parameters
# ---------------------------------------------------------------------------------------------------


def _strip_sql_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"--[^\n]*", " ", text)


def schema_tables(specs: Sequence[str] | None) -> dict[str, Schema]:
    """The tables the manifest's ``schema`` values declare, in declaration order (names lower-cased)."""
    tables: dict[str, Schema] = {}
    for spec in specs or ():
        if "=" in spec and not spec.endswith(".sql"):
            name, ddl = spec.split("=", 1)
            tables[name.strip().lower()] = parse_ddl(ddl)
            continue
        text = _strip_sql_comments((REPO / spec).read_text())
        for stmt in text.split(";"):
            if not stmt.strip():
                continue
            m = re.fullmatch(r"\s*create\s+table\s+`?(\w+)`?\s*\((.*)\)\s*", stmt, flags=re.S | re.I)
            assert m, f"{spec}: cannot read statement {stmt.strip()!r}"
            tables[m.group(1).lower()] = parse_ddl(m.group(2))
    return tables


def spark_ddl(schema: Schema) -> str:
    """The schema as a DDL string ``createDataFrame`` accepts (constraints dropped, NOT NULL kept)."""
    return ", ".join(f"`{f.name}` {f.type.simple.upper()}{'' if f.nullable else ' NOT NULL'}"
                     for f in schema.fields)


# ---------------------------------------------------------------------------------------------------
# The two sides of a pair
# ---------------------------------------------------------------------------------------------------


@dataclass
class Side:
    spec: str
    kind: str  # "py" | "sql"
    function: Callable[..., Any] | None = None
    params: list[tuple[str, Schema | None]] = field(default_factory=list)  # py: (name, annotated schema)
    query: str = ""


def load_side(spec: str) -> Side:
    path_text, _, fn = spec.partition("::")
    path = REPO / path_text
    if path.suffix == ".sql":
        return Side(spec, "sql", query=path.read_text())
    namespace: dict[str, Any] = {"__name__": f"sparkeq_df_case_{path.parent.name}_{path.stem}"}
    exec(compile(path.read_text(), str(path), "exec", dont_inherit=True), namespace)
    function = namespace[fn]
    params: list[tuple[str, Schema | None]] = []
    for p in inspect.signature(function).parameters.values():
        ann = p.annotation
        schema = None
        if typing.get_origin(ann) is typing.Annotated:
            schema = parse_ddl(ann.__metadata__[0])
        params.append((p.name, schema))
    return Side(spec, "py", function=function, params=params)


@dataclass
class Pair:
    entry: dict[str, Any]
    left: Side
    right: Side
    inputs: dict[str, Schema]  # every table the pair reads, named as LEFT names them (or as the schema)
    right_names: list[str]  # for a DataFrame RIGHT: which input each parameter takes

    @property
    def name(self) -> str:
        return self.entry["name"]


def load_pair(entry: dict[str, Any]) -> Pair:
    left, right = load_side(entry["left"]), load_side(entry["right"])
    declared = schema_tables(entry.get("schema"))
    inputs: dict[str, Schema] = {}
    if left.kind == "py":
        for name, schema in left.params:
            schema = schema or declared.get(name.lower())
            assert schema is not None, f"{entry['name']}: no schema for parameter {name!r}"
            inputs[name] = schema
    for name, schema in declared.items():  # a SQL side may read any declared table
        if left.kind == "sql" or right.kind == "sql":
            inputs.setdefault(name, schema)
    right_names: list[str] = []
    if right.kind == "py":
        names = [n for n, _ in right.params]
        if all(n in inputs for n in names):  # named like the tables (a mixed pair, or the same names)
            right_names = names
        else:  # parameters are matched by position
            right_names = list(inputs)[: len(names)]
        for (n, schema), target in zip(right.params, right_names, strict=True):
            if schema is not None:
                assert spark_ddl(schema) == spark_ddl(inputs[target]), (
                    f"{entry['name']}: RIGHT's {n} is not typed as LEFT's {target}")
    return Pair(entry, left, right, inputs, right_names)


# ---------------------------------------------------------------------------------------------------
# Tables: witnesses and random trials
# ---------------------------------------------------------------------------------------------------

Layout = dict[str, list[list[tuple]]]  # table -> partitions -> rows


def decode_value(v: Any) -> Any:
    if isinstance(v, dict) and set(v) == {"float"}:
        return float(v["float"])
    return v


def witness_layout(pair: Pair) -> Layout:
    w = pair.entry["witness"]
    unknown = set(w["tables"]) - set(pair.inputs)
    assert not unknown, f"{pair.name}: witness names unknown tables {sorted(unknown)}"
    layout: Layout = {}
    for name in pair.inputs:
        rows = [tuple(decode_value(v) for v in row) for row in w["tables"].get(name, [])]
        parts = w.get("partitions", {}).get(name)
        if parts is None:
            layout[name] = [rows]
        else:
            parts = [[tuple(decode_value(v) for v in row) for row in p] for p in parts]
            assert sorted(map(repr, rows)) == sorted(repr(r) for p in parts for r in p), (
                f"{pair.name}: the partitions of {name} are not its rows")
            layout[name] = parts
    return layout


def check_constraints(pair: Pair, layout: Layout) -> None:
    """A witness must respect what the schema declares (NOT NULL, PRIMARY KEY, UNIQUE)."""
    for name, schema in pair.inputs.items():
        rows = [r for p in layout[name] for r in p]
        for row in rows:
            assert len(row) == len(schema.fields), f"{pair.name}: {name} row {row} has the wrong width"
            for f, v in zip(schema.fields, row, strict=True):
                assert f.nullable or v is not None, f"{pair.name}: NULL in {name}.{f.name} (NOT NULL)"
        for c in schema.constraints:
            if c.kind not in ("primary", "unique"):
                continue
            idx = [schema.indices(col)[0] for col in c.columns]
            keys = [tuple(r[i] for i in idx) for r in rows]
            if c.kind == "primary":
                assert all(None not in k for k in keys), f"{pair.name}: NULL primary key in {name}"
            keys = [k for k in keys if None not in k]
            assert len(set(keys)) == len(keys), f"{pair.name}: duplicate key {c.columns} in {name}"


_INTS = [-7, -2, -1, 0, 1, 2, 3, 5, 10, 100, 101, 150]
_INT_EDGES = [INT_MAX, INT_MIN, 2**30, INT_MAX - 1]
_LONGS = [-3, -1, 0, 1, 2, 3, 1000, 2**53]
_LONG_EDGES = [LONG_MAX, LONG_MIN, 2**53 + 1, 10**18 + 999]
_DOUBLES = [0.0, -0.0, 1.5, -2.5, 3.0, 100.0, 0.1, float("nan"), float("inf"), float("-inf")]
_STRINGS = ["paid", "open", "cancelled", "Oslo", "Rome", "ann", "bob", "", "x", "1", "a"]


def random_value(rng: random.Random, type_name: str) -> Any:
    if type_name == "int":
        return rng.choice(_INT_EDGES) if rng.random() < 0.04 else rng.choice(_INTS)
    if type_name == "bigint":
        return rng.choice(_LONG_EDGES) if rng.random() < 0.04 else rng.choice(_LONGS)
    if type_name == "double":
        return rng.choice(_DOUBLES)
    if type_name == "string":
        return rng.choice(_STRINGS)
    if type_name == "boolean":
        return rng.random() < 0.5
    raise AssertionError(f"no random values for type {type_name}")


def random_table(rng: random.Random, schema: Schema) -> list[list[tuple]]:
    n = rng.choice([0, 1, 2, 3, 4, 5, 6, 7]) if rng.random() < 0.9 else 0
    keys = {i for c in schema.constraints if c.kind in ("primary", "unique") for i in
            (schema.indices(col)[0] for col in c.columns)}
    null_rate = rng.choice([0.0, 0.15, 0.3])
    columns = []
    for i, f in enumerate(schema.fields):
        t = f.type.simple
        if i in keys:  # distinct values (and no NULL: a primary key)
            pool = list(range(1, 12))
            rng.shuffle(pool)
            columns.append(pool[:n])
            continue
        col = []
        for _ in range(n):
            if f.nullable and rng.random() < null_rate:
                col.append(None)
            else:
                col.append(random_value(rng, t))
        columns.append(col)
    rows = [tuple(col[j] for col in columns) for j in range(n)]
    if n and rng.random() < 0.3:  # duplicate a row (not across a key)
        dup = rows[rng.randrange(n)]
        if not keys:
            rows.insert(rng.randrange(n + 1), dup)
    k = rng.choice([1, 1, 2, 3])
    parts: list[list[tuple]] = [[] for _ in range(k)]
    cut = sorted(rng.randint(0, len(rows)) for _ in range(k - 1))
    bounds = [0, *cut, len(rows)]
    for i in range(k):
        parts[i] = rows[bounds[i]:bounds[i + 1]]
    return parts


def random_layout(pair: Pair, trial: int) -> Layout:
    rng = random.Random(f"{pair.name}/{trial}")
    if trial == 0:
        return {name: [[]] for name in pair.inputs}
    return {name: random_table(rng, schema) for name, schema in pair.inputs.items()}


# ---------------------------------------------------------------------------------------------------
# Running a side on Spark and observing its outcome
# ---------------------------------------------------------------------------------------------------


def _norm(v: Any) -> Any:
    if isinstance(v, float):
        return ("float", repr(v))
    if isinstance(v, tuple | list):
        return tuple(_norm(x) for x in v)
    return v


def _sort_key(row: tuple) -> str:
    return repr(row)


def _error_outcome(exc: BaseException) -> tuple:
    condition = None
    for getter in ("getCondition", "getErrorClass"):
        if hasattr(exc, getter):
            try:
                condition = getattr(exc, getter)()
            except Exception:  # noqa: BLE001 - an exception without a JVM side
                condition = None
            if condition:
                break
    return ("error", type(exc).__name__, condition)


def _is_ordered(df: Any) -> bool:
    """Whether the result ends in a global sort (possibly under projections and limits)."""
    node = df._jdf.queryExecution().analyzed()
    while True:
        name = node.nodeName()
        if name == "Sort":
            return bool(getattr(node, "global")())
        if name not in ("Project", "GlobalLimit", "LocalLimit", "SubqueryAlias", "Limit") \
                or node.children().size() != 1:
            return False
        node = node.children().apply(0)


class _LostWorker(Exception):
    pass


def observe(thunk: Callable[[], Any]) -> tuple:
    from pyspark.sql import DataFrame

    try:
        value = thunk()
        if isinstance(value, DataFrame):
            dtypes = tuple(value.dtypes)
            ordered = _is_ordered(value)
            rows = [_norm(tuple(r)) for r in value.collect()]
            return ("rows", dtypes, ordered, rows)
        return ("value", type(value).__name__, _norm(value))
    except Exception as exc:  # noqa: BLE001 - a failure is an outcome
        out = _error_outcome(exc)
        if out[1] == "Py4JJavaError" and out[2] is None:  # a lost Python worker: not the program's doing
            raise _LostWorker(str(exc)[:300]) from exc
        return out


def same_outcome(a: tuple, b: tuple) -> bool:
    if a[0] != b[0]:
        return False
    if a[0] != "rows":
        return a == b
    if a[1] != b[1]:
        return False
    if a[2] and b[2]:
        return a[3] == b[3]
    return Counter(map(_sort_key, a[3])) == Counter(map(_sort_key, b[3]))


def show(outcome: tuple) -> str:
    if outcome[0] == "rows":
        rows = outcome[3] if outcome[2] else sorted(outcome[3], key=_sort_key)
        return f"{list(outcome[1])} {'sorted ' if outcome[2] else ''}{rows}"
    return repr(outcome[1:])


_local = threading.local()
_POOL: list[ThreadPoolExecutor] = []


def _pool() -> ThreadPoolExecutor:
    """The trials' worker threads, kept for the whole run (so each keeps its one session)."""
    if not _POOL:
        _POOL.append(ThreadPoolExecutor(WORKERS, thread_name_prefix="df-cases"))
    return _POOL[0]


def _session(spark: Any) -> Any:
    """This thread's own session over the shared context (temporary views are per session)."""
    session = getattr(_local, "session", None)
    if session is None:
        session = spark.newSession()
        _local.session = session
    return session


def run_side(spark: Any, pair: Pair, side: Side, layout: Layout) -> tuple:
    from verifier.runtime.spark import exact_dataframe

    def attempt() -> tuple:
        session = _session(spark)
        frames = {name: exact_dataframe(session, layout[name], spark_ddl(schema))
                  for name, schema in pair.inputs.items()}
        if side.kind == "py":
            names = [n for n, _ in side.params] if side is pair.left else pair.right_names
            return observe(lambda: side.function(*(frames[n] for n in names)))
        for name, df in frames.items():
            df.createOrReplaceTempView(name)
        return observe(lambda: session.sql(side.query))

    try:
        return attempt()
    except _LostWorker:
        return attempt()


def run_pair(spark: Any, pair: Pair, layout: Layout) -> tuple[tuple, tuple]:
    return run_side(spark, pair, pair.left, layout), run_side(spark, pair, pair.right, layout)


def layout_text(layout: Layout) -> str:
    return "; ".join(f"{name}={parts}" for name, parts in layout.items())


def equivalent_mismatches(spark: Any, pair: Pair, trials: int) -> list[str]:
    """Run both sides on ``trials`` random layouts; describe every trial where they differ."""

    def one(trial: int) -> str | None:
        layout = random_layout(pair, trial)
        left, right = run_pair(spark, pair, layout)
        if same_outcome(left, right):
            return None
        return f"trial {trial}: {layout_text(layout)}\n  left:  {show(left)}\n  right: {show(right)}"

    return [m for m in _pool().map(one, range(trials)) if m]


def witness_outcomes(spark: Any, pair: Pair) -> tuple[Layout, tuple, tuple]:
    layout = witness_layout(pair)
    check_constraints(pair, layout)
    sides = [_pool().submit(run_side, spark, pair, side, layout) for side in (pair.left, pair.right)]
    left, right = (f.result() for f in sides)
    return layout, left, right


# ---------------------------------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------------------------------


def test_manifest_is_well_formed():
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names)) >= 44
    assert len(DIFFERENT) * 2 >= len(CASES)
    dirs = {p.name for p in (REPO / "cases" / "df").iterdir() if p.is_dir() and p.name != "schemas"}
    assert dirs == set(names)
    for c in CASES:
        assert c["truth"] in ("equivalent", "not_equivalent"), c["name"]
        assert c["expected"] in (c["truth"], "unknown"), c["name"]
        assert c["description"], c["name"]
        assert ("witness" in c) == (c["truth"] == "not_equivalent"), c["name"]
        for side in ("left", "right"):
            path = c[side].partition("::")[0]
            assert path.startswith(f"cases/df/{c['name']}/{side}."), c[side]
            assert (REPO / path).is_file(), c[side]
            assert path.endswith(".sql") or "::" in c[side], c[side]
        pair = load_pair(c)  # every parameter has a schema, RIGHT typed as LEFT
        if "witness" in c:
            check_constraints(pair, witness_layout(pair))


@pytest.mark.spark
@pytest.mark.parametrize("entry", DIFFERENT, ids=_ids(DIFFERENT))
def test_witness_differs_on_spark(spark_session, entry):
    pair = load_pair(entry)
    layout, left, right = witness_outcomes(spark_session, pair)
    assert not same_outcome(left, right), (
        f"{pair.name}: both programs give {show(left)} on {layout_text(layout)}")


@pytest.mark.spark
@pytest.mark.parametrize("entry", EQUIVALENT, ids=_ids(EQUIVALENT))
def test_equivalent_pair_agrees_on_spark(spark_session, entry):
    pair = load_pair(entry)
    mismatches = equivalent_mismatches(spark_session, pair, TRIALS)
    assert not mismatches, f"{pair.name} differs on Spark:\n" + "\n".join(mismatches)


@pytest.mark.spark
@pytest.mark.parametrize("entry", CASES, ids=_ids(CASES))
def test_sparkeq_verdict(entry):
    """sparkeq on every pair: the expected verdict, never one contradicting the truth, and every
    counterexample reproduced on Spark."""
    from verifier import check

    def spec(s: str) -> str:
        path, sep, fn = s.partition("::")
        return str(REPO / path) + sep + fn

    schema = [s if "=" in s and not s.endswith(".sql") else str(REPO / s) for s in entry.get("schema", [])]
    result = check(spec(entry["left"]), spec(entry["right"]), replay=True, timeout=20, schema=schema or None)
    contradicts = {"equivalent": "not_equivalent", "not_equivalent": "equivalent"}[entry["truth"]]
    assert result.verdict != contradicts, f"{entry['name']}: unsound {result.verdict}: {result.reason}"
    assert result.verdict == entry["expected"], f"{entry['name']}: {result.verdict}: {result.reason}"
    if result.verdict == "not_equivalent":
        assert result.counterexample is not None and result.counterexample.replayed_on_spark is True, (
            f"{entry['name']}: counterexample not reproduced on Spark")


# ---------------------------------------------------------------------------------------------------
# Script: validate with more trials, report everything
# ---------------------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    import argparse
    import time

    from verifier.runtime.spark import get_session

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=30)
    parser.add_argument("--search", action="store_true",
                        help="also run the random trials on the not-equivalent pairs")
    parser.add_argument("names", nargs="*")
    args = parser.parse_args(argv)
    spark = get_session("local[2]")
    bad = 0
    for entry in CASES:
        if args.names and entry["name"] not in args.names:
            continue
        start = time.time()
        pair = load_pair(entry)
        if entry["truth"] == "not_equivalent":
            layout, left, right = witness_outcomes(spark, pair)
            ok = not same_outcome(left, right)
            detail = f"left {show(left)} | right {show(right)}"
            if args.search:
                found = len(equivalent_mismatches(spark, pair, args.trials))
                detail = f"random trials differ {found}/{args.trials}; witness: {detail}"
        else:
            mismatches = equivalent_mismatches(spark, pair, args.trials)
            ok = not mismatches
            detail = "\n".join(mismatches) if mismatches else f"{args.trials} trials agree"
        bad += not ok
        print(f"{'ok ' if ok else 'BAD'} {entry['name']} ({time.time() - start:.1f}s): {detail}", flush=True)
    print(f"{bad} failing", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
