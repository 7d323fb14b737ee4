"""The soundness fuzzer for mixed RDD/DataFrame *scripts* (issue 23), judged by Spark.

Each pair is a random script over literal data -- ``sc.parallelize(rows)``, RDD ``map``/``filter`` by
lambdas, the bridge (``toDF(names)``, ``toDF(ddl)``, ``createDataFrame(rdd[, names])`` of tuples or
``Row``s), DataFrame stages, and ``df.count()`` / ``df.rdd.collect()`` / ``df.rdd.count()`` printed --
against itself renamed or against a mutation of it (a constant, a comparison, the bridge's schema, a
dropped stage). ``verifier.check`` answers with ``replay=False``; both scripts then run on Spark in this
process (the scripts read no input: their data is literal, so one run is every input), and:

- ``equivalent`` with different printed text on Spark (or one side failing alone) is a violation;
- ``not_equivalent`` where Spark prints the same text on both sides (or both fail) is a violation;
- ``unknown`` is allowed; ``error`` is counted (a construct the reader refuses), and must stay a minority.

``SPARKEQ_MIXED_FUZZ_PAIRS`` sets the number of pairs (20 in CI, 300 in the slow run).
"""

from __future__ import annotations

import contextlib
import io
import os
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import verifier

SEED = 20261127
PAIRS = int(os.environ.get("SPARKEQ_MIXED_FUZZ_PAIRS", "20"))  # 300 in scripts/test_slow.sh
NAMES = ("x", "y", "z")
_COLS = "['name', 'a', 'b']"
BIG = 2**31  # past INT's range: an INT column raises in verification, a BIGINT one holds it


@dataclass(frozen=True)
class Job:
    rows: tuple[tuple[Any, ...], ...]
    rdd: tuple[str, ...]  # RDD method calls on `rdd`, in order (text)
    rowify: bool  # map the tuples to Row(name=, a=, b=) before the bridge
    bridge: str  # names | ddl_int | ddl_bigint | create | create_names
    df: tuple[str, ...]  # statements `df = ...`
    sink: str  # count | rdd_collect | rdd_count


def _value(rng: random.Random) -> tuple[Any, ...]:
    return (rng.choice(NAMES), rng.randint(-3, 4), rng.choice([None, 0, 1, 5, BIG]))


_RDD_STEPS = (".filter(lambda t: t[1] > {k})", ".map(lambda t: (t[0], t[1] * {k}, t[2]))",
              ".map(lambda t: (t[0], t[1] + {k}, t[2] if t[2] is None else t[2] - {k}))",
              ".filter(lambda t: t[0] != '{name}')")
_DF_STEPS = ("df = df.filter(df.a > {k})", "df = df.filter(df.b.isNull() | (df.b > {k}))",
             "df = df.withColumn('a', df.a + {k})", "df = df.filter(df.name != '{name}')",
             "df = df.select('name', 'a', 'b')")


def _step(rng: random.Random, templates: tuple[str, ...]) -> str:
    k = rng.randint(-2, 3)
    name = rng.choice(NAMES)
    return rng.choice(templates).format(k=k, name=name)


def _rdd_step(rng: random.Random) -> str:
    return _step(rng, _RDD_STEPS)


def _df_step(rng: random.Random) -> str:
    return _step(rng, _DF_STEPS)


def random_job(rng: random.Random) -> Job:
    rows = tuple(_value(rng) for _ in range(rng.randint(1, 5)))
    if rows[0][2] is None and rng.random() < 0.7:  # mostly let inference see a type first
        rows = ((rows[0][0], rows[0][1], 1), *rows[1:])
    return Job(rows, tuple(_rdd_step(rng) for _ in range(rng.randint(0, 2))), rng.random() < 0.4,
               rng.choice(["names", "ddl_int", "ddl_bigint", "create", "create_names"]),
               tuple(_df_step(rng) for _ in range(rng.randint(0, 2))),
               rng.choice(["count", "rdd_collect", "rdd_count"]))


def mutate(rng: random.Random, job: Job) -> Job:
    from dataclasses import replace

    choice = rng.randrange(5)
    if choice == 0 and job.rdd:
        i = rng.randrange(len(job.rdd))
        return replace(job, rdd=job.rdd[:i] + job.rdd[i + 1:])
    if choice == 1 and job.df:
        i = rng.randrange(len(job.df))
        return replace(job, df=job.df[:i] + (_df_step(rng),) + job.df[i + 1:])
    if choice == 2:
        other = {"names": "ddl_int", "ddl_int": "ddl_bigint", "ddl_bigint": "names", "create": "create_names",
                 "create_names": "ddl_bigint"}
        return replace(job, bridge=other[job.bridge])
    if choice == 3 and job.rdd:
        i = rng.randrange(len(job.rdd))
        return replace(job, rdd=job.rdd[:i] + (_rdd_step(rng),) + job.rdd[i + 1:])
    return replace(job, sink=rng.choice([s for s in ("count", "rdd_collect", "rdd_count") if s != job.sink]))


def script(job: Job, renamed: bool = False) -> str:
    d, r = ("dataframe", "records") if renamed else ("df", "rdd")
    lines = ["from pyspark.sql import Row, SparkSession", "",
             "spark = SparkSession.builder.appName('fuzz').getOrCreate()",
             f"data = {list(job.rows)!r}",
             f"{r} = spark.sparkContext.parallelize(data){''.join(job.rdd)}"]
    if job.rowify:
        lines.append(f"{r} = {r}.map(lambda t: Row(name=t[0], a=t[1], b=t[2]))")
    bridge = {
        "names": f"{r}.toDF(['name', 'a', 'b'])",
        "ddl_int": f"{r}.toDF('name string, a int, b int')",
        "ddl_bigint": f"{r}.toDF('name string, a bigint, b bigint')",
        "create": f"spark.createDataFrame({r})" if job.rowify else f"spark.createDataFrame({r}, {_COLS})",
        "create_names": f"spark.createDataFrame({r}, {_COLS})",
    }[job.bridge]
    lines.append(f"df = {bridge}")
    lines += list(job.df)
    lines.append({"count": "print(df.count())", "rdd_collect": "print(df.rdd.collect())",
                  "rdd_count": "print('rows:', df.rdd.count())"}[job.sink])
    text = "\n".join(lines) + "\n"
    if renamed:
        text = text.replace("df.", f"{d}.").replace("df =", f"{d} =").replace("(df)", f"({d})")
    return text


@dataclass(frozen=True)
class Pair:
    left: str
    right: str
    mutated: bool


def random_pair(rng: random.Random, mutated: bool) -> Pair:
    job = random_job(rng)
    if mutated:
        return Pair(script(job), script(mutate(rng, job)), True)
    return Pair(script(job), script(job, renamed=True), False)


def run_on_spark(spark: Any, source: str) -> tuple[str, str]:
    """(``"ok"``, printed text) or (``"error"``, the exception's class) of ``source`` run in-process."""
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(source, "<fuzz>", "exec"), {"__name__": "__main__"})  # noqa: S102 - generated
    except Exception as exc:  # noqa: BLE001 - an outcome
        return "error", type(exc).__name__
    return "ok", out.getvalue()


def judge(verdict: str, lo: tuple[str, str], ro: tuple[str, str]) -> str | None:
    same = lo == ro if lo[0] == "ok" or ro[0] == "ok" else True  # two failures: the same outcome class
    if verdict == "equivalent" and not same:
        return f"proved equivalent, Spark shows {lo} against {ro}"
    if verdict == "not_equivalent" and same:
        return f"refuted, but Spark shows the same on both sides: {lo}"
    return None


@pytest.mark.spark
def test_mixed_script_soundness_fuzz(spark_session: Any, tmp_path: Path) -> None:
    from tests.test_relational_vs_spark import quiet_pyspark

    quiet_pyspark()
    verdicts: Counter[tuple[bool, str]] = Counter()
    violations = []
    for index in range(PAIRS):
        pair = random_pair(random.Random(f"{SEED}:{index}"), mutated=index % 2 == 1)
        (tmp_path / "l.py").write_text(pair.left)
        (tmp_path / "r.py").write_text(pair.right)
        result = verifier.check(str(tmp_path / "l.py"), str(tmp_path / "r.py"), replay=False, timeout=20)
        verdicts[(pair.mutated, result.verdict)] += 1
        if result.verdict not in ("equivalent", "not_equivalent"):
            continue
        lo, ro = run_on_spark(spark_session, pair.left), run_on_spark(spark_session, pair.right)
        why = judge(result.verdict, lo, ro)
        if why is not None:
            violations.append(f"pair {index}: {why}\n--- LEFT\n{pair.left}--- RIGHT\n{pair.right}")
    print(dict(verdicts))
    assert not violations, "\n\n".join(violations[:3])
    errors = sum(n for (_, v), n in verdicts.items() if v == "error")
    assert errors * 4 < PAIRS, dict(verdicts)
    faithful = sum(n for (m, _), n in verdicts.items() if not m)
    assert verdicts[(False, "equivalent")] * 2 >= faithful, dict(verdicts)
