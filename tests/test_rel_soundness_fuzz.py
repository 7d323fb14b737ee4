"""The soundness fuzzer for DataFrame/SQL programs: sparkeq must never give a wrong definite verdict.

Each pair is a random relational kernel program (``sparklite.relational.generate.random_program`` over
two tables with NULLs, NOT NULL columns, some primary keys and boundary literals; two pairs in five hold
a join of a kind chosen round-robin, so every join kind is covered) and a variant of it made by
``relfuzzutil.make_variant``: rewrites meant to preserve meaning, plus, for about half the pairs, one
mutation meant to change it. The kernel programs go to ``verifier.check`` as they are (the library
takes a ``RelProgram`` as a side, ``verifier.core.loading.load``), with ``replay=False``; the reference
interpreter (``sparklite.relational.interpreter``) judges the answer, never the labels:

- ``equivalent``: both programs run on many random tables (NULLs, INT/BIGINT bounds, NaN, -0.0, the
  programs' literals and their neighbours, tiny domains so joins and groups collide, rows that respect
  declared keys) under random partitionings. A difference where neither run has a caveat and neither
  outcome is an error is a violation. A difference that involves runtime errors is a violation unless
  Spark may show the same outcome on both sides (one side's error is among the other's latent or
  alternative errors, ``RelRun.caveats``) or the result lists an assumption about errors (the prover
  "lists in assumptions what it did not compare", issue 11); a difference resting on nondeterminism
  (``limit`` without an order, ``dropDuplicates``, partition-dependent sums) is recorded, not a
  violation.
- ``not_equivalent``: the counterexample's tables and partitions (read back from the Result's JSON
  rows) are re-run; the programs must differ there, and, since nothing was replayed on Spark, the
  difference must be definite (no caveat, no error: a difference resting on one must wait for Spark as
  ``unknown``), on tables that respect the declared keys. Outputs reported unlike the interpreter's are
  a crash (a real difference, misreported).
- ``unknown`` is always allowed (a pending difference it reports is re-run too: one that does not
  reproduce is a crash); ``error`` on generated well-typed programs is a crash.

Deterministic for a seed; ``scripts/fuzz_rel_nightly.py`` runs 2,000 pairs (or more) with a seed
argument. A violation names its seed and index: ``check_pair(seed, index, ...)`` replays it.
"""

from __future__ import annotations

import os
import random
import traceback
import warnings
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest
from relfuzzutil import (
    JOIN_KINDS,
    base_program,
    layout_from_json,
    make_variant,
    nodes,
    oracle_inputs,
    program_constants,
    refresh,
    repair_keys,
    tables_from_json,
    window_base_program,
)
from test_soundness_fuzz import Campaign, PairRecord, ask_verifier, run_campaign

from sparklite.relational import ast as R

SEED = 20170724
PAIRS = int(os.environ.get("SPARKEQ_REL_FUZZ_PAIRS", "500"))
WORKERS = 2
CHECK_TIMEOUT_S = 0.5  # the search's budget per pair (unknown pairs cost all of it)
MAX_DEPTH = 3
EQUIV_TRIALS = 60  # random inputs per "equivalent" verdict (three times more for an intended mutation)
BUDGET_S = 240.0

NONDETERMINISTIC = ("nondeterministic", "partition-dependent", "jvm-dependent")
ERROR_CAVEATS = ("latent error: ", "other error: Spark may raise ")
ERROR_WORDS = ("error", "raise", "overflow", "exception", "divide", "cast")


@dataclass
class RelPairRecord(PairRecord):
    join_kinds: tuple[str, ...] = ()
    excused: str | None = None  # a difference under an equivalent verdict that Spark may not show


# ---------------------------------------------------------------------------------------------------
# The oracle: outcomes as the user sees them, and what a difference rests on
# ---------------------------------------------------------------------------------------------------


def _seen(outcome: Any, python_rows: bool, bag: bool) -> Any:
    """An outcome as the user observes it: rows handed to Python (``collect``/``take``/``first``) carry
    no Spark types; ``bag``: compare an ordered result as the bag of its rows (the other side is
    unordered, and Spark may show it in the same order)."""
    from sparklite.relational.values import RelResult, RelRow
    from sparklite.values import Bag, Sorted

    if isinstance(outcome, RelRow):
        return RelRow(tuple(outcome), [(n, "") for n, _ in outcome.columns])
    if not isinstance(outcome, RelResult):
        return outcome
    rows = outcome.rows
    if bag and isinstance(rows, Sorted) and rows.taken is None:
        rows = Bag.of(r for group in rows.groups for r in group.items)
    return RelResult(tuple((n, "" if python_rows else t) for n, t in outcome.columns), rows)


def outcomes_differ(a: Any, b: Any, left: R.RelProgram, right: R.RelProgram) -> bool:
    from sparklite.relational.values import RelResult, rel_outcomes_equal
    from sparklite.values import Sorted

    python_rows = any(isinstance(p.body, R.Action) and p.body.kind in ("collect", "take")
                      for p in (left, right))
    ordered = [isinstance(o, RelResult) and isinstance(o.rows, Sorted) for o in (a, b)]
    bag = ordered[0] != ordered[1]
    return not rel_outcomes_equal(_seen(a, python_rows, bag), _seen(b, python_rows, bag))


def _possible_errors(run: Any) -> set[str]:
    """The errors Spark may show for this run: its outcome if an error, and the latent or alternative
    errors its caveats name."""
    from sparklite.relational.values import RelError

    out = {str(run.outcome)} if isinstance(run.outcome, RelError) else set()
    for caveat in run.caveats:
        for prefix in ERROR_CAVEATS:
            if caveat.startswith(prefix):
                out.add(caveat[len(prefix):].removesuffix(" instead"))
    return out


def classify(a: Any, b: Any) -> str:
    """What a difference between two runs rests on: ``definite`` (nothing: Spark must show it),
    ``nondeterministic`` (a caveat Spark may resolve otherwise), ``shared-error`` (both sides may raise
    the same error on Spark) or ``error`` (runtime errors that cannot make the sides agree)."""
    from sparklite.relational.values import RelError

    caveats = a.caveats | b.caveats
    if any(c.startswith(NONDETERMINISTIC) for c in caveats):
        return "nondeterministic"
    if not caveats and not isinstance(a.outcome, RelError) and not isinstance(b.outcome, RelError):
        return "definite"
    ea, eb = _possible_errors(a), _possible_errors(b)
    if ea & eb:
        return "shared-error"
    return "error"


@dataclass(frozen=True)
class Difference:
    tables: dict[str, list[tuple]]
    layout: dict[str, tuple] | None
    left: Any
    right: Any
    kind: str  # classify()

    def text(self) -> str:
        from sparklite.relational.values import rel_to_json

        return (f"[{self.kind}] on {self.tables} (partitions {self.layout}): "
                f"{rel_to_json(self.left.outcome)} (caveats {sorted(self.left.caveats)}) vs "
                f"{rel_to_json(self.right.outcome)} (caveats {sorted(self.right.caveats)})")


RANK = {"definite": 0, "error": 1, "shared-error": 2, "nondeterministic": 3}


def find_difference(left: R.RelProgram, right: R.RelProgram, rng: random.Random, trials: int
                    ) -> Difference | None:
    """The worst difference (definite first) the interpreter shows on ``trials`` random inputs."""
    from sparklite.relational.interpreter import run

    constants = program_constants(left, right)
    worst: Difference | None = None
    for _ in range(trials):
        tables, layout = oracle_inputs(rng, left.params, constants)
        a, b = run(left, tables, layout), run(right, tables, layout)
        if not outcomes_differ(a.outcome, b.outcome, left, right):
            continue
        diff = Difference(tables, layout, a, b, classify(a, b))
        if worst is None or RANK[diff.kind] < RANK[worst.kind]:
            worst = diff
        if worst.kind == "definite":
            break
    return worst


# ---------------------------------------------------------------------------------------------------
# One pair
# ---------------------------------------------------------------------------------------------------


def generate_pair(seed: int, index: int, max_depth: int = MAX_DEPTH
                  ) -> tuple[R.RelProgram, R.RelProgram, tuple[str, ...], str] | None:
    rng = random.Random(f"rel:{seed}:{index}")
    program = refresh(base_program(rng, index, max_depth))
    for _ in range(6):
        variant = make_variant(program, rng, mutate=rng.random() < 0.5, steps=rng.choice((1, 2, 3)))
        if variant is not None:
            return program, variant.program, variant.steps, variant.intended
    return None


def generate_window_pair(seed: int, index: int, max_depth: int = MAX_DEPTH
                         ) -> tuple[R.RelProgram, R.RelProgram, tuple[str, ...], str] | None:
    """A pair whose base program holds a window operator (``relfuzzutil.window_base_program``), often
    under a filter, so that pushdowns past it (on partition keys: preserving; on other columns: a
    mutation the prover must never prove) are drawn."""
    rng = random.Random(f"rel-window:{seed}:{index}")
    program = refresh(window_base_program(rng, index, max_depth))
    for _ in range(6):
        variant = make_variant(program, rng, mutate=rng.random() < 0.5, steps=rng.choice((1, 2)))
        if variant is not None:
            return program, variant.program, variant.steps, variant.intended
    return None


def join_kinds(*programs: R.RelProgram) -> tuple[str, ...]:
    return tuple(sorted({n.kind for p in programs for n in nodes(p.body) if isinstance(n, R.Join)}))


def check_pair(seed: int, index: int, timeout_s: float, trials: int, max_depth: int = MAX_DEPTH,
               flavor: str = "rel") -> RelPairRecord:
    """Generate pair ``index`` of ``seed``, ask the verifier, and let the interpreter judge the answer.
    Never raises: whatever goes wrong is part of the record."""
    rec = RelPairRecord(index)
    if flavor == "rel-congruence":  # renamings and renamed variants (issue 22): tests/fuzz_congruence.py
        from fuzz_congruence import generate_rel_congruence_pair as make
    elif flavor == "rel-window":  # every base program holds a window operator (issues 21/22)
        make = generate_window_pair
    else:
        make = generate_pair
    asked = ask_verifier(rec, lambda: make(seed, index, max_depth), timeout_s)
    if asked is None:
        return rec
    left, right, result = asked
    rec.join_kinds = join_kinds(left, right)
    rng = random.Random(f"rel:{seed}:{index}:oracle")
    try:
        judge(rec, left, right, result, rng, trials)
    except Exception:
        rec.crash = "oracle raised: " + traceback.format_exc(limit=5)
    if rec.violation or rec.crash:
        from sparklite.relational.printer import show

        keys = "; ".join(f"{tp.name}: {c.kind} key ({', '.join(c.columns)})" for tp in left.params
                         for c in tp.schema.constraints)
        programs = f"\n--- declared keys: {keys or 'none'}\n--- left\n{show(left)}\n--- right\n{show(right)}"
        if rec.violation:
            rec.violation += programs
        else:
            rec.crash = f"{rec.crash}{programs}"
    return rec


def judge(rec: RelPairRecord, left: R.RelProgram, right: R.RelProgram, result: Any, rng: random.Random,
          trials: int) -> None:
    from sparklite.relational.interpreter import run
    from sparklite.relational.values import rel_to_json

    if result.verdict == "error":
        rec.crash = f"error verdict on generated programs: {result.reason}"
    elif result.verdict == "equivalent":
        diff = find_difference(left, right, rng, trials * (3 if rec.intended == "not_equivalent" else 1))
        if diff is None:
            return
        waived = [a for a in result.assumptions if any(w in a.lower() for w in ERROR_WORDS)]
        if diff.kind == "definite" or (diff.kind == "error" and not waived):
            rec.violation = f"proved equivalent by {result.method}, but {diff.text()}"
        else:
            rec.excused = f"{diff.kind} difference under 'equivalent' (assumptions {waived}): {diff.text()}"
    elif result.verdict == "not_equivalent":
        cex = result.counterexample
        if cex is None:
            rec.violation = f"not_equivalent by {result.method} without a counterexample"
            return
        tables = tables_from_json(left.params, dict(cex.inputs))
        layout = layout_from_json(left.params, cex.partitions)
        a, b = run(left, tables, layout), run(right, tables, layout)
        where = f"on {tables} (partitions {layout})"
        if repair_keys(left.params, tables) != tables:
            rec.violation = f"counterexample by {result.method} breaks a declared key: {where}"
        elif not outcomes_differ(a.outcome, b.outcome, left, right):
            rec.violation = (f"counterexample by {result.method} does not reproduce: {where} both give "
                             f"{rel_to_json(a.outcome)}")
        elif classify(a, b) != "definite":
            rec.violation = (f"not_equivalent without replay, but the difference rests on "
                             f"{sorted(a.caveats | b.caveats) or 'a runtime error'} ({classify(a, b)}): "
                             f"{Difference(tables, layout, a, b, classify(a, b)).text()}")
        elif (rel_to_json(a.outcome), rel_to_json(b.outcome)) != (cex.left, cex.right):
            rec.crash = (f"counterexample by {result.method} reports {cex.left!r} / {cex.right!r}, the "
                         f"interpreter gives {rel_to_json(a.outcome)!r} / {rel_to_json(b.outcome)!r} {where}")
    elif result.stats.get("pending") is not None:
        pending = result.stats["pending"]
        a, b = run(left, pending.tables, pending.layout), run(right, pending.tables, pending.layout)
        if not outcomes_differ(a.outcome, b.outcome, left, right):
            rec.crash = f"the pending difference does not reproduce on {pending.tables} ({pending.layout})"
        rec.note = "pending"


# ---------------------------------------------------------------------------------------------------
# A campaign
# ---------------------------------------------------------------------------------------------------


def run_rel_campaign(seed: int, pairs: int, workers: int = WORKERS, timeout_s: float = CHECK_TIMEOUT_S,
                     trials: int = EQUIV_TRIALS, deadline_s: float | None = None,
                     max_depth: int = MAX_DEPTH, flavor: str = "rel") -> Campaign:
    return run_campaign(seed, pairs, workers=workers, timeout_s=timeout_s, trials=trials,
                        deadline_s=deadline_s, max_depth=max_depth, flavor=flavor, pair_fn=check_pair)


def summary(campaign: Campaign) -> str:
    """The campaign's summary, plus what is particular to DataFrame/SQL pairs: pending differences,
    differences excused under an equivalent verdict, join kinds and rules exercised."""
    records = [r for r in campaign.checked if isinstance(r, RelPairRecord)]
    kinds = Counter(k for r in records for k in r.join_kinds)
    rules = Counter(s for r in records for s in r.steps)
    pending = sum(r.note == "pending" for r in records)
    excused = [r for r in records if r.excused]
    lines = [campaign.summary(),
             f"unknown with a pending difference (waits for Spark): {pending}; differences excused under "
             f"'equivalent': {len(excused)}",
             "pairs by join kind: " + ", ".join(f"{k}={kinds[k]}" for k in JOIN_KINDS),
             "rules applied: " + ", ".join(f"{k}={v}" for k, v in sorted(rules.items()))]
    lines += [f"  excused pair {r.index}: {r.excused[:300]}" for r in excused[:5] if r.excused]
    return "\n".join(lines)


def assert_sound(campaign: Campaign, pairs: int) -> None:
    text = summary(campaign)
    assert not campaign.violations, "SOUNDNESS violations:\n" + "\n\n".join(
        f"pair {r.index} ({', '.join(r.steps)}): {r.violation}" for r in campaign.violations)
    assert len(campaign.checked) + len(campaign.crashes) >= pairs, text
    assert not campaign.crashes, "crashes:\n" + "\n\n".join(
        f"pair {r.index} ({', '.join(r.steps)}): {r.crash}" for r in campaign.crashes[:5])


WINDOW_PAIRS = int(os.environ.get("SPARKEQ_REL_WINDOW_FUZZ_PAIRS", "60"))


def test_rel_soundness_fuzz_on_window_programs() -> None:
    """Pairs around a window operator: 0 violations (a tie order never makes a counterexample, a
    pushdown past a non-partition key is never proved)."""
    campaign = run_rel_campaign(SEED, WINDOW_PAIRS, flavor="rel-window",
                                workers=int(os.environ.get("SPARKEQ_FUZZ_WORKERS", WORKERS)))
    print(summary(campaign))
    assert_sound(campaign, WINDOW_PAIRS)


def test_rel_soundness_fuzz() -> None:
    campaign = run_rel_campaign(SEED, PAIRS, workers=int(os.environ.get("SPARKEQ_FUZZ_WORKERS", WORKERS)))
    print(summary(campaign))
    assert_sound(campaign, PAIRS)
    verdicts = Counter(r.verdict for r in campaign.checked)
    assert verdicts["not_equivalent"] > 0 and verdicts["unknown"] > 0, summary(campaign)
    intents = Counter(r.intended for r in campaign.checked)
    assert intents["equivalent"] > PAIRS // 5 and intents["not_equivalent"] > PAIRS // 5, summary(campaign)
    covered = {k for r in campaign.checked if isinstance(r, RelPairRecord) for k in r.join_kinds}
    assert covered == set(JOIN_KINDS), summary(campaign)
    if campaign.seconds > BUDGET_S:  # a loaded machine is not a failure; a slow verifier shows up here
        warnings.warn(f"DataFrame/SQL soundness fuzzer took {campaign.seconds:.0f}s (budget {BUDGET_S:.0f}s "
                      f"on 2 idle cores): {campaign.summary()}", stacklevel=1)


# ---------------------------------------------------------------------------------------------------
# The fuzzer's own parts
# ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("index", range(3))
def test_pairs_are_reproducible(index: int) -> None:
    """The same seed and index always give the same pair (so a report can be replayed)."""
    first, second = generate_pair(SEED, index), generate_pair(SEED, index)
    assert first is not None and first == second


def test_refresh_changes_nothing_on_generated_programs() -> None:
    """``refresh`` recomputes nullability and schemas as ``build`` does: on the generator's programs
    (built by ``build``) it is the identity, so on a rewritten one it only fixes what the rewrite made
    stale."""
    from sparklite.relational.generate import random_program, random_schemas

    for i in range(150):
        rng = random.Random(f"refresh:{i}")
        program = random_program(rng, random_schemas(rng, ("T", "U"), 3), rng.randint(1, 3),
                                 foldable=i % 2 == 0)
        assert refresh(program) == program, i


def test_refresh_fixes_nullability_after_a_rewrite() -> None:
    """A filter pushed below the preserved side of a left join: the join's right columns are still
    nullable, and a column read above the join keeps the flag the new join gives it."""
    from relfuzzutil import PRESERVING

    from sparklite.relational import build as B
    from sparklite.relational.types import INT, Field, Schema

    t = B.table("T", Schema((Field("a", INT, False),)))
    u = B.table("U", Schema((Field("b", INT, False),)))
    join = B.join("left", t, u, B.compare("=", B.columns_of(t)[0], R.Col(1, "b", INT, False)))
    joined = B.filter_(join, B.compare(">", B.columns_of(join)[0], B.lit(0)))
    top = B.project(joined, [B.columns_of(joined)[1]], ["b"])
    program = R.RelProgram("p", (R.TableParam("T", t.schema), R.TableParam("U", u.schema)), top)
    rewritten = PRESERVING["filter_pushdown"](joined, random.Random(0))
    assert isinstance(rewritten, R.Join) and isinstance(rewritten.left, R.Filter)
    stale = R.RelProgram("p", program.params, R.Project(rewritten, (R.Col(1, "b", INT, False),),
                                                          Schema((Field("b", INT, False),))))
    fixed = refresh(stale)
    assert isinstance(fixed.body, R.Project)
    assert fixed.body.exprs[0].nullable and fixed.body.schema.fields[0].nullable


def _labelled_pairs(mutate: bool, count: int) -> list[tuple[R.RelProgram, R.RelProgram, tuple[str, ...]]]:
    out = []
    for i in range(4 * count):
        rng = random.Random(f"labels:{mutate}:{i}")
        program = refresh(base_program(rng, i, MAX_DEPTH))
        variant = make_variant(program, rng, mutate=mutate, steps=2)
        if variant is not None:
            out.append((program, variant.program, variant.steps))
        if len(out) == count:
            break
    return out


def test_preserving_rewrites_preserve_meaning_where_no_error_or_caveat_intervenes() -> None:
    """The rewriter's "preserving" label is right on the interpreter up to runtime errors and caveats
    (never trusted by the fuzzer, but a rewriter that silently mutates would starve it of equivalent
    pairs). ``filter_as_except`` is the one rewrite allowed a definite difference: EXCEPT ALL compares
    rows as Spark groups them, so ``-0.0`` and ``0.0`` (and NaNs) meet there and not in a filter."""
    mislabelled = []
    pairs = _labelled_pairs(False, 150)
    assert len(pairs) >= 120
    for i, (program, variant, steps) in enumerate(pairs):
        diff = find_difference(program, variant, random.Random(i), 25)
        if diff is not None and diff.kind == "definite" and "filter_as_except" not in steps:
            mislabelled.append(f"{steps}: {diff.text()}")
    assert not mislabelled, "\n".join(mislabelled)


def test_mutations_often_change_meaning() -> None:
    """The oracle's random inputs tell many mutated pairs apart (a weak input generator would let wrong
    proofs through unseen). Many mutations of random programs change nothing, rightly: a join kind
    changed on a self-join matching every row, UNION against UNION ALL over a primary key, a constant
    in a predicate that is always true... about half do (58 of 120 at the time of writing)."""
    pairs = _labelled_pairs(True, 120)
    caught = sum(find_difference(p, q, random.Random(i), 60) is not None for i, (p, q, _) in enumerate(pairs))
    assert caught >= 0.4 * len(pairs), (caught, len(pairs))


def _mutated_pair_with_definite_difference() -> tuple[R.RelProgram, R.RelProgram]:
    """A fuzzer pair the oracle shows different (definitely) and equal on empty tables."""
    from sparklite.relational.interpreter import run

    for i in range(200):
        pair = generate_pair(SEED, i)
        if pair is None or pair[3] != "not_equivalent":
            continue
        left, right = pair[0], pair[1]
        empty = {tp.name: [] for tp in left.params}
        if outcomes_differ(run(left, empty).outcome, run(right, empty).outcome, left, right):
            continue
        diff = find_difference(left, right, random.Random(i), 60)
        if diff is not None and diff.kind == "definite":
            return left, right
    raise AssertionError("no suitable mutated pair among 200")


def test_the_oracle_rejects_a_wrong_proof_and_a_made_up_counterexample() -> None:
    """Fed a verifier's answer that proves a mutated pair, or refutes it on tables where the programs
    agree, the judge reports a violation (the fuzzer can fail)."""
    from verifier.core.relational_search import inputs_json
    from verifier.core.result import Counterexample, Result

    left, right = _mutated_pair_with_definite_difference()
    rec = RelPairRecord(0, intended="not_equivalent")
    judge(rec, left, right, Result("equivalent", method="fake"), random.Random(1), EQUIV_TRIALS)
    assert rec.violation and "proved equivalent by fake" in rec.violation

    cex = Counterexample(inputs_json(left.params, {tp.name: [] for tp in left.params}), None, None, None)
    rec = RelPairRecord(0)
    judge(rec, left, right, Result("not_equivalent", method="fake", counterexample=cex), random.Random(1), 1)
    assert rec.violation and "does not reproduce" in rec.violation


def test_counterexample_tables_round_trip_through_json() -> None:
    """``tables_from_json`` reads back what the verifier writes (NaN, infinities, -0.0, decimals, dates,
    NULLs), so a re-run uses the very tables of the counterexample."""
    from verifier.core.relational_search import inputs_json, layout_json

    for i in range(60):
        rng = random.Random(f"json:{i}")
        program = base_program(rng, i, 2)
        tables, layout = oracle_inputs(rng, program.params, program_constants(program))
        back = tables_from_json(program.params, inputs_json(program.params, tables))
        assert repr(back) == repr(tables), i
        if layout is not None:
            assert repr(layout_from_json(program.params, layout_json(program.params, layout))) == repr(layout)
