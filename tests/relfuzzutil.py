"""Variants of relational kernel programs (DataFrame/SQL) for the soundness fuzzer, and its oracle's inputs.

Like ``fuzzutil`` for RDD programs: rewrites meant to preserve meaning (filter split/merge, predicate
operands commuted, De Morgan in three-valued logic, filters pushed below inner joins and below the
preserved side of outer joins, join sides swapped with the columns re-selected, projections fused, split
and reordered, set operations commuted, ``count(*)`` against ``sum(1)`` per group, ``coalesce`` against
``CASE WHEN .. IS NULL``, a semi join against an inner join + ``distinct`` on a key, a filter moved into
an inner join's ON leaving ``WHERE TRUE``, a limit pushed through ``UNION ALL``...) and mutations
meant to change it (a filter on the wrong side of an outer join, ``NOT p`` against the complement that
forgets NULLs, ``%`` against ``pmod``, ``UNION`` against ``UNION ALL``, a constant changed, a join kind
changed, ``count(col)`` against ``count(*)``, ``NOT IN`` against ``NOT EXISTS``, a limit pushed below a
projection that may raise...).

The labels are never trusted: the reference interpreter (``sparklite.relational.interpreter``) is the
fuzzer's only oracle, so a "preserving" rewrite that is wrong under Spark's semantics (an error on a row
the other side filters first, ``-0.0`` and ``0.0`` merged by ``EXCEPT ALL``) only makes a pair
not-equivalent. Every rewrite builds through ``sparklite.relational.build`` and the whole program is then
re-elaborated (``refresh``: nullability and schemas recomputed bottom-up), so a variant is as well formed
as a program the frontends make. Nothing here imports the verifier.
"""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sparklite.relational import ast as R
from sparklite.relational import build as B
from sparklite.relational import windows
from sparklite.relational.types import (
    INT,
    ArrayType,
    BooleanType,
    Constraint,
    DateType,
    DecimalType,
    DoubleType,
    IntegralType,
    Schema,
    StringType,
    TimestampType,
)

# ---------------------------------------------------------------------------------------------------
# Generic traversal of kernel trees (Case branches are tuples of pairs, so tuples nest)
# ---------------------------------------------------------------------------------------------------


def _fmap(node: R.RNode, f: Callable[[R.RNode], R.RNode]) -> R.RNode:
    """``node`` with ``f`` applied to each direct child node (inside tuples too)."""

    def value(v: Any) -> Any:
        if isinstance(v, R.RNode):
            return f(v)
        if isinstance(v, tuple):
            return tuple(value(x) for x in v)
        return v

    changes = {}
    for fld in dataclasses.fields(node):
        if fld.name == "loc":
            continue
        old = getattr(node, fld.name)
        new = value(old)
        if new is not old and new != old:
            changes[fld.name] = new
    return replace(node, **changes) if changes else node


def nodes(node: Any) -> list[R.RNode]:
    """Every node under ``node``, pre-order (the numbering ``replace_nth`` uses)."""
    out: list[R.RNode] = []

    def visit(v: Any) -> None:
        if isinstance(v, R.RNode):
            out.append(v)
            for fld in dataclasses.fields(v):
                if fld.name != "loc":
                    visit(getattr(v, fld.name))
        elif isinstance(v, tuple):
            for x in v:
                visit(x)

    visit(node)
    return out


def replace_nth(node: Any, n: int, new: R.RNode) -> Any:
    """``node`` with its ``n``-th node (pre-order, as ``nodes`` lists them) replaced by ``new``."""
    counter = [0]

    def visit(v: R.RNode) -> R.RNode:
        i = counter[0]
        counter[0] += 1
        if i == n:
            return new
        return v if counter[0] > n else _fmap(v, visit)  # past the target: nothing left to change

    return visit(node)


def map_cols(e: R.RNode, fn: Callable[[R.Col], R.RNode]) -> Any:
    """An expression with every column reference ``c`` replaced by ``fn(c)`` (expressions hold no
    relations, so this never crosses an operator)."""
    if isinstance(e, R.Col):
        return fn(e)
    return _fmap(e, lambda c: map_cols(c, fn))


def columns_read(e: R.RNode) -> set[int]:
    return {n.index for n in nodes(e) if isinstance(n, R.Col)}


def shift(e: R.Expr, by: int, source: Sequence[R.Col] | None = None) -> R.Expr:
    """``e`` with column ``i`` read as ``i + by`` (of ``source`` when given, for names and types)."""
    def move(c: R.Col) -> R.Col:
        return source[c.index + by] if source is not None else replace(c, index=c.index + by)
    return map_cols(e, move)


def substitute(e: R.Expr, exprs: Sequence[R.Expr]) -> R.Expr:
    """``e`` over a projection's output, rewritten over the projection's input (column ``i`` is
    ``exprs[i]``)."""
    return map_cols(e, lambda c: exprs[c.index])


# ---------------------------------------------------------------------------------------------------
# Re-elaboration: nullability and schemas recomputed bottom-up after a rewrite
# ---------------------------------------------------------------------------------------------------


def refresh(program: R.RelProgram) -> R.RelProgram:
    """``program`` with every column reference, expression nullability and operator schema recomputed
    from its inputs, as ``build`` computes them (types are kept: the rewrites never change one).

    A rewrite can change the nullability of a column (a filter pushed below an outer join, ``count(*)``
    as ``sum(1)``), and the kernel's consumers rely on it (NOT NULL operands change which operand of a
    division is evaluated first): a stale flag would make the variant a program no frontend makes. On a
    program ``build`` made, ``refresh`` changes nothing (pinned by the fuzzer's tests)."""
    body = program.body
    if isinstance(body, R.Action):
        body = replace(body, source=refresh_rel(body.source))
    else:
        body = refresh_rel(body)
    return replace(program, body=body)


def refresh_rel(rel: R.Rel) -> R.Rel:
    if isinstance(rel, R.Table):
        return rel
    if isinstance(rel, R.Project):
        src = refresh_rel(rel.source)
        cols = B.columns_of(src)
        return B.project(src, [refresh_expr(e, cols) for e in rel.exprs], rel.schema.names)
    if isinstance(rel, R.Filter):
        src = refresh_rel(rel.source)
        return replace(rel, source=src, pred=refresh_expr(rel.pred, B.columns_of(src)))
    if isinstance(rel, R.Join):
        left, right = refresh_rel(rel.left), refresh_rel(rel.right)
        cols = B.columns_of(left) + tuple(replace(c, index=c.index + len(left.schema))
                                          for c in B.columns_of(right))
        cond = refresh_expr(rel.cond, cols) if rel.cond is not None else None
        fresh = B.join(rel.kind, left, right, cond)
        fields = zip(fresh.schema.fields, rel.schema.names, strict=True)
        return replace(fresh, schema=Schema(tuple(replace(f, name=n) for f, n in fields)))
    if isinstance(rel, R.Aggregate):
        src = refresh_rel(rel.source)
        cols = B.columns_of(src)
        names = rel.schema.names
        keys = [refresh_expr(k, cols) for k in rel.keys]
        aggs = [refresh_expr(a, cols) for a in rel.aggs]
        return B.aggregate(src, keys, names[:len(keys)], aggs, names[len(keys):])  # type: ignore[arg-type]
    if isinstance(rel, R.Distinct | R.DropDuplicates | R.Limit):
        return replace(rel, source=refresh_rel(rel.source))
    if isinstance(rel, R.Sort):
        src = refresh_rel(rel.source)
        cols = B.columns_of(src)
        keys = tuple(replace(k, expr=refresh_expr(k.expr, cols)) for k in rel.keys)
        return replace(rel, source=src, keys=keys)
    if isinstance(rel, R.SetOp):
        left, right = refresh_rel(rel.left), refresh_rel(rel.right)
        fields = []
        for f, a, b in zip(rel.schema.fields, left.schema.fields, right.schema.fields, strict=True):
            nullable = {"union": a.nullable or b.nullable, "intersect": a.nullable and b.nullable,
                        "except": a.nullable}[rel.kind]
            fields.append(replace(f, nullable=nullable))
        return replace(rel, left=left, right=right, schema=Schema(tuple(fields)))
    if isinstance(rel, R.Window):
        src = refresh_rel(rel.source)
        cols = B.columns_of(src)
        calls = [_refresh_window_call(c, cols) for c in rel.calls]
        return windows.window(src, calls, rel.schema.names[len(src.schema):])
    if isinstance(rel, R.Generate):
        src = refresh_rel(rel.source)
        new = rel.schema.names[len(rel.source.schema):]
        return B.generate(src, refresh_expr(rel.generator, B.columns_of(src)), rel.outer, rel.position, new)
    if isinstance(rel, R.Values):
        return rel
    raise TypeError(f"unknown relation {type(rel).__name__}")


def _refresh_window_call(c: R.WindowCall, cols: Sequence[R.Col]) -> R.WindowCall:
    """A window call over ``cols``, typed again by ``windows.call`` (a ranking or offset function's frame
    is its own)."""
    own = c.name in windows.RANKING or c.name in windows.OFFSET
    args = [refresh_expr(a, cols) for a in c.args]
    partition = [refresh_expr(p, cols) for p in c.partition]
    order = [replace(k, expr=refresh_expr(k.expr, cols)) for k in c.order]
    return windows.call(c.name, args, partition, order, None if own else c.frame, offset=c.offset,
                        ignore_nulls=c.ignore_nulls)


def refresh_expr(e: Any, cols: Sequence[R.Col]) -> Any:
    """``e`` over the input columns ``cols``, nullability recomputed by ``build``'s rules."""
    from sparklite.relational.functions import func_type

    if isinstance(e, R.Col):
        return cols[e.index]
    if isinstance(e, R.Lit):
        return e
    e = _fmap(e, lambda c: refresh_expr(c, cols))
    if isinstance(e, R.Arith):
        return replace(e, nullable=e.left.nullable or e.right.nullable or e.try_)
    if isinstance(e, R.Neg | R.Not):
        return replace(e, nullable=e.operand.nullable)
    if isinstance(e, R.Cmp):
        return replace(e, nullable=e.op != "<=>" and (e.left.nullable or e.right.nullable))
    if isinstance(e, R.And | R.Or):
        return replace(e, nullable=e.left.nullable or e.right.nullable)
    if isinstance(e, R.Case):
        values = [v for _, v in e.branches] + ([e.orelse] if e.orelse is not None else [])
        return replace(e, nullable=e.orelse is None or any(v.nullable for v in values))
    if isinstance(e, R.In):
        return replace(e, nullable=e.operand.nullable or any(v.nullable for v in e.values))
    if isinstance(e, R.Cast):
        return replace(e, nullable=e.operand.nullable or e.try_)
    if isinstance(e, R.Func):
        consts = [a.value if isinstance(a, R.Lit) else None for a in e.args]
        _, nullable, _ = func_type(e.name, [a.type for a in e.args], [a.nullable for a in e.args], consts)
        return replace(e, nullable=nullable)
    if isinstance(e, R.AggCall):
        return replace(e, nullable=e.name not in ("count", "count_star", "count_distinct", "collect_list",
                                                  "collect_set"))
    return e  # IsNull (never NULL), SortKey


# ---------------------------------------------------------------------------------------------------
# Small helpers for rules
# ---------------------------------------------------------------------------------------------------

Rule = Callable[[R.RNode, random.Random], R.RNode | None]

_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=", "!=": "!=", "<=>": "<=>"}
_NEGATE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "=": "!=", "!=": "="}
_OUTER_SWAP = {"inner": "inner", "cross": "cross", "left": "right", "right": "left", "full": "full"}


def _join_cols(join: R.Join) -> tuple[R.Col, ...]:
    """The columns a join's condition (and a filter right above it) reads: left's, then right's."""
    nl = len(join.left.schema)
    return B.columns_of(join.left) + tuple(replace(c, index=c.index + nl) for c in B.columns_of(join.right))


def _reselect(rel: R.Rel, order: Sequence[int], schema: Schema) -> R.Project:
    """``rel``'s columns ``order`` under the names of ``schema`` (a re-selection after a swap)."""
    cols = B.columns_of(rel)
    return B.project(rel, [cols[i] for i in order], schema.names)


def duplicate_free(rel: R.Rel) -> bool:
    """Rows of ``rel`` are pairwise distinct as ``distinct`` compares them: a table with a primary key
    on an integral or string column (no NaN or -0.0 to merge), a ``distinct``, or a keyed aggregate."""
    if isinstance(rel, R.Table):
        return any(c.kind == "primary" for c in rel.schema.constraints)
    if isinstance(rel, R.Distinct):
        return True
    if isinstance(rel, R.Filter | R.Sort | R.Limit):
        return duplicate_free(rel.source)
    return False


# ---------------------------------------------------------------------------------------------------
# Rewrites meant to preserve meaning
# ---------------------------------------------------------------------------------------------------


def _filter_split(n: R.RNode, rng: random.Random) -> R.RNode | None:
    if isinstance(n, R.Filter) and isinstance(n.pred, R.And):
        return B.filter_(B.filter_(n.source, n.pred.left), n.pred.right)
    return None


def _filter_merge(n: R.RNode, rng: random.Random) -> R.RNode | None:
    if isinstance(n, R.Filter) and isinstance(n.source, R.Filter):
        return B.filter_(n.source.source, B.and_(n.source.pred, n.pred))
    return None


def _cmp_flip(n: R.RNode, rng: random.Random) -> R.RNode | None:
    if isinstance(n, R.Cmp):
        return R.Cmp(_FLIP[n.op], n.right, n.left, n.nullable)  # type: ignore[arg-type]
    return None


def _and_or_commute(n: R.RNode, rng: random.Random) -> R.RNode | None:
    if isinstance(n, R.And | R.Or):
        return replace(n, left=n.right, right=n.left)
    return None


def _de_morgan(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """NOT (a AND b) = NOT a OR NOT b, and the dual: true in three-valued logic."""
    if isinstance(n, R.Not) and isinstance(n.operand, R.And | R.Or):
        inner = n.operand
        other = B.or_ if isinstance(inner, R.And) else B.and_
        return other(B.not_(inner.left), B.not_(inner.right))
    if isinstance(n, R.And | R.Or) and rng.random() < 0.5:
        other = B.or_ if isinstance(n, R.And) else B.and_
        return B.not_(other(B.not_(n.left), B.not_(n.right)))
    return None


def _not_cmp(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """NOT (a < b) = a >= b (NULL stays NULL; Spark's total order on doubles puts NaN on top)."""
    if isinstance(n, R.Not) and isinstance(n.operand, R.Cmp) and n.operand.op in _NEGATE:
        c = n.operand
        return R.Cmp(_NEGATE[c.op], c.left, c.right, c.nullable)  # type: ignore[arg-type]
    if isinstance(n, R.Cmp) and n.op in _NEGATE:
        return B.not_(R.Cmp(_NEGATE[n.op], n.left, n.right, n.nullable))  # type: ignore[arg-type]
    return None


def _not_not(n: R.RNode, rng: random.Random) -> R.RNode | None:
    if isinstance(n, R.Not) and isinstance(n.operand, R.Not):
        return n.operand.operand
    if isinstance(n, R.IsNull):
        return B.not_(R.IsNull(n.operand, not n.negated))
    if isinstance(n, R.Cmp | R.In):
        return B.not_(B.not_(n))
    return None


def _in_to_or(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """x IN (a, b) = x = a OR x = b, also with NULLs (TRUE, else NULL if a NULL met, else FALSE)."""
    if isinstance(n, R.In):
        out: R.Expr = B.compare("=", n.operand, n.values[0])
        for v in n.values[1:]:
            out = B.or_(out, B.compare("=", n.operand, v))
        return out
    return None


def _coalesce_case(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """coalesce(a, b) = CASE WHEN a IS NULL THEN b ELSE a END (and nvl/ifnull, which are coalesce)."""
    if isinstance(n, R.Func) and n.name in ("coalesce", "nvl", "ifnull") and len(n.args) >= 2 \
            and all(a.type == n.type for a in n.args):
        head, rest = n.args[0], n.args[1:]
        tail = rest[0] if len(rest) == 1 else B.func("coalesce", list(rest))
        if rng.random() < 0.5:
            return B.case([(B.is_null(head), tail)], head)
        return B.case([(B.is_null(head, negated=True), head)], tail)
    return None


def _arith_commute(n: R.RNode, rng: random.Random) -> R.RNode | None:
    if isinstance(n, R.Arith) and n.op in ("+", "*"):
        return replace(n, left=n.right, right=n.left)
    return None


def _filter_pushdown(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """A filter above a join moved to the side whose columns it reads, where that side is preserved
    (inner, cross; left's side of a left/semi/anti join, right's of a right join), or into an inner
    join's condition."""
    if not (isinstance(n, R.Filter) and isinstance(n.source, R.Join)):
        return None
    j, p = n.source, n.pred
    nl = len(j.left.schema)
    read = columns_read(p)
    if read and max(read) < nl and j.kind in ("inner", "cross", "left", "semi", "anti"):
        return replace(j, left=B.filter_(j.left, p))
    if read and min(read) >= nl and j.kind in ("inner", "cross", "right"):
        return replace(j, right=B.filter_(j.right, shift(p, -nl, B.columns_of(j.right))))
    if j.kind in ("inner", "cross"):
        cond = p if j.cond is None else B.and_(j.cond, p)
        return B.join("inner", j.left, j.right, cond)
    return None


def _filter_pullup(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """The reverse: a filter on a preserved join side lifted above the join."""
    if not isinstance(n, R.Join):
        return None
    nl = len(n.left.schema)
    if isinstance(n.left, R.Filter) and n.kind in ("inner", "cross", "left", "semi", "anti"):
        return B.filter_(replace(n, left=n.left.source), n.left.pred)
    if isinstance(n.right, R.Filter) and n.kind in ("inner", "cross", "right"):
        lifted = replace(n, right=n.right.source)
        return B.filter_(lifted, shift(n.right.pred, nl, _join_cols(lifted)))
    return None


def _join_swap(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """L join R = select(L's columns, R's columns) of (R join' L), join' the mirrored kind."""
    if not (isinstance(n, R.Join) and n.kind in _OUTER_SWAP):
        return None
    nl, nr = len(n.left.schema), len(n.right.schema)
    swapped_cols = B.columns_of(n.right) + B.columns_of(n.left)
    swapped_cols = tuple(replace(c, index=i) for i, c in enumerate(swapped_cols))

    def move(c: R.Col) -> R.Col:
        return swapped_cols[c.index + nr] if c.index < nl else swapped_cols[c.index - nl]

    cond = map_cols(n.cond, move) if n.cond is not None else None
    swapped = B.join(_OUTER_SWAP[n.kind], n.right, n.left, cond)  # type: ignore[arg-type]
    return _reselect(swapped, [nr + i for i in range(nl)] + list(range(nr)), n.schema)


def _project_fusion(n: R.RNode, rng: random.Random) -> R.RNode | None:
    if isinstance(n, R.Project) and isinstance(n.source, R.Project):
        inner = n.source
        return B.project(inner.source, [substitute(e, inner.exprs) for e in n.exprs], n.schema.names)
    return None


def _project_fission(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """One computed column of a projection computed by a projection below it (``withColumn`` first)."""
    if not isinstance(n, R.Project):
        return None
    computed = [i for i, e in enumerate(n.exprs) if not isinstance(e, R.Col)]
    if not computed:
        return None
    k = rng.choice(computed)
    src_cols = B.columns_of(n.source)
    inner = B.project(n.source, [*src_cols, n.exprs[k]], [*n.source.schema.names, "_fz"])
    cols = B.columns_of(inner)
    exprs = [cols[len(src_cols)] if i == k else map_cols(e, lambda c: cols[c.index])
             for i, e in enumerate(n.exprs)]
    return B.project(inner, exprs, n.schema.names)


def _project_reorder(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """select(a, b, c) = select(c, a, b) then re-selected as (a, b, c)."""
    if not isinstance(n, R.Project) or len(n.exprs) < 2:
        return None
    order = list(range(len(n.exprs)))
    rng.shuffle(order)
    if order == sorted(order):
        order = order[1:] + order[:1]
    inner = B.project(n.source, [n.exprs[i] for i in order], [n.schema.names[i] for i in order])
    inverse = [order.index(i) for i in range(len(order))]
    return _reselect(inner, inverse, n.schema)


def _setop_commute(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """UNION [ALL] and INTERSECT [ALL] commute (the result keeps the left side's names)."""
    if isinstance(n, R.SetOp) and n.kind in ("union", "intersect"):
        swapped = R.SetOp(n.kind, n.all, n.right, n.left, n.right.schema)
        return _reselect(swapped, range(len(n.schema)), n.schema)
    return None


def _union_filter(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """A filter above UNION ALL applied to both sides."""
    s = n.source if isinstance(n, R.Filter) else None
    if isinstance(n, R.Filter) and isinstance(s, R.SetOp) and s.kind == "union" and s.all:
        right = B.filter_(s.right, map_cols(n.pred, lambda c: B.columns_of(s.right)[c.index]))
        return replace(s, left=B.filter_(s.left, map_cols(n.pred, lambda c: B.columns_of(s.left)[c.index])),
                       right=right)
    return None


def _filter_below_project(n: R.RNode, rng: random.Random) -> R.RNode | None:
    if isinstance(n, R.Filter) and isinstance(n.source, R.Project):
        pr = n.source
        return replace(pr, source=B.filter_(pr.source, substitute(n.pred, pr.exprs)))
    return None


def _filter_below_aggregate(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """A filter on grouping keys only, applied to the rows before grouping (with keys: a group is kept
    or dropped whole)."""
    if isinstance(n, R.Filter) and isinstance(n.source, R.Aggregate) and n.source.keys:
        agg = n.source
        read = columns_read(n.pred)
        if read and max(read) < len(agg.keys):
            return replace(agg, source=B.filter_(agg.source, substitute(n.pred, agg.keys)))
    return None


def _count_star_sum_one(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """Per group, count(*) = sum(1) (a group is never empty); and back."""
    if not (isinstance(n, R.Aggregate) and n.keys):
        return None
    return _swap_count_star(n, rng)


def _swap_count_star(n: R.Aggregate, rng: random.Random) -> R.RNode | None:
    one = B.agg("sum", [B.lit(1)])
    spots = [i for i, a in enumerate(n.aggs) if a.name == "count_star" or a == one]
    if not spots:
        return None
    i = rng.choice(spots)
    new = one if n.aggs[i].name == "count_star" else B.agg("count_star", [])
    return replace(n, aggs=n.aggs[:i] + (new,) + n.aggs[i + 1:])


def _no_doubles(rel: R.Rel) -> bool:
    """``distinct`` outputs a double ``-0.0`` as ``0.0`` even where it removes nothing."""
    return not any(isinstance(f.type, DoubleType) for f in rel.schema.fields)


def _semi_as_inner_distinct(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """L semi join R = distinct(select(L's columns) of L inner join R) when L's rows are distinct
    (a primary key) and hold no double."""
    if isinstance(n, R.Join) and n.kind == "semi" and duplicate_free(n.left) and _no_doubles(n.left):
        inner = B.join("inner", n.left, n.right, n.cond)
        return B.distinct(_reselect(inner, range(len(n.left.schema)), n.left.schema))
    return None


def _distinct_of_keyed(n: R.RNode, rng: random.Random) -> R.RNode | None:
    if isinstance(n, R.Distinct) and duplicate_free(n.source) and _no_doubles(n.source):
        return n.source
    return None


def _filter_as_except(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """filter(p) = T EXCEPT ALL filter(p IS NOT TRUE): the complement taken with NULLs."""
    if isinstance(n, R.Filter):
        not_true = B.or_(B.not_(n.pred), B.is_null(n.pred))
        return B.set_op("except", True, n.source, B.filter_(n.source, not_true))
    return None


PRESERVING: dict[str, Rule] = {
    "filter_split": _filter_split,
    "filter_merge": _filter_merge,
    "cmp_flip": _cmp_flip,
    "and_or_commute": _and_or_commute,
    "de_morgan": _de_morgan,
    "not_cmp": _not_cmp,
    "not_not": _not_not,
    "in_to_or": _in_to_or,
    "coalesce_case": _coalesce_case,
    "arith_commute": _arith_commute,
    "filter_pushdown": _filter_pushdown,
    "filter_pullup": _filter_pullup,
    "join_swap": _join_swap,
    "project_fusion": _project_fusion,
    "project_fission": _project_fission,
    "project_reorder": _project_reorder,
    "setop_commute": _setop_commute,
    "union_filter": _union_filter,
    "filter_below_project": _filter_below_project,
    "filter_below_aggregate": _filter_below_aggregate,
    "count_star_sum_one": _count_star_sum_one,
    "semi_as_inner_distinct": _semi_as_inner_distinct,
    "distinct_of_keyed": _distinct_of_keyed,
    "filter_as_except": _filter_as_except,
}


# ---------------------------------------------------------------------------------------------------
# Mutations meant to change meaning
# ---------------------------------------------------------------------------------------------------


def _filter_wrong_side(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """A filter above an outer join pushed to the side the join pads (or into its ON clause)."""
    if not (isinstance(n, R.Filter) and isinstance(n.source, R.Join)):
        return None
    j, p = n.source, n.pred
    nl = len(j.left.schema)
    read = columns_read(p)
    if read and max(read) < nl and j.kind in ("right", "full"):
        return replace(j, left=B.filter_(j.left, p))
    if read and min(read) >= nl and j.kind in ("left", "full"):
        return replace(j, right=B.filter_(j.right, shift(p, -nl, B.columns_of(j.right))))
    if j.kind in ("left", "right", "full"):
        return replace(j, cond=p if j.cond is None else B.and_(j.cond, p))
    return None


def _not_as_complement(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """filter(NOT p) as T EXCEPT ALL filter(p): keeps the rows where p is NULL too."""
    if isinstance(n, R.Filter) and isinstance(n.pred, R.Not):
        return B.set_op("except", True, n.source, B.filter_(n.source, n.pred.operand))
    if isinstance(n, R.Filter):
        return B.set_op("except", True, n.source, B.filter_(n.source, B.not_(n.pred)))
    return None


def _mod_pmod(n: R.RNode, rng: random.Random) -> R.RNode | None:
    if isinstance(n, R.Arith) and n.op in ("%", "pmod") and not n.try_:
        return replace(n, op="pmod" if n.op == "%" else "%")
    return None


def _setop_all(n: R.RNode, rng: random.Random) -> R.RNode | None:
    if isinstance(n, R.SetOp):
        return replace(n, all=not n.all)
    return None


def _join_kind(n: R.RNode, rng: random.Random) -> R.RNode | None:
    if isinstance(n, R.Join) and n.kind in ("semi", "anti"):
        return replace(n, kind="anti" if n.kind == "semi" else "semi")
    if isinstance(n, R.Join):
        kinds = [k for k in ("inner", "left", "right", "full") if k != n.kind]
        if n.cond is None:
            kinds.append("cross")
        return B.join(rng.choice(kinds), n.left, n.right, n.cond)  # type: ignore[arg-type]
    return None


def _count_col_star(n: R.RNode, rng: random.Random) -> R.RNode | None:
    if isinstance(n, R.AggCall) and n.name == "count" and len(n.args) == 1:
        return B.agg("count_star", [])
    if isinstance(n, R.Aggregate) and not n.keys:  # count(*) and sum(1) differ on an empty input
        return _swap_count_star(n, rng)
    return None


def _not_in_vs_not_exists(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """An anti join on a = b (NOT EXISTS) made null-aware (NOT IN: a NULL comparison also excludes)."""
    if isinstance(n, R.Join) and n.kind == "anti" and isinstance(n.cond, R.Cmp) and n.cond.op == "=":
        return replace(n, cond=B.or_(n.cond, B.is_null(n.cond)))
    return None


def _const_change(n: R.RNode, rng: random.Random) -> R.RNode | None:
    if isinstance(n, R.Lit) and n.value is not None:
        t, v = n.type, n.value
        if isinstance(t, IntegralType):
            w = v + rng.choice((-1, 1))
            return replace(n, value=w) if t.min <= w <= t.max else replace(n, value=v - (w - v))
        if isinstance(t, DoubleType):
            return replace(n, value=(v + 1.0) if math.isfinite(v) else 0.0)
        if isinstance(t, DecimalType):
            return replace(n, value=v + 1 if abs(v + 1) < 10 ** (t.precision - t.scale) else v - 1)
        if isinstance(t, StringType):
            return replace(n, value=v + "a" if v != "a" else "")
        if isinstance(t, BooleanType):
            return replace(n, value=not v)
    if isinstance(n, R.Limit):
        return replace(n, count=n.count + 1 if n.count < 3 else n.count - 1)
    return None


_OP_SWAP = {"=": "<=>", "<=>": "=", "<": "<=", "<=": "<", ">": ">=", ">=": ">", "!=": "="}


def _op_swap(n: R.RNode, rng: random.Random) -> R.RNode | None:
    if isinstance(n, R.Cmp):
        return R.Cmp(_OP_SWAP[n.op], n.left, n.right, n.nullable)  # type: ignore[arg-type]
    if isinstance(n, R.And | R.Or):
        return (B.or_ if isinstance(n, R.And) else B.and_)(n.left, n.right)
    if isinstance(n, R.Arith) and n.op in ("+", "-"):
        return replace(n, op="-" if n.op == "+" else "+")
    return None


def _drop_filter(n: R.RNode, rng: random.Random) -> R.RNode | None:
    return n.source if isinstance(n, R.Filter) else None


def _distinct_toggle(n: R.RNode, rng: random.Random) -> R.RNode | None:
    if isinstance(n, R.Distinct):
        return n.source
    if isinstance(n, R.Project | R.Join | R.SetOp) and not duplicate_free(n):
        return B.distinct(n)
    return None


def _agg_swap(n: R.RNode, rng: random.Random) -> R.RNode | None:
    swaps = {"min": "max", "max": "min", "sum": "try_sum", "try_sum": "sum", "count": "count_distinct"}
    if isinstance(n, R.AggCall) and n.name in swaps and len(n.args) == 1:
        return replace(n, name=swaps[n.name])
    return None


def _sort_flip(n: R.RNode, rng: random.Random) -> R.RNode | None:
    if isinstance(n, R.SortKey):
        if rng.random() < 0.5:
            return replace(n, nulls_first=not n.nulls_first)
        return replace(n, ascending=not n.ascending)
    return None


def _except_swap(n: R.RNode, rng: random.Random) -> R.RNode | None:
    if isinstance(n, R.SetOp) and n.kind == "except":
        swapped = R.SetOp(n.kind, n.all, n.right, n.left, n.right.schema)
        return _reselect(swapped, range(len(n.schema)), n.schema)
    return None


def _coalesce_order(n: R.RNode, rng: random.Random) -> R.RNode | None:
    if isinstance(n, R.Func) and n.name in ("coalesce", "nvl", "ifnull") and len(n.args) == 2:
        return replace(n, args=(n.args[1], n.args[0]))
    return None


# -- signed zeros (issue 26): a double -0.0 is an output of its own; grouping and distinct normalise it --


def _double_expr(n: R.RNode) -> bool:
    return isinstance(n, R.Col | R.Lit | R.Arith | R.Neg | R.Case | R.Cast | R.Func) \
        and isinstance(n.type, DoubleType) and not (isinstance(n, R.Lit) and n.value is None)


def _minus_minus(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """A double ``e`` -> ``-(-e)`` (exact, signs included)."""
    if _double_expr(n) and not isinstance(n, R.Neg):
        return B.neg(B.neg(n))
    return None


def _zero_operand(op: R.ArithOp) -> Rule:
    """A double ``e`` -> ``e - 0.0`` (exact: ``-0.0 - 0.0`` is ``-0.0``) or ``e + 0.0`` (equal to Spark's
    ``=``, but ``-0.0 + 0.0`` is ``0.0``: a mutation)."""
    def rule(n: R.RNode, rng: random.Random) -> R.RNode | None:
        return B.arith(op, n, B.lit(0.0)) if _double_expr(n) else None

    return rule


def _abs_of_negation(n: R.RNode, rng: random.Random) -> R.RNode | None:
    if isinstance(n, R.Func) and n.name == "abs" and len(n.args) == 1 and _double_expr(n.args[0]):
        return B.func("abs", (B.neg(n.args[0]),))
    return None


def _negation_as_subtraction(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """``-e`` -> ``0.0 - e`` for a double ``e`` (``-(0.0)`` is ``-0.0``, ``0.0 - 0.0`` is ``0.0``)."""
    if isinstance(n, R.Neg) and _double_expr(n.operand):
        return B.arith("-", B.lit(0.0), n.operand)
    return None


def _abs_as_case(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """``abs(e)`` -> ``CASE WHEN e >= 0 THEN e ELSE -e END`` (keeps ``-0.0``, as ``abs`` does not)."""
    if isinstance(n, R.Func) and n.name == "abs" and len(n.args) == 1 and _double_expr(n.args[0]):
        e = n.args[0]
        return B.case([(B.compare(">=", e, B.lit(0.0)), e)], B.neg(e))
    if _double_expr(n) and rng.random() < 0.3:
        return B.func("abs", (n,))
    return None


def _flip_zero_sign(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """A double literal ``0.0`` or ``-0.0`` negated (as ``-(lit)``: ``Lit(-0.0) == Lit(0.0)``)."""
    if isinstance(n, R.Lit) and isinstance(n.type, DoubleType) and n.value == 0.0:
        return B.neg(n)
    return None


def _date_sub_as_add(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """date_sub(d, k) = date_add(d, -k) for a literal k (dates: issue 21)."""
    if isinstance(n, R.Func) and n.name == "date_sub" and isinstance(n.args[1], R.Lit) \
            and isinstance(n.args[1].value, int) and n.args[1].type == INT:
        return B.func("date_add", [n.args[0], B.lit(-n.args[1].value)])
    return None


def _date_part_swap(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """year(d) <-> month(d), dayofweek(d) <-> dayofmonth(d): a different calendar field (a mutation)."""
    other = {"year": "month", "month": "year", "dayofweek": "dayofmonth", "dayofmonth": "dayofweek"}
    if isinstance(n, R.Func) and n.name in other:
        return B.func(other[n.name], list(n.args))
    return None


def _limit_through_union(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """limit(n) of UNION ALL = limit(n) of the union of each side's limit(n) (an optimizer's limit
    pushdown through a union; Spark's choice of rows is nondeterministic either way)."""
    if isinstance(n, R.Limit) and isinstance(n.source, R.SetOp) and n.source.kind == "union" and n.source.all:
        s = n.source
        return B.limit(replace(s, left=B.limit(s.left, n.count), right=B.limit(s.right, n.count)), n.count)
    return None


def _filter_into_join_on(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """A filter above an inner join as a conjunct of its ON clause, the WHERE left as ``TRUE`` (what
    sqlglot's ``pushdown_predicates`` leaves): the optimizer rewrite of ``cases/tpc_rewrites``."""
    if isinstance(n, R.Filter) and isinstance(n.source, R.Join) and n.source.kind in ("inner", "cross"):
        j = n.source
        cond = n.pred if j.cond is None else B.and_(j.cond, n.pred)
        return B.filter_(B.join("inner", j.left, j.right, cond), B.lit(True))
    return None


def _conjunct_into_join_on(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """One conjunct of a filter above an inner join moved into its ON clause, the others left above:
    the order Spark meets a table's conjuncts in may change (``rel_terms.spark_alike`` proves such a
    pair only where that order cannot matter)."""
    if not (isinstance(n, R.Filter) and isinstance(n.source, R.Join) and n.source.kind in ("inner", "cross")
            and isinstance(n.pred, R.And)):
        return None
    j = n.source
    moved, kept = (n.pred.left, n.pred.right) if rng.random() < 0.5 else (n.pred.right, n.pred.left)
    cond = moved if j.cond is None else B.and_(j.cond, moved)
    return B.filter_(B.join("inner", j.left, j.right, cond), kept)


def _limit_below_project(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """limit over a projection moved below it (a mutation where the projection may raise: the rows the
    limit drops no longer raise)."""
    if isinstance(n, R.Limit) and isinstance(n.source, R.Project):
        pr = n.source
        return replace(pr, source=B.limit(pr.source, n.count))
    return None


def _explode_as_filtered_outer(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """``explode(a)`` = ``explode_outer(a)`` over the rows where ``size(a) > 0`` (outer adds a row only
    for a NULL or empty array); the same for ``posexplode``."""
    if isinstance(n, R.Generate) and not n.outer:
        kept = B.filter_(n.source, B.compare(">", B.func("size", [n.generator]), B.lit(0)))
        return B.generate(kept, n.generator, True, n.position, n.schema.names[len(n.source.schema):])
    return None


def _split_limit_zero(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """``split(s, p, -1)`` = ``split(s, p, 0)``: Spark reads 0 as -1 (Java's 0 would drop trailing
    empty strings)."""
    if isinstance(n, R.Func) and n.name == "split" and isinstance(n.args[2], R.Lit) \
            and n.args[2].value in (-1, 0):
        return B.func("split", [n.args[0], n.args[1], B.lit(0 if n.args[2].value == -1 else -1)])
    return None


def _explode_outer_toggle(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """``explode`` <-> ``explode_outer``: differ on NULL and empty arrays (a mutation)."""
    if isinstance(n, R.Generate):
        new = n.schema.names[len(n.source.schema):]
        return B.generate(n.source, n.generator, not n.outer, n.position, new)
    return None


def _index_base(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """``a[i]`` <-> ``element_at(a, i)``: 0-based against 1-based, and other errors (a mutation)."""
    other = {"get_item": "element_at", "element_at": "get_item"}
    if isinstance(n, R.Func) and n.name in other:
        return B.func(other[n.name], list(n.args))
    return None


def _split_regex_dot(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """A literal separator read as a regex: ``split(s, '.')`` against ``split(s, '[.]')`` (a mutation)."""
    if isinstance(n, R.Func) and n.name == "split" and isinstance(n.args[1], R.Lit) and n.args[1].value in (
            ".", "[.]", ",", "[,.]"):
        other = {".": "[.]", "[.]": ".", ",": "[,.]", "[,.]": ","}[n.args[1].value]
        return B.func("split", [n.args[0], B.lit(other), n.args[2]])
    return None


PRESERVING.update({
    "explode_as_filtered_outer": _explode_as_filtered_outer,
    "split_limit_zero": _split_limit_zero,
})

PRESERVING.update({
    "limit_through_union": _limit_through_union,
    "filter_into_join_on": _filter_into_join_on,
    "conjunct_into_join_on": _conjunct_into_join_on,
    "date_sub_as_add": _date_sub_as_add,
    "minus_minus": _minus_minus,
    "minus_zero": _zero_operand("-"),
    "abs_of_negation": _abs_of_negation,
})

MUTATING: dict[str, Rule] = {
    "plus_zero": _zero_operand("+"),
    "negation_as_subtraction": _negation_as_subtraction,
    "abs_as_case": _abs_as_case,
    "flip_zero_sign": _flip_zero_sign,
    "filter_wrong_side": _filter_wrong_side,
    "not_as_complement": _not_as_complement,
    "mod_pmod": _mod_pmod,
    "setop_all": _setop_all,
    "join_kind": _join_kind,
    "count_col_star": _count_col_star,
    "not_in_vs_not_exists": _not_in_vs_not_exists,
    "const_change": _const_change,
    "op_swap": _op_swap,
    "drop_filter": _drop_filter,
    "distinct_toggle": _distinct_toggle,
    "agg_swap": _agg_swap,
    "sort_flip": _sort_flip,
    "except_swap": _except_swap,
    "coalesce_order": _coalesce_order,
    "date_part_swap": _date_part_swap,
    "limit_below_project": _limit_below_project,
    "explode_outer_toggle": _explode_outer_toggle,
    "index_base": _index_base,
    "split_regex_dot": _split_regex_dot,
}

# -- window functions (issues 21, 22) --


def _partition_columns(w: R.Window) -> set[int]:
    """The input columns every call of ``w`` partitions by (bare column keys)."""
    sets = [{p.index for p in c.partition if isinstance(p, R.Col)} for c in w.calls]
    return set.intersection(*sets) if sets else set()


def _filter_past_window(on_partition: bool) -> Rule:
    """A filter above a window reading only input columns, pushed below it: on partition keys of every
    call it keeps or drops whole partitions (preserving, the optimiser's pushdown); on another column
    it changes what the partitions hold (a mutation the prover must never prove)."""
    def rule(n: R.RNode, rng: random.Random) -> R.RNode | None:
        if not (isinstance(n, R.Filter) and isinstance(n.source, R.Window)):
            return None
        w = n.source
        read = columns_read(n.pred)
        if not read or max(read) >= len(w.source.schema):
            return None
        if (read <= _partition_columns(w)) != on_partition:
            return None
        return replace(w, source=B.filter_(w.source, n.pred))

    return rule


def _window_fn_swap(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """row_number <-> rank <-> dense_rank, lag <-> lead, first <-> last, a frame widened (mutations)."""
    swaps = {"row_number": "rank", "rank": "dense_rank", "dense_rank": "row_number", "lag": "lead",
             "lead": "lag", "first": "last", "last": "first"}
    if isinstance(n, R.WindowCall) and n.name in swaps:
        return replace(n, name=swaps[n.name])
    if isinstance(n, R.WindowCall) and n.name in windows.AGGREGATES and n.frame != windows.WHOLE_PARTITION:
        return replace(n, frame=windows.WHOLE_PARTITION)
    return None


def _window_partition_drop(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """A window's last partition key dropped (a mutation)."""
    if isinstance(n, R.WindowCall) and n.partition:
        return replace(n, partition=n.partition[:-1])
    return None


def _window_rows_as_range(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """``ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW`` -> ``RANGE ...``: equal without ties (a
    mutation: with peers the RANGE frame holds all of them)."""
    if isinstance(n, R.WindowCall) and n.frame == windows.ROWS_TO_CURRENT and n.name in windows.AGGREGATES:
        return replace(n, frame=windows.RANGE_TO_CURRENT)
    return None


PRESERVING["filter_past_window_partition"] = _filter_past_window(True)
MUTATING.update({
    "filter_past_window_other": _filter_past_window(False),
    "window_fn_swap": _window_fn_swap,
    "window_partition_drop": _window_partition_drop,
    "window_rows_as_range": _window_rows_as_range,
})

def _limit_to_outer_side(preserved: bool) -> Rule:
    """limit(n) over a LEFT/RIGHT join, pushed as limit(n) below one side: the preserved side keeps the
    same possible results (Spark's ``LimitPushDown``; every preserved row gives an output row), the
    padded side (or either side of an inner join) does not (a mutation)."""

    def rule(n: R.RNode, rng: random.Random) -> R.RNode | None:
        if not (isinstance(n, R.Limit) and isinstance(n.source, R.Join)):
            return None
        j = n.source
        if preserved and j.kind in ("left", "right"):
            side = "left" if j.kind == "left" else "right"
        elif not preserved and j.kind in ("left", "right", "inner"):
            side = "right" if j.kind == "left" else "left"
        else:
            return None
        return B.limit(replace(j, **{side: B.limit(getattr(j, side), n.count)}), n.count)

    return rule


def _first_as_nth_value(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """``first(x)`` over a frame = ``nth_value(x, 1)`` over it (same IGNORE NULLS)."""
    if isinstance(n, R.WindowCall) and n.name == "first" and n.order:  # nth_value needs an order
        return replace(n, name="nth_value", offset=1)
    return None


def _first_as_nth_value_two(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """``first(x)`` -> ``nth_value(x, 2)`` (a mutation)."""
    if isinstance(n, R.WindowCall) and n.name == "first" and n.order:  # nth_value needs an order
        return replace(n, name="nth_value", offset=2)
    return None


def _limit_through_union_short(n: R.RNode, rng: random.Random) -> R.RNode | None:
    """limit(n) of UNION ALL with one side cut to n - 1 rows (a mutation: fewer rows possible)."""
    if isinstance(n, R.Limit) and n.count > 1 and isinstance(n.source, R.SetOp) and n.source.kind == "union" \
            and n.source.all:
        s = n.source
        return B.limit(replace(s, right=B.limit(s.right, n.count - 1)), n.count)
    return None


PRESERVING.update({
    "limit_to_preserved_side": _limit_to_outer_side(True),
    "first_as_nth_value": _first_as_nth_value,
})
MUTATING.update({
    "limit_to_padded_side": _limit_to_outer_side(False),
    "first_as_nth_value_two": _first_as_nth_value_two,
    "limit_through_union_short": _limit_through_union_short,
})

# Rules whose places are rare in random programs: tried first, so that the pairs exercise them.
FOCUS = ("filter_pushdown", "filter_pullup", "semi_as_inner_distinct", "count_star_sum_one", "coalesce_case",
         "setop_commute", "de_morgan", "filter_wrong_side", "not_in_vs_not_exists", "mod_pmod", "setop_all",
         "join_kind", "count_col_star", "not_as_complement", "abs_as_case", "negation_as_subtraction",
         "flip_zero_sign", "date_sub_as_add", "date_part_swap", "filter_past_window_partition",
         "filter_past_window_other", "window_rows_as_range", "limit_through_union", "filter_into_join_on",
         "limit_below_project", "limit_to_preserved_side", "first_as_nth_value", "limit_to_padded_side",
         "first_as_nth_value_two", "limit_through_union_short", "conjunct_into_join_on")


# ---------------------------------------------------------------------------------------------------
# Variants of whole programs
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    program: R.RelProgram
    steps: tuple[str, ...]
    intended: str  # "equivalent" when only preserving rewrites were applied, else "not_equivalent"


def apply_rule(program: R.RelProgram, rule: Rule, rng: random.Random) -> R.RelProgram | None:
    """``rule`` applied at a random place of ``program`` where it applies (None if nowhere), then the
    program re-elaborated; None also when the result is ill formed (the builder rejected a step)."""
    spots = list(enumerate(nodes(program.body)))
    rng.shuffle(spots)
    for i, node in spots:
        try:
            new = rule(node, rng)
        except (B.AnalysisError, ValueError, KeyError):  # an ill-typed intermediate: elsewhere
            continue
        if new is None or new == node:
            continue
        candidate = replace(program, body=replace_nth(program.body, i, new))
        try:
            return refresh(candidate)
        except (B.AnalysisError, ValueError, KeyError, IndexError):
            continue
    return None


def output_signature(program: R.RelProgram) -> tuple:
    """What a variant must keep for the pair to be worth checking: the action and the result's columns
    (names and types; nullability is not observed)."""
    body = program.body
    rel = body.source if isinstance(body, R.Action) else body
    kind = (body.kind, body.count) if isinstance(body, R.Action) else ("dataframe", None)
    return kind, tuple((f.name, f.type) for f in rel.schema.fields)


def _pick_rule(rules: dict[str, Rule], rng: random.Random) -> list[str]:
    """The rules in a random order, the ``FOCUS`` ones eight times as likely to come first."""
    keys = {n: rng.random() ** (1 / (8 if n in FOCUS else 1)) for n in rules}
    return sorted(rules, key=lambda n: -keys[n])


def make_variant(program: R.RelProgram, rng: random.Random, mutate: bool, steps: int = 2) -> Variant | None:
    """``steps`` preserving rewrites, then one mutation when ``mutate``; None when nothing applied or the
    result shows other columns or another action."""
    current, applied = program, []
    for _ in range(steps):
        for name in _pick_rule(PRESERVING, rng):
            nxt = apply_rule(current, PRESERVING[name], rng)
            if nxt is not None:
                current, applied = nxt, [*applied, name]
                break
    if mutate:
        for name in _pick_rule(MUTATING, rng):
            nxt = apply_rule(current, MUTATING[name], rng)
            if nxt is not None and output_signature(nxt) == output_signature(program):
                current, applied = nxt, [*applied, name]
                break
        else:
            return None
    if current == program or output_signature(current) != output_signature(program):
        return None
    return Variant(current, tuple(applied), "not_equivalent" if mutate else "equivalent")


# ---------------------------------------------------------------------------------------------------
# Base programs
# ---------------------------------------------------------------------------------------------------

JOIN_KINDS: tuple[str, ...] = ("inner", "left", "right", "full", "semi", "anti", "cross")


def with_keys(schemas: dict[str, Schema], rng: random.Random) -> dict[str, Schema]:
    """Some tables get a PRIMARY KEY on an integral or string column (made NOT NULL), as SQL schemas
    declare them: a key makes ``distinct`` and semi-join rewrites hold."""
    out = {}
    for name, schema in schemas.items():
        keyable = [i for i, f in enumerate(schema.fields) if isinstance(f.type, IntegralType | StringType)]
        if keyable and rng.random() < 0.35:
            i = rng.choice(keyable)
            fields = tuple(replace(f, nullable=False) if j == i else f for j, f in enumerate(schema.fields))
            schema = Schema(fields, (Constraint("primary", (fields[i].name,)),))
        out[name] = schema
    return out


def random_predicate(rng: random.Random, schema: Schema, foldable: bool) -> R.Expr | None:
    """A random predicate over a relation of ``schema``: the generator's own filter over a table of that
    schema (so it is typed as the generator types predicates)."""
    from sparklite.relational.generate import random_program

    for _ in range(40):
        prog = random_program(rng, {"J": schema}, 1, foldable=foldable)
        body = prog.body.source if isinstance(prog.body, R.Action) else prog.body
        if isinstance(body, R.Filter) and isinstance(body.source, R.Table):
            return body.pred
    return None


def _with_join_kind(program: R.RelProgram, kind: str) -> R.RelProgram:
    """``program`` with its first join made a ``kind`` join where the output columns allow it (a cross
    join drops the condition; a join without one stays as it is)."""
    for i, node in enumerate(nodes(program.body)):
        if not isinstance(node, R.Join):
            continue
        narrow = ("semi", "anti")
        if (node.kind in narrow) != (kind in narrow) or node.cond is None:
            return program
        new = B.join(kind, node.left, node.right, None if kind == "cross" else node.cond)  # type: ignore[arg-type]
        return refresh(replace(program, body=replace_nth(program.body, i, new)))
    return program


def base_program(rng: random.Random, index: int, max_depth: int) -> R.RelProgram:
    """A random program over two tables (T, U) with NULLs allowed, some keys and boundary literals; two
    pairs in five are made to hold a join of a kind chosen round-robin (every kind is covered), and one
    in two gets a filter right above an operator (where pushdown rules apply)."""
    from sparklite.relational.generate import random_program, random_schemas

    schemas = with_keys(random_schemas(rng, ("T", "U"), max_columns=3), rng)
    foldable = rng.random() < 0.3
    depth = rng.randint(1, max_depth)
    program = random_program(rng, schemas, depth, foldable=foldable)
    if index % 5 < 2:
        kind = JOIN_KINDS[index % len(JOIN_KINDS)]
        for _ in range(30):
            if any(isinstance(n, R.Join) for n in nodes(program.body)):
                break
            program = random_program(rng, schemas, max(depth, 2), foldable=foldable)
        program = _with_join_kind(program, kind)
    if rng.random() < 0.5:
        rels = [(i, n) for i, n in enumerate(nodes(program.body))
                if isinstance(n, R.Join | R.Aggregate | R.SetOp | R.Project)]
        joins = [(i, n) for i, n in rels if isinstance(n, R.Join)]
        if joins and rng.random() < 0.7:
            rels = joins
        if rels:
            i, rel = rng.choice(rels)
            pred = random_predicate(rng, rel.schema, foldable)
            if pred is not None:
                program = refresh(replace(program, body=replace_nth(program.body, i, B.filter_(rel, pred))))
    return program


# ---------------------------------------------------------------------------------------------------
# The oracle's inputs: random tables (NULLs, boundary values, the programs' literals) and JSON
# ---------------------------------------------------------------------------------------------------


def window_base_program(rng: random.Random, index: int, max_depth: int) -> R.RelProgram:
    """A base program holding a window operator: drawn by ``base_program`` until one does, else a
    window over a table, under a filter on one of the table's columns two times in three."""
    from sparklite.relational.generate import _Rels
    from sparklite.relational.window_gen import random_window

    for _ in range(20):
        program = base_program(rng, index, max_depth)
        if any(isinstance(n, R.Window) for n in nodes(program.body)):
            return program
    program = base_program(rng, index, 1)
    rel: R.Rel = random_window(_Rels(rng, program.params, False), 1)
    assert isinstance(rel, R.Window)
    if rng.random() < 0.67:
        c = rng.choice(B.columns_of(rel)[: len(rel.source.schema)])
        rel = B.filter_(rel, B.is_null(c, negated=True) if rng.random() < 0.5 else B.is_null(c))
    return replace(program, body=rel)


def program_constants(*programs: R.RelProgram) -> list[Any]:
    """The programs' literals and, for integers, their neighbours: comparisons flip there."""
    found: list[Any] = []
    for p in programs:
        for n in nodes(p.body):
            if isinstance(n, R.Lit) and n.value is not None:
                v = n.value
                found.append(v)
                if isinstance(v, int) and not isinstance(v, bool):
                    found += [v - 1, v + 1]
    return found


def repair_keys(params: Sequence[R.TableParam], tables: dict[str, list[tuple]]) -> dict[str, list[tuple]]:
    """Rows breaking a declared primary key dropped (a NULL key, a repeated key): the inputs the
    programs' declarations allow."""
    out = dict(tables)
    for tp in params:
        for c in tp.schema.constraints:
            if c.kind != "primary":
                continue
            pos = [tp.schema.indices(col)[0] for col in c.columns]
            seen: set[tuple] = set()
            kept = []
            for row in out.get(tp.name, []):
                key = tuple((type(row[i]).__name__, row[i]) for i in pos)
                if any(row[i] is None for i in pos) or key in seen:
                    continue
                seen.add(key)
                kept.append(row)
            out[tp.name] = kept
    return out


def tiny_tables(rng: random.Random, params: Sequence[R.TableParam], constants: Sequence[Any]
                ) -> dict[str, list[tuple]]:
    """Tables over a tiny domain per column (NULL where allowed, and two or three values, boundaries
    included): rows collide, so joins match, groups have several rows and set operations meet equal
    rows."""
    from sparklite.relational.generate import random_value

    domains: dict[tuple[str, int], list[Any]] = {}
    out = {}
    for tp in params:
        for j, f in enumerate(tp.schema.fields):
            values = [random_value(rng, f.type, False, constants) for _ in range(rng.randint(1, 3))]
            if isinstance(f.type, DoubleType) and rng.random() < 0.3:
                values += [-0.0, 0.0]  # signed zeros: equal to Spark's =, different outputs
            domains[(tp.name, j)] = values + ([None] if f.nullable else [])
        n = rng.choice((0, 1, 2, 3, 4, 5, 6))
        out[tp.name] = [tuple(rng.choice(domains[(tp.name, j)]) for j in range(len(tp.schema.fields)))
                        for _ in range(n)]
    return out


def oracle_inputs(rng: random.Random, params: Sequence[R.TableParam], constants: Sequence[Any]
                  ) -> tuple[dict[str, list[tuple]], dict[str, tuple] | None]:
    """One random input for the oracle and, half the time, a random partitioning of it."""
    from sparklite.relational.generate import random_partitionings, random_tables

    if rng.random() < 0.5:
        tables = tiny_tables(rng, params, constants)
    else:
        tables = random_tables(rng, params, 5, constants)
    tables = repair_keys(params, tables)
    layout = random_partitionings(rng, tables) if rng.random() < 0.5 else None
    return tables, layout


def value_from_json(v: Any, t: Any) -> Any:
    """A cell of a counterexample's JSON rows (``docs/json.md``) back as the interpreter's value."""
    if v is None:
        return None
    if isinstance(t, DoubleType):
        if isinstance(v, dict):
            return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}[v["float"]]
        return float(v)
    if isinstance(t, DecimalType):
        return decimal.Decimal(v["decimal"])
    if isinstance(t, DateType):
        return datetime.date.fromisoformat(v["date"])
    if isinstance(t, TimestampType):  # {"timestamp": ..., "time_zone": "UTC"}, the session time zone
        assert v["time_zone"] == "UTC"
        return datetime.datetime.fromisoformat(v["timestamp"])
    if isinstance(t, ArrayType):  # a JSON array of the elements; the interpreter's arrays are tuples
        return tuple(value_from_json(x, t.element) for x in v)
    return v


def tables_from_json(params: Sequence[R.TableParam], inputs: dict[str, Any]) -> dict[str, list[tuple]]:
    out = {}
    for tp in params:
        out[tp.name] = [_row_from_json(tp.schema, row) for row in inputs.get(tp.name, [])]
    return out


def layout_from_json(params: Sequence[R.TableParam], partitions: dict[str, Any] | None
                     ) -> dict[str, tuple] | None:
    if not partitions:
        return None
    schemas = {tp.name: tp.schema for tp in params}
    return {name: tuple(tuple(_row_from_json(schemas[name], r) for r in part) for part in parts)
            for name, parts in partitions.items() if parts is not None}


def _row_from_json(schema: Schema, row: dict[str, Any]) -> tuple:
    return tuple(value_from_json(row[f.name], f.type) for f in schema.fields)

