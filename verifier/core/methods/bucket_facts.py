"""Facts every by-key bucket accumulator satisfies: what makes "average per key" provable.

Why: ``groupByKey().mapValues(lambda vs: sum(vs) // len(vs))`` and its ``aggregateByKey((0, 0), ...)``,
``combineByKey``, ``foldByKey`` and ``reduceByKey`` spellings divide by a count. Over an arbitrary
accumulator the count may be 0, so every method used to give up on "division by zero possible". But a
bucket exists only for a key that has at least one value: its accumulator is ``first(v)`` followed by
steps, so any property that holds for ``first(v)`` and is preserved by ``step`` holds for every bucket
that reaches the program's output. The count is then at least 1 and the division is safe.

The facts are found Houdini-style over a small family of sign atoms per integer leaf of the
accumulator (``l >= 1``, ``l >= 0``, ``l <= 0``, ``l <= -1``): keep the atoms true after the first
value, then drop atoms not preserved by a step under the conjunction of the rest, until nothing
changes. Every quantifier ranges over all values and all closure variables, so a fact is sound. They
describe the *sequential* per-key fold, which is Spark's result only when the aggregation is partition
independent; the proof methods are gated on that already (``_shared.prepare``).
"""

from __future__ import annotations

from collections.abc import Sequence

import z3

from encoder.aggregates import KeyedAgg
from encoder.bag_terms import substitute, sym_pairs
from encoder.basic import leaves
from encoder.terms import ProgramEncoding
from verifier.core import budget

MAX_ROUNDS = 8


def bucket_facts(encodings: Sequence[ProgramEncoding], timeout_s: float) -> list[z3.BoolRef]:
    """Proved facts about the bucket placeholders of every by-key aggregation in ``encodings``."""
    facts: list[z3.BoolRef] = []
    for enc in encodings:
        for j, keyed in enumerate(enc.keyed):
            facts += _facts(keyed, f"{enc.side}.inv{j}", timeout_s)
    return facts


def _atoms(acc: z3.ExprRef) -> list[z3.BoolRef]:
    out = []
    for leaf in leaves(acc):
        if z3.is_int(leaf):
            out += [leaf >= 1, leaf >= 0, leaf <= 0, leaf <= -1]
    return out


def _facts(keyed: KeyedAgg, tag: str, timeout_s: float) -> list[z3.BoolRef]:
    atoms = _atoms(keyed.acc)
    if not atoms:
        return []
    # the values a bucket folds are what the aggregated bag's elements carry (a map before the
    # aggregation, e.g. v -> (v, 1), is known), each from its own copy of the input tuple; a bucket may
    # start with, and take, an element of any alternative (union/flatMap before the aggregation)
    starts, steps = [], []
    for i, alt in enumerate(keyed.all_alts):
        x, y = alt.canonical(f"{tag}.x{i}"), alt.canonical(f"{tag}.y{i}")
        starts.append((x.present, sym_pairs(keyed.acc, keyed.shape.first(x.value[1]))))  # type: ignore[index]
        steps.append((y.present, sym_pairs(keyed.acc, keyed.shape.step(keyed.acc, y.value[1]))))  # type: ignore[index]
    alive = [a for a in atoms
             if all(_valid(z3.Implies(ok, substitute(a, at)), timeout_s) for ok, at in starts)]
    for _ in range(MAX_ROUNDS):
        kept = [a for a in alive
                if all(_valid(z3.Implies(z3.And(ok, *alive), substitute(a, after)), timeout_s)
                       for ok, after in steps)]
        if len(kept) == len(alive):
            return kept
        alive = kept
    return []


def _valid(formula: z3.BoolRef, timeout_s: float) -> bool:
    solver = budget.solver(timeout_s)
    solver.add(z3.Not(formula))
    return budget.check(solver) == z3.unsat
