"""Whole SparkLite programs over *bounded* symbolic inputs, with Spark's partitioned semantics.

The paper's methods reason about one representative element; bounded disproof (verification-conditions
section 7) instead unrolls a program over input bags of a fixed, small size laid out in an explicit
partitioning, so that every construct -- union, distinct, join, cartesian (also of a bag with itself),
the by-key aggregations, Spark's per-partition ``zero`` of ``fold`` and errors -- has a direct,
first-order encoding:

- a symbolic bag (``SBag``) is a list of partitions, each a list of boxed elements ``(value, present)``:
  ``filter`` clears presence instead of changing the shape, so sizes stay static;
- aggregations fold partition by partition and then at the driver, exactly as ``spark-semantics.md``
  says, so a model found here distinguishes partitionings too;
- errors (a zero divisor on a reached path, ``reduce``/``min``/``max`` of an empty bag) are collected as
  conditions with their exception kind; the outcome is an error iff one of them holds.

The encoding may approximate where Spark's choice is arbitrary (the partitioning after a shuffle, which
of two errors surfaces first): a model is only ever a *candidate* that the reference interpreter
re-checks, so approximations cost completeness, never soundness.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from encoder.basic import (
    BasicEncoder,
    EncodingError,
    Sym,
    as_number,
    fresh,
    key_eq,
    sym_eq,
    sym_ite,
    sym_max,
    sym_min,
    sym_to_value,
)
from sparklite import ast as A
from sparklite.deadline import Deadline
from sparklite.desugar import desugar
from sparklite.types import BagType

TRUE = z3.BoolVal(True)
FALSE = z3.BoolVal(False)

# Exception kinds an outcome can carry, as small integers inside formulas.
ERROR_KINDS = ("ZeroDivisionError", "ValueError")
ZERO_DIV = 1
VALUE_ERROR = 2


FLAT_POSITIONS = 2
"""How many positions of a variable-length flatMap result the bounded unrolling looks at."""


@dataclass
class SBag:
    """A symbolic bag: ``parts[i]`` is partition ``i``, a list of ``(value, present)`` pairs."""

    parts: list[list[tuple[Sym, z3.BoolRef]]]

    def elems(self) -> list[tuple[Sym, z3.BoolRef]]:
        return [e for part in self.parts for e in part]

    def indexed(self) -> list[tuple[int, Sym, z3.BoolRef]]:
        """Elements with their partition index, in partition order."""
        return [(i, v, p) for i, part in enumerate(self.parts) for v, p in part]


SymOutcome = Any  # an SBag, a Sym, or a Python tuple mixing them


@dataclass
class Encoded:
    """A program's symbolic outcome: ``value`` unless one of ``errors`` (condition, kind) holds."""

    value: SymOutcome
    errors: list[tuple[z3.BoolRef, int]]

    def is_error(self) -> z3.BoolRef:
        return z3.Or(*[c for c, _ in self.errors]) if self.errors else FALSE

    def error_kind(self) -> z3.ArithRef:
        """The kind of the first error in evaluation order (0 when none)."""
        kind: z3.ArithRef = z3.IntVal(0)
        for cond, k in reversed(self.errors):
            kind = z3.If(cond, z3.IntVal(k), kind)
        return kind


AggHook = Callable[[A.Node, Sym, Sym | None, Mapping[str, Any], "tuple[Sym, z3.BoolRef] | None"], None]
"""Told (node, a sample element, a sample accumulator, the basic scope, and -- when the aggregated bag
is one symbolic element -- that element's value and presence condition)."""


@dataclass
class Evaluator:
    """Evaluates one program over symbolic inputs. ``on_aggregation`` (optional) is told, for every
    aggregation it meets, the node, a sample element and accumulator (their shapes matter) and the
    basic environment in scope -- partition-independence checking uses it to learn types."""

    program: A.Program
    on_aggregation: AggHook | None = None
    deadline: Deadline = field(default_factory=Deadline)  # checked per bag operation and element
    enc: BasicEncoder = field(init=False)
    errors: list[tuple[z3.BoolRef, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.program = desugar(self.program)  # the bounded evaluator reads only the kernel
        self.enc = BasicEncoder.for_program(self.program)

    # -- entry point ---------------------------------------------------------------------------

    def run(self, inputs: Mapping[str, Any]) -> Encoded:
        """``inputs`` maps every parameter to an ``SBag`` (bags) or a ``Sym`` (basic values)."""
        env: dict[str, Any] = dict(inputs)
        for let in self.program.lets:
            env[let.name] = self.eval(let.value, env)
        return Encoded(self.eval(self.program.body, env), self.errors)

    def let_env(self, inputs: Mapping[str, Any]) -> dict[str, Any]:
        env: dict[str, Any] = dict(inputs)
        for let in self.program.lets:
            env[let.name] = self.eval(let.value, env)
        return env

    # -- helpers -------------------------------------------------------------------------------

    def _guarded(self, guard: z3.BoolRef, compute: Callable[[], Sym]) -> Sym:
        """Run ``compute`` and record its division hazards as errors that happen only under ``guard``."""
        start = len(self.enc.div_hazards)
        value = compute()
        for hazard in self.enc.div_hazards[start:]:
            self.errors.append((z3.And(guard, hazard), ZERO_DIV))
        del self.enc.div_hazards[start:]
        return value

    def apply(self, fn: A.Fn, args: Sequence[Sym], env: Mapping[str, Any], guard: z3.BoolRef) -> Sym:
        basic = {k: v for k, v in env.items() if not isinstance(v, SBag)}
        return self._guarded(guard, lambda: self.enc.apply(fn, list(args), basic))

    def _flat_comprehension(self, fn: A.Lambda, v: Sym, p: z3.BoolRef, env: Mapping[str, Any]
                            ) -> list[tuple[Sym, z3.BoolRef]]:
        """``flatMap(lambda x: [g(y) for y in S(x) if c(y)])`` on its first ``FLAT_POSITIONS``."""
        comp = fn.body
        assert isinstance(comp, A.ListComp)
        scope = {k: val for k, val in env.items() if not isinstance(val, SBag)}
        scope[fn.params[0].name] = v
        seq = self._guarded(p, lambda: self.enc.expr(comp.source, scope, p))
        if not isinstance(seq, z3.SeqRef):
            raise EncodingError("a comprehension over a value that is not a list or a string", comp.loc)
        out = []
        for i in range(FLAT_POSITIONS):
            item = z3.SubString(seq, i, 1) if seq.is_string() else seq[i]
            here = z3.And(p, i < z3.Length(seq))
            if comp.cond is not None:
                here = z3.And(here, self.apply(comp.cond, [item], scope, here))
            out.append((self.apply(comp.fn, [item], scope, here), here))
        return out

    def basic(self, e: A.Expr, env: Mapping[str, Any]) -> Sym:
        value = self.eval(e, env)
        if isinstance(value, SBag):
            raise EncodingError("a bag where a basic value is needed", e.loc)
        return value

    def bag(self, e: A.Expr, env: Mapping[str, Any]) -> SBag:
        value = self.eval(e, env)
        if not isinstance(value, SBag):
            raise EncodingError("a basic value where a bag is needed", e.loc)
        return value

    # -- expressions ---------------------------------------------------------------------------

    def eval(self, e: A.Expr, env: Mapping[str, Any]) -> SymOutcome:
        match e:
            case A.Var(name=n) if n in env:
                return env[n]
            case A.TupleExpr(elems=es):
                return tuple(self.eval(x, env) for x in es)
            case A.Proj(tuple=t, index=i):
                tv = self.eval(t, env)
                if isinstance(tv, tuple) and 0 <= i < len(tv):
                    return tv[i]
                raise EncodingError(f"projection [{i}] of a non-tuple", e.loc)
            case A.Ite(cond=c, then=t, orelse=f):
                cond = self.basic(c, env)
                tv, fv = self.eval(t, env), self.eval(f, env)
                return _ite_outcome(cond, tv, fv, e.loc)
            case A.Map() | A.Filter() | A.FlatMap() | A.Cartesian() | A.Join() | A.Union() | A.Distinct():
                return self._bag_op(e, env)
            case A.Aggregate() | A.Reduce() | A.SimpleAgg():
                return self._aggregation(e, env)
            case A.CombineByKey() | A.GroupByKeyAgg():
                return self._by_key(e, env)
            case A.SortBy(source=src):
                return self.bag(src, env)  # the same elements; Spark's range-partitioned layout is not
            case A.Collect(source=src) | A.Take(source=src) | A.TakeOrdered(source=src) \
                    | A.First(source=src) | A.CountByValue(source=src) | A.CollectAsMap(source=src):
                # the bag is unrolled (aggregations inside it are seen), the list or dict is not: an
                # opaque value, which only a search whose finds the interpreter confirms may meet
                self.bag(src, env)
                return z3.FreshInt("opaque")
            case A.OuterJoin() | A.Subtract() | A.Intersection():
                raise EncodingError(f"{type(e).__name__} is not unrolled", e.loc)
        if any(isinstance(n, (*A.BAG_OPS, *A.AGGREGATIONS)) for n in A.walk(e)):
            return self._lifted(e, env)
        basic_env = {k: v for k, v in env.items() if not isinstance(v, SBag)}
        return self._guarded(TRUE, lambda: self.enc.expr(e, basic_env))

    def _lifted(self, e: A.Expr, env: Mapping[str, Any]) -> Sym:
        """A basic expression with aggregations inside: evaluate those first, then the rest."""
        scope = dict(env)

        def lift(node: Any) -> Any:
            if isinstance(node, (*A.BAG_OPS, *A.AGGREGATIONS)):
                name = self.enc.fresh_name("agg")
                scope[name] = self.eval(node, scope)
                return A.Var(name, loc=node.loc)
            if isinstance(node, (A.Lambda, A.FnRef, A.PApp)):
                return node
            if isinstance(node, A.Node):
                changes = {}
                for f in dataclasses.fields(node):
                    if f.name == "loc":
                        continue
                    value = getattr(node, f.name)
                    if isinstance(value, A.Node):
                        changes[f.name] = lift(value)
                    elif isinstance(value, tuple):
                        changes[f.name] = tuple(lift(v) if isinstance(v, A.Node) else v for v in value)
                return dataclasses.replace(node, **changes)
            return node

        rewritten = lift(e)
        return self.eval(rewritten, scope)

    def _bag_op(self, e: A.Expr, env: Mapping[str, Any]) -> SBag:
        self.deadline.check("bounded unrolling")
        match e:
            case A.Map(fn=fn, source=src):
                b = self.bag(src, env)
                return SBag([[(self.apply(fn, [v], env, p), p) for v, p in part] for part in b.parts])
            case A.Filter(fn=fn, source=src):
                b = self.bag(src, env)
                return SBag([[(v, z3.And(p, self.apply(fn, [v], env, p))) for v, p in part]
                             for part in b.parts])
            case A.FlatMap(fn=fn, source=src):
                b = self.bag(src, env)
                parts = []
                for part in b.parts:
                    out = []
                    for v, p in part:
                        if isinstance(fn, A.Lambda) and isinstance(fn.body, A.ListComp) \
                                and len(fn.params) == 1:
                            out.extend(self._flat_comprehension(fn, v, p, env))
                            continue
                        items = self.apply(fn, [v], env, p)
                        if isinstance(items, z3.SeqRef):
                            # a list (or a string's characters) of any length: its first positions
                            # only -- an under-approximation, fine for a search whose finds the
                            # interpreter confirms, never for a proof
                            for i in range(FLAT_POSITIONS):
                                item = z3.SubString(items, i, 1) if items.is_string() else items[i]
                                out.append((item, z3.And(p, i < z3.Length(items))))
                            continue
                        if not isinstance(items, tuple):
                            raise EncodingError("flatMap's function must return a tuple", e.loc)
                        out.extend((item, p) for item in items)
                    parts.append(out)
                return SBag(parts)
            case A.Cartesian(left=lft, right=rgt):
                lb, rb = self.bag(lft, env), self.bag(rgt, env)
                return SBag([[((a, b), z3.And(pa, pb)) for a, pa in lp for b, pb in rp]
                             for lp in lb.parts for rp in rb.parts])
            case A.Join(left=lft, right=rgt):
                lb, rb = self.bag(lft, env), self.bag(rgt, env)
                out = []
                for a, pa in lb.elems():
                    self.deadline.check("bounded unrolling")
                    for b, pb in rb.elems():
                        if not (isinstance(a, tuple) and isinstance(b, tuple)):
                            raise EncodingError("join needs (key, value) pairs", e.loc)
                        out.append(((a[0], (a[1], b[1])), z3.And(pa, pb, key_eq(a[0], b[0]))))
                return SBag([out])
            case A.Union(left=lft, right=rgt):
                lb, rb = self.bag(lft, env), self.bag(rgt, env)
                return SBag(lb.parts + rb.parts)
            case A.Distinct(source=src):
                elems = self.bag(src, env).elems()
                out = []
                for i, (v, p) in enumerate(elems):
                    earlier = [z3.And(q, key_eq(w, v)) for w, q in elems[:i]]
                    out.append((v, z3.And(p, z3.Not(z3.Or(*earlier))) if earlier else p))
                return SBag([out])
        raise EncodingError(f"{type(e).__name__} is not supported by the bounded encoder", e.loc)

    # -- aggregations --------------------------------------------------------------------------

    def _hook(self, e: A.Node, elem: Sym | None, acc: Sym | None, env: Mapping[str, Any],
              bag: SBag | None = None) -> None:
        if self.on_aggregation is not None and elem is not None:
            elems = bag.elems() if bag is not None else []
            self.on_aggregation(e, elem, acc, env, elems[0] if len(elems) == 1 else None)

    def _aggregation(self, e: A.Expr, env: Mapping[str, Any]) -> Sym:
        match e:
            case A.Aggregate(zero=z, seq=seq, comb=comb, source=src):
                return self._aggregate(e, z, seq, comb, src, env)
            case A.Reduce(op=op, source=src):
                b = self.bag(src, env)
                self._hook(e, _sample(b), _sample(b), env, b)
                return self._reduce(b, lambda acc, v, g: self.apply(op, [acc, v], env, g))
            case A.SimpleAgg(kind=kind, source=src):
                b = self.bag(src, env)
                self._hook(e, _sample(b), None, env, b)  # what it aggregates: floats are order-sensitive
                if kind == "count":
                    return z3.Sum([z3.If(p, 1, 0) for _, p in b.elems()]) if b.elems() else z3.IntVal(0)
                if kind == "sum":
                    return z3.Sum([z3.If(p, as_number(v), 0) for v, p in b.elems()]) if b.elems() \
                        else z3.IntVal(0)
                pick = (lambda acc, v, g: sym_min(acc, v)) if kind == "min" else \
                    (lambda acc, v, g: sym_max(acc, v))
                return self._reduce(b, pick)
        raise EncodingError(f"{type(e).__name__} is not an aggregation", e.loc)

    def _aggregate(self, e: A.Node, zero: A.Expr, seq: A.Fn, comb: A.Fn, src: A.Expr,
                   env: Mapping[str, Any]) -> Sym:
        """Spark's ``aggregate``: each partition folds ``seq`` from ``zero``; the driver folds the
        partition results with ``comb``, again from ``zero``."""
        z = self.basic(zero, env)
        b = self.bag(src, env)
        self._hook(e, _sample(b), z, env, b)
        results = []
        for part in b.parts:
            acc = z
            for v, p in part:
                acc = sym_ite(p, self.apply(seq, [acc, v], env, p), acc)
            results.append(acc)
        acc = z
        for r in results:
            acc = self.apply(comb, [acc, r], env, TRUE)
        return acc

    def _reduce(self, b: SBag, op: Callable[[Sym, Sym, z3.BoolRef], Sym]) -> Sym:
        """``reduce``: non-empty partitions reduce, the driver reduces their results; empty raises."""
        partials: list[tuple[Sym, z3.BoolRef]] = []
        for part in b.parts:
            if not part:
                continue
            acc, has = part[0][0], part[0][1]
            for v, p in part[1:]:
                step = op(acc, v, z3.And(p, has))
                acc = sym_ite(p, sym_ite(has, step, v), acc)
                has = z3.Or(has, p)
            partials.append((acc, has))
        if not partials:
            self.errors.append((TRUE, VALUE_ERROR))
            return _zero_like(None)
        acc, has = partials[0]
        for r, rhas in partials[1:]:
            step = op(acc, r, z3.And(has, rhas))
            acc = sym_ite(rhas, sym_ite(has, step, r), acc)
            has = z3.Or(has, rhas)
        self.errors.append((z3.Not(has), VALUE_ERROR))
        return acc

    def _by_key(self, e: A.Expr, env: Mapping[str, Any]) -> SBag:
        """Spark's ``combineByKey``: per (partition, key) ``create`` the first value and ``merge_value``
        the rest; merge the per-partition combiners with ``merge_combiners`` in partition order. The
        output holds one element per key, at the key's first occurrence."""
        match e:
            case A.CombineByKey(create=cr, merge_value=mvf, merge_combiners=mcf, source=src, zero=z):
                if z is not None:  # the kernel's foldByKey/aggregateByKey: create(zero, v)
                    zv = self.basic(z, env)
                    create = lambda v, g: self.apply(cr, [zv, v], env, g)
                else:
                    create = lambda v, g: self.apply(cr, [v], env, g)
                mv = lambda a, v, g: self.apply(mvf, [a, v], env, g)
                mc = lambda a, v, g: self.apply(mcf, [a, v], env, g)
            case A.GroupByKeyAgg(kinds=kinds, source=src):
                grouped = self.bag(src, env)
                self._hook(e, _sample(grouped), None, env, grouped)
                return self._group_agg(kinds, grouped, e.loc)
            case _:
                raise EncodingError(f"{type(e).__name__} is not a by-key aggregation", e.loc)
        b = self.bag(src, env)
        sample = _sample(b)
        if sample is not None:
            self._hook(e, sample, None, env, b)
        return self._combine(b, create, mv, mc, e.loc)

    def _combine(self, b: SBag, create: Callable, mv: Callable, mc: Callable, loc: A.Loc | None) -> SBag:
        elems = b.indexed()
        for _, v, _ in elems:
            if not (isinstance(v, tuple) and len(v) == 2):
                raise EncodingError("by-key aggregation needs (key, value) pairs", loc)
        out = []
        for i, (_, v, p) in enumerate(elems):
            key = v[0]
            first = z3.And(p, *[z3.Not(z3.And(q, key_eq(w[0], key))) for _, w, q in elems[:i]])
            dummy = create(v[1], FALSE)
            merged, mhas = dummy, FALSE
            for part_index in range(len(b.parts)):
                acc, has = dummy, FALSE
                for j, w, q in elems:
                    if j != part_index:
                        continue
                    same = z3.And(q, key_eq(w[0], key), first)
                    started = mv(acc, w[1], z3.And(same, has))
                    acc = sym_ite(same, sym_ite(has, started, create(w[1], z3.And(same, z3.Not(has)))), acc)
                    has = z3.Or(has, same)
                joined = mc(merged, acc, z3.And(has, mhas))
                merged = sym_ite(has, sym_ite(mhas, joined, acc), merged)
                mhas = z3.Or(mhas, has)
            out.append(((key, merged), first))
        return SBag([out])

    def _group_agg(self, kinds: Sequence[str], b: SBag, loc: A.Loc | None) -> SBag:
        """``groupByKey().mapValues(...)`` with order-insensitive whole-group functions."""
        elems = b.elems()
        out = []
        for i, (v, p) in enumerate(elems):
            if not (isinstance(v, tuple) and len(v) == 2):
                raise EncodingError("groupByKey needs (key, value) pairs", loc)
            key = v[0]
            first = z3.And(p, *[z3.Not(z3.And(q, key_eq(w[0], key))) for w, q in elems[:i]])
            members = [(w[1], z3.And(q, key_eq(w[0], key))) for w, q in elems]
            results = []
            for kind in kinds:
                if kind == "sum":
                    results.append(z3.Sum([z3.If(m, x, 0) for x, m in members]))
                elif kind == "len":
                    results.append(z3.Sum([z3.If(m, 1, 0) for _, m in members]))
                else:
                    acc = v[1]
                    for x, m in members:
                        better = x < acc if kind == "min" else x > acc
                        acc = z3.If(z3.And(m, better), x, acc)
                    results.append(acc)
            value = results[0] if len(results) == 1 else tuple(results)
            out.append(((key, value), first))
        return SBag([out])


def _sample(b: SBag) -> Sym | None:
    elems = b.elems()
    return elems[0][0] if elems else None


def _zero_like(shape: Sym | None) -> Sym:
    return z3.IntVal(0) if shape is None else shape


def _ite_outcome(cond: z3.BoolRef, a: SymOutcome, b: SymOutcome, loc: A.Loc | None) -> SymOutcome:
    if isinstance(a, SBag) and isinstance(b, SBag):
        parts = [[(v, z3.And(p, cond)) for v, p in part] for part in a.parts]
        parts += [[(v, z3.And(p, z3.Not(cond))) for v, p in part] for part in b.parts]
        return SBag(parts)
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
        return tuple(_ite_outcome(cond, x, y, loc) for x, y in zip(a, b, strict=True))
    if isinstance(a, (SBag, tuple)) or isinstance(b, (SBag, tuple)):
        raise EncodingError("branches of a conditional have different shapes", loc)
    return z3.If(cond, a, b)


# ---------------------------------------------------------------------------------------------------
# Comparing outcomes
# ---------------------------------------------------------------------------------------------------


def _count(elems: Sequence[tuple[Sym, z3.BoolRef]], v: Sym) -> z3.ArithRef:
    return z3.Sum([z3.If(z3.And(p, sym_eq(w, v)), 1, 0) for w, p in elems]) if elems else z3.IntVal(0)


def bag_eq(a: SBag, b: SBag, deadline: Deadline = Deadline()) -> z3.BoolRef:  # noqa: B008 - immutable
    """Multiset equality of two symbolic bags: every present element occurs equally often in both.
    Quadratic in the bags' sizes (unions and products of small bags are big), hence the deadline."""
    ea, eb = a.elems(), b.elems()
    conds = []
    for v, p in ea + eb:
        deadline.check("bounded unrolling (comparing bags)")
        conds.append(z3.Implies(p, _count(ea, v) == _count(eb, v)))
    return z3.And(*conds) if conds else TRUE


def outcome_value_eq(a: SymOutcome, b: SymOutcome, deadline: Deadline = Deadline()) -> z3.BoolRef:  # noqa: B008
    if isinstance(a, SBag) and isinstance(b, SBag):
        return bag_eq(a, b, deadline)
    if isinstance(a, tuple) and isinstance(b, tuple) and any(isinstance(x, SBag) for x in (*a, *b)):
        if len(a) != len(b):
            return FALSE
        return z3.And(*[outcome_value_eq(x, y, deadline) for x, y in zip(a, b, strict=True)])
    if isinstance(a, SBag) or isinstance(b, SBag):
        return FALSE
    return sym_eq(a, b)


def outcomes_equal(a: Encoded, b: Encoded, deadline: Deadline = Deadline()) -> z3.BoolRef:  # noqa: B008
    """Both raise the same exception kind, or neither raises and the values are equal."""
    ea, eb = a.is_error(), b.is_error()
    return z3.If(ea, z3.And(eb, a.error_kind() == b.error_kind()),
                 z3.And(z3.Not(eb), outcome_value_eq(a.value, b.value, deadline)))


# ---------------------------------------------------------------------------------------------------
# Symbolic inputs
# ---------------------------------------------------------------------------------------------------


def layout_bag(elems: Sequence[Sym], sizes: Sequence[int]) -> SBag:
    """Lay ``elems`` out into consecutive partitions of the given sizes (all present)."""
    assert sum(sizes) == len(elems)
    parts, start = [], 0
    for n in sizes:
        parts.append([(v, TRUE) for v in elems[start:start + n]])
        start += n
    return SBag(parts)


def split_layouts(n: int, max_parts: int) -> list[tuple[int, ...]]:
    """Partition-size vectors worth trying for a bag of ``n`` elements, one partition first.

    Besides one partition: an empty partition before the data (``fold``'s zero counted once more),
    the first element alone, every element alone (bounded by ``max_parts``)."""
    layouts: list[tuple[int, ...]] = [(n,)]
    if max_parts >= 2:
        layouts.append((0, n))
        if n >= 2:
            layouts.append((1, n - 1))
    if 2 < n <= max_parts:
        layouts.append(tuple([1] * n))
    seen: list[tuple[int, ...]] = []
    for lay in layouts:
        if lay not in seen:
            seen.append(lay)
    return seen


def size_vectors(k: int, bound: int) -> list[tuple[int, ...]]:
    """All assignments of sizes 0..bound to ``k`` bags, smallest total first."""
    vecs = list(itertools.product(range(bound + 1), repeat=k))
    vecs.sort(key=lambda v: (sum(v), max(v, default=0), v))
    return vecs


@dataclass
class SymInputs:
    """Fresh symbolic inputs for one size vector: ``elems[R]`` lists bag ``R``'s element variables,
    ``scalars[v]`` holds basic parameters. Shared by both programs of a pair (same inputs)."""

    elems: dict[str, list[Sym]]
    scalars: dict[str, Sym]

    def laid_out(self, layouts: Mapping[str, Sequence[int]] | None = None) -> dict[str, Any]:
        """The evaluator's inputs, each bag split into partitions of the given sizes (default one)."""
        env: dict[str, Any] = dict(self.scalars)
        for name, elems in self.elems.items():
            sizes = (layouts or {}).get(name, (len(elems),))
            env[name] = layout_bag(elems, sizes)
        return env

    def read(self, model: z3.ModelRef) -> dict[str, Any]:
        """Concrete inputs from a model: bags as lists in element order, scalars as values."""
        values: dict[str, Any] = {n: sym_to_value(v, model) for n, v in self.scalars.items()}
        for name, elems in self.elems.items():
            values[name] = [sym_to_value(v, model) for v in elems]
        return values


def symbolic_inputs(program: A.Program, sizes: Mapping[str, int], tag: str = "in") -> SymInputs:
    """Fresh variables for every parameter of ``program``; bag ``R`` gets ``sizes[R]`` elements."""
    elems: dict[str, list[Sym]] = {}
    scalars: dict[str, Sym] = {}
    for p in program.params:
        if p.type is None:
            raise EncodingError(f"parameter '{p.name}' has no type", p.loc)
        if isinstance(p.type, BagType):
            elems[p.name] = [fresh(f"{tag}.{p.name}[{i}]", p.type.elem) for i in range(sizes.get(p.name, 0))]
        else:
            scalars[p.name] = fresh(f"{tag}.{p.name}", p.type)
    return SymInputs(elems, scalars)


def partitions_from(values: Mapping[str, Any], layouts: Mapping[str, Sequence[int]]) -> dict[str, Any]:
    """Explicit partitionings (tuples of tuples) of concrete bag values under size layouts."""
    result = {}
    for name, sizes in layouts.items():
        items, parts, start = list(values[name]), [], 0
        for n in sizes:
            parts.append(tuple(items[start:start + n]))
            start += n
        result[name] = tuple(parts)
    return result


def concrete_outcome(enc: Encoded, model: z3.ModelRef | None = None) -> Any:
    """Read an encoded outcome back as the interpreter's kind of value (``Bag``, basic value, tuple, or
    ``ErrorOutcome``), under ``model`` (or with no free variables left, e.g. all inputs concrete)."""
    from sparklite.values import Bag, ErrorOutcome

    def ev(term: Any) -> Any:
        return model.eval(term, model_completion=True) if model is not None else z3.simplify(term)

    if z3.is_true(ev(enc.is_error())):
        kind = ev(enc.error_kind()).as_long()
        return ErrorOutcome(ERROR_KINDS[kind - 1] if 1 <= kind <= len(ERROR_KINDS) else "Error")

    def value(v: Any) -> Any:
        if isinstance(v, SBag):
            return Bag.of(value(x) for x, p in v.elems() if z3.is_true(ev(p)))
        if isinstance(v, tuple):
            return tuple(value(x) for x in v)
        r = ev(v)
        return z3.is_true(r) if z3.is_bool(r) else r.as_long()

    return value(enc.value)
