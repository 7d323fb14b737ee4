"""Relational programs as sums of terms over representative rows: the paper's program terms, for bags
with NULLs.

A relation becomes a ``Normal``: a bag union of ``Term`` s. A term binds variables to sources (an
input table, or a *derived* source: an aggregation, a distinct, an operator the prover treats as a
black box) and says which row each assignment of rows to its variables contributes: the assignment
counts when every condition is TRUE, and then contributes the output row. So ``Filter`` adds a
condition, ``Project`` substitutes, an inner ``Join`` multiplies terms, ``union all`` concatenates,
and the rows an outer join pads, a semi join keeps or an anti join keeps are conditions on an
``Exists`` over the other side's terms. The bag a term denotes does not depend on its variables'
names, which is what lets the prover match terms of two programs variable for variable.

Normalisation steps that Spark's optimiser also takes, each sound on its own:
- a variable whose key (``PRIMARY KEY``, or ``UNIQUE``) is equated by ``=`` to values of the other
  variables, and which the output does not read, matches at most one row: it becomes an ``Exists``
  (``join`` on a key then dropping the other side's columns is a semi join);
- ``distinct`` over a single term whose output holds a key of each of its variables is the term itself;
- two aggregations of the same relation by the same keys joined on all keys are one aggregation with
  both lists of aggregates (the split and rejoin refactoring).
Each records the declaration it relies on in ``Normal.uses`` (the verdict's assumptions).

Errors: where a condition comes from a join or a filter over one, Spark's optimiser decides on which
rows it is evaluated, so such a term is marked ``joined`` and the prover does not rely on the error
condition of its conditions.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from sparklite.relational import ast as R
from sparklite.relational import build, effects
from sparklite.relational.types import BOOLEAN, DoubleType, Schema, SqlType


class NotNormalisable(Exception):
    """A construct the term form does not cover (the prover answers unknown, saying which)."""


# ---------------------------------------------------------------------------------------------------
# Nodes
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class VCol:
    """Column ``index`` of the row bound to variable ``var`` (a leaf of term expressions)."""

    var: int
    index: int
    type: SqlType
    nullable: bool
    kinds: frozenset[str] = frozenset()  # reading it may raise: an aggregate over arguments that may


@dataclass(frozen=True)
class TableSrc:
    name: str
    schema: Schema


@dataclass(frozen=True, eq=False)
class AggSrc:
    """``groupBy(keys).agg(aggs)`` of ``source`` (keys and arguments over the source's columns).
    Identity, not value, equality: the prover unifies derived sources."""

    source: Normal
    keys: tuple[R.Expr, ...]
    aggs: tuple[R.AggCall, ...]
    identity: Any  # equal for two aggregations of one program over the same rows (the kernel source)
    types: tuple[SqlType, ...]
    nullables: tuple[bool, ...]

    @functools.cached_property
    def poison(self) -> tuple[frozenset[str], ...]:
        """What reading each output column may raise: Spark evaluates an aggregate's arguments only
        when its value is needed (a group's value then raises if one of its rows does)."""
        keys = tuple(frozenset() for _ in self.keys)
        aggs = tuple(
            frozenset().union(*(kinds_of(subst(a, t.out)) for a in call.args for t in self.source.terms))
            for call in self.aggs
        )
        return keys + aggs


@dataclass(frozen=True, eq=False)
class DistinctSrc:
    source: Normal
    types: tuple[SqlType, ...]
    nullables: tuple[bool, ...]


@dataclass(frozen=True, eq=False)
class OpaqueSrc:
    """An operator compared only as a whole: same ``kind`` and ``params`` over equivalent ``parts``
    (``limit``, ``intersectAll``, ``exceptAll``, ``dropDuplicates`` on a subset)."""

    kind: str
    parts: tuple[Normal, ...]
    params: tuple[Any, ...]
    types: tuple[SqlType, ...]
    nullables: tuple[bool, ...]
    nondeterministic: bool = False
    assumption: str = ""  # what equating two such calls assumes (an operation sparkeq does not model)


Source = TableSrc | AggSrc | DistinctSrc | OpaqueSrc


def source_columns(src: Source) -> tuple[tuple[SqlType, bool], ...]:
    if isinstance(src, TableSrc):
        return tuple((f.type, f.nullable) for f in src.schema.fields)
    return tuple(zip(src.types, src.nullables, strict=True))


@dataclass(frozen=True)
class Bind:
    var: int
    source: Source


@dataclass(frozen=True)
class Exists(R.Predicate):
    """TRUE when some rows of the sources make every condition TRUE (never NULL)."""

    binds: tuple[Bind, ...] = ()
    conds: tuple[Any, ...] = ()

    @property
    def nullable(self) -> bool:
        return False


@dataclass(frozen=True)
class Term:
    binds: tuple[Bind, ...]
    conds: tuple[Any, ...]
    out: tuple[Any, ...]
    keys: tuple[Any, ...] = ()  # sort keys, while the relation is ordered
    joined: bool = False


@dataclass(frozen=True)
class Normal:
    terms: tuple[Term, ...]
    types: tuple[SqlType, ...]
    nullables: tuple[bool, ...]
    order: tuple[tuple[bool, bool], ...] | None = None  # (ascending, nulls_first) per sort key
    uses: frozenset[str] = frozenset()
    warnings: frozenset[str] = frozenset()


# ---------------------------------------------------------------------------------------------------
# Expression utilities
# ---------------------------------------------------------------------------------------------------


# [until, nodes walked so far] while ``deadline`` is active
_DEADLINE: ContextVar[list[float] | None] = ContextVar("sparkeq_normal_deadline", default=None)


@contextmanager
def deadline(until: float) -> Iterator[None]:
    """Every ``map_expr``/``walk`` inside the block checks ``until`` (``time.monotonic``) as it goes and
    raises ``NotNormalisable`` past it: TPC-DS q66's terms (CASE over CASE, inlined) are so large that
    one walk outlasts ``--timeout``, and the check's worker must stop by itself."""
    token = _DEADLINE.set([until, 0])
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def map_expr(e: Any, fn: Callable[[Any], Any | None]) -> Any:
    """Rebuild ``e`` bottom-up with ``fn`` applied first (``fn`` returns a replacement or None).

    A subexpression shared by several parents (a CTE's column read many times once inlined, TPC-DS q4)
    is rebuilt once and stays shared: walked as a tree, the expression doubled at every level and
    normalising q4 against its rewrite never ended. ``fn`` depends only on the node it is given."""
    memo: dict[int, tuple[Any, Any]] = {}
    clock = _DEADLINE.get()

    def go(x: Any) -> Any:
        hit = memo.get(id(x))
        if hit is not None and hit[0] is x:
            return hit[1]
        if clock is not None:
            clock[1] += 1
            if clock[1] % 4096 == 0 and time.monotonic() >= clock[0]:
                raise NotNormalisable("terms so large that walking them takes longer than the timeout")
        out = _map_node(x, fn, go)
        memo[id(x)] = (x, out)  # x kept alive with its id
        return out

    return go(e)


def _map_node(e: Any, fn: Callable[[Any], Any | None], go: Callable[[Any], Any]) -> Any:
    got = fn(e)
    if got is not None:
        return got
    if isinstance(e, VCol | R.Col | R.Lit) or not dataclasses.is_dataclass(e):
        return e
    if isinstance(e, Exists):
        return dataclasses.replace(e, conds=tuple(go(c) for c in e.conds))
    changes = {}
    for f in dataclasses.fields(e):
        v = getattr(e, f.name)
        if f.name == "loc":
            continue
        if isinstance(v, tuple) and v and isinstance(v[0], tuple):  # CASE branches
            changes[f.name] = tuple(tuple(go(x) for x in b) for b in v)
        elif isinstance(v, tuple):
            changes[f.name] = tuple(go(x) if _is_expr(x) else x for x in v)
        elif _is_expr(v):
            changes[f.name] = go(v)
    return dataclasses.replace(e, **changes) if changes else e


def _is_expr(v: Any) -> bool:
    return isinstance(v, R.RNode | VCol) and not isinstance(v, R.SortKey)


def subst(e: Any, row: Sequence[Any]) -> Any:
    """``e`` over a relation's columns, with column ``i`` replaced by ``row[i]``."""
    return map_expr(e, lambda x: row[x.index] if isinstance(x, R.Col) else None)


def vars_of(e: Any) -> set[int]:
    """The variables ``e`` reads free (an ``Exists`` binds its own)."""
    out: set[int] = set()
    bound: set[int] = set()

    def visit(x: Any) -> None:
        if isinstance(x, VCol):
            out.add(x.var)
        elif isinstance(x, Exists):
            bound.update(b.var for b in x.binds)

    walk(e, visit)
    return out - bound


def walk(e: Any, visit: Callable[[Any], None]) -> None:
    def fn(x: Any) -> None:
        visit(x)
        return None

    map_expr(e, fn)


def rename(e: Any, mapping: dict[int, int]) -> Any:
    return map_expr(
        e,
        lambda x: dataclasses.replace(x, var=mapping.get(x.var, x.var)) if isinstance(x, VCol) else None,
    )


def kinds_of(e: Any) -> frozenset[str]:
    """What evaluating ``e`` may raise (``effects.raise_kinds`` over term expressions, and the
    aggregate columns it reads)."""
    out: set[str] = set()

    def visit(x: Any) -> None:
        if isinstance(x, R.RNode) and not isinstance(x, Exists | R.SortKey):
            out.update(effects.own_kinds(x))
        elif isinstance(x, VCol):
            out.update(x.kinds)

    walk(e, visit)
    return frozenset(out)


def exists_any(terms: Sequence[Term], cond: Callable[[Term], Sequence[Any]]) -> Any:
    """``EXISTS`` over a union of terms: the OR of one ``Exists`` per term."""
    atoms = [Exists(t.binds, (*t.conds, *cond(t))) for t in terms]
    if not atoms:
        return R.Lit(False, BOOLEAN)
    out: Any = atoms[0]
    for a in atoms[1:]:
        out = R.Or(out, a, False)
    return out


# ---------------------------------------------------------------------------------------------------
# From the kernel
# ---------------------------------------------------------------------------------------------------


@dataclass
class Normaliser:
    """Walks a kernel relation; every table occurrence gets fresh variables (``next_var``). Derived
    sources are shared per kernel node, so a relation used twice is one source."""

    next_var: int = 0
    derived: dict[Any, Source] = field(default_factory=dict)
    uses: set[str] = field(default_factory=set)
    warnings: set[str] = field(default_factory=set)
    until: float = float("inf")  # the check's deadline (``time.monotonic``)

    def fresh(self) -> int:
        self.next_var += 1
        return self.next_var

    def normal(self, rel: R.Rel) -> Normal:
        n = self.rel(rel)
        return dataclasses.replace(n, uses=frozenset(self.uses), warnings=frozenset(self.warnings))

    def in_time(self) -> None:
        """The check's hard cap: a join over unions of unions distributes into their product of terms
        (TPC-DS q4: three-branch unions joined six times, 729 terms), Python work no solver budget
        bounds."""
        if time.monotonic() >= self.until:
            raise NotNormalisable("programs whose terms take longer than the timeout to build")

    def rel(self, r: R.Rel) -> Normal:
        self.in_time()
        method = getattr(self, "_" + type(r).__name__.lower(), None)
        if method is None:
            raise NotNormalisable(f"{type(r).__name__} relations")
        return method(r)

    def _window(self, w: R.Window) -> Normal:
        """A window operator compared as a whole (``OpaqueSrc``): the same calls (up to column names)
        over inputs proved equal as bags give the same rows -- the same set of possible rows when a
        call depends on the order among tied rows (``windows.tie_sensitive``: flagged nondeterministic,
        so the proof says so). Only when no call may raise (its arguments, keys, an overflowing
        ``sum``): the opaque source's columns are not modelled as raising."""
        from sparklite.relational.canonical import _key
        from sparklite.relational.windows import AGGREGATES, as_aggregate, tie_sensitive

        for c in w.calls:
            exprs = [*c.args, *c.partition, *(k.expr for k in c.order)]
            if any(effects.may_raise(e) for e in exprs) or (
                c.name in AGGREGATES and effects.agg_raise_kinds(as_aggregate(c))
            ):
                raise NotNormalisable(f"window functions that may raise ({c.name})")
        inner = _unordered(self.rel(w.source))
        calls_types = tuple(c.type for c in w.calls)
        calls_nullables = tuple(c.nullable for c in w.calls)
        nondeterministic = any(tie_sensitive(c) for c in w.calls)
        return self.over(
            self.derived_for(
                w,
                lambda: OpaqueSrc(
                    "window",
                    (inner,),
                    (_key(tuple(_first_for_nth(c) for c in w.calls)),),
                    inner.types + calls_types,
                    inner.nullables + calls_nullables,
                    nondeterministic,
                ),
            )
        )

    def _opaque(self, o: R.Opaque) -> Normal:
        """An operation sparkeq does not model (``sparklite.relational.opaque``): an uninterpreted
        function of its literal arguments and its inputs, compared as a whole (``OpaqueSrc``); its
        inputs are compared as bags (the operation is assumed not to depend on their order)."""
        from sparklite.relational.opaque import assumption
        from sparklite.relational.printer import show_rel

        # a nondeterministic one (F.rand(seed): seeded per partition, by the rows' positions) depends on the
        # order of its input: a sorted input is not the same input as an unsorted one (review 5: rand over
        # df and over df.orderBy(...) were proved equal; Spark gives other values)
        parts = tuple(self.rel(s) if o.nondeterministic else _unordered(self.rel(s)) for s in o.sources)
        types, nullables = _cols(o.schema)
        # and one whose values depend on how its input is laid out in partitions (``layout``), which equal
        # bags (even equal ordered inputs: df.union(df2) against df2.union(df) before a sum per key) do not
        # fix, is equated only over the very same input plans, written the same way (the plans' text is
        # part of the call; review of session 5: F.rand(7) over swapped union operands was proved equal)
        plans = tuple(show_rel(s) for s in o.sources) if o.layout else ()
        return self.over(self.derived_for(o, lambda: OpaqueSrc(
            f"opaque {o.op}", parts, (o.args, o.declared, *plans), types, nullables, o.nondeterministic,
            assumption(o))))

    def _table(self, t: R.Table) -> Normal:
        v = self.fresh()
        src = TableSrc(t.name, t.schema)
        out = tuple(VCol(v, i, f.type, f.nullable) for i, f in enumerate(t.schema.fields))
        return Normal((Term((Bind(v, src),), (), out),), *_cols(t.schema))

    def _values(self, v: R.Values) -> Normal:
        """A literal relation: one term without variables per row. (Spark evaluates its cells while
        analysing the query, so a cell that may raise is not covered.)"""
        if any(effects.may_raise(c) for row in v.rows for c in row):
            raise NotNormalisable("a literal relation (VALUES) with a cell that may raise")
        return Normal(tuple(Term((), (), tuple(row)) for row in v.rows), *_cols(v.schema))

    def _project(self, p: R.Project) -> Normal:
        n = self.rel(p.source)
        terms = tuple(
            self.simplify(dataclasses.replace(t, out=tuple(subst(e, t.out) for e in p.exprs)))
            for t in n.terms
        )
        return Normal(terms, *_cols(p.schema), order=n.order)

    def _filter(self, f: R.Filter) -> Normal:
        from sparklite.relational.windows import pushed_filter

        pushed = pushed_filter(f)  # a filter on partition keys goes below the window
        if pushed is not None:
            return self.rel(pushed)
        n = self.rel(f.source)
        terms = tuple(
            self.simplify(dataclasses.replace(t, conds=(*t.conds, subst(f.pred, t.out)))) for t in n.terms
        )
        return Normal(terms, n.types, n.nullables, order=n.order)

    def _join(self, j: R.Join) -> Normal:
        ln, rn = self.rel(j.left), self.rel(j.right)
        kind = j.kind

        def cond_on(lt: Term, rt: Term) -> tuple[Any, ...]:
            return () if j.cond is None else (subst(j.cond, (*lt.out, *rt.out)),)

        def pad(n: Normal) -> tuple[Any, ...]:
            return tuple(R.Lit(None, t) for t in n.types)

        terms: list[Term] = []
        if kind in ("inner", "cross", "left", "right", "full"):
            for lt, rt in itertools.product(ln.terms, rn.terms):
                terms.append(
                    Term(
                        (*lt.binds, *rt.binds),
                        (*lt.conds, *rt.conds, *cond_on(lt, rt)),
                        (*lt.out, *rt.out),
                        joined=True,
                    )
                )
        if kind in ("left", "full", "semi", "anti"):
            for lt in ln.terms:
                found = exists_any(rn.terms, lambda rt, lt=lt: cond_on(lt, rt))
                keep = found if kind == "semi" else R.Not(found, False)
                out = lt.out if kind in ("semi", "anti") else (*lt.out, *pad(rn))
                terms.append(Term(lt.binds, (*lt.conds, keep), out, joined=True))
        if kind in ("right", "full"):
            for rt in rn.terms:
                found = exists_any(ln.terms, lambda lt, rt=rt: cond_on(lt, rt))
                terms.append(
                    Term(rt.binds, (*rt.conds, R.Not(found, False)), (*pad(ln), *rt.out), joined=True)
                )
        return Normal(tuple(self.simplify(t) for t in terms), *_cols(j.schema))

    def _aggregate(self, a: R.Aggregate) -> Normal:
        from sparklite.relational.limit_rules import one_row_aggregate

        a = one_row_aggregate(a) or a  # DISTINCT over at most one row changes nothing
        src = self.derived.get(a)
        if src is None:
            inner = self.rel(a.source)
            src = AggSrc(inner, a.keys, a.aggs, a.source, *_cols(a.schema))
            self.derived[a] = src
        return self.over(src)

    def _distinct(self, d: R.Distinct) -> Normal:
        inner = self.rel(d.source)
        inner = dataclasses.replace(
            inner, terms=tuple(self.unread_as_exists(self.simplify(t)) for t in inner.terms)
        )
        if len(inner.terms) == 1 and self.already_distinct(inner.terms[0]):
            return dataclasses.replace(
                inner, order=None, terms=tuple(dataclasses.replace(t, keys=()) for t in inner.terms)
            )
        return self.over(self.derived_for(d, lambda: DistinctSrc(inner, inner.types, inner.nullables)))

    def _dropduplicates(self, d: R.DropDuplicates) -> Normal:
        if sorted(d.columns) == list(range(len(d.schema))):
            return self._distinct(R.Distinct(d.source))
        inner = self.rel(d.source)
        self.warnings.add("dropDuplicates on a subset of the columns keeps any row of each group")
        return self.over(
            self.derived_for(
                d,
                lambda: OpaqueSrc(
                    "dropDuplicates", (inner,), (tuple(d.columns),), inner.types, inner.nullables, True
                ),
            )
        )

    def _setop(self, s: R.SetOp) -> Normal:
        ln, rn = self.rel(s.left), self.rel(s.right)
        types, nullables = _cols(s.schema)
        if s.kind == "union":
            both = Normal((*_unordered(ln).terms, *_unordered(rn).terms), types, nullables)
            if s.all:
                return both
            return self.over(self.derived_for(s, lambda: DistinctSrc(both, types, nullables)))
        if not s.all:  # distinct rows of the left that (do not) occur in the right, NULL equal to NULL

            def same_row(lt: Term) -> Callable[[Term], tuple[Any, ...]]:
                return lambda rt: tuple(
                    R.Cmp("<=>", a, b, False) for a, b in zip(lt.out, rt.out, strict=True)
                )

            terms = []
            for lt in ln.terms:
                found = exists_any(rn.terms, same_row(lt))
                keep = found if s.kind == "intersect" else R.Not(found, False)
                terms.append(Term(lt.binds, (*lt.conds, keep), lt.out, joined=True))
            inner = Normal(tuple(terms), types, nullables)
            return self.over(self.derived_for(s, lambda: DistinctSrc(inner, types, nullables)))
        return self.over(
            self.derived_for(
                s, lambda: OpaqueSrc(f"{s.kind}All", (_unordered(ln), _unordered(rn)), (), types, nullables)
            )
        )

    def _sort(self, s: R.Sort) -> Normal:
        """Sort keys that read no column (``ORDER BY 'a', name``) order nothing: dropped."""
        n = self.rel(s.source)
        keys = [k for k in s.keys if not build.reads_no_column(k.expr) or effects.may_raise(k.expr)]
        terms = tuple(dataclasses.replace(t, keys=tuple(subst(k.expr, t.out) for k in keys)) for t in n.terms)
        return Normal(terms, n.types, n.nullables, order=tuple((k.ascending, k.nulls_first) for k in keys))

    def _limit(self, lim: R.Limit) -> Normal:
        from sparklite.relational.limit_rules import limit_through_window, unpushed_limit

        pushed = limit_through_window(lim)  # Spark runs it below a row_number() window
        if pushed is not None:
            self.warnings.add(
                "a limit over a row_number/rank window without PARTITION BY read as Spark runs it: the "
                "window over the first rows in its order (LimitPushDownThroughWindow)"
            )
            return self.rel(pushed)
        lim = unpushed_limit(lim) or lim  # limits pushed through UNION ALL or an outer join, undone
        n = self.rel(lim.source)
        errors = any(kinds_of(x) for t in n.terms for x in (*t.conds, *t.out, *t.keys))
        if lim.count == 0 and not errors:
            return Normal((), n.types, n.nullables, order=n.order)
        if len(n.terms) == 1 and len(n.terms[0].binds) == 1:
            inner = n.terms[0].binds[0].source
            if isinstance(inner, OpaqueSrc) and inner.kind == "limit" and inner.params[0] <= lim.count:
                return n  # at most as many rows as the limit keeps: it keeps them all
        if n.order is None:
            self.warnings.add("limit without orderBy keeps any rows")
        else:
            self.warnings.add("limit after orderBy may cut through rows with equal sort keys")
        return self.over(
            self.derived_for(lim, lambda: OpaqueSrc("limit", (n,), (lim.count,), n.types, n.nullables, True))
        )

    # helpers

    def derived_for(self, node: Any, make: Callable[[], Source]) -> Source:
        src = self.derived.get(node)
        if src is None:
            src = make()
            self.derived[node] = src
        return src

    def over(self, src: Source) -> Normal:
        v = self.fresh()
        cols = source_columns(src)
        poison = src.poison if isinstance(src, AggSrc) else tuple(frozenset() for _ in cols)
        out = tuple(VCol(v, i, t, n, poison[i]) for i, (t, n) in enumerate(cols))
        return Normal((Term((Bind(v, src),), (), out),), tuple(t for t, _ in cols), tuple(n for _, n in cols))

    def already_distinct(self, t: Term) -> bool:
        if any(isinstance(o.type, DoubleType) for o in t.out):
            return False  # distinct outputs a -0.0 as 0.0 even where there are no duplicates
        used = distinct_keys(t)
        if used is None:
            return False
        self.uses.update(used)
        return True

    def inline_distinct(self, t: Term) -> Term:
        """A distinct over one term that has no duplicate rows (a key of each variable in its output)
        is that term: its variables join the outer term's."""
        for b in t.binds:
            src = b.source
            if not isinstance(src, DistinctSrc) or len(src.source.terms) != 1:
                continue
            u = src.source.terms[0]
            if not self.already_distinct(u):
                continue
            fresh = {x.var: self.fresh() for x in u.binds}
            u_binds = tuple(Bind(fresh[x.var], x.source) for x in u.binds)
            row = tuple(rename(o, fresh) for o in u.out)

            def inline(x: Any, var: int = b.var, row: tuple[Any, ...] = row) -> Any:
                return row[x.index] if isinstance(x, VCol) and x.var == var else None

            binds = tuple(x for x in t.binds if x is not b) + u_binds
            return self.inline_distinct(
                Term(
                    binds,
                    (*(rename(c, fresh) for c in u.conds), *(map_expr(c, inline) for c in t.conds)),
                    tuple(map_expr(o, inline) for o in t.out),
                    tuple(map_expr(k, inline) for k in t.keys),
                    t.joined or u.joined or len(binds) > 1,
                )
            )
        return t

    def simplify(self, t: Term) -> Term:
        self.in_time()
        t = self.merge_aggregates(t)
        t = self.aggregates_as_distinct(t)
        t = self.inline_distinct(t)
        t = self.filter_into_derived(t)
        t = self.unread_single_row_as_exists(t)
        t = self.collapse_case_conversions(t)
        return self.drop_key_lookups(t)

    def collapse_case_conversions(self, t: Term) -> Term:
        """``upper(lower(x))`` as ``upper(x)`` (``sparklite.relational.case_conversion``: Spark's
        optimiser does so) where ``x`` reads columns of base tables only, which Spark cannot fold to a
        constant; over a literal or a derived column the nested calls stay (Spark may evaluate them
        exactly)."""
        from sparklite.relational.case_conversion import collapsed

        tables = {b.var for b in t.binds if isinstance(b.source, TableSrc)}

        def fn(x: Any) -> Any | None:
            short = collapsed(x)
            if short is None:
                return None
            read = vars_of(short.args[0])
            if not read or not read <= tables:
                return None
            return dataclasses.replace(short, args=(map_expr(short.args[0], fn),))

        out = tuple(map_expr(o, fn) for o in t.out)
        conds = tuple(map_expr(c, fn) for c in t.conds)
        keys = tuple(map_expr(k, fn) for k in t.keys)
        if out == t.out and conds == t.conds and keys == t.keys:
            return t
        self.warnings.add(CASE_CONVERSION_WARNING)
        return dataclasses.replace(t, out=out, conds=conds, keys=keys)

    def unread_single_row_as_exists(self, t: Term) -> Term:
        """A variable over ``limit 1`` of P that nothing reads (a condition at most tests a column
        that is never NULL) multiplies the term by 0 or 1: by 1 exactly when P has a row, whichever row
        the limit keeps. It becomes ``EXISTS`` over P's terms (an uncorrelated scalar subquery ``(SELECT
        1 FROM P LIMIT 1) IS NOT NULL`` is ``EXISTS (P)``). Not when P may raise: the limit may or may
        not compute the rows that raise."""
        for b in t.binds:
            src = b.source
            if not (isinstance(src, OpaqueSrc) and src.kind == "limit" and src.params == (1,)):
                continue
            if any(b.var in vars_of(x) for x in (*t.out, *t.keys)):
                continue
            mine = [c for c in t.conds if b.var in vars_of(c)]
            if not all(_never_null_test(c, b.var) for c in mine):
                continue
            (inner,) = src.parts
            if any(kinds_of(x) for it in inner.terms for x in (*it.conds, *it.out)):
                continue
            found = exists_any(inner.terms, lambda _it: ())
            rest = tuple(c for c in t.conds if all(c is not m for m in mine))
            binds = tuple(x for x in t.binds if x is not b)
            return dataclasses.replace(t, binds=binds, conds=(*rest, found), joined=True)
        return t

    def unread_as_exists(self, t: Term) -> Term:
        """Under ``distinct``, only whether some row of a variable the output does not read exists
        matters, not how many: such variables become an ``Exists``."""
        read = set().union(*(vars_of(x) for x in (*t.out, *t.keys))) if (t.out or t.keys) else set()
        unread = [b for b in t.binds if b.var not in read]
        if not unread:
            return t
        ids = {b.var for b in unread}
        mine = tuple(c for c in t.conds if vars_of(c) & ids)
        if any(kinds_of(c) for c in mine):
            return t
        rest = tuple(c for c in t.conds if not vars_of(c) & ids)
        return Term(
            tuple(b for b in t.binds if b.var not in ids),
            (*rest, Exists(tuple(unread), mine)),
            t.out,
            t.keys,
            True,
        )

    def filter_into_derived(self, t: Term) -> Term:
        """A filter over a distinct (reading its columns) or over an aggregation (reading its grouping
        keys only) is the same filter under it: the rows, or whole groups, it keeps are the same."""
        if len(t.binds) != 1 or not isinstance(t.binds[0].source, DistinctSrc | AggSrc) or not t.conds:
            return t
        b = t.binds[0]
        src = b.source
        assert isinstance(src, DistinctSrc | AggSrc)
        width = len(src.keys) if isinstance(src, AggSrc) else len(src.types)

        def movable(c: Any) -> bool:
            if kinds_of(c) or vars_of(c) - {b.var}:
                return False
            if any(isinstance(src.types[i], DoubleType) for i in _columns_read(b.var, (c,))):
                return False  # grouping and distinct turn -0.0 into 0.0, which a function can tell apart
            return all(i < width for i in _columns_read(b.var, (c,)))

        moved = tuple(c for c in t.conds if movable(c))
        if not moved or (isinstance(src, AggSrc) and not src.keys):
            return t

        def make() -> Source:
            terms = []
            for u in src.source.terms:
                row = u.out if isinstance(src, DistinctSrc) else tuple(subst(k, u.out) for k in src.keys)

                def inner(x: Any, row: tuple[Any, ...] = row) -> Any:
                    return row[x.index] if isinstance(x, VCol) and x.var == b.var else None

                terms.append(
                    dataclasses.replace(
                        u, conds=(*u.conds, *(map_expr(c, inner) for c in moved)), joined=True
                    )
                )
            filtered = dataclasses.replace(src.source, terms=tuple(terms))
            if isinstance(src, DistinctSrc):
                return DistinctSrc(filtered, src.types, src.nullables)
            return AggSrc(
                filtered, src.keys, src.aggs, ("filtered", src.identity, moved), src.types, src.nullables
            )

        new = self.derived_for(("filtered", id(src), moved), make)
        return Term((Bind(b.var, new),), tuple(c for c in t.conds if c not in moved), t.out, t.keys, t.joined)

    def aggregates_as_distinct(self, t: Term) -> Term:
        """An aggregation of which only the grouping keys are read is the distinct keys."""
        binds = []
        for b in t.binds:
            src = b.source
            if isinstance(src, AggSrc) and src.keys:
                nk = len(src.keys)
                read = _columns_read(b.var, (*t.conds, *t.out, *t.keys))
                if all(i < nk for i in read) and not any(isinstance(k.type, DoubleType) for k in src.keys):

                    def make(src: AggSrc = src, nk: int = nk) -> Source:
                        return DistinctSrc(project(src.source, src.keys), src.types[:nk], src.nullables[:nk])

                    b = Bind(b.var, self.derived_for(("keys of", id(src)), make))
            binds.append(b)
        return dataclasses.replace(t, binds=tuple(binds))

    def drop_key_lookups(self, t: Term) -> Term:
        """A variable matched by ``=`` on a key of its table, read nowhere but in conditions, becomes an
        ``Exists``: it can match at most one row, so the assignment counts once or not at all."""
        changed = True
        while changed and len(t.binds) > 1:
            changed = False
            for b in t.binds:
                if not isinstance(b.source, TableSrc):
                    continue
                if any(b.var in vars_of(x) for x in (*t.out, *t.keys)):
                    continue
                mine = [c for c in t.conds if b.var in vars_of(c)]
                if any(kinds_of(c) for c in mine):
                    continue
                equated = _equated_columns(mine, b.var)
                for key in key_columns(b.source, nullable_unique=True):
                    if any(isinstance(b.source.schema.fields[i].type, DoubleType) for i in key):
                        continue  # -0.0 and 0.0 are distinct keys that = matches alike
                    if all(i in equated for i in key):
                        self.uses.add(_key_text(b.source, key))
                        rest = tuple(c for c in t.conds if b.var not in vars_of(c))
                        t = Term(
                            tuple(x for x in t.binds if x is not b),
                            (*rest, Exists((b,), tuple(mine))),
                            t.out,
                            t.keys,
                            t.joined,
                        )
                        changed = True
                        break
                if changed:
                    break
        return t

    def merge_aggregates(self, t: Term) -> Term:
        """``A1 JOIN A2 ON A1.k = A2.k`` where A1, A2 aggregate one relation by the same keys: one
        aggregation carrying both aggregate lists (each key value is one group on either side)."""
        for b1, b2 in itertools.combinations(t.binds, 2):
            s1, s2 = b1.source, b2.source
            if not (isinstance(s1, AggSrc) and isinstance(s2, AggSrc)) or not s1.keys:
                continue
            if s1.identity != s2.identity or s1.keys != s2.keys:
                continue
            nk = len(s1.keys)
            if not all(
                _equates(
                    t.conds,
                    VCol(b1.var, i, s1.types[i], s1.nullables[i]),
                    VCol(b2.var, i, s2.types[i], s2.nullables[i]),
                )
                for i in range(nk)
            ):
                continue
            merged = AggSrc(
                s1.source,
                s1.keys,
                (*s1.aggs, *s2.aggs),
                s1.identity,
                (*s1.types, *s2.types[nk:]),
                (*s1.nullables, *s2.nullables[nk:]),
            )
            key = ("merged", id(s1), id(s2))
            merged = self.derived.setdefault(key, merged)  # type: ignore[assignment]
            m = self.fresh()
            n1 = len(s1.aggs)

            def remap(
                x: Any,
                b1: Bind = b1,
                b2: Bind = b2,
                m: int = m,
                n1: int = n1,
                nk: int = nk,
                merged: AggSrc = merged,
            ) -> Any:  # type: ignore[assignment]
                if not isinstance(x, VCol) or x.var not in (b1.var, b2.var):
                    return None
                i = x.index if (x.var == b1.var or x.index < nk) else x.index + n1
                return VCol(m, i, merged.types[i], merged.nullables[i], merged.poison[i])

            binds = tuple(b for b in t.binds if b not in (b1, b2)) + (Bind(m, merged),)
            return self.merge_aggregates(
                Term(
                    binds,
                    tuple(map_expr(c, remap) for c in t.conds),
                    tuple(map_expr(o, remap) for o in t.out),
                    tuple(map_expr(k, remap) for k in t.keys),
                    t.joined,
                )
            )
        return t


CASE_CONVERSION_WARNING = (
    "upper(lower(x)) of a table column compared as upper(x), as Spark's optimiser runs it "
    "(SimplifyCaseConversionExpressions; not for input Spark builds from literals, docs/semantics-notes.md)"
)


def _first_for_nth(c: R.WindowCall) -> R.WindowCall:
    """``nth_value(x, 1)`` as ``first(x)`` over the same frame (same ``ignore_nulls``): both are the
    value of the frame's first row (first non-NULL one when ignoring NULLs), NULL for an empty frame
    (Spark's ``NthValue`` and ``First``; the interpreter computes them alike, windows.py)."""
    if c.name == "nth_value" and c.offset == 1:
        return dataclasses.replace(c, name="first", offset=0)
    return c


def _never_null_test(c: Any, var: int) -> bool:
    """``v.i IS NOT NULL`` of a column of ``var`` that is never NULL (TRUE on every row)."""
    return (
        isinstance(c, R.IsNull) and c.negated and isinstance(c.operand, VCol) and c.operand.var == var
        and not c.operand.nullable and not c.operand.kinds
    )


def _columns_read(var: int, exprs: Sequence[Any]) -> set[int]:
    out: set[int] = set()

    def visit(x: Any) -> None:
        if isinstance(x, VCol) and x.var == var:
            out.add(x.index)

    for e in exprs:
        walk(e, visit)
    return out


def project(n: Normal, exprs: Sequence[R.Expr]) -> Normal:
    """``exprs`` (over ``n``'s columns) as the rows of ``n``, unordered."""
    return dataclasses.replace(
        n,
        order=None,
        terms=tuple(
            dataclasses.replace(t, out=tuple(subst(e, t.out) for e in exprs), keys=()) for t in n.terms
        ),
        types=tuple(e.type for e in exprs),
        nullables=tuple(e.nullable for e in exprs),
    )


def _unordered(n: Normal) -> Normal:
    return dataclasses.replace(n, order=None, terms=tuple(dataclasses.replace(t, keys=()) for t in n.terms))


def _cols(schema: Schema) -> tuple[tuple[SqlType, ...], tuple[bool, ...]]:
    return tuple(f.type for f in schema.fields), tuple(f.nullable for f in schema.fields)


def key_columns(src: Source, nullable_unique: bool = False) -> list[tuple[int, ...]]:
    """Column sets on which no two rows of ``src`` agree: a declared ``PRIMARY KEY``, a ``UNIQUE`` on
    NOT NULL columns (or any ``UNIQUE`` where NULLs cannot match, ``nullable_unique``), the grouping
    keys of an aggregation, all columns of a distinct."""
    if isinstance(src, TableSrc):
        names = [f.name.lower() for f in src.schema.fields]
        out = []
        for c in src.schema.constraints:
            if c.kind not in ("primary", "unique"):
                continue
            idx = tuple(names.index(x.lower()) for x in c.columns if x.lower() in names)
            if len(idx) != len(c.columns):
                continue
            if c.kind == "primary" or nullable_unique or not any(src.schema.fields[i].nullable for i in idx):
                out.append(idx)
        return out
    if isinstance(src, AggSrc):
        return [tuple(range(len(src.keys)))]
    if isinstance(src, DistinctSrc):
        return [tuple(range(len(src.types)))]
    if isinstance(src, OpaqueSrc) and src.kind == "limit" and src.params[0] <= 1:
        return [()]
    return []


def distinct_keys(t: Term) -> list[str] | None:
    """None unless the term gives no row twice: every variable's source has no duplicate rows and a
    key of it is among the output columns (as they are). Else the declared keys this relies on."""
    outs = {(x.var, x.index) for x in t.out if isinstance(x, VCol)}
    used = []
    for b in t.binds:
        keys = [k for k in key_columns(b.source) if all((b.var, i) in outs for i in k)]
        if not keys:
            return None
        if isinstance(b.source, TableSrc):
            used.append(_key_text(b.source, keys[0]))
    return used


def _key_text(src: TableSrc, key: tuple[int, ...]) -> str:
    cols = ", ".join(src.schema.fields[i].name for i in key)
    primary = any(
        c.kind == "primary"
        and tuple(x.lower() for x in c.columns) == tuple(src.schema.fields[i].name.lower() for i in key)
        for c in src.schema.constraints
    )
    return f"{src.name}: {'PRIMARY KEY' if primary else 'UNIQUE'} ({cols})"


def _conjuncts(c: Any) -> list[Any]:
    if isinstance(c, R.And):
        return _conjuncts(c.left) + _conjuncts(c.right)
    return [c]


def _equated_columns(conds: Sequence[Any], var: int) -> set[int]:
    """Columns of ``var`` that a top-level ``=`` conjunct equates to an expression of other variables."""
    out: set[int] = set()
    for c in conds:
        for x in _conjuncts(c):
            if not (isinstance(x, R.Cmp) and x.op == "="):
                continue
            for a, b in ((x.left, x.right), (x.right, x.left)):
                if isinstance(a, VCol) and a.var == var and var not in vars_of(b):
                    out.add(a.index)
    return out


def _equates(conds: Sequence[Any], a: VCol, b: VCol) -> bool:
    for c in conds:
        for x in _conjuncts(c):
            if isinstance(x, R.Cmp) and x.op in ("=", "<=>") and {x.left, x.right} == {a, b}:
                return True
    return False


def normalise(rel: R.Rel, first_var: int = 0, until: float = float("inf")) -> Normal:
    """``rel`` as terms. Variables are numbered from ``first_var``: the two programs of a pair are
    normalised with disjoint numbers, since some conditions (set equality) read both in one scope.
    Past ``until`` (``time.monotonic``) it raises ``NotNormalisable``."""
    return Normaliser(next_var=first_var, until=until).normal(rel)


__all__ = [
    "AggSrc",
    "Bind",
    "DistinctSrc",
    "Exists",
    "Normal",
    "NotNormalisable",
    "OpaqueSrc",
    "Source",
    "TableSrc",
    "Term",
    "VCol",
    "key_columns",
    "map_expr",
    "normalise",
    "rename",
    "source_columns",
    "subst",
    "vars_of",
]
