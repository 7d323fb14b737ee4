"""The canonical form of a relational plan up to renaming: what congruence compares for DataFrame/SQL.

Why: in the relational kernel column references are positions (``Col.index``), so the names a plan
gives its intermediate columns -- aliases, CTE and subquery names, ``withColumnRenamed`` -- decide
nothing but the names of the *result*'s columns. Two plans equal once those inner names are erased
compute the same rows with every outcome, errors included (``verifier.core.congruence``). ``rel_key``
erases:

- ``Col.name`` (the name a reference was written with: messages only);
- the names of every schema inside the plan (``Project``/``Join``/``Aggregate``/``SetOp``/``Values``/
  ``Table``), keeping each column's type and nullability; tables keep their name (both programs were
  aligned to one set of tables) and their columns' types, not their declared keys (the inputs' keys are
  the aligned programs' parameters);

and keeps everything else: literals (floats by their bits, values with their Python type), operators,
function names, types, flags, the action and its count, and -- unless ``keep_names`` is False (results
compared by position) -- the result's column names. Locations are ignored. The key is conservative:
equal keys mean equal plans up to inner names; different keys mean nothing.
"""

from __future__ import annotations

import functools
from dataclasses import fields
from typing import Any

from sparklite.relational import ast as R
from sparklite.relational.types import Schema, SqlType

Key = tuple[Any, ...]


def rel_key(body: R.Rel | R.Action, keep_names: bool = True) -> Key:
    """``body`` (a program's result relation or action) up to the names of inner columns; with
    ``keep_names`` the result's column names are part of the key."""
    top = body.source if isinstance(body, R.Action) else body
    names = tuple(top.schema.names) if keep_names else None
    return ("RelBody", names, _key(body))


def _key(node: Any) -> Any:
    if isinstance(node, R.Col):
        return ("Col", node.index, node.type, node.nullable)
    if isinstance(node, Schema):
        return ("Schema", tuple((f.type, f.nullable) for f in node.fields))
    if isinstance(node, R.RNode):
        return (type(node).__name__, *(_key(getattr(node, name)) for name in _compared(type(node))))
    if isinstance(node, SqlType):  # frozen dataclasses: equal exactly when the types are the same
        return node
    if isinstance(node, tuple):
        return tuple(_key(x) for x in node)
    if isinstance(node, float):
        return ("float", node.hex())
    if isinstance(node, bool | int | str | type(None)):
        return (type(node).__name__, node)
    return (type(node).__name__, repr(node))


@functools.cache
def _compared(cls: type) -> tuple[str, ...]:
    """The fields of a node class that its equality compares (locations never do)."""
    return tuple(f.name for f in fields(cls) if f.compare and f.name != "loc")


def nondeterminism(body: R.Rel | R.Action) -> tuple[str, ...]:
    """Where Spark's outcome of ``body`` is one of several (so two runs of one plan may differ, and
    congruence compares the *sets* of outcomes): a limit, ``first()``/``take(n)`` (which rows, unless a
    sort without ties precedes), ``dropDuplicates`` (which row of a group), an expression or aggregate
    that may raise (which error a task reports first)."""
    from sparklite.relational.effects import agg_raise_kinds, own_kinds
    from sparklite.relational.rows import relations
    from sparklite.relational.windows import AGGREGATES, as_aggregate, tie_sensitive

    out: list[str] = []
    for rel in relations(body):
        if isinstance(rel, R.Limit) or isinstance(rel, R.Action) and rel.kind in ("first", "take"):
            out.append("which rows a limit, first() or take(n) keeps (Spark's choice, unless a sort without "
                       "ties fixes them)")
        elif isinstance(rel, R.DropDuplicates):
            out.append("which row of each group dropDuplicates keeps")
        elif isinstance(rel, R.Opaque) and rel.nondeterministic:
            out.append(f"what {rel.op} returns (not modelled; each run may return another result)")
        elif isinstance(rel, R.Window) and any(tie_sensitive(c) for c in rel.calls):
            out.append("which order a window function sees among rows with equal ORDER BY keys")
    if any(isinstance(n, R.AggCall) and agg_raise_kinds(n) or _is_expr(n) and own_kinds(n)
           or isinstance(n, R.WindowCall) and n.name in AGGREGATES and agg_raise_kinds(as_aggregate(n))
           for n in _nodes(body)):
        out.append("which error Spark raises when several rows or expressions may fail (the first task "
                   "to fail decides)")
    return tuple(dict.fromkeys(out))


def _is_expr(node: Any) -> bool:
    return isinstance(node, R.Col | R.Lit | R.Arith | R.Neg | R.Cmp | R.And | R.Or | R.Not | R.IsNull | R.Case
                      | R.In | R.Cast | R.Func)


def _nodes(root: Any) -> list[Any]:
    """Every node of a plan (relations, expressions, sort keys, aggregate calls)."""
    out, stack = [], [root]
    while stack:
        node = stack.pop()
        if isinstance(node, tuple):
            stack.extend(node)
        elif isinstance(node, R.RNode):
            out.append(node)
            stack.extend(getattr(node, name) for name in _compared(type(node)))
    return out


def renamed(left: R.Rel | R.Action, right: R.Rel | R.Action) -> list[tuple[str, str]]:
    """The inner column names ``right`` spells differently from ``left`` (LEFT's, RIGHT's), in order,
    for two plans with equal keys: what a user reads in the reason of a congruence proof."""
    out: dict[tuple[str, str], None] = {}
    for a, b in zip(_nodes(left), _nodes(right), strict=False):
        if isinstance(a, R.Col) and isinstance(b, R.Col) and a.name != b.name:
            out[(a.name, b.name)] = None
        schema_a, schema_b = getattr(a, "schema", None), getattr(b, "schema", None)
        if isinstance(schema_a, Schema) and isinstance(schema_b, Schema) and schema_a is not schema_b:
            out.update((p, None) for p in zip(schema_a.names, schema_b.names, strict=False) if p[0] != p[1])
    return list(out)
