#!/usr/bin/env python3
"""Nightly differential campaign: the relational interpreter against real Spark on random DataFrame programs.

    .venv/bin/python scripts/df_difftest.py --seed 0 --programs 2000 [--threads 4] [--max-rows 4]
        [--show 5] [--types-only]

Runs the same machinery as ``tests/test_relational_vs_spark.py`` (cases ``seed .. seed+programs-1``) and
prints the counts of agreements, caveated agreements (by caveat) and disagreements, the column-type
mismatches between ``build.py``'s prediction and Spark's ``df.dtypes``, and the first disagreements in
full (program, tables, partitions, both outcomes). Exit status 1 when anything disagrees.
``--types-only`` skips the interpreter: it runs every program on Spark and checks only that the
generated code analyses and types as ``build.py`` predicts (useful while the interpreter changes).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

for extra in (Path(__file__).resolve().parent.parent, Path(__file__).resolve().parent.parent / "tests"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from test_relational_vs_spark import (  # noqa: E402
    AGREE,
    CAVEATED,
    DISAGREE,
    SKIPPED,
    make_case,
    quiet_pyspark,
    relation_of,
    run_campaign,
    run_on_spark,
)

from sparklite.relational.printer import show  # noqa: E402


def types_only(spark: object, seeds: range, show_n: int, foldable: bool) -> int:
    quiet_pyspark()
    bad = 0
    start = time.monotonic()
    for seed in seeds:
        case = make_case(seed, foldable=foldable)
        got = run_on_spark(spark, case)
        rel = relation_of(case.program).body
        want = [(f.name, f.type.simple) for f in rel.schema.fields]  # type: ignore[union-attr]
        if got.dtypes and got.dtypes != want:
            bad += 1
            if bad <= show_n:
                print(f"seed {seed}: Spark {got.dtypes}\n  build {want}\n{show(case.program)}\n")
    print(f"{len(seeds)} programs, {bad} column-type mismatches ({time.monotonic() - start:.0f} s)")
    return 1 if bad else 0


def calling_seeds(seeds: Sequence[int], names: str, foldable: bool) -> list[int]:
    """The seeds whose program calls one of ``names`` (a focused campaign on new functions)."""
    from test_relational_vs_spark import _nodes

    from sparklite.relational import ast as R
    from sparklite.relational import mathfuncs, nested, strings
    from sparklite.relational.types import ArrayType

    wanted = set(strings.NAMES | mathfuncs.NAMES) if names == "extended" else \
        set(nested.NAMES) if names == "nested" else set(names.split(","))

    def calls(program: R.RelProgram) -> bool:  # "window": window functions; "nested": array columns
        return any(isinstance(n, R.Func) and n.name in wanted
                   or isinstance(n, R.Window) and "window" in wanted
                   or names == "nested" and isinstance(n, R.Generate | R.Table)
                   and any(isinstance(f.type, ArrayType) for f in n.schema.fields)
                   for n in _nodes(program))

    return [s for s in seeds if calls(make_case(s, foldable=foldable).program)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=0, help="first case seed")
    ap.add_argument("--programs", type=int, default=1000, help="number of cases")
    ap.add_argument("--threads", type=int, default=4, help="cases run concurrently on the one session")
    ap.add_argument("--show", type=int, default=5, help="disagreements printed in full")
    ap.add_argument("--types-only", action="store_true", help="check only Spark's column types")
    ap.add_argument("--foldable", action="store_true",
                    help="also draw expressions Spark's optimiser folds (constants, absorbing literals)")
    ap.add_argument("--only-calls", default="",
                    help="keep only the cases whose program calls one of these functions (comma-separated; "
                         "'extended': those of sparklite.relational.strings and mathfuncs; 'window': "
                         "the programs with window functions; 'nested': arrays, explode, array columns)")
    args = ap.parse_args(argv)

    from verifier.runtime.spark import get_session

    spark = get_session()
    seeds: Sequence[int] = range(args.seed, args.seed + args.programs)
    if args.only_calls:
        seeds = calling_seeds(seeds, args.only_calls, args.foldable)
    if args.types_only:
        return types_only(spark, seeds, args.show, args.foldable)
    report = run_campaign(spark, seeds, threads=args.threads,
                          make=lambda seed: make_case(seed, foldable=args.foldable))
    print(report.summary())
    print(f"  agree: {report.counts[AGREE]}  caveated: {report.counts[CAVEATED]}  "
          f"error skipped by Spark: {report.counts[SKIPPED]}  disagree: {report.counts[DISAGREE]}")
    if report.known:
        print("  known bugs: " + ", ".join(f"{k}: {v}" for k, v in report.known.most_common()))
    if report.caveats:
        print("  caveated agreements by caveat: "
              + ", ".join(f"{k}: {v}" for k, v in report.caveats.most_common()))
    print("  Spark outcomes: " + ", ".join(f"{k}: {v}" for k, v in report.outcomes.most_common()))
    for text in report.type_mismatches[:args.show]:
        print("\nCOLUMN TYPES " + text)
    for text in sorted(report.disagreements, key=lambda t: int(t.split()[1].rstrip(":")))[:args.show]:
        print("\nDISAGREEMENT " + text)
    for text in sorted(report.skipped, key=lambda t: int(t.split()[1].rstrip(":")))[:args.show]:
        print("\nERROR SKIPPED BY SPARK " + text)
    return 1 if report.disagreements or report.type_mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
