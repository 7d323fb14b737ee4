"""Partitionings: what ``all_partitionings`` enumerates (exactly, deduplicated) and the cheap samplers."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest

from sparklite.generate import random_partitionings
from sparklite.interpreter import default_partitioning as interp_default
from sparklite.partitions import (
    all_partitionings,
    default_partitioning,
    random_partitioning,
    sample_partitionings,
)


def test_default_is_one_partition_in_list_order() -> None:
    assert default_partitioning([3, 1, 2]) == ((3, 1, 2),)
    assert default_partitioning([]) == ((),)
    assert interp_default is default_partitioning


def test_small_cases_exactly() -> None:
    assert list(all_partitionings([], 2)) == [((),), ((), ()), ()]  # () : no partition at all
    assert list(all_partitionings([1], 2)) == [((1,),), ((), (1,)), ((1,), ())]
    got = set(all_partitionings([1, 2], 2))
    assert got == {((1, 2),), ((2, 1),),
                   ((), (1, 2)), ((1,), (2,)), ((1, 2), ()), ((), (2, 1)), ((2,), (1,)), ((2, 1), ())}


@pytest.mark.parametrize("n,k", [(0, 3), (1, 3), (2, 3), (3, 2), (4, 3)])
def test_counts_for_distinct_elements(n: int, k: int) -> None:
    elems = list(range(n))
    parts = list(all_partitionings(elems, k))
    expected = sum(math.factorial(n) * math.comb(n + j - 1, j - 1) for j in range(1, k + 1))
    expected += n == 0  # an empty bag may also have no partition at all
    assert len(parts) == expected == len(set(parts))


def test_every_partitioning_holds_the_bag_and_duplicates_are_removed() -> None:
    elems = [1, 1, 2]
    parts = list(all_partitionings(elems, 3))
    assert len(parts) == len(set(parts))
    for p in parts:
        assert 1 <= len(p) <= 3
        assert Counter(x for part in p for x in part) == Counter(elems)
    # brute force: every assignment of positions to (partition, order) gives one of them
    brute = set()
    for k in range(1, 4):
        for perm in itertools.permutations(elems):
            for labels in itertools.product(range(k), repeat=len(elems)):
                if list(labels) == sorted(labels):
                    brute.add(tuple(tuple(x for x, lab in zip(perm, labels, strict=True) if lab == i)
                                    for i in range(k)))
    assert set(parts) == brute


def test_default_comes_first_and_fewer_partitions_first() -> None:
    parts = list(all_partitionings([5, 6, 7], 3))
    assert parts[0] == ((5, 6, 7),)
    sizes = [len(p) for p in parts]
    assert sizes == sorted(sizes)


def test_max_parts_must_be_positive() -> None:
    with pytest.raises(ValueError):
        list(all_partitionings([1], 0))


def test_samplers() -> None:
    rng = random.Random(1)
    elems = [1, 2, 3, 4]
    universe = set(all_partitionings(elems, 3))
    seen = set()
    for _ in range(3000):
        p = random_partitioning(elems, rng, 3)
        assert p in universe
        seen.add(p)
    assert len(seen) > 0.8 * len(universe)  # cheap, and not stuck on a few shapes
    sample = sample_partitionings(elems, 10, rng)
    assert sample[0] == default_partitioning(elems)
    assert len(sample) == 10 == len(set(sample)) and set(sample) <= universe
    assert sample_partitionings([], 5, rng, max_parts=1) == [((),)]  # only one exists
    assert sample_partitionings(elems, 0, rng) == []


def test_random_partitionings_of_inputs_touch_only_bags() -> None:
    rng = random.Random(0)
    parts = random_partitionings(rng, {"R": [1, 2, 3], "t": 4, "u": (1, 2)}, max_parts=2)
    assert set(parts) == {"R"}
    assert sorted(x for p in parts["R"] for x in p) == [1, 2, 3] and 1 <= len(parts["R"]) <= 2
