"""Runtime values and observable outcomes of SparkLite programs.

A basic value is a Python ``int``, ``bool`` or (nested) ``tuple`` of them. A bag is observed as a
multiset (``Bag``, a canonical sorted tuple, so equal multisets compare equal). An exception that a
program raises under Spark (empty ``reduce`` -> ``ValueError``, ``x // 0`` -> ``ZeroDivisionError``) is
an outcome of its own (``ErrorOutcome``) that differs from every value.

A *partitioning* of an input bag is an explicit tuple of partitions, each a tuple of elements in order:
it is what ``sc.parallelize`` would hand to Spark, and the interpreter reproduces Spark's result for it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
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
    return (4, repr(v))


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
class ErrorOutcome:
    """The program raised: ``kind`` is the Python exception name (``ValueError``, ``ZeroDivisionError``)."""

    kind: str


Outcome = Any  # a BasicValue, a Bag, an ErrorOutcome, or a tuple mixing basic values and Bags


def to_json(value: Outcome) -> Any:
    """JSON form fixed by interfaces.md: bags as sorted lists, tuples as lists, errors as {"error": kind}."""
    if isinstance(value, ErrorOutcome):
        return {"error": value.kind}
    if isinstance(value, Bag):
        return [to_json(v) for v in value.items]
    if isinstance(value, tuple):
        return [to_json(v) for v in value]
    return value


def outcomes_equal(a: Outcome, b: Outcome) -> bool:
    """Observational equality: bags as multisets, ``True`` differs from ``1`` (types are compared too)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(outcomes_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, Bag):
        return len(a) == len(b) and all(outcomes_equal(x, y) for x, y in zip(a.items, b.items, strict=True))
    return a == b
