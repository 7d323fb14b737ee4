"""Kernel facts about ``limit`` that optimisers rely on, each a rewrite to a plan with the same *set of
possible outcomes* (a limit without ``orderBy`` keeps any rows: Spark's answer is one of that set).

- **Limit pushdown through UNION ALL** (Spark's ``LimitPushDown``): ``limit n (X ∪all limit m Y)`` with
  ``m >= n`` has the possible outcomes of ``limit n (X ∪all Y)``. Any ``n`` rows of ``X ∪all Y`` use at
  most ``n`` rows of Y, which some choice of ``limit m Y`` keeps; conversely ``limit m Y`` is part of
  Y. The row counts agree: ``min(n, |X| + min(m, |Y|)) = min(n, |X| + |Y|)`` when ``m >= n``.
- **Limit pushdown to the preserved side of a LEFT (RIGHT) outer join**: ``limit n (limit m A ⟕ B)``
  with ``m >= n`` has the possible outcomes of ``limit n (A ⟕ B)``: every row of A gives at least one
  output row, so ``n`` output rows come from at most ``n`` rows of A, which some choice of ``limit m
  A`` keeps, and the counts agree as above (``|limit m A ⟕ B| >= min(m, |A|)``).
- **An aggregate over at most one row** ignores ``DISTINCT``: ``sum(DISTINCT x)`` over a group of one
  row is ``sum(x)`` (the same for a one-argument ``count(DISTINCT x)`` and ``count(x)``).

Each applies only where nothing below may raise (``effects.may_raise``): a limit may or may not compute
the rows it drops, so moving it changes which errors are possible. A pushed limit over a sorted
relation keeps its first rows, not any: never removed (any ``Sort`` below it blocks the rule).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from sparklite.relational import ast as R
from sparklite.relational import effects
from sparklite.relational.canonical import _nodes  # every node of a plan


def unpushed_limit(lim: R.Limit) -> R.Limit | None:
    """``lim`` with the limits pushed below it (through UNION ALL or to the preserved side of an outer
    join) removed, or None when there are none."""
    if _may_raise(lim.source):
        return None
    source = _strip(lim.source, lim.count)
    return None if source is lim.source else R.Limit(source, lim.count)


_RANK_LIKE = ("row_number", "rank", "dense_rank")


def limit_through_window(lim: R.Limit) -> R.Rel | None:
    """What Spark runs for ``limit n`` over ``row_number()``/``rank()``/``dense_rank()`` windows without
    PARTITION BY sharing one order (under a projection or not): its optimiser rule
    ``LimitPushDownThroughWindow`` plans the window over ``limit n (sort by the order)``, so the rows kept
    are the first ``n`` in the window's order (checked on Spark 4.3: the optimised plan, and every run
    gives ``rn`` 1..n), not any ``n`` rows. None where the rule does not apply, or where something may
    raise."""
    top = lim.source
    project = top if isinstance(top, R.Project) else None
    window = project.source if project is not None else top
    if not isinstance(window, R.Window) or not window.calls:
        return None
    first = window.calls[0]
    if not first.order or any(
        c.name not in _RANK_LIKE or c.partition or c.order != first.order
        or c.frame != R.Frame("rows", None, 0) for c in window.calls
    ):
        return None
    if _may_raise(window.source) or any(effects.may_raise(k.expr) for k in first.order):
        return None
    inner = R.Limit(R.Sort(window.source, first.order), lim.count)
    pushed = dataclasses.replace(window, source=inner)
    return dataclasses.replace(project, source=pushed) if project is not None else pushed


def _strip(rel: R.Rel, n: int) -> R.Rel:
    if isinstance(rel, R.Project):
        inner = _strip(rel.source, n)
        return rel if inner is rel.source else dataclasses.replace(rel, source=inner)
    if isinstance(rel, R.SetOp) and rel.kind == "union" and rel.all:
        left, right = _drop(rel.left, n), _drop(rel.right, n)
        if left is rel.left and right is rel.right:
            return rel
        return dataclasses.replace(rel, left=left, right=right)
    if isinstance(rel, R.Join) and rel.kind in ("left", "right"):
        if rel.kind == "left":
            left = _drop(rel.left, n)
            return rel if left is rel.left else dataclasses.replace(rel, left=left)
        right = _drop(rel.right, n)
        return rel if right is rel.right else dataclasses.replace(rel, right=right)
    return rel


def _drop(rel: R.Rel, n: int) -> R.Rel:
    """``rel`` without a limit of at least ``n`` rows over an unordered relation (through projections)."""
    if isinstance(rel, R.Limit) and rel.count >= n and not _has_sort(rel.source):
        return _drop(rel.source, n)
    if isinstance(rel, R.Project):
        inner = _drop(rel.source, n)
        return rel if inner is rel.source else dataclasses.replace(rel, source=inner)
    return rel


def at_most_one_row(rel: R.Rel) -> bool:
    """Whether ``rel`` has at most one row on every input: a ``limit`` of 0 or 1, under projections,
    filters and sorts."""
    while isinstance(rel, R.Project | R.Filter | R.Sort):
        rel = rel.source
    return isinstance(rel, R.Limit) and rel.count <= 1


_ONE_ROW_SAME = {"sum_distinct": "sum", "count_distinct": "count"}


def one_row_aggregate(a: R.Aggregate) -> R.Aggregate | None:
    """``a`` with ``DISTINCT`` dropped from its aggregates when its input has at most one row."""
    if not any(c.name in _ONE_ROW_SAME for c in a.aggs) or not at_most_one_row(a.source):
        return None
    aggs = tuple(
        dataclasses.replace(c, name=_ONE_ROW_SAME[c.name])
        if c.name in _ONE_ROW_SAME and len(c.args) == 1 else c
        for c in a.aggs
    )
    return dataclasses.replace(a, aggs=aggs)


def _has_sort(rel: Any) -> bool:
    return any(isinstance(n, R.Sort) for n in _nodes(rel))


def _may_raise(rel: R.Rel) -> bool:
    """Whether computing ``rel`` may raise anywhere (a window call counts as possibly raising)."""
    for n in _nodes(rel):
        if isinstance(n, R.WindowCall | R.Window):
            return True
        if isinstance(n, R.AggCall):
            if effects.agg_raise_kinds(n):
                return True
        elif isinstance(n, R.Expr) and effects.may_raise(n):
            return True
    return False


__all__ = ["at_most_one_row", "limit_through_window", "one_row_aggregate", "unpushed_limit"]
