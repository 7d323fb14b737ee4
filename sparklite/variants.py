"""Small type-preserving changes to a SparkLite program (``random_variant``), for soundness fuzzing of
program *pairs*.

A variant changes a constant, an operator, the order of a union, ``fold`` written as ``aggregate`` ...;
some changes keep the meaning (possibly only for some partitionings), most do not. Why a module apart
from ``sparklite.generate``: it edits a given program rather than drawing one, and ``generate`` had grown
past the repository's 1,200-line limit for a module.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

from sparklite import ast as A


def _rebuild(node: Any, f: Callable[[A.Node], A.Node | None]) -> Any:
    """Bottom-up rewrite: children first, then ``f`` (None keeps the node)."""
    if isinstance(node, tuple):
        return tuple(_rebuild(x, f) for x in node)
    if not isinstance(node, A.Node):
        return node
    changes = {}
    for fld in dataclasses.fields(node):
        if fld.name == "loc":
            continue
        old = getattr(node, fld.name)
        new = _rebuild(old, f)
        if new is not old:
            changes[fld.name] = new
    if changes:
        node = dataclasses.replace(node, **changes)
    out = f(node)
    return node if out is None else out


_ARITH_SWAP = {"+": ["-", "*"], "-": ["+", "*"], "*": ["+", "-"], "//": ["%"], "%": ["//"]}
_CMP_SWAP = {"<": ["<=", ">"], "<=": ["<", ">="], ">": [">=", "<"], ">=": [">", "<="], "==": ["!="],
             "!=": ["=="], "and": ["or"], "or": ["and"]}


def _mutation(rng: random.Random, node: A.Node) -> A.Node | None:
    if isinstance(node, A.IntLit):
        return A.IntLit(node.value + rng.choice([-2, -1, 1, 2]), loc=node.loc)
    if isinstance(node, A.BinOp) and node.op in _ARITH_SWAP:
        op = rng.choice(_ARITH_SWAP[node.op])
        if op in ("//", "%") and not isinstance(node.right, A.IntLit):
            return None
        return dataclasses.replace(node, op=op)
    if isinstance(node, A.BinOp) and node.op in _CMP_SWAP:
        return dataclasses.replace(node, op=rng.choice(_CMP_SWAP[node.op]))
    if isinstance(node, A.Union):
        return dataclasses.replace(node, left=node.right, right=node.left)
    if isinstance(node, A.SimpleAgg) and node.kind in ("min", "max"):
        return dataclasses.replace(node, kind="max" if node.kind == "min" else "min")
    if isinstance(node, A.Fold):
        return A.Aggregate(node.zero, node.op, node.op, node.source, loc=node.loc)
    if isinstance(node, A.FoldByKey):
        return A.AggregateByKey(node.zero, node.op, node.op, node.source, loc=node.loc)
    if isinstance(node, A.Ite):
        return dataclasses.replace(node, cond=A.Not(node.cond), then=node.orelse, orelse=node.then)
    return None


def _mutable_count(program: A.Program) -> int:
    count = 0

    def visit(n: A.Node) -> None:
        nonlocal count
        if _mutation(random.Random(0), n) is not None:
            count += 1

    _rebuild(program, lambda n: visit(n))
    return count


class _Editor:
    """Applies ``_mutation`` to the ``target``-th mutable node of a bottom-up traversal."""

    def __init__(self, rng: random.Random, target: int) -> None:
        self.rng = rng
        self.target = target
        self.seen = -1

    def __call__(self, node: A.Node) -> A.Node | None:
        if _mutation(random.Random(0), node) is None:
            return None
        self.seen += 1
        return _mutation(self.rng, node) if self.seen == self.target else None


def random_variant(rng: random.Random, program: A.Program, changes: int = 1) -> A.Program:
    """``program`` with ``changes`` random type-preserving edits (constants +-1/2, an arithmetic or
    comparison operator swapped, union operands swapped, min<->max, ``fold`` as ``aggregate`` with the
    same function, a negated ``if``). Union swaps, ``fold``->``aggregate`` and negated ``if`` keep the
    meaning (the union swap only as a bag; partition order changes); the others usually do not. The
    result may equal the input when the program has nothing to change."""
    for _ in range(changes):
        n = _mutable_count(program)
        if n == 0:
            return program
        target = rng.randrange(n)
        program = _rebuild(program, _Editor(rng, target))
    return program
