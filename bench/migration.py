"""Benchmark of RDD-to-DataFrame migrations: ``.venv/bin/python bench/migration.py`` (about a minute).

Writes ``bench/results/migration.md`` and ``migration.json``: how long a cross-kind check takes in
process on every pair of ``cases/migration`` (no replay; issue 23 asks for a median under 0.2 s). Each
pair is checked once to warm the imports and caches, then ``--repeat`` times; a pair's time is the median
of those. A refuted pair whose difference rests on a DataFrame runtime error (an overflow) counts as
"pending": it is reported once Spark replays it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from dataframes import REPO, RESULTS, _spec  # bench/dataframes.py, beside this script (puts REPO on sys.path)


def _once(case: dict[str, Any], timeout: float) -> tuple[str, float]:
    from verifier import check

    started = time.perf_counter()
    result = check(_spec(case["left"]), _spec(case["right"]), timeout=timeout, schema=case.get("schema"))
    seconds = time.perf_counter() - started
    verdict = result.verdict
    if verdict == "unknown" and "pending" in result.stats:
        verdict = "pending"
    return verdict, seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--timeout", type=float, default=60.0, help="per check (default 60 s, the CLI's)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per pair (default 3)")
    args = parser.parse_args()
    cases = json.loads((REPO / "cases" / "migration" / "manifest.json").read_text())["cases"]
    rows = []
    for case in cases:
        _once(case, args.timeout)  # warm
        runs = [_once(case, args.timeout) for _ in range(args.repeat)]
        verdicts = {v for v, _ in runs}
        verdict = verdicts.pop() if len(verdicts) == 1 else "unstable"
        rows.append({"name": case["name"], "expected": case["expected"], "verdict": verdict,
                     "seconds": statistics.median(s for _, s in runs)})
        print(f"{case['name']:28s} {verdict:15s} {rows[-1]['seconds']:.3f}", flush=True)
    ok = [r for r in rows if r["verdict"] == r["expected"]
          or (r["verdict"] == "pending" and r["expected"] == "not_equivalent")]
    by = {v: [r["seconds"] for r in rows if r["expected"] == v] for v in ("equivalent", "not_equivalent")}
    summary = {
        "pairs": len(rows),
        "as_expected": len(ok),
        "pending_spark": sum(r["verdict"] == "pending" for r in rows),
        "median_s": statistics.median(r["seconds"] for r in rows),
        "max_s": max(r["seconds"] for r in rows),
        "equivalent_median_s": statistics.median(by["equivalent"]),
        "not_equivalent_median_s": statistics.median(by["not_equivalent"]),
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "migration.json").write_text(json.dumps({"summary": summary, "pairs": rows}, indent=1) + "\n")
    lines = ["# RDD-to-DataFrame migrations (bench/migration.py)", "",
             f"- pairs: {summary['pairs']} (cases/migration), verdict as expected without Spark: "
             f"{summary['as_expected']} (of which {summary['pending_spark']} wait for Spark: a difference "
             "resting on a DataFrame runtime error)",
             f"- in process, median of {args.repeat} runs per pair: median {summary['median_s']:.3f} s, "
             f"max {summary['max_s']:.3f} s",
             f"- proved pairs: median {summary['equivalent_median_s']:.3f} s; refuted pairs: median "
             f"{summary['not_equivalent_median_s']:.3f} s", "",
             "| pair | expected | verdict | seconds |", "|---|---|---|---|"]
    lines += [f"| {r['name']} | {r['expected']} | {r['verdict']} | {r['seconds']:.3f} |" for r in rows]
    (RESULTS / "migration.md").write_text("\n".join(lines) + "\n")
    print(json.dumps(summary, indent=1))
    return 0 if len(ok) == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
