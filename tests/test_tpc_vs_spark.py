"""TPC-H and TPC-DS as Spark runs them: every query of ``../shared/corpora/tpc`` that sparkeq reads is run
by the relational interpreter and by Spark (the query text through ``spark.sql`` over temporary views,
``verifier.runtime.replay_df``) on random small table sets, and the two must agree.

Why: a TPC query exercises the SQL frontend's translations together (correlated and HAVING scalar
subqueries as joins, ``INTERVAL`` arithmetic, ``LIKE``, ``EXTRACT``, CTEs, semi/anti joins), so a
translation that is not Spark's meaning shows as a disagreement on some tables. Tables are drawn by
``generate.random_tables`` (NULLs, duplicates, empty tables) with the query's own literals in the value
pools, so that its filters and join keys are met. Agreement is ``test_relational_vs_spark.classify``'s
(a difference the interpreter's caveats name, or an error Spark's optimiser skipped, is not a
disagreement).

The full run (every query, ``SPARKEQ_TPC_SETS`` table sets each, default 20) is ``slow``
(``scripts/test_slow.sh``); CI runs a fixed 10-query sample on 2 sets. The tables are the benchmark
schemas as sparkeq reads them (``CHAR(n)``/``VARCHAR(n)`` as ``STRING``: Spark's char padding is not
modelled, so the views are created with ``STRING`` columns too).
"""

from __future__ import annotations

import os
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

from frontend.sql.schema import parse_schema_file
from frontend.sql.translator import translate_sql_file
from sparklite.errors import InputError
from sparklite.relational import ast as R
from sparklite.relational.generate import random_tables

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "tpc"
if not CORPUS.is_dir():  # a worktree next to the main checkout: /work/wt-x -> /work/shared
    CORPUS = Path("/work/shared/corpora/tpc")
N_SETS = int(os.environ.get("SPARKEQ_TPC_SETS", "20"))
MAX_ROWS = 2
#: a fixed CI sample: every construct of the frontend's TPC support at least once
SAMPLE = ("tpch/q1", "tpch/q2", "tpch/q4", "tpch/q11", "tpch/q13", "tpch/q17", "tpch/q20", "tpch/q22",
          "tpcds/q6", "tpcds/q32")


def _queries() -> list[tuple[str, Path]]:
    out = []
    for bench in ("tpch", "tpcds"):
        files = sorted((CORPUS / bench).glob("q*.sql"),
                       key=lambda p: (int(re.sub(r"\D", "", p.stem)), p.stem))
        out += [(f"{bench}/{f.stem}", f) for f in files]
    return out


def _schemas(bench: str) -> dict[str, Any]:
    path = CORPUS / bench / "schema.sql"
    return parse_schema_file(path.read_text(encoding="utf-8"), str(path))


def _literals(node: Any, out: set[Any]) -> None:
    if isinstance(node, R.Lit) and node.value is not None and not isinstance(node.value, bool):
        out.add(node.value)
    if isinstance(node, R.RNode):
        for f in node.__dataclass_fields__:
            _literals(getattr(node, f), out)
    elif isinstance(node, tuple):
        for x in node:
            _literals(x, out)


def _program(name: str, path: Path) -> R.RelProgram | None:
    try:
        return translate_sql_file(path, _schemas(name.split("/")[0]))
    except InputError:
        return None


def _check(spark: Any, name: str, path: Path, sets: int) -> tuple[int, list[str]]:
    """(table sets run, disagreements) for one query."""
    from test_relational_vs_spark import AGREE, CAVEATED, SKIPPED, classify

    from sparklite.relational.interpreter import run
    from verifier.core.base import LoadedProgram
    from verifier.runtime.replay_df import run_on_spark

    program = _program(name, path)
    if program is None:
        return 0, []
    text = path.read_text(encoding="utf-8")
    consts: set[Any] = set()
    _literals(program.body, consts)
    loaded = LoadedProgram(program, "sql", path=str(path), source=text)
    rng = random.Random(f"{name}")
    bad = []
    for i in range(sets):
        tables = random_tables(rng, program.params, MAX_ROWS, consts)
        expected = run(program, tables)
        got = run_on_spark(loaded, tables, None, {}, "local[2]", reference=expected.outcome)
        verdict = classify(expected, got)
        if verdict not in (AGREE, CAVEATED, SKIPPED):
            bad.append(f"{name} set {i}: interpreter {expected.outcome!r} "
                       f"(caveats {sorted(expected.caveats)})\n  Spark {got!r}\n  tables {tables}")
    return sets, bad


def _run(spark: Any, names: list[tuple[str, Path]], sets: int) -> None:
    read, failures, start = 0, [], time.time()
    for name, path in names:
        n, bad = _check(spark, name, path, sets)
        read += n > 0
        failures += bad
    took = time.time() - start
    print(f"{read} queries, {sets} table sets each, {len(failures)} disagreements ({took:.0f} s)")
    assert not failures, "\n".join(failures[:10])


def test_tpc_reading() -> None:
    """All 22 TPC-H queries and every TPC-DS query of the corpus (103, issue 21 asks for >= 100) read."""
    read = {name for name, path in _queries() if _program(name, path) is not None}
    assert {f"tpch/q{i}" for i in range(1, 23)} <= read
    assert {name for name, _ in _queries() if name.startswith("tpcds/")} <= read


@pytest.mark.spark
def test_tpc_sample_agrees_with_spark(spark_session: Any) -> None:
    chosen = [(n, p) for n, p in _queries() if n in SAMPLE]
    assert len(chosen) == len(SAMPLE)
    _run(spark_session, chosen, 2)


@pytest.mark.spark
@pytest.mark.slow
def test_every_tpc_query_agrees_with_spark(spark_session: Any) -> None:
    _run(spark_session, _queries(), N_SETS)
