"""The soundness fuzzer: sparkeq must never give a wrong definite verdict.

Each pair is a random SparkLite program (``sparklite.generate.random_program``) and a variant of it made
by ``fuzzutil.make_variant``: a few rewrites meant to preserve meaning, plus, for about half the pairs,
one mutation meant to change it. ``verifier.check(p, q, replay=False)`` then answers, and the reference
interpreter judges the answer:

- ``equivalent``: both programs run on random inputs under random partitionings; any difference is a
  violation (a proof of something false);
- ``not_equivalent``: the counterexample (inputs and partitions from the Result) is re-run on both
  programs; if they agree there, it is a violation (a made-up counterexample);
- ``unknown`` is always allowed; ``error`` on well-typed generated programs is a bug, reported apart.

The labels of the rewrites are never trusted: the interpreter is the only oracle. The run is
deterministic for a seed; ``scripts/fuzz_nightly.py`` runs many more pairs with a seed argument.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import time
import traceback
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

import pytest
from fuzzutil import RICH_MUTATING, apply_rule, counterexample_args, make_variant

from sparklite import ast as A
from sparklite.types import BagType, BoolType, IntType, OptionType, TupleType, Type

SEED = 20170724  # CAV 2017
PAIRS = 500
WORKERS = 2
CHECK_TIMEOUT_S = 1.0
SHAPE_WEIGHTS = (0.35, 0.4, 0.25)  # at most 0 aggregations, at most 1, anything
MAX_DEPTH = 2  # nesting of bag operators in generated programs (sizes are tuned, never the count)
EQUIV_TRIALS = 40  # random inputs per "equivalent" verdict, each under a few partitionings
BUDGET_S = 240.0


# ---------------------------------------------------------------------------------------------------
# Inputs for checking "equivalent" verdicts (independent of the verifier and of the generator's inputs)
# ---------------------------------------------------------------------------------------------------


def program_constants(*programs: A.Program) -> list[int]:
    """Integer literals of the programs and their neighbours: boundaries are where bugs live."""
    found: set[int] = set()
    for p in programs:
        for node in A.walk(p):
            if isinstance(node, A.IntLit):
                found.update({node.value - 1, node.value, node.value + 1, -node.value})
    return sorted(found)


def random_value(t: Type, rng: random.Random, constants: Sequence[int], key: bool = False) -> Any:
    if isinstance(t, BoolType):
        return rng.random() < 0.5
    if isinstance(t, IntType):
        r = rng.random()
        if key and r < 0.6:
            return rng.randint(0, 2)
        if constants and r < 0.35:
            return rng.choice(constants)
        return rng.randint(-4, 6)
    if isinstance(t, TupleType):
        return tuple(random_value(e, rng, constants, key=(i == 0 and len(t.elems) == 2))
                     for i, e in enumerate(t.elems))
    raise TypeError(f"not a basic type: {t}")


def random_partitioning(items: list[Any], rng: random.Random, max_parts: int = 3
                        ) -> tuple[tuple[Any, ...], ...]:
    """Random partitions; an empty bag has none at all a third of the time (an empty text file, on
    which ``countByValue``/``top`` raise: ``docs/semantics-notes.md``)."""
    if not items and rng.random() < 1 / 3:
        return ()
    n = rng.randint(1, max_parts)
    parts: list[list[Any]] = [[] for _ in range(n)]
    for x in items:
        parts[rng.randrange(n)].append(x)
    return tuple(tuple(p) for p in parts)


def random_run_args(program: A.Program, rng: random.Random, constants: Sequence[int]
                    ) -> tuple[dict[str, Any], dict[str, Any]]:
    inputs: dict[str, Any] = {}
    partitions: dict[str, Any] = {}
    for p in program.params:
        assert p.type is not None
        if isinstance(p.type, BagType):
            items = [random_value(p.type.elem, rng, constants) for _ in range(rng.choice((0, 1, 2, 3, 4, 5)))]
            if items and rng.random() < 0.3:
                items.append(rng.choice(items))
            partitions[p.name] = random_partitioning(items, rng)
            inputs[p.name] = [x for part in partitions[p.name] for x in part]
        else:
            inputs[p.name] = random_value(p.type, rng, constants)
    return inputs, partitions


def rich_run_args(left: A.Program, right: A.Program, rng: random.Random
                  ) -> tuple[dict[str, Any], dict[str, Any]]:
    """Inputs of any SparkLite type (strings, floats...) from random testing's generator, which knows the
    programs' own literals; an independent seed per call."""
    from verifier.core.difftest import InputGenerator

    gen = InputGenerator((left, right), seed=rng.randrange(1 << 30), max_len=5, max_parts=3)
    cand = gen.candidate(rng.randint(1, 15))
    partitions = {k: tuple(tuple(p) for p in v) for k, v in (cand.partitions or {}).items()}
    return dict(cand.inputs), partitions


def find_difference(left: A.Program, right: A.Program, rng: random.Random, trials: int, rich: bool = False
                    ) -> tuple[dict[str, Any], dict[str, Any], Any, Any] | None:
    """A random input and partitioning on which the interpreter tells the programs apart, if it finds one."""
    from sparklite.interpreter import run
    from sparklite.values import outcomes_equal

    constants = program_constants(left, right)
    for _ in range(trials):
        if rich:
            inputs, partitions = rich_run_args(left, right, rng)
        else:
            inputs, partitions = random_run_args(left, rng, constants)
        for attempt in range(3):
            if attempt:  # the same elements, partitioned differently
                partitions = {k: random_partitioning(list(v), rng) for k, v in inputs.items()
                              if k in partitions}
            a, b = run(left, inputs, partitions), run(right, inputs, partitions)
            if not outcomes_equal(a, b):
                return inputs, partitions, a, b
    return None


# ---------------------------------------------------------------------------------------------------
# One pair
# ---------------------------------------------------------------------------------------------------


@dataclass
class PairRecord:
    index: int
    steps: tuple[str, ...] = ()
    intended: str = ""
    verdict: str = ""
    method: str | None = None
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # the whole pair (generation, check, oracle): what a dedicated core would take
    violation: str | None = None  # a wrong definite verdict, with the evidence
    crash: str | None = None  # an exception or an "error" verdict: a bug, but not a soundness one
    note: str = ""


def aggregation_count(program: A.Program) -> int:
    """Aggregations (to a value or by key) anywhere in the program, lets included."""
    return sum(isinstance(n, A.AGGREGATIONS + A.BY_KEY_OPS) for n in A.walk(program))


def generate_pair(seed: int, index: int, max_depth: int = MAX_DEPTH, flavor: str = "classic"
                  ) -> tuple[A.Program, A.Program, tuple[str, ...], str] | None:
    """A random program and a well-typed variant of it (None when the draw gave nothing usable)."""
    from sparklite.generate import GenConfig, random_program
    from sparklite.typecheck import typecheck
    from sparklite.variants import random_variant

    if flavor == "rich":
        return _generate_rich_pair(seed, index)
    if flavor == "ties":
        return _generate_ties_pair(seed, index)
    if flavor == "outer":  # None values on either side of outer joins (issue 26): tests/fuzz_outer.py
        from fuzz_outer import generate_outer_pair

        return generate_outer_pair(seed, index)
    if flavor == "empty":
        return _generate_empty_pair(seed, index)
    if flavor == "congruence":  # renamings and renamed mutations (issue 22): tests/fuzz_congruence.py
        from fuzz_congruence import generate_congruence_pair

        return generate_congruence_pair(seed, index)
    rng = random.Random(f"{seed}:{index}")
    config = GenConfig(max_depth=max_depth, max_defs=1, max_lets=1, p_tuple_body=0.1)
    # The generator's unconstrained draws are mostly programs with several arbitrary (partition-dependent)
    # aggregations, where every method rightly gives up after the timeout: few definite verdicts to check,
    # and the budget spent on timeouts. So most pairs ask for at most one aggregation.
    max_aggs = rng.choices((0, 1, None), weights=SHAPE_WEIGHTS)[0]
    program = random_program(rng, config=config)
    for _ in range(50):
        if max_aggs is None or aggregation_count(program) <= max_aggs:
            break
        program = random_program(rng, config=config)
    for _ in range(6):
        if rng.random() < 0.2:  # the generator's own small changes: a second, independent mutator
            candidate = random_variant(rng, program, changes=1)
            steps, intended = ("generate.random_variant",), "?"
        else:
            variant = make_variant(program, rng, mutate=rng.random() < 0.5, steps=rng.choice((1, 2, 3)))
            if variant is None:
                continue
            candidate, steps, intended = variant.program, variant.steps, variant.intended
        try:
            before, after = typecheck(program), typecheck(candidate)
        except Exception:  # an ill-typed mutation (dropped a type-changing map, ...): draw again
            continue
        if before.result != after.result or candidate == program:
            continue
        return before.program, after.program, steps, intended
    return None


def _generate_rich_pair(seed: int, index: int) -> tuple[A.Program, A.Program, tuple[str, ...], str] | None:
    """A random program over strings, floats, None and lists (``flavor="rich"``) and a variant."""
    from sparklite.generate import RichConfig, random_program

    rng = random.Random(f"rich:{seed}:{index}")
    # small programs, as for the classic flavor: big random ones are mostly unknown within the timeout
    config = RichConfig(max_depth=2, expr_depth=2, max_bag_params=1, max_scalar_params=1, max_lets=1,
                        p_tuple_body=0.1)
    program = random_program(rng, flavor="rich", config=config)
    return _typed_variant(program, lambda: make_variant(program, rng, mutate=rng.random() < 0.5,
                                                        steps=rng.choice((1, 2, 3)), rich=True))


def _typed_variant(program: A.Program, draw: Callable[[], Any]
                   ) -> tuple[A.Program, A.Program, tuple[str, ...], str] | None:
    """Up to six ``draw()``s of a variant of ``program``: the first well-typed one with the same result
    type, as typed programs with the variant's steps and intent."""
    from sparklite.typecheck import typecheck

    for _ in range(6):
        try:
            variant = draw()
        except Exception:  # noqa: BLE001 - a rule built an ill-typed intermediate (Int rules on floats)
            continue
        if variant is None:
            continue
        try:
            before, after = typecheck(program), typecheck(variant.program)
        except Exception:  # an ill-typed rewrite: draw again
            continue
        if before.result != after.result or variant.program == program:
            continue
        return before.program, after.program, variant.steps, variant.intended
    return None


def _generate_ties_pair(seed: int, index: int) -> tuple[A.Program, A.Program, tuple[str, ...], str] | None:
    """An ordered result over a union, a shuffle or a zipped union whose sort key ties often, and a variant
    (``flavor="ties"``): Spark returns ties in input order, so swapping a union's sides under a sort
    changes the result while ``takeOrdered(n, k)`` = ``sortBy(k).take(n)`` keeps it (issue 26)."""
    from fuzzutil import ties_program, ties_variant

    rng = random.Random(f"ties:{seed}:{index}")
    program = ties_program(rng)
    return _typed_variant(program, lambda: ties_variant(program, rng))


def _raises_without_partitions(program: A.Program) -> bool:
    return any(isinstance(n, A.CountByValue) or (isinstance(n, A.TakeOrdered) and n.top)
               for n in A.walk(program))


def _generate_empty_pair(seed: int, index: int) -> tuple[A.Program, A.Program, tuple[str, ...], str] | None:
    """A rich program with a ``countByValue`` or a ``top`` (they raise on an input with no partition,
    an empty text file) and a variant; half the variants rewrite one into an action that does not
    raise there (``fuzzutil._count_by_value_as_reduce``, ``_top_as_sorted_take``). The judge's inputs
    give empty bags no partition a third of the time (``random_partitioning``)."""
    from sparklite.generate import RichConfig, random_program
    from sparklite.typecheck import typecheck

    rng = random.Random(f"empty:{seed}:{index}")
    config = RichConfig(max_depth=2, expr_depth=2, max_bag_params=2, max_scalar_params=1, max_lets=1,
                        p_tuple_body=0.1)
    for _ in range(80):
        program = random_program(rng, flavor="rich", config=config)
        if _raises_without_partitions(program):
            break
    else:
        return None
    for _ in range(6):
        if rng.random() < 0.5:
            name = rng.choice(("count_by_value_as_reduce", "top_as_sorted_take"))
            candidate = apply_rule(program, name, RICH_MUTATING[name], rng)
            if candidate is None:
                continue
            steps, intended = (name,), "not_equivalent"
        else:
            try:
                variant = make_variant(program, rng, mutate=rng.random() < 0.3,
                                       steps=rng.choice((1, 2)), rich=True)
            except Exception:  # noqa: BLE001 - a rule built an ill-typed intermediate
                continue
            if variant is None:
                continue
            candidate, steps, intended = variant.program, variant.steps, variant.intended
        try:
            before, after = typecheck(program), typecheck(candidate)
        except Exception:  # an ill-typed rewrite: draw again
            continue
        if before.result != after.result or candidate == program:
            continue
        return before.program, after.program, steps, intended
    return None


def ask_verifier(rec: PairRecord, make_pair: Callable[[], tuple[Any, Any, tuple[str, ...], str] | None],
                 timeout_s: float) -> tuple[Any, Any, Any] | None:
    """Draw a pair with ``make_pair`` and ask ``verifier.check`` (no replay); the record gets the steps,
    the intent, the verdict and the time. None (the record says why) when there is nothing to judge."""
    import verifier

    try:
        pair = make_pair()
    except Exception:
        rec.crash = "generator/rewriter: " + traceback.format_exc(limit=4)
        return None
    if pair is None:
        rec.note = "no usable variant"
        return None
    left, right, rec.steps, rec.intended = pair
    start = time.perf_counter()
    try:
        result = verifier.check(left, right, replay=False, timeout=timeout_s)
    except Exception:
        rec.crash = "verifier.check raised: " + traceback.format_exc(limit=5)
        return None
    rec.seconds = time.perf_counter() - start
    rec.verdict, rec.method = result.verdict, result.method
    return left, right, result


def check_pair(seed: int, index: int, timeout_s: float, trials: int,
               max_depth: int = MAX_DEPTH, flavor: str = "classic") -> PairRecord:
    """Generate pair ``index`` of ``seed``, ask the verifier, and let the interpreter judge the answer.

    Never raises: whatever goes wrong becomes part of the record, so one bad pair cannot hide the rest
    of a campaign."""
    from sparklite.interpreter import run
    from sparklite.values import outcomes_equal, to_json

    rec = PairRecord(index)
    asked = ask_verifier(rec, lambda: generate_pair(seed, index, max_depth, flavor), timeout_s)
    if asked is None:
        return rec
    left, right, result = asked
    rng = random.Random(f"{seed}:{index}:oracle")
    if result.verdict == "error":
        rec.crash = f"error verdict on generated programs: {result.reason}"
    elif result.verdict == "equivalent":
        # A proof that a mutation changed nothing is where a wrong proof would most likely hide: look harder.
        diff = find_difference(left, right, rng, trials * (3 if rec.intended == "not_equivalent" else 1),
                               rich=flavor != "classic")
        if diff is not None:
            inputs, partitions, a, b = diff
            rec.violation = (f"proved equivalent by {result.method}, but on {partitions} {inputs}: "
                             f"{a!r} vs {b!r}")
    elif result.verdict == "not_equivalent":
        cex = result.counterexample
        if cex is None:
            rec.violation = f"not_equivalent by {result.method} without a counterexample"
        else:
            inputs, partitions = counterexample_args(left, dict(cex.inputs), cex.partitions)
            a, b = run(left, inputs, partitions), run(right, inputs, partitions)
            if outcomes_equal(a, b):
                rec.violation = (f"counterexample by {result.method} does not reproduce: on {partitions} "
                                 f"{inputs} both give {a!r}")
            elif (to_json(a), to_json(b)) != (cex.left, cex.right):  # real, but misreported to the user
                rec.crash = (f"counterexample by {result.method} reports outputs {cex.left!r} / "
                             f"{cex.right!r}, the interpreter gives {to_json(a)!r} / {to_json(b)!r} "
                             f"on {partitions} {inputs}")
    if rec.violation:
        from sparklite.printer import pretty as print_program

        rec.violation += f"\n--- left\n{print_program(left)}\n--- right\n{print_program(right)}"
    return rec


def check_chunk(seed: int, indices: Sequence[int], timeout_s: float, trials: int,
                max_depth: int = MAX_DEPTH, flavor: str = "classic",
                pair_fn: Callable[..., PairRecord] | None = None) -> list[PairRecord]:
    """``pair_fn`` (default ``check_pair``) on each index: another fuzzer (DataFrame/SQL programs,
    ``test_rel_soundness_fuzz``) reuses the campaign with its own module-level pair check."""
    records = []
    for i in indices:
        cpu = time.process_time()
        rec = (pair_fn or check_pair)(seed, i, timeout_s, trials, max_depth, flavor)
        rec.cpu_seconds = time.process_time() - cpu
        records.append(rec)
    return records


# ---------------------------------------------------------------------------------------------------
# A campaign
# ---------------------------------------------------------------------------------------------------


@dataclass
class Campaign:
    seed: int
    records: list[PairRecord] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def checked(self) -> list[PairRecord]:
        return [r for r in self.records if r.verdict]

    @property
    def violations(self) -> list[PairRecord]:
        return [r for r in self.records if r.violation]

    @property
    def crashes(self) -> list[PairRecord]:
        return [r for r in self.records if r.crash]

    def summary(self) -> str:
        verdicts = Counter(r.verdict for r in self.checked)
        by_intent = Counter((r.intended, r.verdict) for r in self.checked)
        methods = Counter(r.method for r in self.checked if r.verdict in ("equivalent", "not_equivalent"))
        slowest = max((r.seconds for r in self.checked), default=0.0)
        cpu = sum(r.cpu_seconds for r in self.records)
        lines = [
            f"seed {self.seed}: {len(self.checked)} pairs checked in {self.seconds:.1f}s wall, "
            f"{cpu:.1f}s CPU (slowest check {slowest:.2f}s); {len(self.violations)} violations, "
            f"{len(self.crashes)} crashes",
            "verdicts: " + ", ".join(f"{k}={v}" for k, v in sorted(verdicts.items())),
            "intended -> verdict: " + ", ".join(f"{i}->{v}={n}" for (i, v), n in sorted(by_intent.items())),
            "definite verdicts by method: " + ", ".join(f"{k}={v}" for k, v in sorted(methods.items(),
                                                                                      key=str)),
        ]
        return "\n".join(lines)


CHUNK = 10  # pairs per task: few enough to spread the work evenly, enough to keep IPC negligible
DEADLINE_CHUNK = 2  # with a deadline, tasks are small so that the last ones end soon after it


def run_campaign(seed: int, pairs: int, workers: int = WORKERS, timeout_s: float = CHECK_TIMEOUT_S,
                 trials: int = EQUIV_TRIALS, deadline_s: float | None = None,
                 max_depth: int = MAX_DEPTH, flavor: str = "classic",
                 pair_fn: Callable[..., PairRecord] | None = None) -> Campaign:
    """Check ``pairs`` usable pairs (draws that give no usable variant are replaced by further draws),
    or as many as fit in ``deadline_s`` seconds.

    Tasks are submitted a few at a time (two per worker in flight), never the whole campaign at once:
    the deadline is checked before every submission, so a nightly run with a huge ``pairs`` stops within
    about one task's time of its deadline instead of after the whole first round."""
    campaign = Campaign(seed)
    start = time.perf_counter()
    chunk = CHUNK if deadline_s is None else DEADLINE_CHUNK
    next_index = 0
    ctx = multiprocessing.get_context("spawn")  # no fork after Z3/Spark threads exist in the parent

    def done() -> int:
        return len(campaign.checked) + len(campaign.crashes)

    def out_of_time() -> bool:
        return deadline_s is not None and time.perf_counter() - start > deadline_s

    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        in_flight: dict[Future[list[PairRecord]], int] = {}  # task -> how many pairs it checks
        while True:
            # Draws that give no usable pair do not count, so more are drawn until enough were checked
            # (a task is only submitted if the pairs in flight cannot be enough, so the indices checked
            # are the same on every run); a generator that keeps giving unusable programs stops the
            # campaign (the summary says so).
            while len(in_flight) < 2 * workers and not out_of_time() and next_index <= 4 * pairs:
                size = min(chunk, pairs - done() - sum(in_flight.values()))
                if size <= 0:
                    break
                indices = list(range(next_index, next_index + size))
                next_index += size
                in_flight[pool.submit(check_chunk, seed, indices, timeout_s, trials, max_depth,
                                      flavor, pair_fn)] = size
            if not in_flight:
                break
            finished, _ = wait(in_flight, return_when=FIRST_COMPLETED)
            for fut in finished:
                del in_flight[fut]
                campaign.records.extend(fut.result())
    campaign.records.sort(key=lambda r: r.index)
    campaign.seconds = time.perf_counter() - start
    return campaign


def assert_sound(campaign: Campaign, pairs: int | None) -> None:
    """What every campaign must show: no wrong definite verdict, ``pairs`` pairs judged (``None``: a
    flavor whose generator may draw nothing for an index), no crash, and both definite verdicts (a
    verifier that never proves or never refutes would pass vacuously)."""
    print(campaign.summary())
    assert not campaign.violations, "SOUNDNESS violations:\n" + "\n\n".join(
        f"pair {r.index} ({', '.join(r.steps)}): {r.violation}" for r in campaign.violations)
    assert pairs is None or len(campaign.checked) + len(campaign.crashes) >= pairs, campaign.summary()
    assert not campaign.crashes, "crashes:\n" + "\n\n".join(
        f"pair {r.index} ({', '.join(r.steps)}): {r.crash}" for r in campaign.crashes[:5])
    verdicts = Counter(r.verdict for r in campaign.checked)
    assert verdicts["equivalent"] > 0 and verdicts["not_equivalent"] > 0, campaign.summary()


def test_soundness_fuzz() -> None:
    campaign = run_campaign(SEED, PAIRS, workers=int(os.environ.get("SPARKEQ_FUZZ_WORKERS", WORKERS)))
    assert_sound(campaign, PAIRS)
    if campaign.seconds > BUDGET_S:  # a loaded machine is not a failure; a slow verifier shows up here
        warnings.warn(f"soundness fuzzer took {campaign.seconds:.0f}s (budget {BUDGET_S:.0f}s on 2 idle "
                      f"cores): {campaign.summary()}", stacklevel=1)


RICH_PAIRS = int(os.environ.get("SPARKEQ_RICH_FUZZ_PAIRS", "120"))


def test_soundness_fuzz_over_strings_and_floats() -> None:
    """The same judge over programs of strings, floats, None, lists and ordered results."""
    campaign = run_campaign(SEED, RICH_PAIRS, workers=int(os.environ.get("SPARKEQ_FUZZ_WORKERS", WORKERS)),
                            flavor="rich")
    assert_sound(campaign, RICH_PAIRS)


TIES_PAIRS = int(os.environ.get("SPARKEQ_TIES_FUZZ_PAIRS", "120"))


def test_soundness_fuzz_ties_under_sorts() -> None:
    """The same judge over sorts, takeOrdered and top with ties, over unions (swapped as a mutation),
    shuffles and zipped unions, under random partitionings (issue 26)."""
    campaign = run_campaign(SEED, TIES_PAIRS, workers=int(os.environ.get("SPARKEQ_FUZZ_WORKERS", WORKERS)),
                            flavor="ties")
    assert_sound(campaign, TIES_PAIRS)


OUTER_PAIRS = int(os.environ.get("SPARKEQ_OUTER_FUZZ_PAIRS", "120"))


def test_soundness_fuzz_none_under_outer_joins() -> None:
    """The same judge over outer joins of inputs that hold None themselves (``tests/fuzz_outer.py``): a
    None in the data is not a missing match, and the join vs filtered-outer-join rewrites must not be
    proved where the data's None tells them apart."""
    campaign = run_campaign(SEED, OUTER_PAIRS, workers=int(os.environ.get("SPARKEQ_FUZZ_WORKERS", WORKERS)),
                            flavor="outer")
    assert_sound(campaign, OUTER_PAIRS)


def test_outer_pairs_are_reproducible_and_draw_the_trap() -> None:
    """The outer flavor is deterministic, reads inputs holding None, and draws the rewrites of issue 26."""
    pairs = [generate_pair(SEED, i, flavor="outer") for i in range(40)]
    assert pairs == [generate_pair(SEED, i, flavor="outer") for i in range(40)]
    drawn = [p for p in pairs if p is not None]
    holding_none = [left for left, _, _, _ in drawn if "NoneLit" in str(left)
                    or any(isinstance(q.type.elem.elems[1], OptionType) for q in left.params)]  # type: ignore[union-attr]
    assert len(holding_none) >= 3 * len(drawn) // 4  # mostly: a plain pair of inputs pads only
    steps = {s for _, _, ss, _ in drawn for s in ss}
    assert {"join_to_outer_filter", "outer_filter_to_join", "unmatched_count"} & steps


EMPTY_PAIRS = int(os.environ.get("SPARKEQ_EMPTY_FUZZ_PAIRS", "150"))


def test_soundness_fuzz_over_inputs_without_partitions() -> None:
    """The same judge over programs holding a countByValue or a top (which raise on an input with no
    partition, an empty text file, and only there), half of them against a variant that does not raise
    there; the judge's inputs include empty bags with no partition (issue 26)."""
    campaign = run_campaign(SEED, EMPTY_PAIRS, workers=int(os.environ.get("SPARKEQ_FUZZ_WORKERS", WORKERS)),
                            flavor="empty")
    assert_sound(campaign, None)


@pytest.mark.parametrize("index", range(3))
def test_variants_are_well_typed_and_reproducible(index: int) -> None:
    """The same seed and index always give the same pair (so a report can be replayed)."""
    first, second = generate_pair(SEED, index), generate_pair(SEED, index)
    assert first == second


def test_preserving_rewrites_preserve_meaning() -> None:
    """The rewriter's "preserving" label is right on the interpreter (it is never trusted by the fuzzer,
    but a rewriter that silently mutates would starve the fuzzer of equivalent pairs)."""
    from sparklite.generate import GenConfig, random_program
    from sparklite.typecheck import typecheck

    mislabelled = []
    tried = 0
    for i in range(150):
        rng = random.Random(f"rewrites:{i}")
        program = typecheck(random_program(rng, config=GenConfig(max_depth=MAX_DEPTH))).program
        variant = make_variant(program, rng, mutate=False, steps=3)
        if variant is None:
            continue
        try:
            rewritten = typecheck(variant.program).program
        except Exception as exc:  # a preserving rewrite must keep the program well-typed
            mislabelled.append(f"{i} {variant.steps}: ill-typed: {exc}")
            continue
        tried += 1
        diff = find_difference(program, rewritten, rng, 15)
        if diff is not None:
            mislabelled.append(f"{i} {variant.steps}: differs on {diff}")
    assert tried >= 100
    assert not mislabelled, "\n".join(mislabelled)


def test_campaign_stops_near_its_deadline() -> None:
    """``fuzz_nightly.py --hours`` with a huge ``--pairs``: the campaign stops about one task after its
    deadline (worker start-up and the tasks in flight), not after the whole first round."""
    started = time.perf_counter()
    campaign = run_campaign(SEED, 2000, workers=1, deadline_s=3.0)
    elapsed = time.perf_counter() - started
    assert 0 < len(campaign.checked) < 2000
    assert elapsed < 3.0 + 20
