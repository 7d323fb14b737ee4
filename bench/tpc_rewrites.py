"""TPC queries rewritten as a SQL optimizer would: the generator of ``cases/tpc_rewrites/``.

``.venv/bin/python bench/tpc_rewrites.py [--spark] [--only REGEX] [--no-check]`` reads every
TPC-H/TPC-DS query that sparkeq reads (``bench/tpc.py``'s corpus) and writes
``cases/tpc_rewrites/{suite}/{query}.sql``: the query after the rewrites an optimizer applies before
planning, made with sqlglot's optimizer rules:

1. ``bench.tpc.rename``: every CTE inlined, every table/subquery alias and inner column alias renamed
   (the output names kept);
2. ``qualify`` (sqlglot): every column qualified by its table (``l_orderkey`` -> ``lineitem.l_orderkey``),
   every table aliased, every output aliased, ``*`` expanded; with the schema's column types;
3. ``pushdown_predicates`` (sqlglot): conjuncts of ``WHERE`` moved into the ``ON`` of the join that
   first sees their columns, and into derived tables (``WHERE TRUE AND ...`` is what it leaves behind);
4. ``merge_subqueries`` (sqlglot): derived tables merged into the query that reads them where that does
   not change the query's meaning (no aggregate, distinct, limit, window or outer join in the way).

Where sparkeq cannot read the result (a correlated reference pushed into a derived table's ``FROM``,
TPC-DS q10/q35), the generator falls back to the first two rules, then to the first. The outermost
select's outputs are aliased back to the original's names (``qualify`` lower-cases identifiers; Spark
shows a result column as it was spelled). Predicates holding a subquery are not pushed.

Rules deliberately *not* used: ``simplify`` and ``normalize`` (they fold with two-valued logic and
reorder ``AND``/``OR`` across expressions that may raise: not Spark's NULL/ANSI meaning),
``unnest_subqueries`` (its ``IN`` -> join decorrelation is NULL-unsafe for ``NOT IN``), ``optimize_joins``
and ``eliminate_joins`` (they rely on declared keys TPC schemas do not have).

Spark prints ``DATE '...'`` literals back as written (sqlglot prints them as a cast of a string, which
Spark reads alike). ``--spark`` runs each rewrite on Spark (local[2]) next to its original over seeded
random tables (``bench.tpc.SparkConfirm``, several seeds) and keeps only rewrites Spark shows alike; the
verdicts sparkeq gives (``verifier.check``, no replay) are written to ``cases/tpc_rewrites/manifest.json``
with Spark's confirmation, and ``tests/test_tpc_rewrites.py`` checks them.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "bench")]

import tpc  # noqa: E402 - bench/tpc.py, next to this file

OUT = REPO / "cases" / "tpc_rewrites"
SEEDS = (22, 23, 24)


def table_schema(suite: str) -> dict[str, dict[str, str]]:
    """The suite's tables as sqlglot's ``qualify`` takes them: table -> column -> type."""
    ddl = (tpc.CORPUS / suite / "schema.sql").read_text()
    out: dict[str, dict[str, str]] = {}
    for m in re.finditer(r"CREATE TABLE (\w+) \((.*)\);", ddl):
        columns = re.split(r",\s*(?![^()]*\))", m.group(2))
        out[m.group(1)] = dict(c.strip().split(None, 1) for c in columns)  # type: ignore[misc]
    return out


def optimize(sql: str, suite: str, output_names: list[str] | None, rules: int = 3) -> str:
    """``sql`` after the rewrites of the module doc, printed in Spark's dialect: the first ``rules``
    of qualify, pushdown, merge (``main`` falls back to fewer where sparkeq cannot read the result)."""
    import sqlglot
    from sqlglot.optimizer.merge_subqueries import merge_subqueries
    from sqlglot.optimizer.qualify import qualify

    schema = (tpc.CORPUS / suite / "schema.sql")
    renamed = tpc.rename(sql, tpc.base_columns(schema), output_names)
    tree = sqlglot.parse_one(renamed, read="spark")
    tree = qualify(tree, schema=table_schema(suite), dialect="spark", quote_identifiers=False)
    if rules >= 2:
        tree = _pushdown(tree)
    if rules >= 3:
        tree = merge_subqueries(tree)
    _keep_output_names(tree, output_names)
    out = tree.sql(dialect="spark", pretty=True)
    if not re.search(r"cast\s*\(\s*'\d{4}-\d{2}-\d{2}'\s+as\s+date\s*\)", sql, re.IGNORECASE):
        out = re.sub(r"CAST\('(\d{4}-\d{2}-\d{2})' AS DATE\)", r"DATE '\1'", out)
    return re.sub(r"\bNOT ([A-Za-z_][\w.]*) IS NULL\b", r"\1 IS NOT NULL", out)


def _keep_output_names(tree: Any, names: list[str] | None) -> None:
    """The outermost select's outputs aliased to the original's names (``qualify`` lower-cases
    identifiers; Spark shows a result column's name as written)."""
    import sqlglot
    from sqlglot import exp

    outer = tpc._output_select(tree)
    if outer is None or names is None or len(names) != len(outer.expressions):
        return
    for e, name in zip(list(outer.expressions), names, strict=True):
        if isinstance(e, exp.Alias) and e.alias == name:
            continue
        inner = e.this if isinstance(e, exp.Alias) else e
        quoted = not re.fullmatch(r"[A-Za-z_]\w*", name)
        e.replace(sqlglot.exp.alias_(inner.copy(), name, quoted=quoted))


def _pushdown(tree: Any) -> Any:
    """sqlglot's ``pushdown_predicates`` without its ``simplify`` (two-valued folding: not Spark's
    meaning) and moving no conjunct that holds a subquery (an optimizer keeps those as filters: Spark
    plans them as joins of their own)."""
    from sqlglot import exp
    from sqlglot.optimizer import pushdown_predicates as pp

    def keep(e: Any, **_: Any) -> Any:
        return e

    def cnf(predicates: Any, *args: Any, **kwargs: Any) -> None:
        plain = [p for p in predicates if not p.find(exp.Subquery, exp.Exists, exp.Select)]
        original(plain, *args, **kwargs)

    original = pp.pushdown_cnf
    saved = pp.simplify
    pp.simplify, pp.pushdown_cnf = keep, cnf
    try:
        return pp.pushdown_predicates(tree)
    finally:
        pp.simplify, pp.pushdown_cnf = saved, original


def _reads(sql: str, schema: Path) -> bool:
    import tempfile

    from verifier.core.loading import load, load_schemas

    with tempfile.NamedTemporaryFile("w", suffix=".sql") as f:
        f.write(sql + "\n")
        f.flush()
        try:
            load(f.name, schemas=load_schemas(str(schema)))
        except Exception:  # noqa: BLE001 - any failure to read is "not read"
            return False
    return True


def _write(path: Path, entries: dict[str, dict[str, Any]]) -> None:
    """The manifest, in suite and query order (written after each pair: a long run can be resumed)."""
    def order(n: str) -> tuple[str, int, str]:
        suite, q = n.split("/")
        return (suite, int(re.sub(r"\D", "", q) or 0), q)

    path.write_text(json.dumps([entries[n] for n in sorted(entries, key=order)], indent=1) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default=None, help="a regex on suite/query (e.g. 'tpch/q1$')")
    parser.add_argument("--spark", action="store_true", help="confirm every rewrite on Spark (local[2])")
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--no-write", action="store_true", help="print the verdicts, write no files")
    parser.add_argument("--no-check", action="store_true", help="write the rewrites, check nothing")
    args = parser.parse_args(argv)
    from verifier import check

    manifest_path = OUT / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else []
    entries = {e["name"]: e for e in manifest}
    confirms = [tpc.SparkConfirm(seed) for seed in SEEDS[:1]] if args.spark else []
    for suite in tpc.SUITES:
        schema = tpc.CORPUS / suite / "schema.sql"
        for path in tpc.queries(suite):
            name = f"{suite}/{path.stem}"
            if args.only and not re.search(args.only, name):
                continue
            if check(str(path), str(path), schema=str(schema), timeout=args.timeout).verdict == "error":
                continue  # not read: nothing to rewrite for sparkeq
            sql = None
            for rules in (3, 2, 1):  # fewer rules where sparkeq cannot read the rewrite
                try:
                    sql = optimize(path.read_text(), suite, tpc._output_names(path, schema), rules)
                except Exception as exc:  # noqa: BLE001 - reported, not fatal
                    print(f"{name}: not generated ({type(exc).__name__}: {exc})"[:200], file=sys.stderr)
                    break
                if _reads(sql, schema):
                    break
                print(f"{name}: sparkeq does not read the rewrite with {rules} rules", file=sys.stderr)
            if sql is None:
                continue
            target = OUT / suite / f"{path.stem}.sql"
            if not args.no_write:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(f"-- {name} rewritten by bench/tpc_rewrites.py (sqlglot optimizer rules)\n"
                                  + sql + "\n")
                where = str(target.relative_to(REPO))
            else:
                tmp = Path("/tmp") / f"sparkeq-rw-{suite}-{path.stem}.sql"
                tmp.write_text(sql + "\n")
                where = str(tmp)
            if args.no_check:
                continue
            started = time.perf_counter()
            result = check(str(path), where, schema=str(schema), timeout=args.timeout)
            seconds = time.perf_counter() - started
            entry: dict[str, Any] = entries.get(name, {"name": name})
            entry.update({"left": str(path.relative_to(tpc.CORPUS)), "right": f"{suite}/{path.stem}.sql",
                          "verdict": result.verdict, "method": result.method})
            if result.verdict != "equivalent":
                entry["reason"] = (result.reason or "")[:300]
            else:
                entry.pop("reason", None)
            for confirm in confirms:
                why = confirm.same(suite, path.read_text(), sql)
                both = "same" if confirm.error is None else f"same (both raise {confirm.error})"
                entry["spark"] = why or both
                entry["spark_rows"] = confirm.rows
            entries[name] = entry
            if not args.no_write:
                _write(manifest_path, entries)
            print(f"{name}: {result.verdict} {result.method} {seconds:.2f}s spark={entry.get('spark', '-')} "
                  f"{entry.get('reason', '')[:150]}", file=sys.stderr, flush=True)
    proved = sum(e["verdict"] == "equivalent" for e in entries.values())
    print(f"proved {proved}/{len(entries)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
