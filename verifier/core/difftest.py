"""Differential testing: the fallback when no proof method settles a pair, and the benchmark's baseline.

Random inputs and partitionings are run through the reference interpreter on both programs (or, with
``verifier.runtime.difftest.diff_on_spark``, through real Spark); the first input whose outcomes differ is
a counterexample. Testing can only ever refute: when nothing is found, nothing is concluded.

The generator is deliberately not uniform, because uniform integers almost never hit the inputs that
separate two Spark programs:

- *boundary values*: every integer literal ``c`` in either program contributes ``c-1, c, c+1`` (a
  filter ``x > 10`` and its off-by-one twin ``x >= 10`` differ only at 10), plus ``0`` and ``+-1``;
- *multiplicities*: elements are often duplicated, because bag programs that differ in how many times
  an element survives (``distinct``, self-joins) agree on sets;
- *colliding keys*: keys come from a small pool so joins and by-key aggregations actually group;
- *partitionings*: bags are cut into 1..max_parts partitions, empty ones included, since
  ``fold``-style aggregations differ only across partitions;
- *small first*: the first input has every bag empty (empty ``reduce``), then sizes grow, so what is
  found is small;
- *shaped strings*: a caller may pass whole strings to draw half of the string values from (``strings``:
  whole scripts pass lines shaped by their parsing, ``rdd_program.text_input_hints``, since a random
  string almost never has three comma-separated fields ending in a number).

Everything is drawn from one ``random.Random(seed)``: the same seed gives the same inputs.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from sparklite.ast import FloatLit, IntLit, Neg, Program, StrLit, walk
from sparklite.types import (
    BagType,
    BoolType,
    FloatType,
    IntType,
    ListType,
    OptionType,
    StrType,
    TupleType,
    Type,
)
from sparklite.values import Outcome, Partitioning, definitely_differ, tasks_with_data
from verifier.core.base import Candidate, LoadedProgram

__all__ = ["NAME", "DiffResult", "InputGenerator", "search"]

NAME = "difftest"


@dataclass(frozen=True)
class DiffResult:
    """``found`` is the first input on which the programs differ (None: none within the budget);
    ``tried`` counts the inputs evaluated, the difference included."""

    found: Candidate | None
    tried: int
    left: Outcome | None = None
    right: Outcome | None = None
    seconds: float = 0.0
    first_seconds: float | None = field(default=None)  # time to the difference, when found


def program_strings(*programs: Program) -> set[str]:
    """Every string literal in the programs, and its characters (separators, prefixes)."""
    out: set[str] = set()
    for program in programs:
        for node in walk(program):
            if isinstance(node, StrLit):
                out.add(node.value)
                out.update(node.value)
    return out


def program_floats(*programs: Program) -> set[float]:
    return {node.value for program in programs for node in walk(program) if isinstance(node, FloatLit)}


def program_constants(*programs: Program) -> set[int]:
    """Every integer literal in the programs (negated literals included)."""
    out: set[int] = set()
    for program in programs:
        for node in walk(program):
            if isinstance(node, IntLit) and not isinstance(node.value, bool):
                out.add(node.value)
            elif isinstance(node, Neg) and isinstance(node.operand, IntLit):
                out.add(-node.operand.value)
    return out


class InputGenerator:
    """Random candidate inputs for programs with parameters ``params`` (see the module docstring).

    ``naive=True`` turns the biases off (uniform integers and keys in ``[-span, span]``, no forced
    duplicates): the baseline a user gets from plain random testing.
    """

    def __init__(self, programs: tuple[Program, ...], *, seed: int = 0, max_len: int = 6,
                 max_parts: int = 3, naive: bool = False, span: int | None = None,
                 strings: Sequence[str] = ()) -> None:
        self.params = programs[0].params
        self.strings = tuple(strings)
        self.rng = random.Random(seed)
        self.max_len = max_len
        self.max_parts = max(1, max_parts)
        self.naive = naive
        consts = program_constants(*programs)
        self.span = span if span is not None else max([10, *(2 * abs(c) + 2 for c in consts)])
        pool = {0, 1, -1}
        for c in consts:
            pool |= {c - 1, c, c + 1}
        self.pool = sorted(pool)
        small = [0, 1, 2, *sorted(c for c in consts if 0 <= c <= 5)]
        self.keys = sorted(set(small))[:4]
        strs = program_strings(*programs)
        # pieces of text: the programs' own literals (separators, prefixes) and what breaks parsing
        self.pieces = sorted({"a", "b", "ab", "A", " ", ",", "1", "-2", "3.5", "x y", "é", "😀", "", *strs})
        self.str_keys = sorted({"a", "b", "", *(x for x in strs if len(x) <= 3)})[:5]
        self.floats = [0.0, -0.0, 1.0, -1.5, 0.1, 0.2, 0.3, 1e308, -1e308, 5e-324, float("nan"),
                       float("inf"), float("-inf"), *program_floats(*programs)]

    # -- values ----------------------------------------------------------------------------------

    def int_value(self, key: bool = False) -> int:
        rng = self.rng
        if self.naive:
            return rng.randint(-self.span, self.span)
        if key:
            return rng.choice(self.keys)
        if rng.random() < 0.75:
            return rng.choice(self.pool)
        return rng.randint(-self.span, self.span)

    def str_value(self, key: bool = False) -> str:
        rng = self.rng
        if self.strings and rng.random() < 0.5:
            return rng.choice(self.strings)
        if key and rng.random() < 0.8:
            return rng.choice(self.str_keys)
        return "".join(rng.choice(self.pieces) for _ in range(rng.randint(0, 3)))

    def float_value(self, key: bool = False) -> float:
        rng = self.rng
        if key:  # no NaN keys: Spark places them by identity (docs/semantics-notes.md)
            return rng.choice([0.0, -0.0, 1.0, 2.5])
        if rng.random() < 0.6:
            return rng.choice(self.floats)
        return rng.uniform(-10, 10)

    def value(self, typ: Type, key: bool = False) -> Any:
        if isinstance(typ, BoolType):
            return self.rng.random() < 0.5
        if isinstance(typ, IntType):
            return self.int_value(key)
        if isinstance(typ, StrType):
            return self.str_value(key)
        if isinstance(typ, FloatType):
            return self.float_value(key)
        if isinstance(typ, OptionType):
            return None if self.rng.random() < 0.3 else self.value(typ.elem, key)
        if isinstance(typ, ListType):
            return [self.value(typ.elem) for _ in range(self.rng.randint(0, 3))]
        if isinstance(typ, TupleType):
            # The first component of a pair is what join and the *ByKey operators group on.
            return tuple(self.value(t, key=key or (i == 0 and len(typ.elems) == 2))
                         for i, t in enumerate(typ.elems))
        raise TypeError(f"cannot generate a value of type {typ}")

    def bag(self, elem: Type, size: int) -> list[Any]:
        out: list[Any] = []
        for _ in range(size):
            if out and not self.naive and self.rng.random() < 0.3:
                out.append(self.rng.choice(out))  # exercise multiplicities
            else:
                out.append(self.value(elem))
        return out

    def partition(self, items: list[Any], index: int = 0) -> Partitioning:
        """Cut ``items`` (in order) into 1..max_parts consecutive partitions, possibly empty ones. An
        empty bag has no partition at all in every fourth input from the second on (an empty text file:
        ``countByValue``/``top`` raise there, ``docs/semantics-notes.md``); no random draw decides it,
        so the other inputs stay what they were."""
        if not items and index % 4 == 1:
            return ()
        k = self.rng.randint(1, self.max_parts)
        cuts = sorted(self.rng.randint(0, len(items)) for _ in range(k - 1))
        bounds = [0, *cuts, len(items)]
        return tuple(tuple(items[bounds[i]:bounds[i + 1]]) for i in range(k))

    # -- candidates ------------------------------------------------------------------------------

    def candidate(self, index: int) -> Candidate:
        """The ``index``-th input: all-empty first, then growing sizes up to ``max_len``."""
        limit = 0 if index == 0 else min(self.max_len, 1 + index // 3)
        inputs: dict[str, Any] = {}
        parts: dict[str, Partitioning] = {}
        for param in self.params:
            typ = param.type
            if isinstance(typ, BagType):
                items = self.bag(typ.elem, self.rng.randint(0, limit) if index else 0)
                split = self.partition(items, index)
                inputs[param.name] = [x for p in split for x in p]
                parts[param.name] = split
            elif typ is None:
                raise TypeError(f"parameter {param.name!r} has no type")
            else:
                inputs[param.name] = self.value(typ) if index else _zero(typ)
        explicit = {n: p for n, p in parts.items() if len(p) != 1}
        return Candidate(inputs=inputs, partitions=dict(parts) if explicit else None,
                         origin=f"random input #{index}")

    def candidates(self, n: int) -> Iterator[Candidate]:
        for index in range(n):
            yield self.candidate(index)


def _zero(typ: Type) -> Any:
    """The first candidate's scalar of type ``typ``: a value *of that type* (a Float parameter given the
    int ``0`` made ``round(t, 2)`` an int on one side and a float on the other: a made-up difference)."""
    if isinstance(typ, BoolType):
        return False
    if isinstance(typ, TupleType):
        return tuple(_zero(t) for t in typ.elems)
    if isinstance(typ, FloatType):
        return 0.0
    if isinstance(typ, StrType):
        return ""
    if isinstance(typ, OptionType):
        return None
    if isinstance(typ, ListType):
        return []
    return 0


def _program(p: Program | LoadedProgram) -> Program:
    return p.program if isinstance(p, LoadedProgram) else p


# ``evaluate``: a candidate -> (the candidate as actually run, left outcome, right outcome, differ?), or
# None to skip a candidate that cannot be run as it is (e.g. a line no file can hold)
Evaluate = Callable[[Candidate], "tuple[Candidate, Outcome, Outcome, bool] | None"]


def search(
    left_program: Program | LoadedProgram,
    right_program: Program | LoadedProgram,
    *,
    budget_inputs: int = 2000,
    seed: int = 0,
    max_len: int = 6,
    max_parts: int = 3,
    time_budget_s: float | None = None,
    naive: bool = False,
    strings: Sequence[str] = (),
    evaluate: Evaluate | None = None,
) -> DiffResult:
    """Look for an input on which the reference interpreter gives the two programs different outcomes.

    ``strings`` are whole string values to draw from besides random ones; ``evaluate`` replaces running
    both programs on a candidate's own partitions and comparing with ``outcomes_equal`` (whole scripts
    run each side on Spark's partitioning of the files and compare what the scripts write)."""
    from sparklite.interpreter import run

    left, right = _program(left_program), _program(right_program)
    gen = InputGenerator((left, right), seed=seed, max_len=max_len, max_parts=max_parts, naive=naive,
                         strings=strings)
    started = time.perf_counter()
    tried = 0
    for cand in gen.candidates(budget_inputs):
        tried += 1
        if evaluate is not None:
            evaluated = evaluate(cand)
            differs = evaluated is not None and evaluated[3]
            if evaluated is not None:
                cand, out_left, out_right = evaluated[0], evaluated[1], evaluated[2]
        else:
            out_left = run(left, cand.inputs, cand.partitions)
            out_right = run(right, cand.inputs, cand.partitions)
            differs = definitely_differ(out_left, out_right, tasks_with_data(cand.inputs, cand.partitions))
        if differs:
            elapsed = time.perf_counter() - started
            return DiffResult(cand, tried, out_left, out_right, elapsed, elapsed)
        if time_budget_s is not None and time.perf_counter() - started > time_budget_s:
            break
    return DiffResult(None, tried, seconds=time.perf_counter() - started)


