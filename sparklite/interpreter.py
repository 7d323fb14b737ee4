"""The reference interpreter: what a SparkLite program computes when PySpark 4 runs it.

Every other part of sparkeq is tested against this module, so it reproduces Spark rather than an
idealised sequential reading (``shared/design/spark-semantics.md``; the PySpark code paths it follows are
in ``docs/semantics-notes.md``). The essentials:

- A bag is a list of partitions (ordered lists), because Spark's results depend on them: ``fold`` starts
  every partition and the driver at ``zero``; ``reduce`` skips empty partitions; non-commutative functions
  see the order inside a partition and the partition order.
- Narrow operators keep partitions (``map``, ``filter``, ``flatMap``); ``union`` concatenates partition
  lists; ``cartesian`` has ``n1 * n2`` partitions, ``(i, j)`` at index ``i * n2 + j``.
- Shuffles (the ``combineByKey`` family, ``groupByKey``, ``distinct``, ``join``) use
  ``numPartitions = `` the parent's partition count, send key ``k`` to ``portable_hash(k) % n``, combine
  per (map partition, key) in element order, merge combiners in map-partition order, and emit keys in
  first-arrival order (Python dict order in PySpark's ``ExternalMerger``).
- Spark remembers that a shuffle's output is hash-partitioned (``filter`` and ``mapValues`` keep that,
  ``map`` forgets it). Then ``union`` of two such bags with the same partition count zips partitions
  (``PartitionerAwareUnionRDD``) instead of concatenating, and a later shuffle is skipped (which gives the
  same contents). This changes partition counts, so it is modelled.
- Errors: ``x // 0`` and ``x % 0`` give ``ErrorOutcome("ZeroDivisionError")``; ``reduce``/``min``/``max``
  of an empty bag give ``ErrorOutcome("ValueError")``. Bags are lazy, as RDDs are: a bag's elements are
  computed only when an action or the final collection needs them (an error inside a bag nobody
  consumes never happens), a partition at a time as Spark's tasks compute them (``LazyBag``), and
  ``cartesian`` computes a right partition only when its left partition has an element (Spark's
  ``CartesianRDD`` never opens the right partition otherwise). One exception: ``sortBy`` over more than
  one partition runs its count and sampling jobs when it is called.
- The driver is strict, as Python is: every let is evaluated, in order, whether or not the result uses
  it, so an action whose value is unused still runs and its error is the program's outcome (the code
  generator emits every let as an assignment). Within an expression evaluation is left to right, as
  Python evaluates the equivalent PySpark call chain (receiver, then arguments, then the action); a
  tuple evaluates all its components even when only one is projected. After the body, result bags are
  collected left to right. Partitions are computed in order, so when tasks of one Spark job raise
  different exceptions this reports partition order's first, while Spark reports whichever task fails
  first (the random tests keep to one task-side exception kind per program). Which exceptions exist,
  and where, is ``sparklite.effects``.
"""

from __future__ import annotations

import bisect
import functools
import heapq
import operator
import random
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from sparklite import ast as A
from sparklite import effects
from sparklite.builtins import BUILTINS as _LIBRARY
from sparklite.builtins import ProgramError
from sparklite.desugar import desugar
from sparklite.partitions import default_partitioning
from sparklite.strhash import str_hash_seed0
from sparklite.types import BagType
from sparklite.values import (
    Bag,
    DictValue,
    ErrorOutcome,
    ListValue,
    Outcome,
    Partitioning,
    Ranked,
    observe_sequence,
)

__all__ = [
    "run", "EmptyReduceError", "default_partitioning", "portable_hash", "LazyBag", "evaluate",
]


class EmptyReduceError(Exception):
    """Spark's driver-side ``ValueError("Can not reduce() empty RDD")``; kept distinct from Python's own
    ``ValueError`` so that a bug in this module is never mistaken for a program outcome."""


def portable_hash(x: Any) -> int:
    """PySpark's ``portable_hash`` (``pyspark/core/rdd.py``) for the values SparkLite has: ints, bools,
    floats, strings, None and (nested) tuples. Python's ``hash`` of ints, bools and floats does not
    depend on PYTHONHASHSEED; strings are hashed as PySpark's workers hash them, with seed 0
    (``sparklite.strhash``). A NaN's hash is its identity in Python 3.10+, which no model reproduces:
    NaN keys are hashed as 0 here and may be placed differently by Spark."""
    if x is None:
        return 0
    if isinstance(x, str):
        return str_hash_seed0(x)
    if isinstance(x, float) and x != x:
        return 0
    if isinstance(x, tuple):
        h = 0x345678
        for i in x:
            h ^= portable_hash(i)
            h *= 1000003
            h &= sys.maxsize
        h ^= len(x)
        if h == -1:
            h = -2
        return int(h)
    return hash(x)


Parts = list[list[Any]]


class LazyBag:
    """An RDD: its partition count and hash-partitioning are known statically, its elements on demand.

    ``hashed`` means Spark knows the bag is partitioned by ``portable_hash(key) % nparts`` (a shuffle
    output, possibly filtered); see the module doc for why that matters.

    How much is computed follows Spark's tasks (checked on Spark, ``docs/semantics-notes.md``):

    - narrow operators (``map``, ``filter``, ``flatMap``; ``raw_iter``) are pipelined into the task that
      consumes them and computed lazily, element by element (``raw_iterate``), because ``take`` and
      ``first`` pull only the elements they need and a UDF that raises on a later element never runs;
    - every other bag is computed a partition at a time (``part``: one task's whole output, as a union's
      or a cartesian's parent partition, a shuffle's reduce side) or all at once (``compute``: a sort, a
      shuffle's map side, inputs). A partition is computed once and cached, its error too (Spark would
      recompute, with the same result); the other partitions are not computed until needed.

    ``ranked`` bags come out of ``sortBy`` (and the narrow operators after it): their order is part of
    what a program's result shows (a collected sorted bag is a sequence, an unsorted one a multiset).
    Spark fixes the order of equal sort keys too (input order, ``_sort_by``), so the order is exact.
    """

    __slots__ = ("nparts", "hashed", "ranked", "_compute", "_raw_iter", "_part", "_source", "_parts",
                 "_error", "_cache")

    def __init__(self, nparts: int, hashed: bool, compute: Callable[[], Parts] | None = None, *,
                 raw_iter: Callable[[int], Iterator[Any]] | None = None,
                 part: Callable[[int], list[Any]] | None = None, source: LazyBag | None = None,
                 ranked: bool = False) -> None:
        self.nparts = nparts
        self.hashed = hashed
        self.ranked = ranked
        self._compute = compute
        self._raw_iter = raw_iter
        self._part = part
        self._source = source  # the bag a narrow operator reads
        self._parts: Parts | None = None
        self._error: BaseException | None = None
        self._cache: dict[int, list[Any] | BaseException] = {}

    @staticmethod
    def of(partitions: Partitioning | Iterable[Iterable[Any]]) -> LazyBag:
        # ``()`` is an RDD with no partition at all (``sc.textFile`` of an empty file, ``sc.emptyRDD()``):
        # empty, but unlike one empty partition it makes ``countByValue``/``top`` raise
        parts = [list(p) for p in partitions]
        return LazyBag(len(parts), False, lambda: parts)

    def raw_parts(self) -> Parts:
        """Every partition, computed in partition order (the first error raises)."""
        if self._compute is None:
            return [self.raw_partition(i) for i in range(self.nparts)]
        if self._error is not None:
            raise self._error
        if self._parts is None:
            try:
                self._parts = self._compute()
            except (ZeroDivisionError, EmptyReduceError, ProgramError) as exc:
                self._error = exc
                raise
            if len(self._parts) != self.nparts:  # pragma: no cover - internal invariant
                raise AssertionError("partition count mismatch")
        return self._parts

    def raw_partition(self, i: int) -> list[Any]:
        """Partition ``i`` in full, as the task computing it does (computed once, an error too)."""
        if self._compute is not None:
            return self.raw_parts()[i]
        got = self._cache.get(i)
        if got is None:
            try:
                got = self._part(i) if self._part is not None else list(self._raw_iter(i))  # type: ignore[misc]
            except (ZeroDivisionError, EmptyReduceError, ProgramError) as exc:
                got = exc
            self._cache[i] = got
        if isinstance(got, BaseException):
            raise got
        return got

    def partition(self, i: int) -> list[Any]:
        return self.raw_partition(i)

    def parts(self) -> Parts:
        return self.raw_parts()

    def raw_iterate(self, i: int) -> Iterator[Any]:
        """Partition ``i``'s raw items, computed lazily when this bag is a chain of narrow operators
        (a failed attempt is not remembered: pulling fewer elements again may succeed, as in Spark)."""
        if self._raw_iter is not None and not isinstance(self._cache.get(i), list):
            return self._raw_iter(i)
        return iter(self.raw_partition(i))

    def iterate(self, i: int) -> Iterator[Any]:
        return self.raw_iterate(i)

    def start_task(self, i: int) -> None:
        """What a task over partition ``i`` computes before it pulls any element: the partition of the
        first non-narrow bag below the narrow chain (a shuffle's reduce side, a union's parent...)."""
        bag: LazyBag = self
        while bag._raw_iter is not None and bag._source is not None:
            bag = bag._source
        bag.raw_partition(i)

    def elements(self) -> list[Any]:
        return [x for p in self.parts() for x in p]


_ARITH: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod,
    "/": operator.truediv, "in": lambda a, b: operator.contains(b, a),
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
    ">=": operator.ge,
}
_GROUP_AGGS: dict[str, Callable[[list[Any]], Any]] = {
    "sum": sum, "len": len, "min": min, "max": max, "list": list,
}


# ---------------------------------------------------------------------------------------------------
# Shuffles
# ---------------------------------------------------------------------------------------------------


def _combine_by_key(
    src: LazyBag, create: Callable[[Any], Any], merge_value: Callable[[Any, Any], Any],
    merge_combiners: Callable[[Any, Any], Any],
) -> LazyBag:
    """``combineByKey`` with ``numPartitions`` = the parent's partition count (PySpark's
    ``_defaultReducePartitions`` when ``spark.default.parallelism`` is unset, as in sparkeq's context).

    Map side: per partition, an insertion-ordered dict, ``createCombiner`` for a key's first value and
    ``mergeValue`` for later ones. Each map partition's combiners go to reduce partition
    ``portable_hash(k) % n`` in dict order; a reduce partition merges what it receives in map-partition
    order (``mergeCombiners`` when the key is already present) and emits keys in first-arrival order.
    When the parent is already hash-partitioned with ``n`` partitions Spark skips the shuffle; every key
    then lives in one map partition that sends only to itself, so the simulation below gives the same
    result.
    """
    n = src.nparts
    memo: list[Any] = []  # the map side: all map tasks run before any reduce partition is read

    def map_side() -> list[list[list[tuple[Any, Any]]]]:
        if not memo:
            try:
                memo.append(_map_side(src, n, create, merge_value))
            except (ZeroDivisionError, EmptyReduceError, ProgramError) as exc:
                memo.append(exc)
        if isinstance(memo[0], BaseException):
            raise memo[0]
        return memo[0]

    def reduce_side(j: int) -> list[Any]:  # one reduce task (PySpark merges in the Python worker)
        merged: dict[Any, tuple[Any, Any]] = {}
        for out in map_side():
            for k, c in out[j]:
                slot = _slot(k)
                # a dict keeps the key object it first stored: of -0.0 and 0.0 (one key), the first seen
                merged[slot] = (merged[slot][0], merge_combiners(merged[slot][1], c)) if slot in merged \
                    else (k, c)
        return list(merged.values())

    return LazyBag(n, True, part=reduce_side)


def _map_side(src: LazyBag, n: int, create: Callable[[Any], Any], merge_value: Callable[[Any, Any], Any]
              ) -> list[list[list[tuple[Any, Any]]]]:
    """``buckets[m][j]``: map partition ``m``'s combiners for reduce partition ``j``, in dict order."""
    buckets: list[list[list[tuple[Any, Any]]]] = []
    for part in src.parts():
        local: dict[Any, tuple[Any, Any]] = {}
        for k, v in part:
            slot = _local_slot(k)
            local[slot] = (local[slot][0], merge_value(local[slot][1], v)) if slot in local \
                else (k, create(v))
        out: list[list[tuple[Any, Any]]] = [[] for _ in range(n)]
        for k, c in local.values():
            out[portable_hash(k) % n].append((k, c))
        buckets.append(out)
    return buckets


def _has_nan(k: Any) -> bool:
    if isinstance(k, float):
        return k != k
    return isinstance(k, tuple) and any(_has_nan(x) for x in k)


def _slot(k: Any) -> Any:
    """The dict slot of key ``k`` as PySpark's workers see it. Keys arrive unpickled, so two NaNs are
    two objects, and a dict (which matches by identity or ``==``) never merges them: a key holding a NaN
    gets a slot of its own. (Where Spark *places* such a key depends on its identity hash; the
    interpreter sends it by ``portable_hash``'s 0, which changes no bag and no count.)"""
    return object() if _has_nan(k) else k


class _SameNan:
    """A NaN key inside one map task: PySpark's dict there matches keys by identity before ``==``, so the
    *same* NaN object (``flatMap(lambda x: [x, x])``) is one key, two NaN objects two keys."""

    __slots__ = ("ident",)

    def __init__(self, ident: int) -> None:
        self.ident = ident

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _SameNan) and other.ident == self.ident

    def __hash__(self) -> int:
        return hash(self.ident)


def _local_slot(k: Any) -> Any:
    """The dict slot of key ``k`` in a map task (before any shuffle), where keys are the very objects the
    pipeline made: a NaN is matched by its identity (the objects are alive, so ``id`` is stable)."""
    if isinstance(k, float) and k != k:
        return _SameNan(id(k))
    if isinstance(k, tuple) and _has_nan(k):
        return tuple(_local_slot(x) for x in k)
    return k


def _map_parts(src: LazyBag, hashed: bool, f: Callable[[list[Any]], list[Any]]) -> LazyBag:
    return LazyBag(src.nparts, hashed, part=lambda i: f(src.partition(i)))


def _narrow(src: LazyBag, hashed: bool, per_elem: Callable[[Any], Iterable[Any]]) -> LazyBag:
    """A narrow operator (``map``, ``filter``, ``flatMap``): every element gives zero or more elements
    in its place, lazily, in order (a sorted source stays sorted)."""
    def raw_iter(i: int) -> Iterator[Any]:
        for x in src.raw_iterate(i):
            yield from per_elem(x)
    return LazyBag(src.nparts, hashed, raw_iter=raw_iter, source=src, ranked=src.ranked)


def _union(left: LazyBag, right: LazyBag) -> LazyBag:
    """A partition of a union is a partition of a parent, computed only when needed (and then in full)."""
    if left.hashed and right.hashed and left.nparts == right.nparts:
        # Spark's PartitionerAwareUnionRDD: partition i is left_i ++ right_i.
        return LazyBag(left.nparts, True, part=lambda i: left.partition(i) + right.partition(i))
    n1 = left.nparts
    return LazyBag(n1 + right.nparts, False,
                   part=lambda i: left.partition(i) if i < n1 else right.partition(i - n1))


def _group_by_key(src: LazyBag) -> LazyBag:
    def merge_value(xs: list[Any], x: Any) -> list[Any]:
        return [*xs, x]

    return _combine_by_key(src, lambda v: [v], merge_value, operator.add)


def _join(left: LazyBag, right: LazyBag, kind: str = "inner") -> LazyBag:
    """PySpark's ``python_join`` (and ``python_left_outer_join`` etc.): tag values with 1/2
    (``mapValues``, keeps hash-partitioning), union, ``groupByKey``, then per key every (left value,
    right value) pair in arrival order; an outer side with no value gets one ``None``."""
    vs = _map_parts(left, left.hashed, lambda p: [(k, (1, v)) for k, v in p])
    ws = _map_parts(right, right.hashed, lambda p: [(k, (2, w)) for k, w in p])
    grouped = _group_by_key(_union(vs, ws))

    def dispatch(part: list[Any]) -> list[Any]:
        out = []
        for k, tagged in part:
            vbuf = [v for t, v in tagged if t == 1]
            wbuf = [w for t, w in tagged if t == 2]
            if kind in ("right", "full") and not vbuf:
                vbuf.append(None)
            if kind in ("left", "full") and not wbuf:
                wbuf.append(None)
            out.extend((k, (v, w)) for v in vbuf for w in wbuf)
        return out

    return _map_parts(grouped, True, dispatch)


def _distinct(src: LazyBag) -> LazyBag:
    """``map(x -> (x, None)).reduceByKey(lambda x, _: x).map(first)``."""
    keyed = _map_parts(src, False, lambda p: [(x, None) for x in p])
    reduced = _combine_by_key(keyed, lambda v: v, lambda a, _b: a, lambda a, _b: a)
    return _map_parts(reduced, False, lambda p: [k for k, _ in p])


def _subtract(left: LazyBag, right: LazyBag) -> LazyBag:
    """PySpark's ``subtract``: ``self.map(x -> (x, True)).subtractByKey(other.map(x -> (x, True)))
    .keys()``; ``subtractByKey`` is a ``cogroup`` (``python_cogroup``: tag 1/2, union, ``groupByKey`` with
    the union's partition count ``n1 + n2``, as ``numPartitions`` is not given; Scala's ``subtract`` would
    use the left side's count) keeping keys with left values and no right value, each left value once."""
    vs = _map_parts(left, False, lambda p: [(x, (1, True)) for x in p])
    ws = _map_parts(right, False, lambda p: [(x, (2, True)) for x in p])
    grouped = _group_by_key(_union(vs, ws))

    def keep(part: list[Any]) -> list[Any]:
        out = []
        for k, tagged in part:
            if not any(t == 2 for t, _ in tagged):
                out.extend(k for t, _ in tagged if t == 1)
        return out

    return _map_parts(grouped, False, keep)


def _intersection(left: LazyBag, right: LazyBag) -> LazyBag:
    """PySpark's ``intersection``: ``cogroup`` of ``(x, None)`` pairs (union's partition count), keeping
    keys present on both sides, once each."""
    vs = _map_parts(left, False, lambda p: [(x, (1, None)) for x in p])
    ws = _map_parts(right, False, lambda p: [(x, (2, None)) for x in p])
    grouped = _group_by_key(_union(vs, ws))

    def keep(part: list[Any]) -> list[Any]:
        return [k for k, tagged in part if {t for t, _ in tagged} == {1, 2}]

    return _map_parts(grouped, False, keep)


def _sort_by(src: LazyBag, key: Callable[[Any], Any], ascending: bool) -> LazyBag:
    """``sortBy`` (``keyBy(key).sortByKey(ascending).values()``), computed as PySpark computes it, so
    that the order is Spark's exactly, equal keys and NaN keys included. With ``n > 1`` partitions
    ``sortByKey`` range-partitions: it samples the keys (``sample(False, fraction, seed=1)``, every key
    when ``fraction`` is 1, i.e. up to ``20 * n`` elements), takes ``bounds[i] = samples[int(len(samples)
    * (i + 1) / n)]`` of the sorted sample and sends a key to partition ``bisect_left(bounds, k)`` (``n -
    1 -`` that when descending); the elements of a partition arrive in input order (map partitions in
    order, local Spark fetches shuffle blocks in map order) and are sorted by ``list.sort(key,
    reverse)`` (``ExternalSorter.sorted``): stable, so equal keys keep their input order, and with NaN
    keys whatever Python's sort makes of that order. The keys crossed a shuffle, so a NaN in them is a
    fresh object (``_unpickled``: Python compares a tuple's items by identity first). That layout also
    decides which elements ``take`` pulls and what partition-dependent aggregations compute after the
    sort, so it is reproduced, with the sampler itself (``pyspark.rddsampler.RDDSampler``) for larger
    bags. The sort is computed all at once; with ``n > 1`` Spark runs it (its ``count`` and sampling
    jobs) when ``sortBy`` is called (see ``_Evaluator``)."""
    n = src.nparts
    if n == 0:  # sortByKey of an empty RDD returns it unchanged: still no partition
        return LazyBag(0, False, lambda: [], ranked=True)

    def compute() -> Parts:
        keyed = [[(_unpickled(key(x)), x) for x in p] for p in src.parts()]
        target = _range_partitioner([[k for k, _ in p] for p in keyed], n, ascending)
        parts: list[list[tuple[Any, Any]]] = [[] for _ in range(n)]
        for p in keyed:
            for k, x in p:
                parts[target(k)].append((k, x))
        for p in parts:
            p.sort(key=operator.itemgetter(0), reverse=not ascending)
        return [[x for _, x in p] for p in parts]

    return LazyBag(n, False, compute, ranked=True)


def _unpickled(v: Any) -> Any:
    """``v`` as a Python worker sees it after pickling: every NaN a distinct object (pickle does not
    memoize floats), which matters where Python compares by identity first (tuples, lists, ``in``)."""
    if isinstance(v, float):
        return v * 1.0 if v != v else v
    if isinstance(v, tuple):
        return tuple(_unpickled(x) for x in v)
    if isinstance(v, list):
        return [_unpickled(x) for x in v]
    return v


def _range_partitioner(keys_by_partition: list[list[Any]], n: int, ascending: bool
                       ) -> Callable[[Any], int]:
    """PySpark ``sortByKey``'s ``rangePartitioner`` for these keys (see ``_sort_by``)."""
    if n == 1:
        return lambda k: 0
    size = sum(len(p) for p in keys_by_partition)
    fraction = min(n * 20.0 / max(size, 1), 1.0)
    samples: list[Any] = []
    for split, keys in enumerate(keys_by_partition):
        if fraction >= 1.0:
            samples.extend(_unpickled(k) for k in keys)  # collected to the driver
            continue
        rng = random.Random(1 ^ split)  # RDDSampler(False, fraction, seed=1).func(split, iterator)
        for _ in range(10):
            rng.randint(0, 1)
        samples.extend(_unpickled(k) for k in keys if rng.random() < fraction)
    samples.sort()
    if not samples:
        return lambda k: 0  # no element (PySpark returns the unsorted, empty RDD)
    bounds = [samples[int(len(samples) * (i + 1) / n)] for i in range(n - 1)]

    def target(k: Any) -> int:
        p = bisect.bisect_left(bounds, k)
        return p if ascending else n - 1 - p

    return target


def _take(src: LazyBag, num: int) -> Ranked:
    """PySpark's ``take``: scan one partition, then more (interpolating how many), pulling from each
    scanned partition only the elements still missing (lazily: later elements are never computed)."""
    raw: list[Any] = []
    total = src.nparts
    scanned = 0
    while len(raw) < num and scanned < total:
        try_n = 1
        if scanned > 0:
            if not raw:
                try_n = scanned * 4
            else:
                try_n = int(1.5 * num * scanned / len(raw)) - scanned
                try_n = min(max(try_n, 1), scanned * 4)
        left = num - len(raw)
        for i in range(scanned, min(scanned + try_n, total)):
            it = src.raw_iterate(i)
            for _ in range(left):
                try:
                    raw.append(next(it))
                except StopIteration:
                    break
        scanned += try_n
    raw = [_unpickled(x) for x in raw[:num]]  # sent to the driver
    # of a sorted bag: a prefix of Spark's exact order; unsorted: which elements come first is Spark's
    # partition order, a fact of this partitioning, and their order is not observed
    return Ranked(raw, range(len(raw)) if src.ranked else [0] * len(raw))


def _take_ordered(src: LazyBag, num: int, key: Callable[[Any], Any] | None, top: bool) -> Ranked:
    """``takeOrdered(num, key)`` and ``top(num, key)`` as PySpark computes them: ``heapq.nsmallest``
    (``nlargest`` for ``top``) of every partition, the lists collected and merged on the driver by
    ``reduce`` with ``heapq.nsmallest(num, a + b, key)`` in partition order. The result is exact: with a
    strict weak order it is the first ``num`` of a stable sort of the elements in partition order (ties
    in input order); with NaN keys, whatever the heaps make of that order (the merged lists were
    pickled: ``_unpickled``). ``takeOrdered`` raises ``ValueError`` for ``num < 0`` and runs no job for
    ``num == 0``; ``top(num <= 0)`` runs its job, whose tasks pull no element (``nlargest`` returns
    ``[]`` at once), but each computes what its partition's pipeline starts from
    (``LazyBag.start_task``)."""
    if num < 0 and not top:
        raise ProgramError("ValueError")  # "top N cannot be negative."
    if (num == 0 or src.nparts == 0) and not top:
        return Ranked([], [])  # takeOrdered checks the partition count before any job
    if src.nparts == 0:  # top is mapPartitions(nlargest).reduce(merge): no partition, nothing to reduce
        raise ProgramError("ValueError")  # "Can not reduce() empty RDD"
    if num <= 0:
        for i in range(src.nparts):
            src.start_task(i)
        return Ranked([], [])
    pick = heapq.nlargest if top else heapq.nsmallest
    # a task's heap reads an iterator (no len(): heapq's sorted() shortcut is not taken), the merge a list
    tops = [pick(num, iter(p), key=key) for p in src.parts()]
    got = functools.reduce(lambda a, b: pick(num, a + b, key=key), [_unpickled(t) for t in tops])
    return Ranked(got, range(len(got)))


class _NanKeys(dict):
    """A dict whose items may repeat a NaN key (as PySpark's ``countByValue`` result does, whose NaN
    keys are distinct objects): built from (key, value) items, observed item by item."""

    def __init__(self, items: Iterable[tuple[Any, Any]]) -> None:
        pairs = list(items)
        super().__init__((object() if _has_nan(k) else k, v) for k, v in pairs)
        self.pairs = pairs

    def items(self):  # type: ignore[override]
        return list(self.pairs)


def _count_by_value(src: LazyBag) -> dict:
    """PySpark's ``mapPartitions(count).reduce(merge)``: one dict per partition merged by ``reduce``, so
    an RDD with no partition raises ``ValueError`` (an empty one with partitions gives ``{}``)."""
    if src.nparts == 0:
        raise ProgramError("ValueError")  # "Can not reduce() empty RDD"
    counts: dict[Any, tuple[Any, int]] = {}
    for p in src.parts():
        local: dict[Any, tuple[Any, int]] = {}
        for x in p:
            slot = _local_slot(x)
            local[slot] = (local[slot][0], local[slot][1] + 1) if slot in local else (x, 1)
        for x, c in local.values():
            slot = _slot(x)
            counts[slot] = (counts[slot][0], counts[slot][1] + c) if slot in counts else (x, c)
    return _NanKeys(counts.values())


def _cartesian(left: LazyBag, right: LazyBag) -> LazyBag:
    """Partition ``i * n2 + j`` pairs left partition ``i`` with right partition ``j``; its task computes
    the right partition only when the left one has an element (``CartesianRDD.compute`` iterates the left
    side first)."""
    n2 = right.nparts

    def part(k: int) -> list[Any]:
        li = left.partition(k // n2)
        if not li:
            return []
        rj = right.partition(k % n2)
        return [(x, y) for x in li for y in rj]

    return LazyBag(left.nparts * n2, False, part=part)


# ---------------------------------------------------------------------------------------------------
# Expressions
# ---------------------------------------------------------------------------------------------------


class _Evaluator:
    def __init__(self, env: dict[str, Any], defs: set[str]) -> None:
        self.env = env
        self.defs = defs

    # functions ------------------------------------------------------------------------------------

    def fn(self, fn: A.Fn, env: dict[str, Any]) -> Callable[..., Any]:
        if isinstance(fn, A.Lambda):
            return self.closure(fn, env)
        if isinstance(fn, A.FnRef):
            return env[fn.name]
        if isinstance(fn, A.PApp):
            maker = env[fn.name]
            args = [self.ev(a, env) for a in fn.args]
            return maker(*args)
        raise TypeError(f"not a function: {fn!r}")

    def closure(self, lam: A.Lambda, env: dict[str, Any]) -> Callable[..., Any]:
        names = [p.name for p in lam.params]
        body = lam.body

        def call(*args: Any) -> Any:
            local = dict(env)
            local.update(zip(names, args, strict=True))
            return self.ev(body, local)

        return call

    def define(self, d: A.Def, env: dict[str, Any]) -> Callable[..., Any]:
        """A def sees the program's environment as it is when called (like a nested Python ``def``)."""
        if isinstance(d, A.FunDef):
            return self.closure(A.Lambda(d.params, d.body), env)
        names = [p.name for p in d.params]
        lam = d.fn

        def make(*args: Any) -> Callable[..., Any]:
            local = dict(env)
            local.update(zip(names, args, strict=True))
            return self.closure(lam, local)

        return make

    # expressions ----------------------------------------------------------------------------------

    def ev(self, e: A.Expr, env: dict[str, Any]) -> Any:  # noqa: C901 - one dispatch over the AST
        if isinstance(e, A.LITERALS):
            return getattr(e, "value", None)
        if isinstance(e, A.Var):
            return env[e.name]
        if isinstance(e, A.ListExpr):
            return [self.ev(x, env) for x in e.elems]
        if isinstance(e, A.ListComp):
            items = self.ev(e.source, env)
            f = self.closure(e.fn, env)
            if e.cond is None:
                return [f(x) for x in items]
            c = self.closure(e.cond, env)
            return [f(x) for x in items if c(x)]
        if isinstance(e, A.BinOp):
            if e.op == "and":
                left = self.ev(e.left, env)
                return left and self.ev(e.right, env)
            if e.op == "or":
                left = self.ev(e.left, env)
                return left or self.ev(e.right, env)
            left = self.ev(e.left, env)
            right = self.ev(e.right, env)
            try:
                return _ARITH[e.op](left, right)
            except OverflowError:  # int/int or int mixed with float, too large for a float
                raise ProgramError("OverflowError") from None
        if isinstance(e, A.Not):
            return not self.ev(e.operand, env)
        if isinstance(e, A.Neg):
            return -self.ev(e.operand, env)
        if isinstance(e, A.Ite):
            return self.ev(e.then, env) if self.ev(e.cond, env) else self.ev(e.orelse, env)
        if isinstance(e, A.TupleExpr):
            return tuple(self.ev(x, env) for x in e.elems)
        if isinstance(e, A.Proj):
            return self.ev(e.tuple, env)[e.index]
        if isinstance(e, A.Call):
            if e.func in self.defs:
                f = env[e.func]
            else:
                f = _LIBRARY[e.func].impl
            return f(*[self.ev(a, env) for a in e.args])
        if isinstance(e, A.Apply):
            f = self.fn(e.fn, env)
            return f(*[self.ev(a, env) for a in e.args])
        return self.ev_bag_or_agg(e, env)

    def bag(self, e: A.Expr, env: dict[str, Any]) -> LazyBag:
        v = self.ev(e, env)
        if not isinstance(v, LazyBag):
            raise TypeError(f"expected a bag, got {v!r}")
        return v

    def ev_bag_or_agg(self, e: A.Expr, env: dict[str, Any]) -> Any:  # noqa: C901
        if isinstance(e, A.Map):
            src = self.bag(e.source, env)
            f = self.fn(e.fn, env)
            return _narrow(src, src.hashed and e.preserves_partitioning, lambda x: (f(x),))
        if isinstance(e, A.Filter):
            src = self.bag(e.source, env)
            f = self.fn(e.fn, env)
            return _narrow(src, src.hashed, lambda x: (x,) if f(x) else ())
        if isinstance(e, A.FlatMap):  # a tuple, a list or a string (its characters)
            src = self.bag(e.source, env)
            f = self.fn(e.fn, env)
            hashed = src.hashed and e.preserves_partitioning
            return _narrow(src, hashed, f)
        if isinstance(e, A.OuterJoin):
            left = self.bag(e.left, env)
            return _join(left, self.bag(e.right, env), e.kind)
        if isinstance(e, A.SortBy):
            src = self.bag(e.source, env)
            sorted_bag = _sort_by(src, self.fn(e.key, env), e.ascending)
            if src.nparts > 1:  # sortByKey runs count() and a sampling job right away, on the driver
                sorted_bag.raw_parts()
            return sorted_bag
        if isinstance(e, A.Subtract):
            left = self.bag(e.left, env)
            return _subtract(left, self.bag(e.right, env))
        if isinstance(e, A.Intersection):
            left = self.bag(e.left, env)
            return _intersection(left, self.bag(e.right, env))
        if isinstance(e, A.Collect):
            src = self.bag(e.source, env)
            items = [_unpickled(x) for x in src.elements()]  # sent to the driver
            return Ranked(items, range(len(items)) if src.ranked else [0] * len(items))
        if isinstance(e, A.Take):
            src = self.bag(e.source, env)
            return _take(src, self.ev(e.count, env))
        if isinstance(e, A.First):
            src = self.bag(e.source, env)
            got = _take(src, 1)
            if not got:
                raise ProgramError("ValueError")  # "RDD is empty"
            return got[0]
        if isinstance(e, A.TakeOrdered):
            src = self.bag(e.source, env)
            num = self.ev(e.count, env)
            key = self.fn(e.key, env) if e.key is not None else None
            return _take_ordered(src, num, key, e.top)
        if isinstance(e, A.CountByValue):
            return _count_by_value(self.bag(e.source, env))
        if isinstance(e, A.CollectAsMap):  # dict(collect()): the last value wins, a NaN key is its own
            slots: dict[Any, tuple[Any, Any]] = {}  # and the first key stays (-0.0 and 0.0 are one key)
            for k, v in self.bag(e.source, env).elements():
                slot = _slot(k)
                slots[slot] = (slots[slot][0] if slot in slots else k, v)
            return _NanKeys(slots.values())
        if isinstance(e, A.Cartesian):
            left = self.bag(e.left, env)
            return _cartesian(left, self.bag(e.right, env))
        if isinstance(e, A.Join):
            left = self.bag(e.left, env)
            return _join(left, self.bag(e.right, env))
        if isinstance(e, A.Union):
            left = self.bag(e.left, env)
            return _union(left, self.bag(e.right, env))
        if isinstance(e, A.Distinct):
            return _distinct(self.bag(e.source, env))
        if isinstance(e, A.CombineByKey):  # the kernel's only by-key aggregation (sparklite.desugar)
            src = self.bag(e.source, env)
            if e.zero is not None:  # evaluated once, on the driver, when the RDD is built
                zero = self.ev(e.zero, env)
                create_z = self.fn(e.create, env)
                create = lambda v: create_z(zero, v)  # noqa: E731
            else:
                create = self.fn(e.create, env)
            mv = self.fn(e.merge_value, env)
            mc = self.fn(e.merge_combiners, env)
            return _combine_by_key(src, create, mv, mc)
        if isinstance(e, A.GroupByKeyAgg):
            grouped = _group_by_key(self.bag(e.source, env))
            aggs = [_GROUP_AGGS[k] for k in e.kinds]
            if len(aggs) == 1:
                g = aggs[0]
                return _map_parts(grouped, True, lambda p: [(k, g(vs)) for k, vs in p])
            return _map_parts(grouped, True,
                              lambda p: [(k, tuple(g(vs) for g in aggs)) for k, vs in p])
        # aggregations: receiver, then arguments, then the job
        if isinstance(e, A.Aggregate):
            src = self.bag(e.source, env)
            zero = self.ev(e.zero, env)
            seq = self.fn(e.seq, env)
            comb = self.fn(e.comb, env)
            vals = [functools.reduce(seq, p, zero) for p in src.parts()]
            return functools.reduce(comb, vals, zero)
        if isinstance(e, A.Reduce):
            src = self.bag(e.source, env)
            return _reduce(self.fn(e.op, env), src)
        if isinstance(e, A.SimpleAgg):
            src = self.bag(e.source, env)
            if e.kind == "count":
                return sum(len(p) for p in src.parts())
            if e.kind == "sum":  # mapPartitions(sum).fold(0, add)
                return functools.reduce(operator.add, [0 + sum(p) for p in src.parts()], 0)
            return _reduce(min if e.kind == "min" else max, src)
        raise TypeError(f"unknown expression node {type(e).__name__}")


def _reduce(f: Callable[[Any, Any], Any], src: LazyBag) -> Any:
    vals = [functools.reduce(f, p) for p in src.parts() if p]
    if not vals:
        raise EmptyReduceError()
    return functools.reduce(f, vals)


def _observe(value: Any, result: bool = True) -> Outcome:
    """What the caller sees: bags collected (left to right) into multisets, sorted bags and ordered
    actions' lists as the exact sequences Spark returns (each element its own group of a ``Sorted``),
    dicts as ``DictValue``. A list the program returns (alone or in its result tuple) is a sequence too,
    so ``sorted(R.collect())`` and ``R.sortBy(lambda x: x).collect()`` are observed alike; a list inside
    an element is a ``ListValue``."""
    if isinstance(value, LazyBag):
        if value.ranked:
            items = [_observe(x, False) for x in value.elements()]
            return observe_sequence(items, list(range(len(items))), None)
        return Bag.of([_observe(x, False) for x in value.elements()])
    if isinstance(value, Ranked):
        return observe_sequence([_observe(x, False) for x in value], value.ranks, None)
    if isinstance(value, tuple):
        return tuple(_observe(v, result) for v in value)
    if isinstance(value, list):
        items = [_observe(v, False) for v in value]
        return observe_sequence(items, list(range(len(items))), None) if result else ListValue(tuple(items))
    if isinstance(value, dict):
        return DictValue.of_items((_observe(k, False), _observe(v, False)) for k, v in value.items())
    return value


def _input_bag(name: str, inputs: Mapping[str, Any], partitions: Mapping[str, Partitioning] | None
               ) -> LazyBag:
    if partitions is not None and name in partitions:
        return LazyBag.of(_unpickled_parts(partitions[name]))
    value = inputs[name]
    if isinstance(value, Bag):
        value = value.items
    return LazyBag.of(_unpickled_parts(default_partitioning(list(value))))


def _unpickled_parts(partitions: Partitioning) -> Partitioning:
    """An input as Spark's workers read it: unpickled, so no two NaNs are one object."""
    return tuple(tuple(_unpickled(x) for x in p) for p in partitions)


def evaluate(program: A.Program, inputs: Mapping[str, Any],
             partitions: Mapping[str, Partitioning] | None = None) -> Any:
    """Evaluate ``program`` and return the raw result (bags as ``LazyBag``, not yet forced); raises
    ``ZeroDivisionError`` or the internal empty-reduce error. ``run`` is the interface to use; this is
    for callers that want to inspect result partitions (``LazyBag.parts()``)."""
    program = desugar(program)  # the interpreter reads only the kernel
    env: dict[str, Any] = {}
    for p in program.params:
        if isinstance(p.type, BagType):
            env[p.name] = _input_bag(p.name, inputs, partitions)
        else:
            env[p.name] = inputs[p.name]
    ev = _Evaluator(env, {d.name for d in program.defs})
    for d in program.defs:
        env[d.name] = ev.define(d, env)
    for b in program.lets:  # strict driver: every let runs, used or not
        env[b.name] = ev.ev(b.value, env)
    return ev.ev(program.body, env)


def run(program: A.Program, inputs: Mapping[str, Any],
        partitions: Mapping[str, Partitioning] | None = None) -> Outcome:
    """The outcome of ``program`` under PySpark on ``inputs``.

    Bag inputs are lists (or any iterable, or a ``Bag``) of elements, held by default in one partition in
    list order; ``partitions[name]`` gives an explicit partitioning instead (it then wins over
    ``inputs[name]``, which may be omitted). Returns a basic value, a ``Bag``, a tuple of those, or an
    ``ErrorOutcome`` (``"ZeroDivisionError"``, ``"ValueError"``) when Spark would raise.
    """
    try:
        return _observe(evaluate(program, inputs, partitions))
    except ZeroDivisionError:
        return ErrorOutcome(effects.ZERO_DIVISION)
    except EmptyReduceError:
        return ErrorOutcome(effects.EMPTY_ACTION)
    except ProgramError as exc:
        return ErrorOutcome(exc.kind)
