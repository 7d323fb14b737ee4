"""The cross-kind check's pieces (issue 23): how inputs correspond, how outputs compare, and the bridge
from SparkLite to the relational kernel, which must compute what the RDD program computes wherever it
accepts a program (checked here against both reference interpreters on random tables)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import verifier
from sparklite.bridge import NotBridged, to_relational
from sparklite.relational.types import DoubleType, IntegralType, StringType
from sparklite.values import Bag
from verifier.core.cross_inputs import correspond, same
from verifier.core.loading import load, load_schemas

REPO = Path(__file__).resolve().parent.parent
CASES = json.loads((REPO / "cases" / "migration" / "manifest.json").read_text())["cases"]
PROVED = [c for c in CASES if c["expected"] == "equivalent"]

HEAD = '''from typing import Annotated, Optional
from pyspark import RDD
from pyspark.sql import DataFrame
from pyspark.sql import functions as F
T = Annotated[DataFrame, "a INT NOT NULL, b INT NOT NULL"]
'''


def _spec(spec: str) -> str:
    path, _, fn = spec.partition("::")
    return f"{REPO / path}::{fn}" if fn else str(REPO / path)


def _pair(tmp_path: Path, rdd_body: str, df_body: str, rdd_type: str = "RDD[tuple[int, int]]"
          ) -> tuple[str, str]:
    src = tmp_path / "pair.py"
    src.write_text(HEAD + f"def r(t: {rdd_type}):\n    return {rdd_body}\n\n"
                   f"def d(t: T) -> DataFrame:\n    return {df_body}\n")
    return f"{src}::r", f"{src}::d"


def test_inputs_correspond_by_position_and_type(tmp_path: Path) -> None:
    left, right = _pair(tmp_path, "t", "t", "RDD[tuple[int, str]]")
    result = verifier.check(left, right)
    assert result.verdict == "error" and "str with string" in result.reason


def test_nullable_column_read_without_null_says_so(tmp_path: Path) -> None:
    src = tmp_path / "n.py"
    src.write_text(HEAD + "def r(t: RDD[tuple[int, int]]):\n    return t.filter(lambda x: x[0] > 1)\n\n"
                   "def d(t: Annotated[DataFrame, 'a INT, b INT']) -> DataFrame:\n"
                   "    return t.filter(F.col('a') > 1)\n")
    result = verifier.check(f"{src}::r", f"{src}::d")
    assert result.verdict == "equivalent"
    assert any("holds no None" in w for w in result.warnings)


def test_optional_field_reads_null_as_none(tmp_path: Path) -> None:
    src = tmp_path / "o.py"
    src.write_text(HEAD + "def r(t: RDD[tuple[int, Optional[int]]]):\n"
                   "    return t.map(lambda x: (x[0], x[1]))\n\n"
                   "def d(t: Annotated[DataFrame, 'a INT NOT NULL, b INT']) -> DataFrame:\n"
                   "    return t.select('a', F.coalesce(F.col('b'), F.lit(0)))\n")
    result = verifier.check(f"{src}::r", f"{src}::d")
    assert result.verdict == "not_equivalent"
    assert result.counterexample.inputs["t"][0][1] is None


def test_the_rdd_program_may_be_right(tmp_path: Path) -> None:
    entry = next(c for c in CASES if c["name"] == "word_count")
    assert verifier.check(_spec(entry["right"]), _spec(entry["left"])).verdict == "equivalent"
    refuted = next(c for c in CASES if c["name"] == "bucket_modulo")
    result = verifier.check(_spec(refuted["right"]), _spec(refuted["left"]))
    assert result.verdict == "not_equivalent"
    assert "ids" in result.counterexample.inputs  # the tables' names when the DataFrame side is LEFT


def test_outputs_compared_as_python_sees_them() -> None:
    from sparklite.relational.values import RelError, RelResult

    rows = RelResult((("a", "bigint"),), Bag.of([(1,), (2,)]))
    assert same(Bag.of([1, 2]), rows) is True  # a one-column row against a bare element
    assert same(Bag.of([(1,), (2,)]), rows) is True
    assert same(Bag.of([1.0, 2.0]), rows) is False  # 1.0 is not 1 to Python's eyes (printing)
    err = RelError("ArithmeticException", "ARITHMETIC_OVERFLOW")
    assert same(Bag.of([1]), err) is False
    from sparklite.values import ErrorOutcome

    assert same(ErrorOutcome("ZeroDivisionError"), err) is None  # both raise: not told apart


@pytest.mark.parametrize("body, why", [
    ("t.map(lambda x: (x[0], x[1] / x[0])).filter(lambda y: y[0] != 0)", "division inside the pipeline"),
    ("t.map(lambda x: (x[0], float(x[1]))).reduceByKey(lambda a, b: a + b)", "float"),
    ("t.map(lambda x: (x[0], (x[1], x[1])))", "nest tuples"),
    ("t.filter(lambda x: x[0] != 0 and x[1] / x[0] > 1)", "division"),
    ("t.map(lambda x: (x[0], x[1] // x[0]))", "positive literal"),
])
def test_bridge_refuses_what_python_and_spark_may_compute_otherwise(tmp_path: Path, body: str, why: str
                                                                    ) -> None:
    left, right = _pair(tmp_path, body, "t")
    lp, rp = load(left), load(right)
    c = correspond(lp.program.params, rp.program, "LEFT")
    tables = {lk.rdd: (rp.program.params[0], lk.tuple_elem) for lk in c.links}
    with pytest.raises(NotBridged, match=why):
        to_relational(lp.program, tables, rp.program.params)


def _value(rng: random.Random, t: Any) -> Any:
    if isinstance(t, IntegralType):
        return rng.choice([-7, -1, 0, 1, 2, 3, 100, 101, 250])
    if isinstance(t, DoubleType):
        return rng.choice([0.5, -1.0, 2.0])
    if isinstance(t, StringType):
        return rng.choice(["", "a", "ERROR", "word", "spark"])
    return rng.random() < 0.5


@pytest.mark.parametrize("entry", PROVED, ids=[c["name"] for c in PROVED])
def test_bridged_program_computes_what_the_rdd_program_computes(entry: dict[str, Any]) -> None:
    """The bridge's faithfulness, differentially: its relational term on the relational interpreter and
    the RDD program on the SparkLite interpreter agree on random NULL-free tables."""
    from sparklite.interpreter import run as run_rdd
    from sparklite.relational.interpreter import run as run_rel
    from verifier.core.cross_inputs import rdd_inputs

    schemas = load_schemas(entry["schema"]) if entry.get("schema") else None
    lp, rp = load(_spec(entry["left"]), schemas=schemas), load(_spec(entry["right"]), schemas=schemas)
    c = correspond(lp.program.params, rp.program, "LEFT")
    tables = {lk.rdd: (next(tp for tp in rp.program.params if tp.name == lk.table), lk.tuple_elem)
              for lk in c.links}
    bridged, _ = to_relational(lp.program, tables, rp.program.params)
    rng = random.Random(entry["name"])
    for _ in range(60):
        data = {tp.name: [tuple(_value(rng, f.type) for f in tp.schema.fields)
                          for _ in range(rng.randint(0, 5))] for tp in c.params}
        expected = run_rdd(lp.program, rdd_inputs(c, data))
        got = run_rel(bridged, data).outcome
        assert same(expected, got) is True, (data, expected, got)
