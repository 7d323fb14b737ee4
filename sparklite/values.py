"""Runtime values and observable outcomes of SparkLite programs.

A basic value is a Python ``int``, ``bool``, ``str``, ``float``, ``None`` or (nested) ``tuple`` of them;
inside programs lists are Python lists and dictionaries Python dicts, observed as ``ListValue`` and
``DictValue`` (hashable, canonical). A bag is observed as a multiset (``Bag``, a canonical sorted tuple,
so equal multisets compare equal). An ordered result (``sortBy(...).collect()``, ``take``,
``takeOrdered``, ``top``) is observed as a ``Sorted``: a sequence of groups, each a multiset. The RDD
interpreter makes every element of an ordered result its own group, because PySpark fixes the order
among equal sort keys (their input order, ``docs/semantics-notes.md``); groups of several elements (and
a last group cut to ``taken`` of its candidates) serve results whose tie order Spark does not fix (SQL's
``ORDER BY``). An unsorted ``collect()`` is one group, i.e. a ``Bag``.

Floats are observed as the values Spark returns, by their representation: NaN equals NaN (an
observation must equal itself) and ``-0.0`` differs from ``0.0`` (Python's ``==`` equates them, but they
print and save differently and ``math.copysign``/``1 / x`` tell them apart); ``1`` and ``1.0`` differ too
(the types differ). Where a sink itself equates them (a dict key, a shuffle key: Python's ``hash`` and
``==``), the value the program returns already holds one of them, the first seen, as Spark's does.

An exception that a program raises under Spark (empty ``reduce`` -> ``ValueError``, ``x // 0`` ->
``ZeroDivisionError``) is an outcome of its own (``ErrorOutcome``) that differs from every value.

A *partitioning* of an input bag is an explicit tuple of partitions, each a tuple of elements in order:
it is what ``sc.parallelize`` would hand to Spark, and the interpreter reproduces Spark's result for it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

BasicValue = int | bool | tuple
Partitioning = tuple[tuple[Any, ...], ...]


def _sort_key(v: Any) -> Any:
    if isinstance(v, tuple):
        return (2, tuple(_sort_key(x) for x in v))
    if isinstance(v, Bag):
        return (3, tuple(_sort_key(x) for x in v.items))
    if isinstance(v, bool):
        return (0, int(v))
    if isinstance(v, int):
        return (1, v)
    if isinstance(v, float):  # NaNs first, then by value, -0.0 just before 0.0 (two observations)
        return (5, (0, 0.0, 0.0) if v != v else (1, v, math.copysign(1.0, v)))
    if isinstance(v, str):
        return (6, v)
    if v is None:
        return (7, 0)
    if isinstance(v, ListValue):
        return (8, tuple(_sort_key(x) for x in v.items))
    if isinstance(v, DictValue):
        return (9, tuple(_sort_key(x) for x in v.items))
    if isinstance(v, Sorted):
        return (10, tuple(_sort_key(g) for g in v.groups))
    return (11, repr(v))


@dataclass(frozen=True)
class Bag:
    """A multiset, stored as its elements in a canonical order."""

    items: tuple[Any, ...]

    @staticmethod
    def of(elements: Iterable[Any]) -> Bag:
        return Bag(tuple(sorted(elements, key=_sort_key)))

    def counts(self) -> Counter:
        return Counter(self.items)

    def __len__(self) -> int:
        return len(self.items)


@dataclass(frozen=True)
class ListValue:
    """An observed Python list (order matters), kept apart from tuples as Python keeps them apart."""

    items: tuple[Any, ...]


@dataclass(frozen=True)
class DictValue:
    """An observed dict: its ``(key, value)`` items in a canonical order (dict equality ignores order)."""

    items: tuple[tuple[Any, Any], ...]

    @staticmethod
    def of(d: dict) -> DictValue:
        return DictValue(tuple(sorted(d.items(), key=_sort_key)))

    @staticmethod
    def of_items(items: Iterable[tuple[Any, Any]]) -> DictValue:
        """From (key, value) items, which may repeat a NaN key (PySpark's dicts of unpickled NaNs)."""
        return DictValue(tuple(sorted(items, key=_sort_key)))


@dataclass(frozen=True)
class Sorted:
    """An ordered result modulo ties: ``groups`` are the runs of equal sort keys, in order, each a
    multiset. ``partial`` is set when the result was cut inside the last group (``take(n)``): then the
    last group is the *candidates* and ``taken`` how many of them the result holds, any of them."""

    groups: tuple[Bag, ...]
    taken: int | None = None


class Ranked(list):
    """A list produced by an action, with the group of every item for its observation (``ranks``,
    ascending): distinct ranks for an ordered result, which Spark returns in one exact order (ties in
    input order, ``docs/semantics-notes.md``), one rank for an unsorted ``collect``/``take`` (a multiset).
    ``candidates`` is kept for callers that observe a result cut inside a group of equals. Inside
    programs it is an ordinary list."""

    def __init__(self, items: Iterable[Any], ranks: Iterable[int], candidates: list[Any] | None = None
                 ) -> None:
        super().__init__(items)
        self.ranks = list(ranks)
        self.candidates = candidates


@dataclass(frozen=True)
class ErrorOutcome:
    """The program raised: ``kind`` is the Python exception name (``ValueError``, ``ZeroDivisionError``)."""

    kind: str


Outcome = Any  # a BasicValue, a Bag, an ErrorOutcome, or a tuple mixing basic values and Bags


def observe_sequence(items: list[Any], ranks: list[int], candidates: list[Any] | None) -> Outcome:
    """The observation of an ordered list (see ``Sorted``); one complete group is just a ``Bag``."""
    groups: list[list[Any]] = []
    last = None
    for x, r in zip(items, ranks, strict=True):
        if not groups or r != last:
            groups.append([])
            last = r
        groups[-1].append(x)
    taken = None
    if candidates is not None and groups:
        taken = len(groups[-1])
        groups[-1] = list(candidates)
        if taken == len(candidates) or len({_sort_key(c) for c in candidates}) == 1:
            groups[-1] = groups[-1][:taken]
            taken = None
    bags = tuple(Bag.of(g) for g in groups)
    # a group whose elements are all equal is as good as that many singleton groups: split, so that
    # equal observations have one representation
    split: list[Bag] = []
    for i, g in enumerate(bags):
        if len(g) > 1 and (taken is None or i < len(bags) - 1) and len({_sort_key(x) for x in g.items}) == 1:
            split.extend(Bag((x,)) for x in g.items)
        else:
            split.append(g)
    if taken is None and len(split) <= 1:
        return split[0] if split else Bag(())
    return Sorted(tuple(split), taken)


def observe_value(value: Any) -> Outcome:
    """The observation of a plain Python value a program returned (no RDDs: collect them first):
    tuples component-wise, lists as ``ListValue``, dicts (also ``defaultdict``) as ``DictValue``."""
    if isinstance(value, tuple):
        return tuple(observe_value(v) for v in value)
    if isinstance(value, list):
        return ListValue(tuple(observe_value(v) for v in value))
    if isinstance(value, dict):
        return DictValue.of({observe_value(k): observe_value(v) for k, v in value.items()})
    return value


def observe_like(actual: Any, reference: Outcome) -> Outcome:
    """Observe ``actual``, a concrete Python value a real Spark returned (RDDs already collected into
    lists), the way ``reference`` (the interpreter's outcome for the same run) is observed, so that the
    two compare with ``outcomes_equal``.

    Spark returns an ordered result as one concrete list, the interpreter as a ``Sorted`` (exact for RDD
    results, whose groups are single elements; modulo ties for SQL's ``ORDER BY``):
    the list is cut into runs of the reference's group sizes, each run must equal its group as a multiset,
    and when the reference was cut inside its last group (``taken``) the last run must be a sub-multiset
    of that group's candidates. When it is consistent the result *is* the reference; otherwise the list
    as a ``ListValue``, which equals no ``Sorted``. A list whose reference is a ``Bag`` (an unsorted
    ``collect()``, one tie group) is observed as a bag, tuples component-wise, anything else as
    ``observe_value`` does."""
    if isinstance(reference, tuple) and isinstance(actual, tuple) and len(actual) == len(reference):
        return tuple(observe_like(a, r) for a, r in zip(actual, reference, strict=True))
    if isinstance(actual, list) and isinstance(reference, Bag):
        return Bag.of(observe_value(x) for x in actual)
    if isinstance(actual, list) and isinstance(reference, Sorted):
        items = [observe_value(x) for x in actual]
        if _chunks_match(items, reference):
            return reference
        return ListValue(tuple(items))
    return observe_value(actual)


def _chunks_match(items: list[Any], reference: Sorted) -> bool:
    sizes = [len(g) for g in reference.groups]
    if reference.taken is not None:
        sizes[-1] = reference.taken
    if sum(sizes) != len(items):
        return False
    start = 0
    for i, (size, group) in enumerate(zip(sizes, reference.groups, strict=True)):
        run = tuple(items[start:start + size])
        start += size
        if i == len(sizes) - 1 and reference.taken is not None:
            if not _sub_multiset(run, group.items):
                return False
        elif not _bags_equal(tuple(Bag.of(run).items), group.items):
            return False
    return True


def _sub_multiset(xs: tuple[Any, ...], ys: tuple[Any, ...]) -> bool:
    """Every element of ``xs`` matches a distinct element of ``ys`` under ``outcomes_equal``."""
    rest = list(ys)
    for x in xs:
        for i, y in enumerate(rest):
            if outcomes_equal(x, y):
                del rest[i]
                break
        else:
            return False
    return True


def float_json(v: float) -> Any:
    if v != v:
        return {"float": "nan"}
    if v in (float("inf"), float("-inf")):
        return {"float": "inf" if v > 0 else "-inf"}
    return v


def to_json(value: Outcome) -> Any:
    """JSON form fixed by interfaces.md: bags as sorted lists, tuples and lists as lists, errors as
    {"error": kind}; non-finite floats as {"float": "nan" | "inf" | "-inf"} (JSON has no NaN), dicts as
    {"dict": [[key, value], ...]}, ordered results modulo ties as {"sorted": [[group], ...]} (with
    "taken": n when the last group is cut)."""
    if isinstance(value, ErrorOutcome):
        return {"error": value.kind}
    if isinstance(value, Bag):
        return [to_json(v) for v in value.items]
    if isinstance(value, tuple):
        return [to_json(v) for v in value]
    if isinstance(value, ListValue):
        return [to_json(v) for v in value.items]
    if isinstance(value, DictValue):
        return {"dict": [[to_json(k), to_json(v)] for k, v in value.items]}
    if isinstance(value, Sorted):
        out: dict[str, Any] = {"sorted": [to_json(g) for g in value.groups]}
        if value.taken is not None:
            out["taken"] = value.taken
        return out
    if isinstance(value, float):
        return float_json(value)
    return value


def definitely_differ(a: Outcome, b: Outcome, tasks_with_data: int = 2) -> bool:
    """Would Spark show ``a`` and ``b`` differently on every run? Two errors of different kinds are a
    difference only where at most one task holds data (``tasks_with_data``: the non-empty partitions
    of the inputs): a job whose tasks raise different exceptions fails with whichever task fails first,
    a race the interpreter cannot predict (issue 26 review: ``int(x)`` over -inf in one partition and
    NaN in another gave OverflowError on one Spark run and ValueError on the next). One task raises in
    its own deterministic order, and actions run one job after another."""
    if isinstance(a, ErrorOutcome) and isinstance(b, ErrorOutcome) and tasks_with_data > 1:
        return False
    return not outcomes_equal(a, b)


def tasks_with_data(inputs: Mapping[str, Any], partitions: Mapping[str, Any] | None) -> int:
    """How many input partitions hold an element (with no partitioning given, each non-empty list
    input counts as one; scalars of list type are counted too, which only errs on the safe side)."""
    if partitions is not None:
        return sum(1 for parts in partitions.values() for p in parts if len(p))
    return sum(1 for v in inputs.values() if isinstance(v, list | tuple) and len(v))


def outcomes_equal(a: Outcome, b: Outcome) -> bool:
    """Observational equality: bags as multisets, ``True`` differs from ``1`` (types are compared too),
    floats by their representation (``same_float``: NaN equals NaN, ``-0.0`` differs from ``0.0``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(outcomes_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, Bag):
        return _bags_equal(a.items, b.items)
    if isinstance(a, ListValue | DictValue):
        return len(a.items) == len(b.items) and all(
            outcomes_equal(x, y) for x, y in zip(a.items, b.items, strict=True))
    if isinstance(a, Sorted):
        return a.taken == b.taken and len(a.groups) == len(b.groups) and all(
            outcomes_equal(x, y) for x, y in zip(a.groups, b.groups, strict=True))
    if isinstance(a, float):
        return same_float(a, b)
    return a == b


def same_float(a: float, b: float) -> bool:
    """Two floats are one observation when they are the same value with the same sign (``-0.0`` is
    not ``0.0``), or both NaN (every NaN prints as ``nan``)."""
    if a != a or b != b:
        return a != a and b != b
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


def _bags_equal(xs: tuple[Any, ...], ys: tuple[Any, ...]) -> bool:
    """Multiset equality under ``outcomes_equal``. Canonical order makes equal elements adjacent, except
    that NaNs nested inside tuples may interleave differently: fall back to matching."""
    if len(xs) != len(ys):
        return False
    if all(outcomes_equal(x, y) for x, y in zip(xs, ys, strict=True)):
        return True
    rest = list(ys)
    for x in xs:
        for i, y in enumerate(rest):
            if outcomes_equal(x, y):
                del rest[i]
                break
        else:
            return False
    return True
