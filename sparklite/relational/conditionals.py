"""Dead ``CASE`` branches dropped, as Spark's optimiser rule ``SimplifyConditionals`` drops them: a
branch whose condition is the literal FALSE or NULL is never taken, and the branches after one whose
condition is the literal TRUE are never reached (that branch's value becomes the ``ELSE``; the value
alone when it is the first branch). ``CASE`` evaluates only the branch taken, so the plan computes the
same rows with the same errors.

Used by congruence (``verifier.core.kinds.relational``): two plans equal once their dead branches are
dropped are the same program. A dead part holding a constant that may raise (``1/0``) is kept: Spark's
optimiser may fold it, and raise, before it drops the branch.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from sparklite.relational import ast as R
from sparklite.relational import build, effects
from sparklite.relational.canonical import _nodes  # every node of a plan


def without_dead_branches(node: Any) -> Any:
    """``node`` (a plan, an action or an expression) with every ``CASE``'s dead branches dropped."""
    if isinstance(node, tuple):
        items = tuple(without_dead_branches(x) for x in node)
        return node if all(a is b for a, b in zip(items, node, strict=True)) else items
    if not isinstance(node, R.RNode):
        return node
    rebuilt = {f.name: without_dead_branches(getattr(node, f.name)) for f in dataclasses.fields(node)
               if f.compare and f.name != "loc" and isinstance(getattr(node, f.name), R.RNode | tuple)}
    changes = {k: v for k, v in rebuilt.items() if v is not getattr(node, k)}
    out = dataclasses.replace(node, **changes) if changes else node
    if isinstance(out, R.Project) and "exprs" in changes:  # the columns' nullability, derived again
        fields = tuple(dataclasses.replace(f, nullable=x.nullable)
                       for f, x in zip(out.schema.fields, out.exprs, strict=True))
        out = dataclasses.replace(out, schema=dataclasses.replace(out.schema, fields=fields))
    return _simplified(out) if isinstance(out, R.Case) else out


def _simplified(e: R.Case) -> R.Expr:
    kept: list[tuple[R.Expr, R.Expr]] = []
    dropped: list[R.Expr] = []
    orelse = e.orelse
    changed = False
    for i, (cond, value) in enumerate(e.branches):
        if isinstance(cond, R.Lit) and cond.value is True:
            dropped += [x for c, v in e.branches[i + 1:] for x in (c, v)]
            if orelse is not None:
                dropped.append(orelse)
            orelse, changed = value, True
            break
        if isinstance(cond, R.Lit) and cond.value in (False, None):
            dropped += [cond, value]
            changed = True
            continue
        kept.append((cond, value))
    if not changed or any(_raising_constant(x) for x in dropped):
        return e
    if not kept:
        return orelse if orelse is not None else R.Lit(None, e.type)
    nullable = orelse is None or orelse.nullable or any(v.nullable for _, v in kept)
    return dataclasses.replace(e, branches=tuple(kept), orelse=orelse, nullable=nullable)


def _raising_constant(e: R.Expr) -> bool:
    return any(_is_expr(n) and build.reads_no_column(n) and effects.may_raise(n) for n in _nodes(e))


def _is_expr(n: Any) -> bool:
    return isinstance(n, R.Expr)


__all__ = ["without_dead_branches"]
