"""Frontend-private helper nodes and small AST utilities.

Some Python meanings depend on types the frontend only learns after translating the whole program
(``x + 1`` where ``x`` may be a ``bool``; ``if x:`` where ``x`` may be an ``int``). The translator
therefore emits *placeholder* nodes that record the Python operation, type inference
(``frontend.types``) constrains their operands, and the final resolution pass replaces each
placeholder by plain SparkLite. Placeholders never escape ``translate_source``.
"""

from __future__ import annotations

import ast as pyast
from dataclasses import dataclass, fields, replace
from typing import Any

from sparklite import ast as sl
from sparklite import effects


@dataclass(frozen=True)
class AsInt(sl.Node):
    """Python's use of a value as a number: an ``int`` as is, a ``bool`` as 0/1 (``True + 1 == 2``)."""

    operand: sl.Expr
    t: Any = None


@dataclass(frozen=True)
class AsBool(sl.Node):
    """Python's truth test (``if x``, ``filter``, ``not x``): a ``bool`` as is, an ``int`` as ``x != 0``."""

    operand: sl.Expr
    t: Any = None


@dataclass(frozen=True)
class ListLit(sl.Node):
    """A list literal returned by a ``flatMap`` function; becomes a tuple (only its elements matter)."""

    elems: tuple[sl.Expr, ...]


@dataclass(frozen=True)
class TruthFn(sl.Node):
    """A named function used as a ``filter`` predicate: Spark keeps elements whose result is truthy."""

    fn: sl.Fn
    t: Any = None
    param_t: Any = None





def loc_of(node: pyast.AST, filename: str) -> sl.Loc:
    """Python's columns are 0-based, SparkLite's 1-based."""
    return sl.Loc(filename, getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1)


def with_loc(node: sl.Node, loc: sl.Loc | None) -> sl.Node:
    return replace(node, loc=loc)


# ---------------------------------------------------------------------------------------------------
# Names and substitution
# ---------------------------------------------------------------------------------------------------


def all_names(node: sl.Node) -> set[str]:
    """Every variable or parameter name mentioned in ``node`` (bound or free): used to pick fresh names."""
    out: set[str] = set()
    for n in sl.walk(node):
        if isinstance(n, sl.Var):
            out.add(n.name)
        elif isinstance(n, sl.Param):
            out.add(n.name)
    return out


def free_vars(node: sl.Node, bound: frozenset[str] = frozenset()) -> set[str]:
    if isinstance(node, sl.Var):
        return set() if node.name in bound else {node.name}
    if isinstance(node, sl.Lambda):
        inner = bound | {p.name for p in node.params}
        return free_vars(node.body, inner)
    out: set[str] = set()
    for child in sl.children(node):
        out |= free_vars(child, bound)
    return out


def fresh(base: str, taken: set[str]) -> str:
    if base not in taken:
        return base
    i = 1
    while f"{base}_{i}" in taken:
        i += 1
    return f"{base}_{i}"


def subst(node: sl.Node, mapping: dict[str, sl.Expr]) -> Any:
    """Capture-avoiding substitution of variables (inner lambdas rename clashing parameters)."""
    if not mapping:
        return node
    if isinstance(node, sl.Var):
        return mapping.get(node.name, node)
    if isinstance(node, sl.Lambda):
        inner = {k: v for k, v in mapping.items() if k not in {p.name for p in node.params}}
        if not inner:
            return node
        incoming: set[str] = set()
        for v in inner.values():
            incoming |= free_vars(v)
        params = []
        renames: dict[str, sl.Expr] = {}
        taken = incoming | all_names(node) | set(inner)
        for p in node.params:
            if p.name in incoming:
                new = fresh(p.name, taken)
                taken.add(new)
                renames[p.name] = sl.Var(new, loc=p.loc)
                params.append(replace(p, name=new))
            else:
                params.append(p)
        body = subst(node.body, renames) if renames else node.body
        return replace(node, params=tuple(params), body=subst(body, inner))
    changes = {}
    for f in fields(node):
        if f.name == "loc":
            continue
        value = getattr(node, f.name)
        if isinstance(value, sl.Node):
            changes[f.name] = subst(value, mapping)
        elif isinstance(value, tuple) and any(isinstance(v, sl.Node) for v in value):
            changes[f.name] = tuple(subst(v, mapping) if isinstance(v, sl.Node) else v for v in value)
    return replace(node, **changes) if changes else node


# ---------------------------------------------------------------------------------------------------
# Errors a UDF expression may raise (for faithful handling of unused or guarded sub-expressions)
# ---------------------------------------------------------------------------------------------------


def may_raise(node: sl.Node) -> bool:
    """``sparklite.effects.may_raise`` without the program's defs (a call of a named function may
    raise): the frontend has no notion of its own, so it can never disagree with the interpreter."""
    return effects.may_raise(node)


def strictly_evaluated(target: sl.Expr, body: sl.Node) -> bool:
    """Whether ``target`` occurs in ``body`` at a position that is always evaluated."""
    if body == target:
        return True
    if isinstance(body, sl.Ite):
        return strictly_evaluated(target, body.cond)
    if isinstance(body, sl.BinOp) and body.op in ("and", "or"):
        return strictly_evaluated(target, body.left)
    if isinstance(body, sl.Lambda):
        return False
    return any(strictly_evaluated(target, c) for c in sl.children(body))


@dataclass(frozen=True)
class Shaped(sl.Node):
    """``operand`` must be a tuple of exactly ``arity`` components (Python unpacking ``k, v = pair``,
    keyed RDD operations). Resolves to ``operand`` itself."""

    operand: sl.Expr
    arity: int


transform = sl.transform  # the one generic rewrite (``sparklite.ast.transform``)
