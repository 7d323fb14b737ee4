"""sparkeq's benchmark, one command: ``.venv/bin/python bench/run.py`` (under 10 minutes).

Writes ``bench/results/results.md`` (tables, the machine it ran on), ``results.json`` (raw numbers) and
``*.png`` plots. Four questions:

1. How long does a check take on the bundled cases (``--no-replay``: verification only), and how long
   does a cold ``sparkeq check`` take from the shell?
2. How does verification time grow with pipeline length (10..1,000 chained maps/filters, with and
   without a final ``sum``), with the number of input bags in a cartesian product / join (1..5; joins
   + ``sum`` up to 8), with tuple nesting (+ ``sum``, depth up to 128), and how long does a pair
   nothing can settle take to answer ``unknown``? Is ``--timeout`` honoured (within 10% + 0.5 s) on a
   pair whose every step is expensive?
3. On the not-equivalent cases: sparkeq's time to a counterexample *replayed on Spark*, against plain
   random differential testing on real Spark with a fixed budget (time to the first difference, and
   how often it finds none).
4. On the equivalent cases: sparkeq's proof time, against the time random testing spends without being
   able to conclude anything.

The random-testing baseline is deliberately plain (uniform integers, random partitionings, no boundary
or key bias: ``verifier.core.difftest`` with ``naive=True``), i.e. what a user gets from a quick property
test; sparkeq's own biased generator is reported alongside, on the interpreter.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "bench")]

import report  # noqa: E402
import workloads  # noqa: E402

RESULTS = REPO / "bench" / "results"


class Clock:
    """The whole run's time budget: later sections shrink (and say so) rather than overrun."""

    def __init__(self, budget_s: float) -> None:
        self.start = time.perf_counter()
        self.budget_s = budget_s

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def left(self) -> float:
        return self.budget_s - self.elapsed()


def machine() -> dict[str, Any]:
    import pyspark
    import z3

    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    from verifier.runtime.spark import java_major_version

    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "os": platform.platform(),
        "python": platform.python_version(),
        "pyspark": pyspark.__version__,
        "z3": z3.get_version_string(),
        "java": java_major_version(),
        "load_average_at_start": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
    }


def load_cases() -> list[dict[str, Any]]:
    manifest = REPO / "cases" / "manifest.json"
    if not manifest.exists():
        print(f"no {manifest}: the sections over bundled cases will be empty", flush=True)
        return []
    return json.loads(manifest.read_text())["cases"]


def spec(s: str) -> str:
    path, sep, fn = s.partition("::")
    return str(REPO / path) + sep + fn


def timed(call: Callable[[], Any]) -> tuple[Any, float]:
    started = time.perf_counter()
    try:
        value = call()
    except Exception as exc:  # noqa: BLE001 - a crash is a data point, not the end of the benchmark
        value = exc
    return value, time.perf_counter() - started


def verdict_of(value: Any) -> str:
    return f"crash: {type(value).__name__}: {value}"[:200] if isinstance(value, Exception) else value.verdict


# ---------------------------------------------------------------------------------------------------
# 1. Per-pair verification time and cold CLI start
# ---------------------------------------------------------------------------------------------------


def per_pair(cases: list[dict[str, Any]], timeout: float, clock: Clock) -> list[dict[str, Any]]:
    from verifier import check

    rows = []
    for case in cases:
        if clock.left() < 60:
            rows.append({"name": case["name"], "expected": case["expected"], "skipped": True})
            continue
        result, seconds = timed(lambda c=case: check(spec(c["left"]), spec(c["right"]), replay=False,
                                                     timeout=timeout))
        rows.append({
            "name": case["name"], "expected": case["expected"], "verdict": verdict_of(result),
            "method": getattr(result, "method", None), "seconds": seconds,
        })
        print(f"  [1] {case['name']}: {rows[-1]['verdict']} in {seconds:.2f}s", flush=True)
    return rows


def cold_cli(case: dict[str, Any], reps: int, replay: bool = False) -> dict[str, Any]:
    """Wall time of ``sparkeq check`` as a fresh process; with ``replay`` it also starts a JVM."""
    exe = REPO / ".venv" / "bin" / "sparkeq"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "verifier.interfaces.cli"]
    flags = ["--json"] if replay else ["--json", "--no-replay"]
    cmd += ["check", spec(case["left"]), spec(case["right"]), *flags]
    walls, inner, codes = [], [], []
    for _ in range(reps):
        started = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, timeout=300)
        walls.append(time.perf_counter() - started)
        codes.append(proc.returncode)
        try:
            inner.append(json.loads(proc.stdout)["seconds"])
        except (ValueError, KeyError):
            inner.append(None)
    shown = "sparkeq" if exe.exists() else "python -m verifier.interfaces.cli"
    return {"case": case["name"], "command": f"{shown} check LEFT RIGHT {' '.join(flags)}",
            "wall": walls, "check_seconds": inner, "exit_codes": codes}


# ---------------------------------------------------------------------------------------------------
# 2. Scaling
# ---------------------------------------------------------------------------------------------------


def scaling(timeout: float, clock: Clock, reps: int = 3) -> list[dict[str, Any]]:
    from verifier import check

    rows = []
    work = tempfile.mkdtemp(prefix="sparkeq-bench-")
    plan: list[tuple[str, int, tuple[str, str], str]] = []
    for n in (10, 25, 50, 100, 200, 500, 1000):
        plan.append(("chain (equivalent)", n, workloads.chain_pair(n), "chain"))
        plan.append(("chain (off by one)", n, workloads.chain_pair(n, broken=True), "chain"))
        plan.append(("chain + sum", n, workloads.chain_pair(n, aggregate=True), "chain"))
    for k in range(1, 9):
        if k <= 5:
            plan.append(("cartesian", k, workloads.cartesian_pair(k), "product"))
            plan.append(("join", k, workloads.join_pair(k), "joined"))
        plan.append(("join + sum", k, workloads.join_pair(k, aggregate=True), "joined"))
    for d in (2, 8, 32, 64, 128):
        plan.append(("nested + sum", d, workloads.nested_pair(d), "nested"))
    plan.append((UNSETTLEABLE, 1, workloads.unsettleable_pair(), "parity"))
    for series, size, sources, function in plan:
        if clock.left() < 240:
            rows.append({"series": series, "size": size, "skipped": True})
            continue
        stem = "".join(c if c.isalnum() else "_" for c in series) + f"_{size}"
        left, right = workloads.write_pair(Path(work), stem, sources, function)
        runs = [timed(lambda lf=left, rt=right: check(lf, rt, replay=False, timeout=timeout))
                for _ in range(reps)]
        result = runs[-1][0]
        seconds = statistics.median(t for _, t in runs)  # small times are noisy: median of reps
        rows.append({"series": series, "size": size, "verdict": verdict_of(result),
                     "method": getattr(result, "method", None), "seconds": seconds,
                     "runs": [t for _, t in runs]})
        print(f"  [2] {series} {size}: {rows[-1]['verdict']} in {seconds:.2f}s", flush=True)
    return rows


UNSETTLEABLE = "unsettleable (time to unknown)"
DEADLINE_JOINS = 7


def deadlines(clock: Clock, timeouts: tuple[float, ...] = (1.0, 2.0, 3.0, 5.0)) -> list[dict[str, Any]]:
    """``--timeout`` against the wall time of a check that cannot finish in it: the parity of squared
    keys over a 7-way join (every step -- proofs, bounded unrolling, enumeration, random inputs -- is
    expensive there). Allowed: the timeout + 10% + 0.5 s."""
    from verifier import check

    left, right = workloads.write_pair(Path(tempfile.mkdtemp(prefix="sparkeq-bench-")), "deadline",
                                       workloads.join_parity_pair(DEADLINE_JOINS), "parity")
    rows = []
    for timeout in timeouts:
        if clock.left() < 150:
            rows.append({"timeout": timeout, "skipped": True})
            continue
        result, seconds = timed(lambda t=timeout: check(left, right, replay=False, timeout=t))
        reason = getattr(result, "reason", "") or ""
        rows.append({"timeout": timeout, "verdict": verdict_of(result), "seconds": seconds,
                     "allowed": timeout * 1.1 + 0.5, "ran_out": "ran out of time" in reason.lower()})
        print(f"  [2] timeout {timeout:g}: {rows[-1]['verdict']} in {seconds:.2f}s", flush=True)
    return rows


# ---------------------------------------------------------------------------------------------------
# 3 and 4. sparkeq against random differential testing on Spark
# ---------------------------------------------------------------------------------------------------


def _loaded_pair(case: dict[str, Any]) -> tuple[Any, Any]:
    from sparklite.typecheck import typecheck
    from verifier.core.base import LoadedProgram
    from verifier.core.loading import load

    out = []
    for side in ("left", "right"):
        lp = load(spec(case[side]))
        checked = getattr(typecheck(lp.program), "program", None) or lp.program
        out.append(LoadedProgram(checked, lp.language, lp.path, lp.function, lp.source, lp.warnings))
    return out[0], out[1]


def random_on_spark(case: dict[str, Any], inputs: int, seconds: float, seed: int) -> dict[str, Any]:
    from verifier.runtime.difftest import diff_on_spark

    try:
        left, right = _loaded_pair(case)
        res = diff_on_spark(left, right, inputs, seed=seed, naive=True, time_budget_s=seconds)
    except Exception as exc:  # noqa: BLE001
        return {"error": f"{type(exc).__name__}: {exc}"[:200]}
    return {"found": res.found is not None, "tried": res.tried, "seconds": res.seconds,
            "first_seconds": res.first_seconds}


def biased_on_interpreter(case: dict[str, Any], seed: int) -> dict[str, Any]:
    from verifier.core.difftest import search

    try:
        left, right = _loaded_pair(case)
        res = search(left, right, budget_inputs=2000, seed=seed, time_budget_s=2.0)
    except Exception as exc:  # noqa: BLE001
        return {"error": f"{type(exc).__name__}: {exc}"[:200]}
    return {"found": res.found is not None, "tried": res.tried, "seconds": res.seconds,
            "first_seconds": res.first_seconds}


def against_random(cases: list[dict[str, Any]], args: argparse.Namespace, clock: Clock,
                   proofs: dict[str, dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    from verifier import check
    from verifier.runtime.spark import exact_rdd, get_context

    sc = get_context(args.master)
    exact_rdd(sc, [[1], [2]]).map(lambda x: x + 1).collect()  # warm the JVM and the Python workers
    refutations = []
    for case in [c for c in cases if c["expected"] == "not_equivalent"]:
        if clock.left() < 120:
            refutations.append({"name": case["name"], "skipped": True})
            continue
        result, seconds = timed(lambda c=case: check(spec(c["left"]), spec(c["right"]), master=args.master,
                                                     timeout=args.timeout, replay=True))
        cex = getattr(result, "counterexample", None)
        row = {"name": case["name"], "verdict": verdict_of(result), "sparkeq_seconds": seconds,
               "replayed": bool(cex is not None and cex.replayed_on_spark),
               "random": random_on_spark(case, args.spark_inputs, args.spark_seconds, args.seed),
               "biased_interpreter": biased_on_interpreter(case, args.seed)}
        refutations.append(row)
        print(f"  [3] {case['name']}: sparkeq {row['verdict']} {seconds:.2f}s; random {row['random']}",
              flush=True)
    equivalents = []
    eq_cases = [c for c in cases if c["expected"] == "equivalent"][: args.equiv_limit or None]
    for case in eq_cases:
        if clock.left() < 30:
            equivalents.append({"name": case["name"], "skipped": True})
            continue
        proof = proofs.get(case["name"], {})
        row = {"name": case["name"], "verdict": proof.get("verdict"), "method": proof.get("method"),
               "proof_seconds": proof.get("seconds"),
               "random": random_on_spark(case, args.spark_inputs, args.spark_seconds, args.seed)}
        equivalents.append(row)
        print(f"  [4] {case['name']}: proof {row['proof_seconds']}; random {row['random']}", flush=True)
    return refutations, equivalents


def main() -> int:
    parser = argparse.ArgumentParser(description="sparkeq benchmark (writes bench/results/)")
    parser.add_argument("--budget", type=float, default=570.0, help="whole-run time budget in seconds")
    parser.add_argument("--timeout", type=float, default=20.0, help="per-check timeout (sparkeq --timeout)")
    parser.add_argument("--spark-inputs", type=int, default=20,
                        help="random testing on Spark: inputs per pair")
    parser.add_argument("--spark-seconds", type=float, default=5.0,
                        help="random testing on Spark: seconds per pair")
    parser.add_argument("--equiv-limit", type=int, default=0,
                        help="how many equivalent cases random testing runs on in section 4 (0: all)")
    parser.add_argument("--cli-reps", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--master", default="local[2]")
    args = parser.parse_args()

    os.environ.setdefault("MPLBACKEND", "Agg")
    clock = Clock(args.budget)
    RESULTS.mkdir(parents=True, exist_ok=True)
    info = machine()
    print(f"machine: {info}", flush=True)
    cases = load_cases()
    data: dict[str, Any] = {"machine": info, "settings": vars(args)}

    print("[1] per-pair verification time (--no-replay)", flush=True)
    data["per_pair"] = per_pair(cases, args.timeout, clock)
    simple = next((c for c in cases if c["name"] == "p1_p2_map_filter_reorder"), cases[0] if cases else None)
    print("[1] cold CLI start", flush=True)
    data["cold_cli"] = cold_cli(simple, args.cli_reps) if simple is not None else None
    refuted = next((c for c in cases if c["name"] == "p1_p2_boundary_strict"), None)
    if refuted is not None:
        data["cold_cli_replay"] = cold_cli(refuted, 1, replay=True)
    print("[2] scaling", flush=True)
    data["scaling"] = scaling(max(args.timeout, 60.0), clock)
    data["deadlines"] = deadlines(clock)
    print("[3/4] sparkeq vs random differential testing on Spark", flush=True)
    proofs = {r["name"]: r for r in data["per_pair"] if not r.get("skipped")}
    data["refutations"], data["equivalents"] = against_random(cases, args, clock, proofs)
    data["total_seconds"] = clock.elapsed()

    (RESULTS / "results.json").write_text(json.dumps(data, indent=2, default=str))
    report.write(data, RESULTS)
    print(f"wrote {RESULTS / 'results.md'} in {clock.elapsed():.0f}s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
