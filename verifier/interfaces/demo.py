"""``python -m verifier.interfaces.demo``: sparkeq on the bundled cases, with real Spark in the loop.

1. a **proof**: two pipelines that differ syntactically but agree on every input;
2. a **counterexample**, found by the verifier, then **replayed on Spark** with the users' own
   functions (both Spark outputs are shown, next to the interpreter's);
3. a **partition-dependence** finding: counting with ``fold(0, lambda a, x: a + 1)`` is not ``count()``
   once Spark splits the input into several partitions.

The DataFrame/SQL showcases (a NULL trap in SQL, an ANSI overflow, two proofs) come from
``cases/df/manifest.json``, the RDD-to-DataFrame migration from ``cases/migration/manifest.json``.
The cases come from ``cases/manifest.json`` (the first case of each kind if a preferred one is missing).
``--all`` then runs every bundled case and prints a summary table. Exit status: 0 when every verdict
is the expected one, 1 when Java/Spark is missing or a verdict is not the expected one.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.columns import Columns
from rich.console import Console
from rich.panel import Panel
from rich.rule import Rule
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

REPO = Path(__file__).resolve().parent.parent.parent
MANIFEST = REPO / "cases" / "manifest.json"
DF_MANIFEST = REPO / "cases" / "df" / "manifest.json"
MIGRATION_MANIFEST = REPO / "cases" / "migration" / "manifest.json"


@dataclass(frozen=True)
class Showcase:
    title: str
    preferred: tuple[str, ...]
    expected: str
    method_hint: str | None  # used to pick a fallback case when none of ``preferred`` exists
    manifest: str = "rdd"  # "rdd" (cases/manifest.json), "df" (cases/df/), "migration" (cases/migration/)


SHOWCASES = (
    Showcase("1. A proof", ("p1_p2_helpers_and_constants", "p1_p2_map_filter_reorder"), "equivalent", None),
    Showcase("2. A counterexample, replayed on Spark", ("p1_p2_boundary_strict", "map_fusion_wrong_constant"),
             "not_equivalent", "NoAgg"),
    Showcase("3. A partition-dependence finding", ("count_via_fold_trap", "fold_one_vs_sum_plus_two"),
             "not_equivalent", "partition-dependence"),
    Showcase("4. Average per key, proved (every key's count is at least 1)",
             ("avg_per_key_aggregatebykey", "avg_per_key_combinebykey"), "equivalent", "AggOneK"),
    Showcase("5. Strict driver code: an action that raises counts, used or not",
             ("strict_projected_action", "strict_unused_action"), "not_equivalent", None),
    Showcase("6. Word count over text lines, two ways, proved",
             ("str_wordcount_reducebykey_vs_combinebykey", "str_wordcount_countbykey_vs_countbyvalue"),
             "equivalent", "AggOneK"),
    Showcase("7. split() vs split(\" \"): a counterexample on strings, replayed on Spark",
             ("str_wordcount_split_vs_split_space",), "not_equivalent", None),
    Showcase("8. SQL: NOT IN is not NOT EXISTS when a NULL can occur, replayed on Spark",
             ("sql_not_in_vs_not_exists",), "not_equivalent", None, "df"),
    Showcase("9. DataFrames: a + 1 - 1 is not a on INT (ANSI overflow), confirmed by Spark",
             ("int_plus_one_minus_one",), "not_equivalent", None, "df"),
    Showcase("10. DataFrames: groupBy-agg split in two and rejoined on a NOT NULL key, proved",
             ("groupby_split_rejoin_not_null_key",), "equivalent", None, "df"),
    Showcase("11. The same query in SQL and in the DataFrame API, proved",
             ("sql_vs_dataframe_revenue",), "equivalent", None, "df"),
    Showcase("12. An RDD job migrated to DataFrames: sum // count is not F.avg (2 against 2.0), on Spark",
             ("average_floor_vs_avg",), "not_equivalent", None, "migration"),
)


def load_cases(which: str = "rdd") -> list[dict[str, Any]]:
    path = {"df": DF_MANIFEST, "migration": MIGRATION_MANIFEST}.get(which, MANIFEST)
    return json.loads(path.read_text())["cases"] if path.exists() else []


def _schema(case: dict[str, Any]) -> list[str] | None:
    """A DataFrame/SQL case's ``--schema`` values, with repository-relative files made absolute."""
    values = case.get("schema")
    if not values:
        return None
    return [str(REPO / v) if v.endswith(".sql") else v for v in values]


def pick(cases: list[dict[str, Any]], showcase: Showcase) -> dict[str, Any] | None:
    by_name = {c["name"]: c for c in cases}
    for name in showcase.preferred:
        if name in by_name:
            return by_name[name]
    for case in cases:
        if case["expected"] == showcase.expected and showcase.method_hint in (None, case.get("method")):
            return case
    return None


def _spec(spec: str) -> str:
    """Manifest specs are relative to the repository; make them work from any directory."""
    path, sep, function = spec.partition("::")
    return str(REPO / path) + sep + function


def _source_panel(spec: str, label: str) -> Panel:
    path, _, function = spec.partition("::")
    text = (REPO / path).read_text()
    lexer = "sql" if path.endswith(".sql") else "python"
    return Panel(Syntax(text.strip(), lexer, theme="ansi_dark", line_numbers=False),
                 title=f"{label}: {path}" + (f"::{function}" if function else ""), title_align="left")


def _spark_table(result: Any) -> Table | None:
    stats = result.stats or {}
    if "spark_left" not in stats:
        return None
    table = Table(title="Replayed on Spark (the users' own functions, same inputs and partitions)",
                  title_justify="left")
    table.add_column("LEFT on Spark")
    table.add_column("RIGHT on Spark")
    table.add_row(json.dumps(stats["spark_left"]), json.dumps(stats["spark_right"]))
    return table


def _split(items: list[Any], k: int) -> list[list[Any]]:
    """``items`` cut into ``k`` consecutive partitions of near-equal size (empty ones when short)."""
    size, extra = divmod(len(items), k)
    out, start = [], 0
    for i in range(k):
        end = start + size + (1 if i < extra else 0)
        out.append(items[start:end])
        start = end
    return out


def _typed(loaded: Any) -> Any:
    """``loaded`` with the type checker's view of its program (inferred parameter types filled in)."""
    from sparklite.typecheck import typecheck
    from verifier.core.base import LoadedProgram

    program = getattr(typecheck(loaded.program), "program", None) or loaded.program
    return LoadedProgram(program, loaded.language, loaded.path, loaded.function, loaded.source,
                         loaded.warnings)


def _partitionings_table(case: dict[str, Any], result: Any, master: str) -> Table | None:
    """The counterexample's input run on Spark under 1, 2 and 3 partitions: the output of a
    partition-dependent program moves with the partitioning, a partition-independent one does not."""
    from sparklite.types import INT, BagType
    from sparklite.values import to_json
    from verifier.core.loading import load
    from verifier.runtime.replay import run_on_spark

    inputs = (result.stats or {}).get("raw_inputs")
    if not inputs:
        return None
    left, right = _typed(load(_spec(case["left"]))), _typed(load(_spec(case["right"])))
    bags = [p.name for p in left.program.params if isinstance(p.type, BagType)]
    table = Table(title="The same input on Spark, partitioned differently", title_justify="left")
    table.add_column("partitions")
    table.add_column("LEFT on Spark")
    table.add_column("RIGHT on Spark")
    samples = [dict(inputs)]
    if all(not inputs[name] for name in bags) and all(
            p.type == BagType(INT) for p in left.program.params if p.name in bags):
        samples.append({**inputs, **{name: [1, 2, 3, 4] for name in bags}})  # a non-empty one too
    for sample, k in [(sample, k) for sample in samples for k in (1, 2, 3)]:
        parts = {name: _split(list(sample[name]), k) for name in bags}
        outs = [to_json(run_on_spark(side, sample, parts, master)) for side in (left, right)]
        style = None if outs[0] == outs[1] else "bold red"
        table.add_row(json.dumps(parts), Text(json.dumps(outs[0]), style=style or ""),
                      Text(json.dumps(outs[1]), style=style or ""))
    return table


def show_case(console: Console, showcase: Showcase, case: dict[str, Any], master: str) -> bool:
    from verifier import check
    from verifier.interfaces.render import render

    console.print(Rule(Text(showcase.title, style="bold")))
    console.print(Text(f"{case['name']}: {case['description']}", style="italic"))
    console.print(Columns([_source_panel(case["left"], "LEFT"), _source_panel(case["right"], "RIGHT")],
                          equal=True, expand=True))
    result = check(_spec(case["left"]), _spec(case["right"]), master=master, replay=True,
                   schema=_schema(case))
    render(result, console=console, left=case["left"], right=case["right"])
    table = _spark_table(result)
    if table is not None:
        console.print(table)
    if showcase.method_hint == "partition-dependence" and result.verdict == "not_equivalent":
        table = _partitionings_table(case, result, master)
        if table is not None:
            console.print(table)
    ok = result.verdict == case["expected"]
    if showcase.expected == "not_equivalent":
        ok = ok and result.counterexample is not None and result.counterexample.replayed_on_spark
    if not ok:
        console.print(Text(f"expected {case['expected']}"
                           + (" with a counterexample replayed on Spark" if showcase.expected ==
                              "not_equivalent" else "")
                           + f", got {result.verdict}", style="bold red"))
    return ok


def run_all(console: Console, cases: list[dict[str, Any]], master: str, replay: bool) -> bool:
    from verifier import check

    table = Table(title="All bundled cases", title_justify="left")
    table.add_column("case", no_wrap=True)
    for column in ("expected", "verdict", "method", "seconds"):
        table.add_column(column)
    good = 0
    wrong: list[str] = []
    for case in cases:
        started = time.perf_counter()
        result = check(_spec(case["left"]), _spec(case["right"]), master=master, replay=replay)
        elapsed = time.perf_counter() - started
        ok = result.verdict == case["expected"]
        good += ok
        if not ok:
            wrong.append(f"{case['name']}: expected {case['expected']}, got {result.verdict}")
        style = "green" if ok else "red"
        table.add_row(case["name"], case["expected"], Text(result.verdict, style=style),
                      result.method or "-", f"{elapsed:.2f}")
    console.print(table)
    console.print(Text(f"{good}/{len(cases)} cases as expected", style="bold"))
    for line in wrong:
        console.print(Text(f"  {line}", style="red"))
    return good == len(cases)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m verifier.interfaces.demo",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--master", default="local[2]", help="Spark master for replay (default local[2])")
    parser.add_argument("--all", action="store_true", help="also run every bundled case")
    parser.add_argument("--no-replay-all", action="store_true",
                        help="with --all: do not replay the other cases' counterexamples (faster)")
    args = parser.parse_args(argv)
    console = Console()

    from verifier.core.services import SparkUnavailable
    from verifier.runtime.spark import exact_rdd, get_context, require_java

    try:
        require_java()
        console.print(Text("Starting Spark (once for the whole demo)...", style="dim"))
        sc = get_context(args.master)
        exact_rdd(sc, [[0]]).count()  # start the Python workers too, so timings below are steady-state
    except SparkUnavailable as exc:
        console.print(Text(f"sparkeq demo: {exc}", style="bold red"))
        console.print("The demo replays counterexamples on a real Spark, which needs Java 17+.")
        return 1
    if not MANIFEST.exists():
        console.print(Text(f"sparkeq demo: no bundled cases at {MANIFEST}", style="bold red"))
        return 1
    cases = load_cases()
    by_manifest = {"rdd": cases, "df": load_cases("df"), "migration": load_cases("migration")}
    ok = True
    for showcase in SHOWCASES:
        case = pick(by_manifest[showcase.manifest], showcase)
        if case is None:
            console.print(Text(f"{showcase.title}: no bundled case of this kind", style="bold red"))
            ok = False
            continue
        try:
            ok = show_case(console, showcase, case, args.master) and ok
        except SparkUnavailable as exc:
            console.print(Text(f"sparkeq demo: {exc}", style="bold red"))
            return 1
    if args.all:
        console.print(Rule(Text("Every bundled case", style="bold")))
        ok = run_all(console, cases, args.master, replay=not args.no_replay_all) and ok
    return 0 if ok else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
