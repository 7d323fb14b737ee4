"""Benchmark of DataFrame/SQL pairs: ``.venv/bin/python bench/dataframes.py`` (a few minutes).

Writes ``bench/results/dataframes.md`` and ``dataframes.json``. Two questions:

1. How long does a check take in-process on the bundled DataFrame/SQL pairs (``cases/df``, no replay)?
   Equivalent pairs stop at the proof (``verifier.core.methods.rel_terms``). A difference that rests on an
   error counts as "pending" there: it is reported once Spark replays it.
   Not-equivalent pairs stop at the first definite difference; pairs with no difference search until
   the search budget ends (``unknown``), so their time is the budget, not a cost of the pair.
2. How long does a counterexample take to be replayed on Spark (both original programs run on the
   counterexample's tables), with the JVM already started?
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO)]
RESULTS = REPO / "bench" / "results"


def _spec(s: str) -> str:
    path, sep, fn = s.partition("::")
    return str(REPO / path) + sep + fn


def _schema(case: dict[str, Any]) -> list[str] | None:
    values = case.get("schema")
    return [str(REPO / v) if v.endswith(".sql") else v for v in values] if values else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--timeout", type=float, default=10.0, help="per check (default 10 s)")
    parser.add_argument("--replays", type=int, default=8, help="not-equivalent pairs to replay (default 8)")
    args = parser.parse_args()
    from verifier import check

    cases = json.loads((REPO / "cases" / "df" / "manifest.json").read_text())["cases"]
    rows = []
    for case in cases:
        started = time.perf_counter()
        result = check(_spec(case["left"]), _spec(case["right"]), timeout=args.timeout,
                       schema=_schema(case))
        verdict = result.verdict
        if verdict == "unknown" and "pending" in result.stats:
            verdict = "pending"  # a difference resting on an error: reported once Spark reproduces it
        rows.append({"name": case["name"], "expected": case["expected"], "verdict": verdict,
                     "seconds": time.perf_counter() - started})
        print(f"{case['name']:45s} {verdict:15s} {rows[-1]['seconds']:.3f}", flush=True)
    from verifier.runtime.spark import get_session

    get_session("local[2]").range(1).count()  # start the JVM and the Python workers first
    replays = []
    for case in [c for c in cases if c["expected"] == "not_equivalent"][: args.replays]:
        started = time.perf_counter()
        result = check(_spec(case["left"]), _spec(case["right"]), timeout=args.timeout, replay=True,
                       schema=_schema(case))
        replays.append({"name": case["name"], "replayed": bool(result.counterexample and
                                                               result.counterexample.replayed_on_spark),
                        "seconds": time.perf_counter() - started})
        print(f"replay {case['name']:38s} {replays[-1]['replayed']} {replays[-1]['seconds']:.2f}", flush=True)
    refuted = [r["seconds"] for r in rows if r["verdict"] == "not_equivalent"]
    proved = [r["seconds"] for r in rows if r["verdict"] == "equivalent"]
    summary = {
        "pairs": len(rows),
        "median_s": statistics.median(r["seconds"] for r in rows),
        "equivalent_median_s": statistics.median(proved) if proved else None,
        "equivalent_max_s": max(proved) if proved else None,
        "as_expected": sum(r["verdict"] == r["expected"] for r in rows),
        "pending_spark": sum(r["verdict"] == "pending" for r in rows),
        "not_equivalent_median_s": statistics.median(refuted) if refuted else None,
        "not_equivalent_max_s": max(refuted) if refuted else None,
        "unknown_median_s": statistics.median([r["seconds"] for r in rows
                                               if r["verdict"] == "unknown"] or [0]),
        "replay_median_s": statistics.median([r["seconds"] for r in replays]) if replays else None,
        "replayed": sum(r["replayed"] for r in replays),
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "dataframes.json").write_text(json.dumps({"summary": summary, "pairs": rows,
                                                          "replays": replays}, indent=1))
    lines = ["# DataFrame/SQL pairs (bench/dataframes.py)", "",
             f"- pairs: {summary['pairs']}, verdict as expected without Spark: {summary['as_expected']}, "
             f"difference found that waits for Spark (rests on an error or a nondeterministic choice): "
             f"{summary['pending_spark']}",
             f"- every pair: median {summary['median_s']:.3f} s",
             f"- equivalent (proved): {len(proved)} pairs, median {summary['equivalent_median_s']:.3f} s, "
             f"max {summary['equivalent_max_s']:.3f} s",
             "- not equivalent (counterexample found, no replay): "
             f"median {summary['not_equivalent_median_s']:.3f} s, "
             f"max {summary['not_equivalent_max_s']:.3f} s",
             f"- unknown (search budget spent): median {summary['unknown_median_s']:.2f} s",
             f"- with replay on Spark (JVM warm): median {summary['replay_median_s']:.2f} s, "
             f"{summary['replayed']}/{len(replays)} replayed", "",
             "| pair | expected | verdict | seconds |", "|---|---|---|---|"]
    lines += [f"| {r['name']} | {r['expected']} | {r['verdict']} | {r['seconds']:.3f} |" for r in rows]
    (RESULTS / "dataframes.md").write_text("\n".join(lines) + "\n")
    print(json.dumps(summary, indent=1))
    done = summary["as_expected"] + summary["pending_spark"]
    return 0 if done == summary["pairs"] else 1


if __name__ == "__main__":
    sys.exit(main())
