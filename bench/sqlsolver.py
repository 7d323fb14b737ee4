"""SQLSolver's 127 Spark rewrite pairs through sparkeq: ``.venv/bin/python bench/sqlsolver.py``.

Reads ``/work/shared/corpora/sqlsolver`` (``spark_tests``: lines 2i-1 and 2i are pair i, before and after
one of Spark's optimizer rules; ``calcite_test.base.schema.sql``: the tables, with NOT NULL, PRIMARY KEY
and REFERENCES declarations). Each query is written to a ``.sql`` file and the pair checked as the CLI
checks ``sparkeq check left.sql right.sql --schema calcite_test.base.schema.sql``: through
``verifier.check`` with the schema file, a per-pair ``--timeout`` (default 10 s) and, by default, no
replay on Spark (``--replay`` replays every not-equivalent finding, and every difference waiting for
Spark, on a local Spark; it needs Java).

Writes ``bench/results/sqlsolver.json`` (per pair: id, the two queries, verdict, method, reason, reason
category, seconds, and the counterexample when there is one) and ``bench/results/sqlsolver.md``
(counts proved / not equivalent / unknown by reason / error by reason, median and p90 time, and every
not-equivalent pair with its counterexample tables). Pairs the SQL frontend cannot read are ``error``
verdicts (an unsupported construct, named). Column names are compared, as Spark shows them;
``--ignore-names`` compares by position, as SQL provers do (``sqlsolver-ignore-names.json``/``.md``):
many pairs differ only in a generated name (``SELECT ((1+2)+3)`` against ``SELECT 6``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO)]
RESULTS = REPO / "bench" / "results"
CORPUS = Path("/work/shared/corpora/sqlsolver")
QUERIES = CORPUS / "spark_tests"
SCHEMA = CORPUS / "calcite_test.base.schema.sql"


def pairs() -> list[tuple[int, str, str]]:
    lines = QUERIES.read_text().split("\n")
    if len(lines) % 2:
        raise SystemExit(f"{QUERIES}: {len(lines)} lines, expected pairs of lines")
    return [(i // 2 + 1, lines[i], lines[i + 1]) for i in range(0, len(lines), 2)]


def category(result: Any) -> str:
    """A short class of the verdict's reason, for the counts."""
    reason = result.reason or ""
    if result.verdict == "equivalent":
        return "proved"
    if result.verdict == "not_equivalent":
        return "replayed on Spark" if result.counterexample and result.counterexample.replayed_on_spark \
            else "interpreter counterexample (definite)"
    if result.verdict == "error":
        if "is not supported" in reason or "not supported" in reason:
            return "unsupported construct: " + _construct(reason)
        return "input error: " + reason.split(": ", 1)[-1][:80]
    if "pending" in result.stats or "only Spark can confirm" in reason:
        return "difference waiting for Spark (runtime error or caveat)"
    if "Spark gives" in reason and "for both" in reason:
        return "difference not reproduced on Spark"
    if "could not be confirmed on Spark" in reason:
        return "replay failed"
    if "ran out of time" in reason:
        return "ran out of time"
    if reason.startswith("no difference on") or "cannot prove" in reason:
        return "no difference found, no proof"
    return "other: " + reason[:80]


def _construct(reason: str) -> str:
    text = reason.split(": ", 1)[-1]
    return text.split(" is not supported")[0].split(" are not supported")[0][:60]


def check_pair(pid: int, left: str, right: str, workdir: Path, timeout: float, replay: bool,
               ignore_names: bool = False) -> dict[str, Any]:
    from verifier import check

    lpath, rpath = workdir / f"pair{pid:03d}_left.sql", workdir / f"pair{pid:03d}_right.sql"
    lpath.write_text(left + "\n")
    rpath.write_text(right + "\n")
    started = time.perf_counter()
    result = check(str(lpath), str(rpath), schema=str(SCHEMA), timeout=timeout, replay=replay,
                   ignore_names=ignore_names)
    seconds = time.perf_counter() - started
    row: dict[str, Any] = {
        "id": pid, "left": left, "right": right, "verdict": result.verdict, "method": result.method,
        "reason": (result.reason or "").replace(str(workdir) + "/", ""), "category": category(result),
        "seconds": round(seconds, 4), "assumptions": list(result.assumptions),
    }
    cex = result.counterexample
    if cex is not None:
        row["counterexample"] = {"inputs": cex.inputs, "partitions": cex.partitions, "left": cex.left,
                                 "right": cex.right, "replayed_on_spark": cex.replayed_on_spark}
    pending = result.stats.get("pending")
    if pending is not None:
        from sparklite.relational.values import rel_to_json
        from verifier.core.relational_search import inputs_json

        row["pending"] = {"inputs": inputs_json(_params(lpath, rpath), pending.tables), "why": pending.why,
                          "left": rel_to_json(pending.left), "right": rel_to_json(pending.right)}
    return row


def _params(lpath: Path, rpath: Path) -> Any:
    """The aligned tables of a pair (the counterexample's table order and column names)."""
    from verifier.core.loading import load, load_schemas
    from verifier.core.relational_search import align

    schemas = load_schemas(str(SCHEMA))
    left = load(str(lpath), schemas=schemas).program
    right = load(str(rpath), schemas=schemas).program
    return align(left, right)[0].params


def _percentile(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def _table(inputs: dict[str, Any]) -> list[str]:
    out = []
    for name, rows in inputs.items():
        if not rows:
            out.append(f"  - `{name}`: empty")
            continue
        out.append(f"  - `{name}`: " + ", ".join("`" + json.dumps(r, default=str) + "`" for r in rows))
    return out


def code_version() -> str:
    """The commit the run used, and whether the working tree had changes to Python files beyond it."""
    import subprocess

    def git(*a: str) -> str:
        return subprocess.run(["git", *a], cwd=REPO, capture_output=True, text=True).stdout.strip()

    dirty = [line for line in git("status", "--porcelain", "--", "*.py").splitlines()
             if not line.endswith("bench/sqlsolver.py")]
    return git("rev-parse", "--short", "HEAD") + (" with uncommitted changes" if dirty else "")


def _finding(r: dict[str, Any], found: dict[str, Any], note: str) -> list[str]:
    """A pair's difference in the report: the queries, the tables and both outcomes."""
    return [f"### Pair {r['id']}", "", f"- left: `{r['left']}`", f"- right: `{r['right']}`", note,
            "- tables:", *_table(found["inputs"]),
            f"- left gives: `{json.dumps(found['left'], default=str)}`",
            f"- right gives: `{json.dumps(found['right'], default=str)}`", ""]


def report(rows: list[dict[str, Any]], args: argparse.Namespace, wall: float, code: str) -> str:
    verdicts = Counter(r["verdict"] for r in rows)
    by_cat = Counter((r["verdict"], r["category"]) for r in rows)
    times = [r["seconds"] for r in rows]
    translated = [r["seconds"] for r in rows if r["verdict"] != "error"]
    lines = [
        "# sparkeq on SQLSolver's Spark rewrite pairs",
        "",
        f"`bench/sqlsolver.py` on the {len(rows)} pairs of `/work/shared/corpora/sqlsolver/spark_tests` "
        f"(schema `calcite_test.base.schema.sql`), timeout {args.timeout:g} s per pair, replay on Spark "
        f"{'on' if args.replay else 'off'}, column names "
        f"{'ignored (by position)' if args.ignore_names else 'compared'}; {wall:.1f} s in all; "
        f"code at {code}.",
        "",
        "| verdict | pairs |",
        "|---|---|",
    ]
    for v in ("equivalent", "not_equivalent", "unknown", "error"):
        lines.append(f"| {v} | {verdicts.get(v, 0)} |")
    lines += ["", "## By reason", "", "| verdict | category | pairs |", "|---|---|---|"]
    for (v, c), n in sorted(by_cat.items(), key=lambda kv: (kv[0][0], -kv[1], kv[0][1])):
        lines.append(f"| {v} | {c} | {n} |")
    lines += [
        "", "## Time per pair (in-process, seconds)", "",
        f"- all pairs: median {statistics.median(times):.3f}, p90 {_percentile(times, 0.9):.3f}, "
        f"max {max(times):.3f}",
        f"- pairs that translate: median {statistics.median(translated) if translated else 0:.3f}, "
        f"p90 {_percentile(translated, 0.9):.3f}",
        "",
        "Unknown pairs search for a difference until the search budget ends (2 patiences of the timeout, "
        "at least 1 s): their time is that budget, not a cost of the pair.",
        "",
        "## Not equivalent",
        "",
    ]
    refuted = [r for r in rows if r["verdict"] == "not_equivalent"]
    lines += [line for r in refuted for line in _finding(
        r, r["counterexample"], f"- replayed on Spark: {r['counterexample']['replayed_on_spark']}")] \
        or ["None."]
    waiting = [r for r in rows if "pending" in r]
    lines += ["", "## Differences waiting for Spark (unknown without replay)", ""]
    lines += [line for r in waiting
              for line in _finding(r, r["pending"], f"- rests on: {r['pending']['why']}")] or ["None."]
    lines += ["", "## Every pair", "", "| id | verdict | category | seconds |", "|---|---|---|---|"]
    lines += [f"| {r['id']} | {r['verdict']} | {r['category']} | {r['seconds']:.3f} |" for r in rows]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--timeout", type=float, default=10.0, help="per pair (default 10 s)")
    ap.add_argument("--replay", action="store_true", help="replay differences on Spark (needs Java)")
    ap.add_argument("--ignore-names", action="store_true",
                    help="compare by column position, as SQL provers do (writes sqlsolver-ignore-names.*)")
    ap.add_argument("--only", type=int, nargs="*", default=None, help="check only these pair ids")
    ap.add_argument("--out", type=Path, default=RESULTS, help="directory for sqlsolver.json/.md")
    ap.add_argument("--code", default=None, help="how to name the code checked (default: git commit)")
    args = ap.parse_args(argv)
    if not QUERIES.exists():
        print(f"{QUERIES} is not there", file=sys.stderr)
        return 2
    rows = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="sqlsolver-") as tmp:
        for pid, left, right in pairs():
            if args.only and pid not in args.only:
                continue
            row = check_pair(pid, left, right, Path(tmp), args.timeout, args.replay, args.ignore_names)
            rows.append(row)
            print(f"{pid:4d} {row['verdict']:15s} {row['seconds']:7.3f}  {row['category']}", flush=True)
    wall = time.perf_counter() - started
    args.out.mkdir(parents=True, exist_ok=True)
    meta = {"corpus": str(CORPUS), "timeout": args.timeout, "replay": args.replay,
            "ignore_names": args.ignore_names, "seconds": round(wall, 2),
            "code": args.code or code_version()}
    text = json.dumps({**meta, "pairs": rows}, indent=1, default=str)
    stem = "sqlsolver-ignore-names" if args.ignore_names else "sqlsolver"
    (args.out / f"{stem}.json").write_text(text + "\n")
    (args.out / f"{stem}.md").write_text(report(rows, args, wall, meta["code"]))
    print(Counter(r["verdict"] for r in rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
