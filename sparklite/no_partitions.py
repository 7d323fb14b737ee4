"""Which bags of a program have no partition at all, given which inputs have none.

Why: Spark reads an empty text file (or a folder with no part file) as an RDD with *zero* partitions,
and ``countByValue()``/``countByKey()``/``top(n)`` end with ``reduce`` over one value per partition, so
they raise ``ValueError`` there, while an empty RDD with partitions gives ``{}``/``[]``
(``docs/semantics-notes.md``, checked on Spark 4). A rewriting that replaces such an action by one that
does not raise (``countByValue`` observed as ``reduceByKey(add)``'s bag) is exact only when both
programs' actions raise under the same inputs, so the proof views ask this module.

The partition count of a bag is a static function of its inputs' counts (Spark 4, local[2]): narrow
operators, shuffles (``numPartitions`` = the parent's count) and ``sortBy`` keep it; ``union`` adds the
counts (or zips two equally hash-partitioned sides), and so do ``join``, the outer joins, ``subtract``
and ``intersection`` (a ``union`` of tagged sides, then a shuffle); ``cartesian`` multiplies them. So a
bag has no partition exactly when: all of a union-like operator's sides have none, one side of a
cartesian has none, a narrow or by-key operator's source has none.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping
from typing import TypeVar

from sparklite import ast as A
from sparklite.types import BagType

__all__ = ["no_partitions", "zero_partition_worlds", "raises_without_partitions", "paired_worlds"]

_KEEP = (A.Map, A.Filter, A.FlatMap, A.Distinct, A.SortBy) + A.BY_KEY_OPS
_ADD = (A.Union, A.Join, A.OuterJoin, A.Subtract, A.Intersection)

T = TypeVar("T")

MAX_INPUTS = 8
"""More bag inputs than this and the worlds are not enumerated (callers must then not rely on them)."""


def no_partitions(e: A.Expr, empty: frozenset[str], bags: Mapping[str, A.Expr]) -> bool | None:
    """Whether the bag ``e`` has no partition when exactly the inputs named in ``empty`` have none
    (``bags``: the program's let-bound bags by name). None when ``e``'s shape is not known here."""
    if isinstance(e, A.Var):
        if e.name in bags:
            return no_partitions(bags[e.name], empty, bags)
        return e.name in empty
    if isinstance(e, _KEEP):
        return no_partitions(e.source, empty, bags)  # type: ignore[union-attr]
    if isinstance(e, _ADD + (A.Cartesian,)):
        left = no_partitions(e.left, empty, bags)  # type: ignore[union-attr]
        right = no_partitions(e.right, empty, bags)  # type: ignore[union-attr]
        if left is None or right is None:
            return None
        return (left or right) if isinstance(e, A.Cartesian) else (left and right)
    return None


def raises_without_partitions(node: A.Expr, empty: frozenset[str], bags: Mapping[str, A.Expr]
                              ) -> bool | None:
    """Whether the action ``node`` raises ``ValueError`` because its source has no partition (only
    ``countByValue`` and ``top`` do); None when that cannot be told."""
    if isinstance(node, A.CountByValue) or (isinstance(node, A.TakeOrdered) and node.top):
        return no_partitions(node.source, empty, bags)
    return False


def zero_partition_worlds(inputs: Iterable[T]) -> Iterator[frozenset[T]]:
    """Every non-empty set of bag inputs that may have no partition (each is then empty)."""
    items = list(inputs)
    for k in range(1, len(items) + 1):
        for combo in itertools.combinations(items, k):
            yield frozenset(combo)


def paired_worlds(left: A.Program, right: A.Program) -> list[tuple[frozenset[str], frozenset[str]]] | None:
    """Every non-empty set of inputs without partitions, as the names of each program's bag inputs
    (matched by position, as ``verifier.check`` matches parameters); None when the programs have
    different numbers of bag inputs or more than ``MAX_INPUTS``."""
    names = [[p.name for p in prog.params if isinstance(p.type, BagType)] for prog in (left, right)]
    if len(names[0]) != len(names[1]) or len(names[0]) > MAX_INPUTS:
        return None
    return [(frozenset(names[0][i] for i in world), frozenset(names[1][i] for i in world))
            for world in zero_partition_worlds(range(len(names[0])))]
