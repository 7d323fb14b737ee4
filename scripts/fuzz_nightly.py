"""The soundness fuzzer at nightly scale: many more pairs than CI, any seed, a report to keep.

    .venv/bin/python scripts/fuzz_nightly.py --seed 7 --pairs 5000 [--workers 4] [--timeout 5]
                                             [--report fuzz-report.json]

``--hours H`` stops the campaign near ``H`` whatever ``--pairs`` says: work is handed to the workers a
few pairs at a time and nothing new starts after the deadline (the pairs already running finish).

Exit status 0 when there was no violation (a wrong ``equivalent`` or a counterexample the interpreter
does not reproduce) and no crash, 1 otherwise. A violation is printed with both programs in SparkLite
syntax and can be replayed from its seed and index (``check_pair(seed, index, ...)`` in
``tests/test_soundness_fuzz.py``), which is why the seed is an argument and the run deterministic.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
for extra in (REPO, REPO / "tests"):  # the fuzzer lives with the tests; the project may not be installed
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from test_soundness_fuzz import run_campaign  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="sparkeq soundness fuzzer (nightly scale)")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--pairs", type=int, default=5000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=5.0, help="seconds per verifier.check")
    ap.add_argument("--trials", type=int, default=200, help="random inputs per 'equivalent' verdict")
    ap.add_argument("--depth", type=int, default=3, help="nesting of bag operators in generated programs")
    ap.add_argument("--hours", type=float, default=None, help="stop after this long, whatever the count")
    ap.add_argument("--report", type=Path, default=None, help="write every pair's record as JSON here")
    ap.add_argument("--flavor", choices=("classic", "rich", "ties", "outer", "empty", "rel", "congruence",
                                         "rel-congruence"),
                    default="classic",
                    help="classic: Int/Bool programs; rich: strings, floats, None, lists, ordered results; "
                         "ties: sorts with ties over unions and shuffles; "
                         "outer: outer joins of inputs holding None (tests/fuzz_outer.py); "
                         "empty: rich programs with countByValue/top, judged on inputs with no partition "
                         "too (an empty text file); rel: DataFrame/SQL programs "
                         "(tests/test_rel_soundness_fuzz.py); congruence, rel-congruence: a program "
                         "against a renaming of itself or a renamed mutation (tests/fuzz_congruence.py)")
    args = ap.parse_args(argv)

    deadline = args.hours * 3600 if args.hours is not None else None
    if args.flavor in ("rel", "rel-congruence"):
        from test_rel_soundness_fuzz import check_pair, summary

        campaign = run_campaign(args.seed, args.pairs, workers=args.workers, timeout_s=args.timeout,
                                trials=args.trials, deadline_s=deadline, max_depth=args.depth,
                                flavor=args.flavor, pair_fn=check_pair)
        print(summary(campaign))
    else:
        campaign = run_campaign(args.seed, args.pairs, workers=args.workers, timeout_s=args.timeout,
                                trials=args.trials, deadline_s=deadline, max_depth=args.depth,
                                flavor=args.flavor)
        print(campaign.summary())
    for rec in campaign.violations:
        print(f"\nVIOLATION seed={args.seed} index={rec.index} steps={','.join(rec.steps)}\n{rec.violation}")
    for rec in campaign.crashes[:20]:
        print(f"\nCRASH seed={args.seed} index={rec.index} steps={','.join(rec.steps)}\n{rec.crash}")
    if args.report is not None:
        args.report.write_text(json.dumps(
            {"seed": args.seed, "seconds": campaign.seconds,
             "records": [dataclasses.asdict(r) for r in campaign.records]}, indent=1))
    return 1 if campaign.violations or campaign.crashes else 0


if __name__ == "__main__":
    sys.exit(main())
