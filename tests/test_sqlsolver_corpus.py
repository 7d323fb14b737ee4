"""SQLSolver's 127 Spark rewrite pairs (``/work/shared/corpora/sqlsolver``) through the SQL frontend.

Every query either translates against the corpus schema or is a located ``InputError`` naming what is
not supported: never a traceback. The exact counts are pinned so that a regression (a query that stops
translating) fails here, and an improvement updates them knowingly. The translations' schemas are
checked against Spark's for every query (analysis only: cheap), and the rows on a sample of small
inputs through the reference interpreter.
"""

from __future__ import annotations

import collections
import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from frontend.sql.schema import parse_schema_file
from frontend.sql.translator import translate_query
from sparklite.errors import InputError, UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational import build
from sparklite.relational.types import Schema

CORPUS = Path("/work/shared/corpora/sqlsolver")
QUERIES_FILE = CORPUS / "spark_tests"
SCHEMA_FILE = CORPUS / "calcite_test.base.schema.sql"

SUPPORTED_QUERIES = 251  # of 254 (the 4 window queries read since issue 21, LATERAL since issue 22)
SUPPORTED_PAIRS = 124  # of 127: both sides translate
# why each other pair does not translate (the first failing side's construct, or the error class)
UNSUPPORTED_PAIRS = {
    "SqlSyntaxError": 3,  # MySQL's CAST(.. AS SIGNED): Spark rejects it too (UNSUPPORTED_DATATYPE)
}

pytestmark = pytest.mark.skipif(not QUERIES_FILE.exists(), reason="the SQLSolver corpus is not there")


@dataclass(frozen=True)
class Outcome:
    line: int
    query: str
    rel: R.Rel | None
    error: InputError | None


def _schemas() -> dict[str, Schema]:
    return parse_schema_file(SCHEMA_FILE.read_text(), SCHEMA_FILE.name)


@pytest.fixture(scope="module")
def outcomes() -> list[Outcome]:
    catalog = {name.lower(): build.table(name, schema) for name, schema in _schemas().items()}
    out = []
    for i, q in enumerate(QUERIES_FILE.read_text().split("\n")):
        try:
            rel = translate_query(q, catalog, filename="spark_tests", line=i + 1)
            out.append(Outcome(i + 1, q, rel, None))
        except InputError as exc:
            out.append(Outcome(i + 1, q, None, exc))
    return out


def test_corpus_shape(outcomes: list[Outcome]) -> None:
    assert len(outcomes) == 254


def test_supported_counts(outcomes: list[Outcome]) -> None:
    assert sum(o.rel is not None for o in outcomes) == SUPPORTED_QUERIES
    pairs = [(outcomes[i], outcomes[i + 1]) for i in range(0, len(outcomes), 2)]
    assert sum(a.rel is not None and b.rel is not None for a, b in pairs) == SUPPORTED_PAIRS


def test_unsupported_reasons(outcomes: list[Outcome]) -> None:
    reasons: collections.Counter[str] = collections.Counter()
    for i in range(0, len(outcomes), 2):
        errors = [o.error for o in outcomes[i:i + 2] if o.error is not None]
        if errors:
            e = errors[0]
            reasons[(e.construct if isinstance(e, UnsupportedError) else None) or type(e).__name__] += 1
    assert dict(reasons) == UNSUPPORTED_PAIRS


def test_failures_are_located_input_errors(outcomes: list[Outcome]) -> None:
    for o in outcomes:
        if o.error is None:
            continue
        loc = o.error.loc
        assert loc is not None and loc.file == "spark_tests" and loc.line == o.line, (o.query, o.error)
        assert 1 <= loc.col <= len(o.query), (o.query, o.error)
        if isinstance(o.error, UnsupportedError):
            assert o.error.construct, o.error


def test_cast_as_signed_is_refused_as_spark_refuses_it(outcomes: list[Outcome]) -> None:
    """MySQL's ``CAST(x AS SIGNED)``: Spark 4's parser raises UNSUPPORTED_DATATYPE; so do we, located."""
    refused = [o for o in outcomes if o.error is not None and "SIGNED" in o.query]
    assert len(refused) == 3
    for o in refused:
        assert "unsupported data type SIGNED" in str(o.error) and "UNSUPPORTED_DATATYPE" in str(o.error)
        assert o.error.loc is not None and o.query[o.error.loc.col - 1:].startswith("SIGNED")


# Pairs whose two sides have different column types under Spark's typing, so not equivalent as Spark
# shows results: a CASE mixing ``deptno`` (int) with ``name`` (string) is a bigint (ANSI string
# promotion), the rewritten side an int (29, 31, 32); a count (bigint) rewritten to ``SELECT 0`` (an
# int) (39, 40, 58).
TYPE_DIFFERENT_PAIRS = {29, 31, 32, 39, 40, 58}


def test_pairs_column_types(outcomes: list[Outcome]) -> None:
    """The pairs are claimed equivalent: where both sides translate, their column types agree (names
    may differ: ``SELECT ((1+2)+3)`` against ``SELECT 6``), except in the pairs Spark types apart."""
    different = set()
    for i in range(0, len(outcomes), 2):
        a, b = outcomes[i], outcomes[i + 1]
        if a.rel is not None and b.rel is not None:
            if [f.type for f in a.rel.schema.fields] != [f.type for f in b.rel.schema.fields]:
                different.add(i // 2 + 1)
    assert different == TYPE_DIFFERENT_PAIRS


# ---------------------------------------------------------------------------------------------------
# Against Spark
# ---------------------------------------------------------------------------------------------------

ROWS: dict[str, list[tuple]] = {
    "account": [(1, "x", 5), (25, "y", 7)],
    "bonus": [("a", "j", 1, 1)],
    "dept": [(1, "A"), (10, "B"), (20, "Charlie")],
    "emp": [
        (1, "a", "j", None, 0, 60, 5, 1, None),
        (11, "b", "k", 1, 0, 3, 8, 10, 1),
        (25, "c", "j", 11, 0, 100, 0, 20, 0),
        (30, "d", "k", 25, 0, 3, 8, 1, None),
    ],
    "T": [("k", "c", 1, 1, 1, None, 100, 2, 3), ("k2", None, 0, 0, 0, 100, 0, 11, 0)],
    "ANON": [(1,), (None,), (2,)],
}


@pytest.fixture(scope="module")
def views(spark_session):
    for name, schema in _schemas().items():
        spark_session.createDataFrame(ROWS[name], str(schema)).createOrReplaceTempView(name)
    return spark_session


@pytest.mark.spark
def test_schemas_match_spark(views, outcomes: list[Outcome]) -> None:
    mismatches = []
    for o in outcomes:
        if o.rel is not None:
            mine = [(f.name, f.type.simple) for f in o.rel.schema.fields]
            theirs = views.sql(o.query).dtypes
            if mine != theirs:
                mismatches.append((o.line, o.query, mine, theirs))
    assert not mismatches


# every 4th translated query by default; SPARKEQ_SQLSOLVER_ROWS=all runs them all
ROW_SAMPLE = 1 if os.environ.get("SPARKEQ_SQLSOLVER_ROWS") == "all" else 4


@pytest.mark.spark
def test_rows_match_spark_on_a_sample(views, outcomes: list[Outcome]) -> None:
    interpreter = pytest.importorskip("sparklite.relational.interpreter")
    from sparklite.relational.values import RelResult, rel_error_of_exception, rel_outcomes_equal
    from sparklite.values import Bag, Sorted

    schemas = _schemas()
    params = tuple(R.TableParam(name, schema) for name, schema in schemas.items())
    translated = [o for o in outcomes if o.rel is not None]
    checked = 0
    for o in translated[::ROW_SAMPLE]:
        assert o.rel is not None
        run = interpreter.run(R.RelProgram("q", params, o.rel, language="sql"), ROWS)
        if run.caveats:
            continue
        mine = run.outcome
        if isinstance(mine, RelResult) and isinstance(mine.rows, Sorted):
            if mine.rows.taken is not None:
                continue
            mine = RelResult(mine.columns, Bag.of(r for g in mine.rows.groups for r in g.items))
        try:
            df = views.sql(o.query)
            theirs: object = RelResult(tuple(df.dtypes), Bag.of(tuple(r) for r in df.collect()))
        except Exception as exc:  # noqa: BLE001 - Spark's errors are outcomes
            theirs = rel_error_of_exception(exc)
        assert rel_outcomes_equal(mine, theirs), (o.line, o.query, mine, theirs)
        checked += 1
    assert checked >= len(translated[::ROW_SAMPLE]) // 2
