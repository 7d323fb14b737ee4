"""The same verdicts on a busy machine: every cases/ pair and the bench pairs, checked three ways.

    .venv/bin/python scripts/determinism.py [--timeout 60] [--only PREFIX] [--sqlsolver] [--out DIR]

Runs all pairs (in one process per condition, so it stays fast) (a) normally, (b) with two CPU-burning
processes per core beside it, (c) under ``taskset -c 0`` (one core), then diffs the verdicts and prints
a summary; exit status 0 when all three agree. Why: budgets that decide a verdict are deterministic
(Z3 resource limits, counted searches; issue 24), and only the wall-clock ``--timeout`` -- a hard cap
-- may change a verdict, saying so in the reason. A difference here is either a budget that still
reads the clock, or a check that reached the hard cap on the slow run (the summary shows which: a
reason starting "Ran out of time").

``--run CONDITION FILE`` (internal) checks every pair in this process and writes the verdicts to FILE;
``--report DIR`` only diffs the verdicts kept by an earlier ``--out DIR``.
The pairs: ``cases/manifest.json`` (RDD programs), ``cases/df/manifest.json`` (DataFrame/SQL, with
their schemas), ``cases/scripts/manifest.json`` (whole scripts), ``cases/sl`` (SparkLite), the bench's
generated workloads (``bench/workloads.py``, the sizes that run in seconds) and, with ``--sqlsolver``,
the SQLSolver corpus of ``bench/sqlsolver.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "bench")]

Pair = dict[str, Any]  # id, left, right, and check options (schema, function...)


def _cases() -> list[Pair]:
    out: list[Pair] = []
    for c in json.loads((REPO / "cases/manifest.json").read_text())["cases"]:
        out.append({"id": f"rdd/{c['name']}", "left": c["left"], "right": c["right"]})
    for c in json.loads((REPO / "cases/df/manifest.json").read_text())["cases"]:
        pair = {"id": f"df/{c['name']}", "left": c["left"], "right": c["right"]}
        if c.get("schema"):
            pair["schema"] = c["schema"]
        out.append(pair)
    for c in json.loads((REPO / "cases/scripts/manifest.json").read_text())["pairs"]:
        out.append({"id": f"scripts/{c['name']}", "left": c["left"], "right": c["right"]})
    for a, b in (("p1", "p2"), ("p3", "p4"), ("p7", "p8")):
        out.append({"id": f"sl/{a}_{b}", "left": f"cases/sl/{a}.sl", "right": f"cases/sl/{b}.sl"})
    return out


def _bench(work: Path) -> list[Pair]:
    import workloads

    plan: list[tuple[str, tuple[str, str], str]] = []
    for n in (10, 50, 100):
        plan += [(f"chain_{n}", workloads.chain_pair(n), "chain"),
                 (f"chain_off_by_one_{n}", workloads.chain_pair(n, broken=True), "chain"),
                 (f"chain_sum_{n}", workloads.chain_pair(n, aggregate=True), "chain")]
    for k in (1, 2, 3):
        plan += [(f"cartesian_{k}", workloads.cartesian_pair(k), "product"),
                 (f"join_{k}", workloads.join_pair(k), "joined")]
    for k in (1, 2, 3, 4):
        plan.append((f"join_sum_{k}", workloads.join_pair(k, aggregate=True), "joined"))
    for d in (2, 8, 32):
        plan.append((f"nested_sum_{d}", workloads.nested_pair(d), "nested"))
    plan.append(("unsettleable", workloads.unsettleable_pair(), "parity"))
    plan.append(("join_parity_2", workloads.join_parity_pair(2), "parity"))
    out = []
    for stem, sources, function in plan:
        left, right = workloads.write_pair(work, stem, sources, function)
        out.append({"id": f"bench/{stem}", "left": left, "right": right})
    return out


def _sqlsolver(work: Path) -> list[Pair]:
    import sqlsolver

    out = []
    for pid, left, right in sqlsolver.pairs():
        lpath, rpath = work / f"sql{pid:03d}_left.sql", work / f"sql{pid:03d}_right.sql"
        lpath.write_text(left + "\n")
        rpath.write_text(right + "\n")
        out.append({"id": f"sqlsolver/{pid}", "left": str(lpath), "right": str(rpath),
                    "schema": str(sqlsolver.SCHEMA)})
    return out


def all_pairs(work: Path, sqlsolver: bool, only: str | None) -> list[Pair]:
    pairs = _cases() + _bench(work) + (_sqlsolver(work) if sqlsolver else [])
    prefixes = tuple(only.split(",")) if only else ("",)
    return [p for p in pairs if p["id"].startswith(prefixes)]


def run_all(out_file: Path, timeout: float, sqlsolver: bool, only: str | None) -> None:
    """Check every pair here, in this process, and write ``{id: {verdict, method, reason, seconds}}``."""
    os.chdir(REPO)
    from verifier import check

    work = Path(tempfile.mkdtemp(prefix="sparkeq-determinism-"))
    rows: dict[str, Any] = {}
    try:
        for pair in all_pairs(work, sqlsolver, only):
            opts = {k: v for k, v in pair.items() if k not in ("id", "left", "right")}
            started = time.monotonic()
            try:
                r = check(pair["left"], pair["right"], replay=False, timeout=timeout, **opts)
                row = {"verdict": r.verdict, "method": r.method, "reason": r.reason}
            except Exception as exc:  # noqa: BLE001 - a crash is a verdict of its own here
                row = {"verdict": "crash", "method": None, "reason": f"{type(exc).__name__}: {exc}"}
            row["seconds"] = round(time.monotonic() - started, 3)
            rows[pair["id"]] = row
    finally:
        shutil.rmtree(work, ignore_errors=True)
    out_file.write_text(json.dumps(rows, indent=1))


def _child(condition: str, out: Path, args: argparse.Namespace) -> list[str]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--run", condition, str(out),
           "--timeout", str(args.timeout)]
    if args.sqlsolver:
        cmd.append("--sqlsolver")
    if args.only:
        cmd += ["--only", args.only]
    return cmd


def _burners(n: int) -> list[subprocess.Popen[bytes]]:
    """``n`` processes spinning a CPU each (killed by the caller, by their own ids)."""
    spin = "while True: pass"
    return [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(n)]


def run_condition(condition: str, out: Path, args: argparse.Namespace) -> float:
    started = time.monotonic()
    cmd = _child(condition, out, args)
    burners: list[subprocess.Popen[bytes]] = []
    if condition == "one-core":
        if shutil.which("taskset") is None:
            raise SystemExit("taskset is not installed (util-linux)")
        cmd = ["taskset", "-c", "0", *cmd]
    if condition == "loaded":
        burners = _burners(2 * (os.cpu_count() or 1))
    try:
        subprocess.run(cmd, check=True)
    finally:
        for b in burners:
            b.kill()
            b.wait()
    return time.monotonic() - started


CONDITIONS = ("idle", "loaded", "one-core")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timeout", type=float, default=60.0, help="each check's hard cap (default 60)")
    parser.add_argument("--only", default=None,
                        help="only pairs whose id starts with one of these (comma-separated: df/,bench/)")
    parser.add_argument("--sqlsolver", action="store_true", help="also the SQLSolver corpus (127 pairs)")
    parser.add_argument("--out", default=None, help="keep each condition's verdicts (JSON) here")
    parser.add_argument("--conditions", default=",".join(CONDITIONS),
                        help=f"which conditions to run (default {','.join(CONDITIONS)})")
    parser.add_argument("--report", metavar="DIR", help="only diff the CONDITION.json files kept in DIR")
    parser.add_argument("--run", nargs=2, metavar=("CONDITION", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.run:
        run_all(Path(args.run[1]), args.timeout, args.sqlsolver, args.only)
        return 0
    conditions = [c for c in args.conditions.split(",") if c]
    if args.report:
        kept = {c: json.loads((Path(args.report) / f"{c}.json").read_text()) for c in conditions
                if (Path(args.report) / f"{c}.json").exists()}
        return report(kept, list(kept))
    out_dir = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="sparkeq-determinism-"))
    out_dir.mkdir(parents=True, exist_ok=True)
    results: dict[str, dict[str, Any]] = {}
    for condition in conditions:
        out = out_dir / f"{condition}.json"
        took = run_condition(condition, out, args)
        results[condition] = json.loads(out.read_text())
        print(f"{condition}: {len(results[condition])} pairs in {took:.0f} s", flush=True)
    return report(results, conditions)


CLOCK = ("Ran out of time after", "CPU-time cap")


def _clocked(row: dict[str, Any]) -> bool:
    """Did the wall-clock hard cap (or a query's CPU-time cap) end this check? Its reason says so."""
    return any(c in str(row.get("reason")) for c in CLOCK)


def report(results: dict[str, dict[str, Any]], conditions: list[str]) -> int:
    """Print the differences in verdict: those where a condition's check was ended by the clock (its
    reason says so: by design the one way to a load-dependent verdict) apart from the others (a
    budget that still reads the clock: a bug). Exit 1 when there is any difference."""
    base = results[conditions[0]]
    clock_diffs = budget_diffs = 0
    for pid in base:
        verdicts = {c: results[c].get(pid, {}).get("verdict") for c in conditions}
        if len(set(verdicts.values())) <= 1:
            continue
        clocked = any(_clocked(results[c].get(pid, {})) for c in conditions)
        clock_diffs += clocked
        budget_diffs += not clocked
        kind = "DIFF (clock: a check reached --timeout)" if clocked else "DIFF (budget)"
        print(f"{kind} {pid}: " + ", ".join(f"{c}={v}" for c, v in verdicts.items()))
        for c in conditions:
            row = results[c].get(pid, {})
            print(f"    {c} ({row.get('seconds')} s): {str(row.get('reason'))[:200]}")
    print(f"{len(base)} pairs, {clock_diffs + budget_diffs} difference(s) in verdict across "
          f"{', '.join(conditions)}: {budget_diffs} from budgets, {clock_diffs} where the hard cap "
          "ended a check")
    for c in conditions:
        rows = results[c].values()
        total = sum(r["seconds"] for r in rows)
        slowest = max((r["seconds"] for r in rows), default=0)
        capped = sum(_clocked(r) for r in rows)
        print(f"  {c}: {len(results[c])} pairs, {total:.0f} s in checks, slowest {slowest:.1f} s, "
              f"{capped} ended by the clock")
    return 1 if clock_diffs + budget_diffs else 0


if __name__ == "__main__":
    sys.exit(main())
