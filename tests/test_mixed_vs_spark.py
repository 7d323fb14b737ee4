"""Differential test: mixed RDD/DataFrame programs (``sparklite.mixed``) on the interpreters against Spark.

Each case is a random chain (``sparklite.mixed_generate``): ``sc.parallelize(data)``, RDD stages,
``toDF``/``createDataFrame`` (with a schema, verified; or names, inferred), DataFrame stages, ``df.rdd`` or
``sc.parallelize(df.collect())`` back, and so on, ending in ``collect()`` or ``count()``. It runs on
Spark as the code ``sparklite.mixed.to_pyspark`` emits, and on the interpreter (``sparklite.mixed.run``,
each stage by its kernel's interpreter, the bridges by Spark's conversion rules); Spark is the truth.

Agreement (``classify``):
- *agree*: the same bag of elements (``sparklite.values.outcomes_equal``), the same count, or both
  raise. Both raising with different error classes is counted apart (``error class differs``): with
  two failing elements in two tasks, which failure reaches the driver first is Spark's choice;
- *caveated*: they differ and a relational stage said Spark might show otherwise (``RelRun.caveats``);
- *error skipped by Spark*: the interpreter raised in a relational stage and Spark returned a result
  (its optimiser dropped the failing expression), as in ``test_relational_vs_spark``; or it raised
  before a DataFrame stage Spark proved empty without reading its input, and Spark showed exactly what
  the rest of the job gives on an empty input (``MixedRun.pruned``);
- *not modelled*: the interpreter refused (``NotModelled``): counted, kept a small minority;
- *disagree*: anything else; the test fails on any, printing the program and both outcomes.

Cases run a few at a time from threads on the one session. ``SPARKEQ_MIXED_DIFF_CASES`` sets the
number (default 300 in CI) and ``SPARKEQ_MIXED_DIFF_FIRST`` the first seed; the slow run (``-m slow``)
runs 1,000 more seeds.
"""

from __future__ import annotations

import os
import random
import re
import traceback
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import pytest

from sparklite import mixed as M
from sparklite.mixed_generate import random_case
from sparklite.values import Bag, observe_value, outcomes_equal

N_CASES = int(os.environ.get("SPARKEQ_MIXED_DIFF_CASES", "300"))
FIRST_SEED = int(os.environ.get("SPARKEQ_MIXED_DIFF_FIRST", "0"))
THREADS = 4

AGREE, CLASS_DIFFERS, CAVEATED, SKIPPED, NOT_MODELLED, DISAGREE = (
    "agree", "error class differs", "caveated", "error skipped by Spark", "not modelled", "disagree")
_WORKER_ERROR = re.compile(r"(\w+(?:Error|Exception)): (?:\[([A-Z_.]+)\])?")
# errors the bridges and RDD stages raise (the rest come from relational stages)
_PYTHON_SIDE = {"PySparkValueError", "PySparkTypeError", "ValueError", "ZeroDivisionError",
                "IllegalArgumentException"}


def spark_error(exc: BaseException) -> M.MixedError | None:
    """The ``MixedError`` a PySpark exception stands for: an error in a Python worker by the exception
    its traceback ends with; a driver-side PySpark error by its class and condition; a JVM error by
    ``rel_error_of_exception``. None for a lost worker (retried)."""
    from sparklite.relational.values import rel_error_of_exception

    name = type(exc).__name__
    if name == "PythonException":
        found = _WORKER_ERROR.findall(str(exc))
        if not found:
            return None
        cls, condition = found[-1]
        return M.MixedError(cls, condition or None)
    if name.startswith("PySpark") or name in ("ValueError", "TypeError"):
        getter = getattr(exc, "getCondition", None)
        return M.MixedError(name, getter() if callable(getter) else None)
    error = rel_error_of_exception(exc)
    return None if error is None else M.MixedError(error.cls, error.condition)


def run_on_spark(spark: Any, program: M.MixedProgram, data: list, retries: int = 2) -> Any:
    namespace: dict[str, Any] = {"__name__": "sparkeq_generated"}
    exec(compile(M.to_pyspark(program), f"<sparkeq:{program.name}>", "exec"), namespace)  # noqa: S102
    try:
        value = namespace[program.name](spark, data)
    except Exception as exc:  # noqa: BLE001 - classified
        error = spark_error(exc)
        if error is None:
            if retries > 0:
                return run_on_spark(spark, program, data, retries - 1)
            raise
        return error
    if program.action == "count":
        return int(value)
    return Bag.of(observe_value(tuple(x)) if isinstance(x, tuple) else observe_value(x) for x in value)


def classify(predicted: M.MixedRun, actual: Any) -> str:
    p = predicted.outcome
    if isinstance(p, M.MixedError) and isinstance(actual, M.MixedError):
        return AGREE if p == actual else CLASS_DIFFERS
    if not isinstance(p, M.MixedError) and not isinstance(actual, M.MixedError):
        if type(p) is type(actual) and outcomes_equal(p, actual):
            return AGREE
    pruned = predicted.pruned
    if pruned is not None and type(pruned) is type(actual) and outcomes_equal(pruned, actual):
        return SKIPPED
    if predicted.caveats - {M.CAVEAT_PRUNED_SCAN}:
        return CAVEATED
    if isinstance(p, M.MixedError) and p.cls not in _PYTHON_SIDE and not isinstance(actual, M.MixedError):
        return SKIPPED
    return DISAGREE


@dataclass
class Report:
    counts: Counter = field(default_factory=Counter)
    disagreements: list[str] = field(default_factory=list)
    class_diffs: list[str] = field(default_factory=list)
    outcomes: Counter = field(default_factory=Counter)

    def summary(self) -> str:
        return ", ".join(f"{k}: {v}" for k, v in sorted(self.counts.items()))


def _one(spark: Any, seed: int) -> tuple[str, str, str]:
    program, data = random_case(random.Random(seed), name=f"job_{seed}")
    try:
        predicted = M.run(program, data)
    except M.NotModelled as exc:
        return NOT_MODELLED, str(exc), "-"
    actual = run_on_spark(spark, program, data)
    verdict = classify(predicted, actual)
    shape = type(predicted.outcome).__name__ + (f" {predicted.outcome}" if isinstance(
        predicted.outcome, M.MixedError) else "")
    detail = (f"seed {seed}\n{M.to_pyspark(program)}\ndata = {data!r}\ninterpreter: {predicted}\n"
              f"spark: {actual}")
    return verdict, detail, shape


def run_campaign(spark: Any, seeds: Any) -> Report:
    from tests.test_relational_vs_spark import quiet_pyspark

    quiet_pyspark()
    report = Report()
    with ThreadPoolExecutor(THREADS) as pool:
        futures = [pool.submit(_one, spark, s) for s in seeds]
        for f in futures:
            try:
                verdict, detail, shape = f.result()
            except Exception:  # noqa: BLE001 - reported as a disagreement with its traceback
                verdict, detail, shape = DISAGREE, traceback.format_exc(), "crash"
            report.counts[verdict] += 1
            report.outcomes[shape] += 1
            if verdict == DISAGREE:
                report.disagreements.append(detail)
            elif verdict == CLASS_DIFFERS:
                report.class_diffs.append(detail)
    return report


def _check(report: Report, n: int) -> None:
    print(report.summary())
    print(report.outcomes.most_common())
    assert not report.disagreements, f"{report.summary()}\n\n" + "\n\n".join(report.disagreements[:5])
    assert report.counts[NOT_MODELLED] < 0.05 * n, report.summary()
    assert report.counts[SKIPPED] + report.counts[CAVEATED] < 0.05 * n, report.summary()
    assert report.counts[CLASS_DIFFERS] < 0.05 * n, "\n\n".join(report.class_diffs[:3])


@pytest.mark.spark
def test_mixed_interpreter_agrees_with_spark_on_random_programs(spark_session: Any) -> None:
    _check(run_campaign(spark_session, range(FIRST_SEED, FIRST_SEED + N_CASES)), N_CASES)


@pytest.mark.spark
@pytest.mark.slow
def test_mixed_interpreter_agrees_with_spark_on_more_programs(spark_session: Any) -> None:
    seeds = range(100_000, 101_000)
    _check(run_campaign(spark_session, seeds), len(seeds))
