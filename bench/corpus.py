"""Real code, compared with itself: ``.venv/bin/python bench/corpus.py [--workers 2] [--timeout 30]``.

The easiest question a verifier can be asked is whether a program equals itself. This benchmark asks it
of every *unit* of ``/work/shared/corpora/realworld`` (public PySpark code nobody on the team wrote,
never edited), through the command line exactly as a user would run it:
``sparkeq check U U --no-replay --json`` in a fresh process (so an internal error, exit 4, is seen as a
user sees it, and a hang is cut at ``--timeout`` plus start-up).

Units, found by reading each file with ``ast`` (never importing it), as the corpus README defines them:

- **script**: a file whose module-level code or ``if __name__ == "__main__":`` block touches Spark
  (``SparkSession``, ``SparkContext``, ``spark.``/``sc.`` calls, ``pyspark`` imports used at module
  level): ``sparkeq check F F``;
- **function**: a module-level function (not a method) that has parameters, returns a value and calls
  RDD or DataFrame methods: ``sparkeq check F::fn F::fn``. DataFrame parameters carry no schema in real
  code, so these often end with the message that asks for one: that is a finding, not a bench error.
  The issue defines a unit as a function "that returns an RDD or DataFrame", so a function whose every
  ``return`` visibly hands back a schema or a type is not one (``_returns_schema``: each returned
  expression ends in ``.schema``, ``.dataType``, ``.dtypes``, ``.columns``, ``.fields``, ``.elementType``
  or is a ``StructType(...)``/``...Type(...)`` call, decided from the source with ``ast``). The rule is
  deliberately narrow: a function that returns anything else (a name, a call of a helper) stays a unit.

Schemas a user would declare (a file read with ``inferSchema``, a DataFrame function's parameters) come
from ``bench/corpus_schemas.toml``, written by reading each unit, and are passed as ``--schema``; the
report says how many units needed one.

Writes ``bench/results/corpus.json`` (per unit: kind, target, verdict, exit status, seconds, the first
line of the reason, the schemas declared) and ``bench/results/corpus.md`` (counts by verdict and kind,
the share read and proved, timings and the units over 30 s, and the constructs that still block, sorted
by how many units each blocks alone: every ``error`` unit stops at the first construct sparkeq cannot
read, so it is counted under that one; removing it may uncover another further down).
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import statistics
import subprocess
import sys
import time
import tomllib
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "bench" / "results"
CORPUS = Path("/work/shared/corpora/realworld")
SPARKEQ = [str(REPO / ".venv" / "bin" / "python"), "-m", "sparkeq"]
SCHEMAS = REPO / "bench" / "corpus_schemas.toml"
SLOW_S = 30.0  # the acceptance bound on one unit's check

# Methods that only RDDs and DataFrames have in this code (plus the common ones both share), to tell a
# Spark function from a helper that formats a string.
SPARK_METHODS = frozenset(
    "flatMap reduceByKey groupByKey combineByKey aggregateByKey foldByKey mapValues flatMapValues sortBy "
    "sortByKey leftOuterJoin rightOuterJoin fullOuterJoin cogroup takeOrdered countByKey countByValue "
    "collectAsMap parallelize textFile select selectExpr withColumn withColumnRenamed groupBy agg orderBy "
    "dropDuplicates show toDF createDataFrame unionByName crossJoin fillna dropna".split()
)  # methods only RDDs and DataFrames have (str.join, list.count... are not evidence)
SPARK_NAMES = frozenset({"SparkSession", "SparkContext", "spark", "sc", "glueContext"})
EXIT_VERDICT = {0: "equivalent", 1: "not_equivalent", 2: "unknown", 3: "error", 4: "internal error"}


@dataclass
class Unit:
    kind: str  # script | function
    file: str  # corpus path
    target: str  # what sparkeq check is given (twice)


@dataclass
class Outcome:
    kind: str
    file: str
    target: str
    verdict: str
    exit: int | None
    seconds: float
    reason: str
    method: str | None = None
    schemas: tuple[str, ...] = ()


def _calls(node: ast.AST) -> set[str]:
    return {n.func.attr for n in ast.walk(node)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)}


def _touches_spark(nodes: list[ast.stmt]) -> bool:
    for stmt in nodes:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Name) and n.id in SPARK_NAMES:
                return True
            if isinstance(n, ast.Attribute) and n.attr in {"sparkContext", "builder"}:
                return True
    return False


def _main_block(stmt: ast.stmt) -> bool:
    return (isinstance(stmt, ast.If) and isinstance(stmt.test, ast.Compare)
            and isinstance(stmt.test.left, ast.Name) and stmt.test.left.id == "__name__")


# What a ``return`` hands back when it is a schema or a column type, not an RDD or DataFrame.
SCHEMA_ATTRS = frozenset({"schema", "dataType", "dtypes", "columns", "fields", "elementType"})


def _returns_schema(fn: ast.FunctionDef) -> bool:
    """True when every ``return`` of ``fn`` (its own, not nested functions') returns an expression that
    is visibly a schema or a type: ``x.schema.fields[0].dataType``, ``df.dtypes``, ``StructType([...])``
    or ``IntegerType()``; such a function is not a unit."""
    def own_returns(node: ast.AST) -> list[ast.Return]:
        out: list[ast.Return] = []
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
                continue
            if isinstance(child, ast.Return):
                out.append(child)
            out += own_returns(child)
        return out

    def schema_like(e: ast.expr) -> bool:
        while isinstance(e, ast.Subscript):
            e = e.value
        if isinstance(e, ast.Attribute):
            return e.attr in SCHEMA_ATTRS
        if isinstance(e, ast.Call):
            f = e.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            return name.endswith("Type") and name[:1].isupper()
        return False

    returns = [r for r in own_returns(fn) if r.value is not None]
    return bool(returns) and all(schema_like(r.value) for r in returns if r.value is not None)


def units_of(path: Path) -> list[Unit]:
    """The units of one file, read with ``ast`` only."""
    rel = str(path.relative_to(CORPUS))
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=rel)
    except SyntaxError:
        return []
    found: list[Unit] = []
    top = [s for s in tree.body if not isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
                                                   | ast.Import | ast.ImportFrom)]
    if _touches_spark(top) or any(_main_block(s) and _touches_spark(s.body) for s in tree.body):
        found.append(Unit("script", rel, str(path)))
    for fn in tree.body:
        if not isinstance(fn, ast.FunctionDef) or not fn.args.args or fn.name == "main":
            continue
        returns = any(isinstance(n, ast.Return) and n.value is not None for n in ast.walk(fn))
        if returns and _calls(fn) & SPARK_METHODS and not _returns_schema(fn):
            found.append(Unit("function", rel, f"{path}::{fn.name}"))
    return found


def all_units() -> list[Unit]:
    return [u for p in sorted(CORPUS.rglob("*.py")) for u in units_of(p)]


def declared_schemas() -> dict[str, tuple[str, ...]]:
    """``bench/corpus_schemas.toml``: the ``--schema`` values declared per unit (``file.py`` or
    ``file.py::function``, corpus-relative)."""
    if not SCHEMAS.exists():
        return {}
    with open(SCHEMAS, "rb") as fh:
        return {k: tuple(v) for k, v in tomllib.load(fh).get("units", {}).items()}


def unit_key(unit: Unit) -> str:
    fn = unit.target.partition("::")[2]
    return unit.file + (f"::{fn}" if fn else "")


def run_unit(unit: Unit, timeout: float, schemas: tuple[str, ...] = ()) -> Outcome:
    cmd = [*SPARKEQ, "check", unit.target, unit.target, "--no-replay", "--json", "--timeout", str(timeout)]
    for spec in schemas:
        cmd += ["--schema", spec]
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 60, cwd=REPO)
    except subprocess.TimeoutExpired:
        return Outcome(unit.kind, unit.file, unit.target, "hang", None, time.monotonic() - start,
                       f"no answer {timeout + 60:.0f} s after start", None, schemas)
    seconds = time.monotonic() - start
    verdict = EXIT_VERDICT.get(proc.returncode, f"exit {proc.returncode}")
    reason, method = "", None
    try:
        payload = json.loads(proc.stdout)
        reason, method = payload.get("reason") or "", payload.get("method")
    except (json.JSONDecodeError, AttributeError):
        reason = (proc.stderr.strip().splitlines() or [""])[-1]
    return Outcome(unit.kind, unit.file, unit.target, verdict, proc.returncode, seconds,
                   reason.split("\n")[0], method, schemas)


_LOCATION = re.compile(r"^[^:\s]*(\.py)?:\d+:\d+:\s*")


def blocker(reason: str) -> str:
    """The construct an error names, without its location and quoted specifics that vary by unit."""
    text = _LOCATION.sub("", reason)
    text = re.sub(r"'[^']*'", "'…'", text)
    text = re.sub(r"\b\d+\b", "N", text)
    return text[:140]


def report(outcomes: list[Outcome], wall: float) -> str:
    n = len(outcomes)
    by = Counter(o.verdict for o in outcomes)
    read = sum(1 for o in outcomes if o.verdict not in {"error", "internal error", "hang"})
    proved = by["equivalent"]
    lines = [
        "# sparkeq on the real-world corpus: every unit compared with itself", "",
        f"{n} units of `/work/shared/corpora/realworld` ({wall:.0f} s wall), "
        "`sparkeq check U U --no-replay`.",
        "",
        f"- read (any verdict but error): **{read}/{n} ({100 * read / max(n, 1):.0f}%)**",
        f"- proved equivalent to itself: **{proved}/{n} ({100 * proved / max(n, 1):.0f}%)**",
        f"- internal errors (exit 4): **{by['internal error']}**; hangs: **{by['hang']}**",
    ]
    times = [o.seconds for o in outcomes]
    if times:
        slow = [o for o in outcomes if o.seconds >= SLOW_S]
        lines.append(f"- seconds per unit (process start included): median {statistics.median(times):.1f}, "
                     f"max {max(times):.1f}; units at {SLOW_S:.0f} s or more: **{len(slow)}**"
                     + "".join(f"\n  - {o.target.split('realworld/')[-1]}: {o.seconds:.1f} s" for o in slow))
    declared = [o for o in outcomes if o.schemas]
    declared_read = sum(o.verdict not in ("error", "internal error", "hang") for o in declared)
    lines.append(f"- units given a declared schema (`bench/corpus_schemas.toml`, as `--schema`): "
                 f"**{len(declared)}** ({declared_read} of them read)")
    lines += ["", "| kind | units | equivalent | not equivalent | unknown | error | internal error |",
              "|---|---|---|---|---|---|---|"]
    for kind in sorted({o.kind for o in outcomes}):
        ks = Counter(o.verdict for o in outcomes if o.kind == kind)
        lines.append(f"| {kind} | {sum(ks.values())} | {ks['equivalent']} | {ks['not_equivalent']} | "
                     f"{ks['unknown']} | {ks['error']} | {ks['internal error']} |")
    blocks = Counter(blocker(o.reason) for o in outcomes if o.verdict in {"error", "internal error"})
    lines += ["", "## What still blocks (units blocked by each construct alone)", "",
              "Each unit that is not read stops at the first construct sparkeq cannot read; it is counted "
              "under that construct (reading it may uncover another one further down the unit). Sorted by "
              "how many units each construct blocks.", "",
              "| units | message |", "|---|---|"]
    lines += [f"| {c} | {m.replace('|', '/')} |" for m, c in blocks.most_common()]
    unknown = Counter(blocker(o.reason) for o in outcomes if o.verdict == "unknown")
    if unknown:
        lines += ["", "## Read but not proved (unknown), by reason", "", "| units | reason |", "|---|---|"]
        lines += [f"| {c} | {m.replace('|', '/')} |" for m, c in unknown.most_common()]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=30.0, help="sparkeq's --timeout for each unit")
    ap.add_argument("--only", default=None, help="only units whose corpus path contains this text")
    ap.add_argument("--out", default="corpus", help="results file stem under bench/results")
    args = ap.parse_args(argv)
    units = [u for u in all_units() if not args.only or args.only in u.file]
    schemas = declared_schemas()
    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=args.workers) as pool:
        outcomes = list(pool.map(lambda u: run_unit(u, args.timeout, schemas.get(unit_key(u), ())), units))
    wall = time.monotonic() - start
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{args.out}.json").write_text(json.dumps([asdict(o) for o in outcomes], indent=1) + "\n")
    text = report(outcomes, wall)
    (RESULTS / f"{args.out}.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
