"""Partitionings of small input bags: the ways Spark could hold a bag, for checking partition dependence.

A *partitioning* (``sparklite.values.Partitioning``) is a tuple of partitions, each a tuple of elements
in the order Spark iterates them. Spark's results depend on all of it: ``fold`` applies ``zero`` once per
partition (so empty partitions count), non-commutative functions see the order within a partition, and the
driver combines partition results in partition order. So two partitionings are the same only when they
are equal as nested tuples: ``((1, 2), ())`` and ``((), (1, 2))`` are different, and so are
``((1, 2),)`` and ``((2, 1),)``.

What ``all_partitionings(elems, max_parts)`` enumerates, exactly: for every ``k`` in ``1..max_parts`` and
every distinct ordering of the multiset ``elems``, every way of cutting that sequence into ``k``
consecutive (possibly empty) pieces; duplicates (from repeated elements) are yielded once. An empty
bag also has the partitioning ``()`` with no partition at all, yielded last: Spark reads an empty text
file so, and ``countByValue``/``top`` raise on it (``docs/semantics-notes.md``). That is every
ordered list of ``k`` ordered partitions whose elements together are ``elems``. For ``n`` distinct
elements there are ``n! * C(n + k - 1, k - 1)`` of them for each ``k`` (504 for ``n = 4``,
``max_parts = 3``), so keep the bags small; ``sample_partitionings`` draws a few instead.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from typing import Any

from sparklite.values import Partitioning


def default_partitioning(elems: Sequence[Any]) -> Partitioning:
    """One partition holding the elements in list order: what an input list means by default."""
    return (tuple(elems),)


def _distinct_orderings(elems: Sequence[Any]) -> Iterator[tuple[Any, ...]]:
    """Distinct permutations of a multiset, the given order first (no factorial blow-up from duplicates
    beyond what is needed: duplicates are filtered through a set)."""
    seen: set[tuple[Any, ...]] = set()
    for perm in itertools.permutations(elems):
        if perm not in seen:
            seen.add(perm)
            yield perm


def _cuts(seq: tuple[Any, ...], k: int) -> Iterator[Partitioning]:
    """All ways to cut ``seq`` into ``k`` consecutive, possibly empty, pieces (in a stable order)."""
    n = len(seq)
    for bounds in itertools.combinations_with_replacement(range(n + 1), k - 1):
        edges = (0, *bounds, n)
        yield tuple(seq[edges[i]:edges[i + 1]] for i in range(k))


def all_partitionings(elems: Sequence[Any], max_parts: int) -> Iterator[Partitioning]:
    """Every distinct partitioning of ``elems`` into ``1..max_parts`` ordered partitions (see module doc).

    The first one yielded is ``default_partitioning(elems)``; fewer partitions come before more.
    """
    if max_parts < 1:
        raise ValueError("max_parts must be at least 1")
    seen: set[Partitioning] = set()
    orderings = list(_distinct_orderings(elems))
    for k in range(1, max_parts + 1):
        for seq in orderings:
            for part in _cuts(seq, k):
                if part not in seen:
                    seen.add(part)
                    yield part
    if not elems:
        yield ()


def random_partitioning(elems: Sequence[Any], rng: random.Random, max_parts: int = 3) -> Partitioning:
    """One random partitioning: a random order, a random partition count in ``1..max_parts`` and random
    (possibly empty) pieces. Cheap, and every partitioning enumerated above has a nonzero chance."""
    seq = list(elems)
    rng.shuffle(seq)
    k = rng.randint(1, max_parts)
    bounds = sorted(rng.randint(0, len(seq)) for _ in range(k - 1))
    edges = [0, *bounds, len(seq)]
    return tuple(tuple(seq[edges[i]:edges[i + 1]]) for i in range(k))


def sample_partitionings(
    elems: Sequence[Any], k: int, rng: random.Random, max_parts: int = 3
) -> list[Partitioning]:
    """Up to ``k`` distinct partitionings of ``elems``: the default one first, then random ones.

    Fewer than ``k`` come back only when the bag has fewer distinct partitionings (or the random draws
    keep repeating: at most ``20 * k`` draws are made, so this stays cheap).
    """
    if k <= 0:
        return []
    out = [default_partitioning(elems)]
    seen = set(out)
    draws = 0
    while len(out) < k and draws < 20 * k:
        draws += 1
        p = random_partitioning(elems, rng, max_parts)
        if p not in seen:
            seen.add(p)
            out.append(p)
    return out
