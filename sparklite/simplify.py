"""The one simplification pass over SparkLite: what the frontends must not do themselves.

Frontends translate subexpression for subexpression (a translator that optimises once dropped an
action that raises, and sparkeq said "equivalent" where Python raised). Simplifying still pays: an
unused ``count()`` kept as a let adds an aggregation every proof method must carry along. So the
simplifications live here, each guarded by ``sparklite.effects`` -- the interpreter's notion of what
may raise -- and the soundness fuzzer checks that ``simplify(p)`` and ``p`` have the same outcome on
random inputs and partitionings.

Rewrites (each preserves the outcome, errors included, on every input and partitioning):

- an unused let whose evaluation cannot raise is dropped (repeated until nothing changes);
- ``(e0, ..., en)[i]`` becomes ``ei`` when no other component may raise;
- integer arithmetic on literals is folded (never a division by a zero literal);
- ``if c then e else e`` becomes ``e`` when ``c`` cannot raise (the frontend's way of forcing the
  evaluation of an unused local that may raise, once that local turns out not to raise);
- a let bound to a literal value (``zero = (0, 0)`` in the user's code) is replaced by that value where
  it is used: reasoning about ``aggregateByKey(zero, ...)`` then knows the zero, where a variable
  would stand for any value;
- an unused ``let j = collect(X)`` (a strict job, as a script's ``for k, v in X.collect(): print(...)``
  runs it) is dropped when what comes next computes ``X`` again, whole and before anything else that
  may raise: the lets after it cannot raise, and the body collects ``X`` through maps, filters and
  flatMaps whose functions cannot raise, its other components cannot raise either. Then the body raises
  exactly what the job would have (the same lineage, computed again in the same partition order), and
  otherwise the job's value was never read.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from sparklite import ast as A
from sparklite.effects import bag_lets, driver_may_raise, may_raise

_FOLD = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "//": lambda a, b: a // b,
    "%": lambda a, b: a % b,
}
MAX_FOLDED_DIGITS = 64  # keep literals small: folding 2**64**64 would only move the cost


def simplify(program: A.Program) -> A.Program:
    """``program`` with the rewrites of the module doc applied."""
    defs = {d.name: d for d in program.defs}
    bags = bag_lets(program)  # simplification never changes which lets are bags, nor their sources
    lets = tuple(dataclasses.replace(b, value=simplify_expr(b.value, defs, bags)) for b in program.lets)
    body = simplify_expr(program.body, defs, bags)
    lets, body = _inline_literal_lets(lets, body)
    lets = _drop_recomputed_collects(lets, body, defs, bags)
    lets = _drop_unused_lets(lets, body, defs, bags)
    new_defs = tuple(_simplify_def(d, defs) for d in program.defs)
    return dataclasses.replace(program, defs=new_defs, lets=lets, body=body)


def _simplify_def(d: A.Def, defs: Mapping[str, A.Def]) -> A.Def:
    if isinstance(d, A.FunDef):
        return dataclasses.replace(d, body=simplify_expr(d.body, defs))
    return dataclasses.replace(d, fn=simplify_expr(d.fn, defs))


def simplify_expr(e: Any, defs: Mapping[str, A.Def], bags: Mapping[str, A.Expr] | None = None) -> Any:
    """Bottom-up rewrite of one expression (functions included); ``bags`` are the let-bound bags."""
    return A.transform(e, lambda n: _rewrite(n, defs, bags or {}))


def _rewrite(n: A.Node, defs: Mapping[str, A.Def], bags: Mapping[str, A.Expr]) -> A.Node:
    if isinstance(n, A.Proj) and isinstance(n.tuple, A.TupleExpr) and n.index < len(n.tuple.elems):
        others = [x for i, x in enumerate(n.tuple.elems) if i != n.index]
        if not any(may_raise(x, defs, bags) for x in others):
            return n.tuple.elems[n.index]
    if isinstance(n, A.BinOp) and n.op in _FOLD and isinstance(n.left, A.IntLit) \
            and isinstance(n.right, A.IntLit):
        if n.op in ("//", "%") and n.right.value == 0:
            return n
        value = _FOLD[n.op](n.left.value, n.right.value)
        if len(str(abs(value))) <= MAX_FOLDED_DIGITS:
            return A.IntLit(value, loc=n.loc)
    if isinstance(n, A.Ite) and n.then == n.orelse and not may_raise(n.cond, defs, bags):
        return n.then
    return n


def _is_literal(e: A.Node) -> bool:
    if isinstance(e, A.IntLit | A.BoolLit):
        return True
    if isinstance(e, A.Neg):
        return _is_literal(e.operand)
    return isinstance(e, A.TupleExpr) and all(_is_literal(x) for x in e.elems)


def _inline_literal_lets(lets: tuple[A.LetBinding, ...], body: A.Expr
                         ) -> tuple[tuple[A.LetBinding, ...], A.Expr]:
    """Replace uses of lets bound to literals by the literal (names are never shadowed in SparkLite and
    a literal has no free variables, so plain replacement cannot capture); the lets themselves become
    unused and go with the other unused lets."""
    values = {b.name: b.value for b in lets if _is_literal(b.value)}
    if not values:
        return lets, body

    def inline(n: A.Node) -> A.Node:
        return values[n.name] if isinstance(n, A.Var) and n.name in values else n

    new_lets = tuple(dataclasses.replace(b, value=A.transform(b.value, inline)) for b in lets)
    return new_lets, A.transform(body, inline)


def _drop_unused_lets(lets: tuple[A.LetBinding, ...], body: A.Expr, defs: Mapping[str, A.Def],
                      bags: Mapping[str, A.Expr]) -> tuple[A.LetBinding, ...]:
    """Drop, from the last let backwards, every let nobody mentions whose evaluation cannot raise
    (for a bag: whose construction on the driver cannot raise; its elements are lazy)."""
    mentioned = _names(body) | {name for d in defs.values() for name in _names(d)}
    kept: list[A.LetBinding] = []
    for b in reversed(lets):
        if b.name in mentioned or driver_may_raise(b.value, defs, bags):
            kept.append(b)
            mentioned |= _names(b.value)
    return tuple(reversed(kept))


def _drop_recomputed_collects(lets: tuple[A.LetBinding, ...], body: A.Expr, defs: Mapping[str, A.Def],
                              bags: Mapping[str, A.Expr]) -> tuple[A.LetBinding, ...]:
    """Drop every unused ``let j = collect(X)`` whose ``X`` the rest of the program computes again, whole
    and first (module doc)."""
    out = list(lets)
    for i in range(len(out) - 1, -1, -1):
        b = out[i]
        if not isinstance(b.value, A.Collect):
            continue
        later = out[i + 1:]
        mentioned = _names(body) | {n for x in later for n in _names(x.value)} \
            | {n for d in defs.values() for n in _names(d)}
        if b.name in mentioned:
            continue
        if any(driver_may_raise(x.value, defs, bags) if x.name in bags else may_raise(x.value, defs, bags)
               for x in later):
            continue
        if _recomputes_first(body, A.alpha_key(b.value.source), defs, bags):
            del out[i]
    return tuple(out)


def _recomputes_first(body: A.Expr, source: tuple, defs: Mapping[str, A.Def],
                      bags: Mapping[str, A.Expr]) -> bool:
    """The body collects ``source`` (an alpha key) whole through narrow operators whose functions cannot
    raise, and nothing else in it may raise."""
    parts = body.elems if isinstance(body, A.TupleExpr) else (body,)
    for k, part in enumerate(parts):
        if any(may_raise(x, defs, bags) for j, x in enumerate(parts) if j != k):
            continue
        e = part.source if isinstance(part, A.Collect) else part
        while A.alpha_key(e) != source and isinstance(e, A.Map | A.Filter | A.FlatMap) \
                and not may_raise(e.fn, defs, bags) and not driver_may_raise(e.fn, defs, bags):
            e = e.source
        if A.alpha_key(e) == source:
            return True
    return False


def _names(node: A.Node) -> set[str]:
    return {n.name for n in A.walk(node) if isinstance(n, A.Var)}
