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
  consumes never happens), and ``cartesian`` computes its right side only when its left side has an
  element (Spark's ``CartesianRDD`` never opens the right partition otherwise).
- The driver is strict, as Python is: every let is evaluated, in order, whether or not the result uses
  it, so an action whose value is unused still runs and its error is the program's outcome (the code
  generator emits every let as an assignment). Within an expression evaluation is left to right, as
  Python evaluates the equivalent PySpark call chain (receiver, then arguments, then the action); a
  tuple evaluates all its components even when only one is projected. After the body, result bags are
  collected left to right. Inside one Spark job the only task-side error is ``ZeroDivisionError``, so
  which task fails first does not change the outcome. Which exceptions exist, and where, is
  ``sparklite.effects``.
"""

from __future__ import annotations

import functools
import operator
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from sparklite import ast as A
from sparklite import effects
from sparklite.desugar import desugar
from sparklite.partitions import default_partitioning
from sparklite.types import BagType
from sparklite.values import Bag, ErrorOutcome, Outcome, Partitioning

__all__ = [
    "run", "EmptyReduceError", "default_partitioning", "portable_hash", "LazyBag", "evaluate",
]


class EmptyReduceError(Exception):
    """Spark's driver-side ``ValueError("Can not reduce() empty RDD")``; kept distinct from Python's own
    ``ValueError`` so that a bug in this module is never mistaken for a program outcome."""


def portable_hash(x: Any) -> int:
    """PySpark's ``portable_hash`` (``pyspark/core/rdd.py``) for the values SparkLite has: ints, bools,
    None and (nested) tuples. Python's ``hash`` of ints and bools does not depend on PYTHONHASHSEED."""
    if x is None:
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
    output, possibly filtered); see the module doc for why that matters. Elements are computed once and
    cached, errors too (Spark would recompute, with the same result).
    """

    __slots__ = ("nparts", "hashed", "_compute", "_parts", "_error")

    def __init__(self, nparts: int, hashed: bool, compute: Callable[[], Parts]) -> None:
        self.nparts = nparts
        self.hashed = hashed
        self._compute = compute
        self._parts: Parts | None = None
        self._error: BaseException | None = None

    @staticmethod
    def of(partitions: Partitioning | Iterable[Iterable[Any]]) -> LazyBag:
        parts = [list(p) for p in partitions] or [[]]  # like verifier.spark.exact_rdd: never 0 partitions
        return LazyBag(len(parts), False, lambda: parts)

    def parts(self) -> Parts:
        if self._error is not None:
            raise self._error
        if self._parts is None:
            try:
                self._parts = self._compute()
            except (ZeroDivisionError, EmptyReduceError) as exc:
                self._error = exc
                raise
            if len(self._parts) != self.nparts:  # pragma: no cover - internal invariant
                raise AssertionError("partition count mismatch")
        return self._parts

    def elements(self) -> list[Any]:
        return [x for p in self.parts() for x in p]


_ARITH: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod,
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
    ">=": operator.ge,
}
_BUILTINS: dict[str, Callable[..., Any]] = {"min": min, "max": max, "abs": abs}
_GROUP_AGGS: dict[str, Callable[[list[Any]], Any]] = {"sum": sum, "len": len, "min": min, "max": max}


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

    def compute() -> Parts:
        buckets: list[list[list[tuple[Any, Any]]]] = []  # buckets[m][j]
        for part in src.parts():
            local: dict[Any, Any] = {}
            for k, v in part:
                local[k] = merge_value(local[k], v) if k in local else create(v)
            out: list[list[tuple[Any, Any]]] = [[] for _ in range(n)]
            for k, c in local.items():
                out[portable_hash(k) % n].append((k, c))
            buckets.append(out)
        result: Parts = []
        for j in range(n):
            merged: dict[Any, Any] = {}
            for out in buckets:
                for k, c in out[j]:
                    merged[k] = merge_combiners(merged[k], c) if k in merged else c
            result.append(list(merged.items()))
        return result

    return LazyBag(n, True, compute)


def _map_parts(src: LazyBag, hashed: bool, f: Callable[[list[Any]], list[Any]]) -> LazyBag:
    return LazyBag(src.nparts, hashed, lambda: [f(p) for p in src.parts()])


def _union(left: LazyBag, right: LazyBag) -> LazyBag:
    if left.hashed and right.hashed and left.nparts == right.nparts:
        # Spark's PartitionerAwareUnionRDD: partition i is left_i ++ right_i.
        return LazyBag(left.nparts, True,
                       lambda: [a + b for a, b in zip(left.parts(), right.parts(), strict=True)])
    return LazyBag(left.nparts + right.nparts, False, lambda: left.parts() + right.parts())


def _group_by_key(src: LazyBag) -> LazyBag:
    def merge_value(xs: list[Any], x: Any) -> list[Any]:
        return [*xs, x]

    return _combine_by_key(src, lambda v: [v], merge_value, operator.add)


def _join(left: LazyBag, right: LazyBag) -> LazyBag:
    """PySpark's ``python_join``: tag values with 1/2 (``mapValues``, keeps hash-partitioning), union,
    ``groupByKey``, then per key every (left value, right value) pair in arrival order."""
    vs = _map_parts(left, left.hashed, lambda p: [(k, (1, v)) for k, v in p])
    ws = _map_parts(right, right.hashed, lambda p: [(k, (2, w)) for k, w in p])
    grouped = _group_by_key(_union(vs, ws))

    def dispatch(part: list[Any]) -> list[Any]:
        out = []
        for k, tagged in part:
            vbuf = [v for t, v in tagged if t == 1]
            wbuf = [w for t, w in tagged if t == 2]
            out.extend((k, (v, w)) for v in vbuf for w in wbuf)
        return out

    return _map_parts(grouped, True, dispatch)


def _distinct(src: LazyBag) -> LazyBag:
    """``map(x -> (x, None)).reduceByKey(lambda x, _: x).map(first)``."""
    keyed = _map_parts(src, False, lambda p: [(x, None) for x in p])
    reduced = _combine_by_key(keyed, lambda v: v, lambda a, _b: a, lambda a, _b: a)
    return _map_parts(reduced, False, lambda p: [k for k, _ in p])


def _cartesian(left: LazyBag, right: LazyBag) -> LazyBag:
    n2 = right.nparts

    def compute() -> Parts:
        lp = left.parts()
        if not any(lp):  # CartesianRDD never opens a right partition when the left one is empty
            return [[] for _ in range(left.nparts * n2)]
        rp = right.parts()
        return [[(x, y) for x in li for y in rj] for li in lp for rj in rp]

    return LazyBag(left.nparts * n2, False, compute)


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
        if isinstance(e, A.IntLit):
            return e.value
        if isinstance(e, A.BoolLit):
            return e.value
        if isinstance(e, A.Var):
            return env[e.name]
        if isinstance(e, A.BinOp):
            if e.op == "and":
                left = self.ev(e.left, env)
                return left and self.ev(e.right, env)
            if e.op == "or":
                left = self.ev(e.left, env)
                return left or self.ev(e.right, env)
            left = self.ev(e.left, env)
            right = self.ev(e.right, env)
            return _ARITH[e.op](left, right)
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
            f = _BUILTINS[e.func] if e.func in _BUILTINS and e.func not in self.defs else env[e.func]
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
            return _map_parts(src, src.hashed and e.preserves_partitioning, lambda p: [f(x) for x in p])
        if isinstance(e, A.Filter):
            src = self.bag(e.source, env)
            f = self.fn(e.fn, env)
            return _map_parts(src, src.hashed, lambda p: [x for x in p if f(x)])
        if isinstance(e, A.FlatMap):
            src = self.bag(e.source, env)
            f = self.fn(e.fn, env)
            hashed = src.hashed and e.preserves_partitioning
            return _map_parts(src, hashed, lambda p: [y for x in p for y in f(x)])
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


def _observe(value: Any) -> Outcome:
    """What the caller sees: bags collected (left to right) into multisets."""
    if isinstance(value, LazyBag):
        return Bag.of(value.elements())
    if isinstance(value, tuple):
        return tuple(_observe(v) for v in value)
    return value


def _input_bag(name: str, inputs: Mapping[str, Any], partitions: Mapping[str, Partitioning] | None
               ) -> LazyBag:
    if partitions is not None and name in partitions:
        return LazyBag.of(partitions[name])
    value = inputs[name]
    if isinstance(value, Bag):
        value = value.items
    return LazyBag.of(default_partitioning(list(value)))


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
