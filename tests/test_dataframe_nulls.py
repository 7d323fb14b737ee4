"""``fillna``/``na.fill`` and ``dropna``/``na.drop`` (``frontend/dataframe/nulls.py``): the interpreter
gives, on the probe table, what Spark 4 gave (recorded in ``docs/semantics-notes.md``); the same is
re-checked on Spark (marked ``spark``); refusals are located; the prover proves the spellings alike."""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

import pytest

from frontend.dataframe.translator import translate_dataframe_source
from sparklite.errors import InputError, UnsupportedError
from sparklite.relational.interpreter import run

DDL = "i INT, d DOUBLE, s STRING, b BOOLEAN, m DECIMAL(5,2)"
NAN = float("nan")
ROWS = [(None, None, None, None, None), (1, NAN, "a", True, None), (2, 2.5, None, None, Decimal("1.25"))]

# the call on ``t``, and the rows Spark 4.3 gave on ROWS (in order)
SPARK_GAVE: dict[str, list[tuple[Any, ...]]] = {
    "t.fillna(0)": [(0, 0.0, None, None, Decimal("0.00")), (1, 0.0, "a", True, Decimal("0.00")),
                    (2, 2.5, None, None, Decimal("1.25"))],
    "t.fillna(1.5)": [(1, 1.5, None, None, Decimal("1.50")), (1, 1.5, "a", True, Decimal("1.50")),
                      (2, 2.5, None, None, Decimal("1.25"))],
    "t.fillna('z')": [(None, None, "z", None, None), (1, NAN, "a", True, None),
                      (2, 2.5, "z", None, Decimal("1.25"))],
    "t.fillna(True)": [(None, None, None, True, None), (1, NAN, "a", True, None),
                       (2, 2.5, None, True, Decimal("1.25"))],
    "t.fillna(7, subset=['i', 's'])": [(7, None, None, None, None), (1, NAN, "a", True, None),
                                      (2, 2.5, None, None, Decimal("1.25"))],
    "t.na.fill(7, 'd')": [(None, 7.0, None, None, None), (1, 7.0, "a", True, None),
                          (2, 2.5, None, None, Decimal("1.25"))],
    "t.fillna({'i': 5, 's': 'q', 'd': 0.5})": [(5, 0.5, "q", None, None), (1, 0.5, "a", True, None),
                                               (2, 2.5, "q", None, Decimal("1.25"))],
    "t.fillna(3, subset=['I'])": [(3, None, None, None, None), (1, NAN, "a", True, None),
                                  (2, 2.5, None, None, Decimal("1.25"))],
    "t.dropna()": [],
    "t.na.drop(how='all')": [(1, NAN, "a", True, None), (2, 2.5, None, None, Decimal("1.25"))],
    "t.dropna(thresh=2)": [(1, NAN, "a", True, None), (2, 2.5, None, None, Decimal("1.25"))],
    "t.dropna(subset=['d'])": [(2, 2.5, None, None, Decimal("1.25"))],
    "t.dropna('all', subset=['i', 'd'])": [(1, NAN, "a", True, None), (2, 2.5, None, None, Decimal("1.25"))],
    "t.dropna(thresh=0)": ROWS,
}


def _program(call: str) -> Any:
    src = ("from typing import Annotated\nfrom pyspark.sql import DataFrame\n"
           f"def f(t: Annotated[DataFrame, {DDL!r}]):\n    return {call}\n")
    return translate_dataframe_source(src, "f", "<test>")


def _key(row: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple("NaN" if isinstance(v, float) and math.isnan(v) else v for v in row)


def _rows_of(outcome: Any) -> list[tuple[Any, ...]]:
    return sorted((_key(tuple(r)) for r in outcome.rows.items), key=repr)


@pytest.mark.parametrize("call", list(SPARK_GAVE))
def test_interpreter_gives_what_spark_gave(call: str) -> None:
    out = run(_program(call), {"t": ROWS})
    assert _rows_of(out.outcome) == sorted((_key(r) for r in SPARK_GAVE[call]), key=repr)
    assert [c[0] for c in out.outcome.columns] == ["i", "d", "s", "b", "m"]


@pytest.mark.parametrize(("call", "error"), [
    ("t.fillna(2**40)", UnsupportedError), ("t.fillna(123456)", UnsupportedError),
    ("t.fillna({'i': 'x'})", UnsupportedError), ("t.fillna(3, subset=['zz'])", InputError),
    ("t.dropna(how='x')", InputError), ("t.fillna(None)", InputError),
])
def test_refusals_and_errors_are_located(call: str, error: type) -> None:
    with pytest.raises(error) as info:
        _program(call)
    assert info.value.loc is not None


def test_spellings_are_proved_alike() -> None:
    import verifier

    head = f"from typing import Annotated\nfrom pyspark.sql import DataFrame, functions as F\nS = {DDL!r}\n"
    pairs = [("t.fillna(0)", "t.na.fill(0)"), ("t.dropna(subset=['i'])", "t.filter(F.col('i').isNotNull())"),
             ("t.fillna({'s': 'x'})", "t.fillna('x', subset='s')")]
    for left, right in pairs:
        src = head + f"def f(t: Annotated[DataFrame, S]):\n    return {left}\n" \
                     f"def g(t: Annotated[DataFrame, S]):\n    return {right}\n"
        r = verifier.check((src, "f"), (src, "g"))
        assert r.verdict == "equivalent", (left, right, r.reason)


@pytest.mark.spark
def test_spark_gives_the_recorded_rows(spark_session: Any) -> None:
    t = spark_session.createDataFrame(ROWS, DDL)
    for call, want in SPARK_GAVE.items():
        got = eval(call, {"t": t}).collect()  # noqa: S307 - our own test strings
        got_rows = sorted((_key(tuple(r)) for r in got), key=repr)
        assert got_rows == sorted((_key(r) for r in want), key=repr), call
