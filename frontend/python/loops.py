"""Loops that build a list, read as the comprehension they are.

Real UDFs often build their result with ``out = []`` then ``for x in xs: if c: out.append(e)``. The
kernel has no loops, but that pair of statements *is* ``out = [e for x in xs if c]``: the same iterable,
evaluated once, the same elements in the same order, the same exceptions raised at the same element.
Reading it so is a faithful translation, not a simplification, provided nothing else can tell them
apart: the list is not read inside the loop (a comprehension's list is not visible while it is built),
and the loop variable is not read after the loop (a ``for`` leaves it bound, a comprehension does not).
Anything else is left to the caller, which refuses the ``for`` as before.
"""

from __future__ import annotations

import ast as pyast


def _append_of(stmt: pyast.stmt, acc: str) -> pyast.expr | None:
    """``acc.append(e)`` as a statement: ``e``."""
    if isinstance(stmt, pyast.Expr) and isinstance(stmt.value, pyast.Call) \
            and isinstance(stmt.value.func, pyast.Attribute) and stmt.value.func.attr == "append" \
            and isinstance(stmt.value.func.value, pyast.Name) and stmt.value.func.value.id == acc \
            and len(stmt.value.args) == 1 and not stmt.value.keywords \
            and not isinstance(stmt.value.args[0], pyast.Starred):
        return stmt.value.args[0]
    return None


def _names(*nodes: pyast.AST) -> set[str]:
    return {n.id for node in nodes for n in pyast.walk(node) if isinstance(n, pyast.Name)}


def append_loop(stmts: list[pyast.stmt], i: int) -> pyast.Assign | None:
    """``stmts[i]`` and ``stmts[i + 1]`` as one assignment of a list comprehension, when they are
    ``acc = []`` and ``for v in xs: acc.append(e)`` (or ``if c: acc.append(e)``) as described in the
    module docstring; None otherwise."""
    if i + 1 >= len(stmts):
        return None
    first, loop = stmts[i], stmts[i + 1]
    if not (isinstance(first, pyast.Assign) and len(first.targets) == 1
            and isinstance(first.targets[0], pyast.Name) and isinstance(first.value, pyast.List)
            and not first.value.elts and isinstance(loop, pyast.For) and not loop.orelse
            and len(loop.body) == 1):
        return None
    acc = first.targets[0].id
    body = loop.body[0]
    test: pyast.expr | None = None
    if isinstance(body, pyast.If) and not body.orelse and len(body.body) == 1:
        test, body = body.test, body.body[0]
    element = _append_of(body, acc)
    if element is None:
        return None
    inside = [loop.target, loop.iter, element] + ([test] if test is not None else [])
    if acc in _names(*inside):
        return None
    bound = _names(loop.target)
    if bound & _names(*stmts[i + 2:]) or not all(isinstance(n, (pyast.Name, pyast.Tuple, pyast.Store))
                                                  for n in pyast.walk(loop.target)):
        return None
    comp = pyast.ListComp(element, [pyast.comprehension(loop.target, loop.iter,
                                                        [test] if test is not None else [], 0)])
    out = pyast.Assign([first.targets[0]], comp)
    for n in (comp, out, comp.generators[0]):
        pyast.copy_location(n, loop if n is comp else first)
    return out
