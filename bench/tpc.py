"""TPC-H/TPC-DS queries against themselves and a renaming of themselves: ``.venv/bin/python bench/tpc.py``.

Reads every query of ``/work/shared/corpora/tpc`` (``tpch/q*.sql``, ``tpcds/q*.sql``, each over its
``schema.sql``) and checks, as ``sparkeq check q.sql q.sql --schema schema.sql`` does (in process,
``verifier.check``, no replay):

- **self**: the query against itself;
- **renamed**: the query against a rewrite of itself that changes nothing Spark shows: every CTE
  inlined (``WITH c AS (...) ... FROM c x`` becomes ``FROM (...) x``), every table and subquery alias
  renamed (``x`` -> ``x_r``), and every column alias defined inside a subquery or CTE renamed with the
  columns that read it (``total`` -> ``total_r``); the outermost ``SELECT`` keeps its output names (an
  output whose name would change is aliased back). ``rename`` leaves a name alone when renaming it
  could change what a reference means (a column alias spelled like a table's column or like an output
  alias of the outermost query, any column alias when the outermost query selects ``*``). The rewrite
  is made with sqlglot (the SQL frontend's parser) and printed in Spark's dialect.

With ``--spark``, every rewrite is also run on Spark (local[2]) next to its original, over the schema's
tables filled with the same small random rows (seeded, four per table; ``CHAR``/``VARCHAR`` columns as
``STRING``, which ``createDataFrame`` takes): both must be accepted by Spark
with the same result column names and types and give the same rows (as a bag). This confirms that the
rewrite changes nothing Spark shows, so that a failure to prove it is sparkeq's.

A query *reads* when sparkeq answers anything but ``error`` against itself (the SQL frontend and the
relational kernel cover it; another helper is widening that coverage, and the bench simply runs on
whatever reads). Writes ``bench/results/tpc.json`` (per query: verdicts, methods, seconds, the first
words of a reason that is not a proof, the rewrite) and ``bench/results/tpc.md`` (read / proved counts
and median / max seconds per benchmark and per check).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO)]
RESULTS = REPO / "bench" / "results"
CORPUS = Path("/work/shared/corpora/tpc")
SUITES = ("tpch", "tpcds")
SUFFIX = "_r"


def queries(suite: str) -> list[Path]:
    def order(p: Path) -> tuple[int, str]:
        m = re.match(r"q(\d+)(\w*)", p.stem)
        return (int(m.group(1)), m.group(2)) if m else (0, p.stem)

    return sorted((CORPUS / suite).glob("q*.sql"), key=order)


# ---------------------------------------------------------------------------------------------------
# The renaming
# ---------------------------------------------------------------------------------------------------


def rename(sql: str, base_columns: set[str], output_names: list[str] | None = None) -> str:
    """``sql`` with its CTEs inlined and its inner aliases renamed (the module doc); raises
    ``ValueError`` when sqlglot cannot read the query. ``output_names``: the query's result columns as
    sparkeq names them (Spark's names): each output of the outermost select is aliased to its name, so
    that an unaliased expression over a renamed column (``round(a / b, 2)``) keeps its generated name."""
    import sqlglot
    from sqlglot import exp

    tree = sqlglot.parse_one(sql, read="spark")
    if tree is None:
        raise ValueError("empty query")
    tree = _inline_ctes(tree)
    taken = {i.name.lower() for i in tree.find_all(exp.Identifier)}

    def fresh(name: str) -> str | None:
        new = name + SUFFIX
        return None if new.lower() in taken else new

    tables = {t.name.lower() for t in tree.find_all(exp.Table)}
    # table and subquery aliases: every TableAlias and every qualifier spelling it
    aliases = {a.name.lower() for a in tree.find_all(exp.TableAlias) if a.name} - tables
    outer = _output_select(tree)
    outer_names = {e.alias_or_name.lower() for e in outer.expressions} if outer is not None else set()
    star = outer is None or any(isinstance(e, exp.Star) or isinstance(e, exp.Column) and e.is_star
                                for e in outer.expressions)
    columns: set[str] = set()
    if not star:
        for alias in tree.find_all(exp.Alias):
            select = alias.find_ancestor(exp.Select)
            if select is not None and select is not outer and alias.parent is select:
                columns.add(alias.alias.lower())
        columns -= base_columns | outer_names | aliases | tables
    if outer is not None:  # sqlglot may respell a function (substr -> SUBSTRING): names from sparkeq
        names = output_names if output_names and len(output_names) == len(outer.expressions) else None
        for i, e in enumerate(list(outer.expressions)):
            if isinstance(e, exp.Alias):
                continue
            if names is not None or isinstance(e, exp.Column) and e.name.lower() in columns:
                name = names[i] if names is not None else e.name
                e.replace(exp.alias_(e.copy(), name, quoted=not re.fullmatch(r"[A-Za-z_]\w*", name)))
    for node in list(tree.find_all(exp.TableAlias)):
        if node.name and node.name.lower() in aliases and fresh(node.name):
            node.set("this", exp.to_identifier(fresh(node.name)))
    for col in list(tree.find_all(exp.Column)):
        if col.table and col.table.lower() in aliases and fresh(col.table):
            col.set("table", exp.to_identifier(fresh(col.table)))
        if col.name and col.name.lower() in columns and fresh(col.name) and not _is_output_alias(col, outer):
            col.set("this", exp.to_identifier(fresh(col.name)))
    for alias in list(tree.find_all(exp.Alias)):
        select = alias.find_ancestor(exp.Select)
        output = select is outer and alias.parent is outer
        if alias.alias.lower() in columns and fresh(alias.alias) and not output:
            alias.set("alias", exp.to_identifier(fresh(alias.alias)))
    out = tree.sql(dialect="spark")
    if not re.search(r"cast\s*\(\s*'\d{4}-\d{2}-\d{2}'\s+as\s+date\s*\)", sql, re.IGNORECASE):
        # sqlglot prints a DATE '1995-03-15' literal as a cast, which Spark reads the same way but
        # sparkeq reads as another term (a cast of a string, which may raise): print it back as written
        out = re.sub(r"CAST\('(\d{4}-\d{2}-\d{2})' AS DATE\)", r"DATE '\1'", out)
    # and ``x IS NOT NULL`` as ``NOT x IS NULL`` (the same in Spark's grammar, another term in sparkeq's)
    return re.sub(r"\bNOT ([A-Za-z_][\w.]*) IS NULL\b", r"\1 IS NOT NULL", out)


def _is_output_alias(col: Any, outer: Any) -> bool:
    """A column that *is* an output of the outermost select (its name is that output's name)."""
    return outer is not None and col.parent is outer


def _output_select(tree: Any) -> Any:
    """The select whose names are the query's output names: the outermost one, or the first branch of
    a set operation."""
    from sqlglot import exp

    node = tree
    while isinstance(node, exp.Union | exp.Intersect | exp.Except | exp.Subquery | exp.Paren):
        node = node.this if not isinstance(node, exp.Union | exp.Intersect | exp.Except) else node.left
    return node if isinstance(node, exp.Select) else None


def _inline_ctes(tree: Any) -> Any:
    """Every reference to a CTE replaced by the CTE's query as a subquery (aliased as the reference
    was, or by the CTE's name), innermost definitions first; the WITH clauses dropped."""
    from sqlglot import exp

    for _ in range(50):
        withs = list(tree.find_all(exp.With))
        if not withs:
            return tree
        with_ = withs[-1]
        scope = with_.parent
        ctes = {c.alias.lower(): c for c in with_.expressions}
        if any(c.args.get("alias") is not None and c.args["alias"].columns for c in ctes.values()):
            raise ValueError("a CTE with a column list")
        for cte in with_.expressions:  # later CTEs may read earlier ones: inline those first
            _replace_refs(cte.this, {k: v for k, v in ctes.items() if k != cte.alias.lower()})
        _replace_refs(scope, ctes, skip=with_)
        with_.pop()
    raise ValueError("too many nested WITH clauses")


def _replace_refs(root: Any, ctes: dict[str, Any], skip: Any = None) -> None:
    from sqlglot import exp

    for table in list(root.find_all(exp.Table)):
        if skip is not None and table.find_ancestor(exp.With) is skip:
            continue
        if table.db or table.name.lower() not in ctes:
            continue
        cte = ctes[table.name.lower()]
        alias = table.alias or cte.alias
        table.replace(exp.Subquery(this=cte.this.copy(), alias=exp.TableAlias(this=exp.to_identifier(alias))))


# ---------------------------------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------------------------------


def base_columns(schema: Path) -> set[str]:
    return {m.group(1).lower() for m in re.finditer(r"[(,]\s*(\w+)\s+\w", schema.read_text())}


def run_one(path: Path, suite: str, workdir: Path, timeout: float, spark: SparkConfirm | None = None
            ) -> dict[str, Any]:
    from verifier import check

    schema = CORPUS / suite / "schema.sql"
    text = path.read_text()
    row: dict[str, Any] = {"suite": suite, "query": path.stem}
    started = time.perf_counter()
    same = check(str(path), str(path), schema=str(schema), timeout=timeout)
    row["self"] = _summary(same, time.perf_counter() - started)
    if same.verdict == "error":
        row["renamed"] = {"verdict": "not run", "reason": "the query is not read"}
        return row
    try:
        renamed = rename(text, base_columns(schema), _output_names(path, schema))
    except Exception as exc:  # noqa: BLE001 - a query sqlglot cannot rewrite is reported, not fatal
        row["renamed"] = {"verdict": "not generated", "reason": f"{type(exc).__name__}: {exc}"[:200]}
        return row
    target = workdir / f"{suite}_{path.stem}_renamed.sql"
    target.write_text(renamed + "\n")
    started = time.perf_counter()
    other = check(str(path), str(target), schema=str(schema), timeout=timeout)
    row["renamed"] = _summary(other, time.perf_counter() - started)
    row["renamed"]["sql"] = renamed
    if spark is not None:
        why = spark.same(suite, text, renamed)
        same = "same" if spark.error is None else f"same (both raise {spark.error})"
        row["renamed"]["spark"] = why or same
        row["renamed"]["spark_rows"] = spark.rows if why is None else None
    return row


def _output_names(path: Path, schema: Path) -> list[str] | None:
    """The query's result column names as sparkeq's SQL frontend names them (Spark's names)."""
    from sparklite.relational import ast as R
    from verifier.core.loading import load, load_schemas

    body = load(str(path), schemas=load_schemas(str(schema))).program.body
    top = body.source if isinstance(body, R.Action) else body
    return list(top.schema.names) if isinstance(top, R.RNode) else None


# ---------------------------------------------------------------------------------------------------
# Confirmation on Spark
# ---------------------------------------------------------------------------------------------------


class SparkConfirm:
    """One local Spark session with each suite's tables as temporary views of random rows."""

    def __init__(self, seed: int = 22) -> None:
        from pyspark.sql import SparkSession

        self.spark = (SparkSession.builder.master("local[2]").appName("sparkeq-tpc")
                      .config("spark.ui.showConsoleProgress", "false").config("spark.ui.enabled", "false")
                      .config("spark.sql.shuffle.partitions", "2")
                      .getOrCreate())
        self.spark.sparkContext.setLogLevel("ERROR")
        self.seed = seed
        self.loaded: str | None = None
        self.frames: dict[tuple[str, bool], dict[str, Any]] = {}
        self.rows = 0  # how many rows the last confirmed pair gave (on the random tables)
        self.error: str | None = None  # or the error both raised

    def load(self, suite: str, empty: bool) -> None:
        import random

        if self.loaded == f"{suite}:{empty}":
            return
        if (suite, empty) not in self.frames:
            rng = random.Random(f"{self.seed}:{suite}")
            frames = {}
            ddl = (CORPUS / suite / "schema.sql").read_text()
            for m in re.finditer(r"CREATE TABLE (\w+) \((.*)\);", ddl):
                # CHAR(n)/VARCHAR(n) columns are read as STRING: createDataFrame takes no char types,
                # and both queries of a pair read the same tables
                columns = re.sub(r"\b(?:VAR)?CHAR\(\d+\)", "STRING", m.group(2), flags=re.IGNORECASE)
                struct = self.spark.createDataFrame([], columns).schema
                rows = [] if empty else [tuple(_value(f.dataType, rng) for f in struct.fields)
                                         for _ in range(4)]
                frames[m.group(1)] = self.spark.createDataFrame(rows, struct).cache()
            self.frames[(suite, empty)] = frames
        for name, frame in self.frames[(suite, empty)].items():
            frame.createOrReplaceTempView(name)
        self.loaded = f"{suite}:{empty}"

    def same(self, suite: str, left: str, right: str) -> str | None:
        """None when Spark shows the two queries alike (the same result columns and types, and the same
        rows on the seeded random tables), else why not."""

        for empty in (False,):
            self.load(suite, empty)
            outcomes = [self._run(left), self._run(right)]
            if outcomes[0] != outcomes[1]:
                return f"different outcomes on {'empty' if empty else 'random'} tables: {outcomes}"[:300]
            kind, what, rows = outcomes[0]
            self.rows = sum(rows.values()) if kind == "rows" else 0
            self.error = "/".join(what) if kind == "error" else None
        return None


    def _run(self, sql: str) -> tuple[str, Any, Any]:
        """What Spark shows of ``sql``: ``("rows", columns, bag of rows)`` or ``("error", the exception's
        class and Spark's error condition, None)`` (both queries raising alike is the same outcome)."""
        from collections import Counter

        try:
            frame = self.spark.sql(sql)
            columns = tuple((f.name, f.dataType.simpleString()) for f in frame.schema.fields)
            return ("rows", columns, Counter(map(tuple, frame.collect())))
        except Exception as exc:  # noqa: BLE001 - an error is an outcome to compare
            condition = re.search(r"\[([A-Z_.]+)\]", str(exc))
            return ("error", (type(exc).__name__, condition.group(1) if condition else ""), None)


def _value(t: Any, rng: Any) -> Any:
    import datetime
    import decimal

    name = t.typeName()
    if rng.random() < 0.1:
        return None
    if name in ("integer", "long", "short", "byte"):
        return rng.randint(0, 3)
    if name == "decimal":
        return decimal.Decimal(rng.randint(0, 300)) / 100
    if name == "double":
        return rng.randint(0, 30) / 10
    if name == "date":
        return datetime.date(1998 + rng.randint(0, 4), rng.randint(1, 12), rng.randint(1, 28))
    if name in ("string", "varchar", "char"):
        return rng.choice(["a", "b", "1", "N", "Books", "TN", "Sunday"])
    return None


def _summary(result: Any, seconds: float) -> dict[str, Any]:
    out = {"verdict": result.verdict, "method": result.method, "seconds": round(seconds, 4)}
    if result.verdict != "equivalent":
        out["reason"] = (result.reason or "")[:300]
    return out


def report(rows: list[dict[str, Any]], wall: float, timeout: float) -> str:
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    lines = ["# sparkeq on TPC-H and TPC-DS: every query against itself and a renaming of itself", "",
             f"{len(rows)} queries of `{CORPUS}` ({wall:.0f} s wall, `--timeout {timeout:g}`, in process, "
             f"no replay; load average {load} at the end on a 2-core machine shared with other jobs, "
             "so times are upper bounds). *Read*: sparkeq answers anything but `error` for the query "
             "against itself. "
             "*Renamed*: CTEs inlined, table/subquery aliases and inner column aliases renamed, output "
             "names kept (`bench/tpc.py`).", "",
             "| suite | queries | read | self proved | self median s | self max s | renamed generated "
             "| renamed proved (of read) | renamed median s | renamed max s |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for suite in SUITES:
        rs = [r for r in rows if r["suite"] == suite]
        read = [r for r in rs if r["self"]["verdict"] != "error"]
        proved = [r for r in read if r["self"]["verdict"] == "equivalent"]
        gen = [r for r in read if r["renamed"]["verdict"] != "not generated"]
        rproved = [r for r in gen if r["renamed"]["verdict"] == "equivalent"]
        st = [r["self"]["seconds"] for r in read]
        rt = [r["renamed"]["seconds"] for r in gen]
        lines.append(f"| {suite} | {len(rs)} | {len(read)} | {len(proved)} | {_med(st)} | {_max(st)} | "
                     f"{len(gen)} | {len(rproved)} | {_med(rt)} | {_max(rt)} |")
    methods: dict[str, int] = {}
    for r in rows:
        if r["renamed"]["verdict"] == "equivalent":
            methods[r["renamed"]["method"]] = methods.get(r["renamed"]["method"], 0) + 1
    lines += ["", "Renamed queries proved, by method: "
              + (", ".join(f"{m} {n}" for m, n in sorted(methods.items())) or "none") + ".", ""]
    confirmed = [r for r in rows if "spark" in r["renamed"]]
    if confirmed:
        same = [r for r in confirmed if r["renamed"]["spark"].startswith("same")]
        lines += [f"Confirmed on Spark (`--spark`, local[2], seeded random rows): "
                  f"{len(same)} "
                  f"of {len(confirmed)} rewrites give the same result columns, types and rows as their "
                  "original.", ""]
        nonempty = [r for r in same if r["renamed"].get("spark_rows")]
        lines += [f"Of those, {len(nonempty)} gave a non-empty result on the random tables (the others are "
                  "compared on their columns, types and acceptance by Spark only).", ""]
        lines += [f"- {r['suite']}/{r['query']}: {r['renamed']['spark']}" for r in confirmed
                  if r not in same]
    misses = [(r, which) for r in rows if r["self"]["verdict"] != "error" for which in ("self", "renamed")
              if r[which]["verdict"] != "equivalent"]
    if misses:
        lines += ["## Read but not proved", "", "| query | check | verdict | reason |", "|---|---|---|---|"]
        for r, which in misses:
            reason = r[which].get("reason", "").replace("|", "\\|").replace("\n", " ")[:160]
            lines.append(f"| {r['suite']}/{r['query']} | {which} | {r[which]['verdict']} | {reason} |")
    errors: dict[str, int] = {}
    for r in rows:
        if r["self"]["verdict"] == "error":
            msg = re.sub(r"^\S+:\d+:\d+: ", "", r["self"].get("reason", ""))[:110]
            errors[msg] = errors.get(msg, 0) + 1
    if errors:
        lines += ["", "## Not read (first message of each query, by count)", "", "| queries | message |",
                  "|---|---|"]
        for m, n in sorted(errors.items(), key=lambda x: -x[1]):
            lines.append(f"| {n} | " + m.replace("|", "\\|") + " |")
    return "\n".join(lines) + "\n"


def _med(xs: list[float]) -> str:
    return f"{statistics.median(xs):.3f}" if xs else "-"


def _max(xs: list[float]) -> str:
    return f"{max(xs):.3f}" if xs else "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--timeout", type=float, default=10.0, help="per check (seconds)")
    parser.add_argument("--only", default=None, help="a regex on suite/query (e.g. 'tpch/q1$')")
    parser.add_argument("--spark", action="store_true", help="confirm every rewrite on Spark (local[2])")
    parser.add_argument("--no-write", action="store_true", help="print the report, write no results")
    parser.add_argument("--out", default="tpc", help="results file stem under bench/results")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    rows = []
    spark = SparkConfirm() if args.spark else None
    with tempfile.TemporaryDirectory(prefix="sparkeq-tpc-") as tmp:
        for suite in SUITES:
            for path in queries(suite):
                if args.only and not re.search(args.only, f"{suite}/{path.stem}"):
                    continue
                row = run_one(path, suite, Path(tmp), args.timeout, spark)
                rows.append(row)
                print(f"{suite}/{path.stem}: self {row['self']['verdict']} ({row['self']['seconds']:.2f} s), "
                      f"renamed {row['renamed']['verdict']}, on Spark {row['renamed'].get('spark', '-')} "
                      f"({row['renamed'].get('spark_rows')} rows)",
                      file=sys.stderr, flush=True)
    text = report(rows, time.perf_counter() - started, args.timeout)
    if not args.no_write:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / f"{args.out}.json").write_text(json.dumps(rows, indent=1) + "\n")
        (RESULTS / f"{args.out}.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
