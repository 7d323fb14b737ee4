"""The bundled cases: every pair gets its expected verdict, and the expectations hold on real Spark.

``cases/manifest.json`` lists each pair with ``expected`` (what sparkeq should answer) and, where that
is ``unknown``, ``truth`` (what the programs really are). Three kinds of failure are distinguished in
the messages, because they mean very different things:

- SOUNDNESS: a definite verdict contradicting the truth (or a counterexample the interpreter does not
  reproduce). Never acceptable.
- INCOMPLETE: ``unknown`` where a definite verdict was expected: a method that should apply did not.
- the expectations themselves are wrong: caught by ``test_manifest_verdicts_hold_on_spark``, which runs
  the *original* PySpark functions on a local Spark (stored witnesses for not-equivalent pairs, random
  inputs and partitionings for equivalent ones).
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from spark_cases import (
    InputGen,
    interesting_constants,
    load_function,
    param_kinds,
    random_trial,
    run_on_spark,
    split_spec,
    witness_args,
)

REPO = Path(__file__).resolve().parent.parent
MANIFEST = REPO / "cases" / "manifest.json"
CASES: list[dict[str, Any]] = json.loads(MANIFEST.read_text())["cases"]
VERDICTS = ("equivalent", "not_equivalent", "unknown")
CHECK_TIMEOUT_S = 60.0  # the default: a hard cap only, never what decides a case (issue 24)


def truth_of(entry: dict[str, Any]) -> str:
    return entry.get("truth", entry["expected"])


def abs_spec(spec: str) -> str:
    path, fn = split_spec(spec)
    return f"{path}::{fn}"


# ---------------------------------------------------------------------------------------------------
# The manifest itself
# ---------------------------------------------------------------------------------------------------


def test_manifest_shape() -> None:
    assert len(CASES) >= 40
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names)), "case names must be unique"
    not_eq = sum(truth_of(c) == "not_equivalent" for c in CASES)
    assert 3 * not_eq >= len(CASES), "at least a third of the pairs must be not equivalent"
    for c in CASES:
        assert {"name", "left", "right", "expected", "method", "description"} <= c.keys(), c
        assert c["expected"] in VERDICTS, c
        assert truth_of(c) in ("equivalent", "not_equivalent"), c
        assert c["expected"] in ("unknown", truth_of(c)), c
        if truth_of(c) == "not_equivalent":
            assert "witness" in c, f"{c['name']}: a not-equivalent pair needs a Spark-checked witness"
        for side in ("left", "right"):
            path, fn = split_spec(c[side])
            assert path.is_file(), c[side]
            assert f"def {fn}(" in path.read_text(), c[side]


def test_manifest_covers_the_paper() -> None:
    names = {c["name"] for c in CASES}
    for required in ("p1_p2_map_filter_reorder", "p1p_p2p_different_bags", "p3_p4_min_price",
                     "p5_p6_min_price_equal", "p7_p8_grade_histogram", "p15_p16_sum_times_three",
                     "p15pp_p16pp_count_mod_5", "count_via_fold_trap", "foldbykey_one_trap"):
        assert required in names


# ---------------------------------------------------------------------------------------------------
# sparkeq's verdicts
# ---------------------------------------------------------------------------------------------------


def reproduce_with_interpreter(entry: dict[str, Any], cex: Any) -> tuple[Any, Any]:
    """Both original programs on the counterexample, run by the reference interpreter (not by the
    verifier's own validation, so a bug there cannot vouch for itself)."""
    from fuzzutil import counterexample_args

    from frontend import translate_file
    from sparklite.interpreter import run

    outs = []
    for side in ("left", "right"):
        path, fn = split_spec(entry[side])
        program = translate_file(str(path), function=fn)
        inputs, partitions = counterexample_args(program, dict(cex.inputs), cex.partitions)
        outs.append(run(program, inputs, partitions))
    return outs[0], outs[1]


@pytest.mark.parametrize("entry", CASES, ids=[c["name"] for c in CASES])
def test_case_verdict(entry: dict[str, Any]) -> None:
    import verifier
    from sparklite.values import outcomes_equal

    result = verifier.check(abs_spec(entry["left"]), abs_spec(entry["right"]), replay=False,
                            timeout=CHECK_TIMEOUT_S)
    got, expected, truth = result.verdict, entry["expected"], truth_of(entry)
    where = f"{entry['name']}: got {got} via {result.method} ({result.reason})"
    assert got != "error", f"ERROR on a valid pair: {where}"
    if got in ("equivalent", "not_equivalent"):
        assert got == truth, f"SOUNDNESS: the truth is {truth}; {where}"
    if got == "not_equivalent":
        assert result.counterexample is not None, where
        left, right = reproduce_with_interpreter(entry, result.counterexample)
        assert not outcomes_equal(left, right), (
            f"SOUNDNESS: counterexample does not reproduce ({left!r} == {right!r}); {where}")
    if expected != "unknown":
        assert got == expected, f"INCOMPLETE: expected {expected}; {where}"


# ---------------------------------------------------------------------------------------------------
# The expectations, on real Spark
# ---------------------------------------------------------------------------------------------------

EQUIVALENT_SAMPLE = 14  # equivalent pairs tried per run (the witnesses are always all tried): < 60 s


@pytest.mark.spark
def test_manifest_verdicts_hold_on_spark(spark_context: Any) -> None:
    """Every stored witness still separates its pair on Spark, and equivalent pairs agree on a sample
    of random inputs and partitionings (the full search is ``python tests/spark_cases.py``)."""
    from concurrent.futures import ThreadPoolExecutor

    from sparklite.values import outcomes_equal

    sc = spark_context
    jobs: list[tuple[dict[str, Any], Any, Any, list[Any], dict[str, Any], dict[str, Any]]] = []
    rng = random.Random(int(time.time()) // 86400)  # a different sample every day, stable within one
    equivalent = [c for c in CASES if truth_of(c) == "equivalent"]
    sampled = {c["name"] for c in rng.sample(equivalent, min(EQUIVALENT_SAMPLE, len(equivalent)))}
    for entry in CASES:
        if truth_of(entry) == "equivalent" and entry["name"] not in sampled:
            continue
        left, right = load_function(entry["left"]), load_function(entry["right"])
        kinds = param_kinds(left)
        if truth_of(entry) == "not_equivalent":
            jobs.append((entry, left, right, kinds, *witness_args(kinds, entry["witness"])))
        else:
            sources = [split_spec(entry[s])[0].read_text() for s in ("left", "right")]
            gen = InputGen(random.Random(rng.random()), interesting_constants(sources))
            jobs.append((entry, left, right, kinds, *random_trial(kinds, gen, max_size=4)))

    def run(job: tuple[Any, ...]) -> tuple[str, bool, str]:
        entry, left, right, kinds, inputs, partitions = job
        a = run_on_spark(sc, left, kinds, inputs, partitions)
        b = run_on_spark(sc, right, kinds, inputs, partitions)
        same = outcomes_equal(a, b)
        ok = same if truth_of(entry) == "equivalent" else not same
        return entry["name"], ok, f"{entry['name']}: on {partitions} {inputs}: {a!r} vs {b!r}"

    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(run, jobs))
    bad = [detail for _, ok, detail in results if not ok]
    assert not bad, "expectations contradicted by Spark:\n" + "\n".join(bad)


@pytest.mark.spark
def test_interpreter_matches_spark_on_witnesses(spark_context: Any) -> None:
    """The reference interpreter, on the translated programs, gives Spark's outcomes on the witnesses
    (the verifier's counterexamples are only as real as the interpreter is faithful)."""
    from concurrent.futures import ThreadPoolExecutor

    from frontend import translate_file
    from sparklite.interpreter import run
    from sparklite.values import outcomes_equal

    sc = spark_context
    jobs = []
    for entry in CASES:
        if "witness" not in entry:
            continue
        for side in ("left", "right"):
            fn = load_function(entry[side])
            kinds = param_kinds(fn)
            inputs, partitions = witness_args(kinds, entry["witness"])
            path, name = split_spec(entry[side])
            program = translate_file(str(path), function=name)
            parts = {k: tuple(tuple(p) for p in v) for k, v in partitions.items()}
            jobs.append((f"{entry['name']}/{side}", fn, kinds, inputs, partitions, program, parts))

    def one(job: tuple[Any, ...]) -> str | None:
        label, fn, kinds, inputs, partitions, program, parts = job
        on_spark = run_on_spark(sc, fn, kinds, inputs, partitions)
        interpreted = run(program, inputs, parts)
        if outcomes_equal(on_spark, interpreted):
            return None
        return f"{label}: Spark {on_spark!r} vs interpreter {interpreted!r} on {partitions}"

    with ThreadPoolExecutor(max_workers=4) as pool:
        bad = [m for m in pool.map(one, jobs) if m]
    assert not bad, "interpreter disagrees with Spark:\n" + "\n".join(bad)
