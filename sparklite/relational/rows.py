"""How many rows a relation can have, as Spark's optimiser sees it statically (``LogicalPlan.maxRows``),
and where that lets Spark skip the ``-0.0`` -> ``0.0`` normalisation of a distinct or a grouping.

Why: Spark 4's ``OptimizeOneRowPlan`` removes a grouping-only ``Aggregate`` -- what ``distinct()``,
``dropDuplicates()``, ``SELECT DISTINCT``, ``UNION``, ``intersect``/``subtract`` and a ``groupBy`` whose
aggregates are pruned become -- when its input has at most one row (``maxRows <= 1``). The removed
distinct does not normalise, so ``t.agg(min(x)).distinct()`` shows ``-0.0`` where a kept one shows
``0.0``. Adaptive execution runs the rule again once a query stage has run, with the stage's actual
row count: ``t.join(u, 'k').select('x').distinct()`` keeps ``-0.0`` when the join gives one row, and
normalises it when adaptive execution is off. Observed on Spark 4 (``docs/semantics-notes.md``).

``max_rows`` is a bound *no larger* than Spark's wherever Spark has one (a filter on a constant may be
folded to an empty relation, so it counts 0; joins count the product whatever their kind), so "Spark
may skip the normalisation" is over-approximated: callers treat such a distinct as undecided.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sparklite.relational import ast as R
from sparklite.relational.build import reads_no_column
from sparklite.relational.types import DoubleType, SqlType


def max_rows(rel: R.Rel) -> int | None:
    """A static upper bound on the rows of ``rel`` (None: unbounded), never above Spark's ``maxRows``."""
    if isinstance(rel, R.Table):
        return None
    if isinstance(rel, R.Values):
        return len(rel.rows)
    if isinstance(rel, R.Generate | R.Opaque):  # as many rows as the arrays hold; not modelled
        return None
    if isinstance(rel, R.Aggregate):
        return 1 if not rel.keys else max_rows(rel.source)
    if isinstance(rel, R.Filter):
        return 0 if reads_no_column(rel.pred) else max_rows(rel.source)
    if isinstance(rel, R.Limit):
        below = max_rows(rel.source)
        return rel.count if below is None else min(rel.count, below)
    if isinstance(rel, R.Project | R.Sort | R.Distinct | R.DropDuplicates | R.Window):
        return max_rows(rel.source)
    left, right = max_rows(rel.left), max_rows(rel.right)
    if isinstance(rel, R.Join):
        if rel.kind in ("semi", "anti"):
            return left
        return None if left is None or right is None else left * right
    if rel.kind == "union":
        return None if left is None or right is None else left + right
    if rel.kind == "intersect":
        return min((n for n in (left, right) if n is not None), default=None)
    return left  # except


def holds_double(t: SqlType) -> bool:
    """Can a value of this type hold a signed zero?"""
    return isinstance(t, DoubleType)


def compares_double(node: R.Rel) -> bool:
    """Is ``node`` a distinct / grouping that compares (and so normalises) a double column: a
    ``Distinct``, ``DropDuplicates``, ``Aggregate`` with a double key or a distinct ``SetOp``?"""
    if isinstance(node, R.SetOp):
        return not node.all and any(holds_double(f.type) for f in node.schema.fields)
    if isinstance(node, R.Aggregate):
        return any(holds_double(k.type) for k in node.keys)
    if isinstance(node, R.DropDuplicates):
        fields = node.schema.fields
        return any(holds_double(fields[c].type) for c in node.columns or range(len(fields)))
    if isinstance(node, R.Distinct):
        return any(holds_double(f.type) for f in node.schema.fields)
    return False


def below_exchange(rel: R.Rel) -> bool:
    """Does ``rel`` end in a query stage (a shuffle or broadcast below the operator reading it), whose
    row count adaptive execution learns at run time? Everything but projections and filters over an
    input table."""
    if isinstance(rel, R.Table):
        return False
    if isinstance(rel, R.Project | R.Filter):
        return below_exchange(rel.source)
    return True


def _inputs(node: R.Rel) -> tuple[R.Rel, ...]:
    if isinstance(node, R.SetOp):
        return (node.left, node.right)
    return (node.source,)


def may_keep_signed_zeros(node: R.Rel, input_rows: int | None = None) -> bool:
    """May Spark drop this distinct / grouping node, and so keep ``-0.0``? Only one comparing a double
    column (``compares_double``), when Spark's static bound on its input is small (observed with 1 and
    2: ``agg(min).union(agg(min)).distinct()``) or, with adaptive execution (on by default), when its
    input ends in a query stage that turns out to hold at most one row (``input_rows``: the rows
    reaching it, None: any count). ``intersect``/``except`` are a semi/anti join under a distinct: the
    join's left side is what counts (Spark's ``maxRows`` of such a join), and the join is a stage."""
    if not compares_double(node):
        return False
    if isinstance(node, R.SetOp) and node.kind != "union":
        bound, staged = max_rows(node.left), True
    else:
        bounds = [max_rows(r) for r in _inputs(node)]
        bound = None if None in bounds else sum(b for b in bounds if b is not None)
        staged = any(below_exchange(r) for r in _inputs(node))
    if bound is not None:
        return True
    return staged and (input_rows is None or input_rows <= 1)


def relations(root: R.Rel | R.Action) -> Iterator[R.Rel | R.Action]:
    """Every relation of a plan, ``root`` first (depth first, right before left)."""
    stack: list[Any] = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(getattr(node, name) for name in ("source", "left", "right") if hasattr(node, name))
        if isinstance(node, R.Opaque):
            stack.extend(node.sources)


def under_aggregate(root: R.Rel | R.Action) -> frozenset[int]:
    """The ids of the double-comparing distinct / grouping nodes (``compares_double``) an ``Aggregate``
    reads through projections and filters only. Spark removes such a node when the aggregate above only
    uses duplicate-agnostic functions (``RemoveRedundantAggregates``: ``min``/``max`` of
    ``t.select("x").distinct()`` gave -0.0 on Spark 4 for ``[-0.0]``), so it may not normalise -0.0;
    any aggregate above counts here, which only errs on the safe side."""
    found: set[int] = set()
    for node in relations(root):
        if isinstance(node, R.Aggregate):
            below = node.source
            while isinstance(below, R.Project | R.Filter):
                below = below.source
            if compares_double(below):
                found.add(id(below))
    return frozenset(found)
