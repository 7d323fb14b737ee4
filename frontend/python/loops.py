"""Loops that build a list, read as the comprehension they are; ASCII bytes read as the text they hold.

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


# --- s.encode('ascii', 'ignore') ----------------------------------------------------------------------
# Real jobs clean words with ``clean = word.encode('ascii', 'ignore')``, then ``if clean:`` and
# ``clean.decode()``. The kernel has no bytes; but when those are the only uses, the bytes can be read as
# the text ``word.encode('ascii', 'ignore').decode()`` (the builtin ``str.ascii_ignore``): ASCII bytes
# decode to the same characters, and are empty exactly when that text is.


def _encoded(node: pyast.expr) -> bool:
    """``x.encode('ascii', 'ignore')`` (also ``errors='ignore'``)."""
    if not (isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute)
            and node.func.attr == "encode"):
        return False
    args = [a.value if isinstance(a, pyast.Constant) else None for a in node.args]
    args += [k.value.value if isinstance(k.value, pyast.Constant) else None for k in node.keywords]
    named = [k.arg for k in node.keywords]
    return args == ["ascii", "ignore"] and named in ([], ["errors"])


def utf8_repr_text(node: pyast.expr) -> pyast.expr | None:
    """For ``str(x.encode('utf-8'))`` (also ``'utf8'`` or no argument): ``x``; None for anything else.
    The bytes are only printed (their repr, builtin ``str.utf8_repr``), so the kernel needs no bytes."""
    if not (isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name) and node.func.id == "str"
            and len(node.args) == 1 and not node.keywords):
        return None
    enc = node.args[0]
    if not (isinstance(enc, pyast.Call) and isinstance(enc.func, pyast.Attribute)
            and enc.func.attr == "encode" and not enc.keywords and len(enc.args) <= 1):
        return None
    if enc.args and not (isinstance(enc.args[0], pyast.Constant) and enc.args[0].value in ("utf-8", "utf8")):
        return None
    return enc.func.value


def ascii_text(node: pyast.expr) -> pyast.expr | None:
    """For ``x.encode('ascii', 'ignore').decode()``: ``x``; None for anything else."""
    if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute) \
            and node.func.attr == "decode" and not node.args and not node.keywords \
            and _encoded(node.func.value):
        return node.func.value.func.value  # type: ignore[attr-defined, no-any-return]
    return None


class _Decoded(pyast.NodeTransformer):
    """``v.decode()`` -> ``v`` for the ``v`` nodes whose ids are given."""

    def __init__(self, names: set[int]) -> None:
        self.names = names

    def visit_Call(self, n: pyast.Call) -> pyast.AST:
        if isinstance(n.func, pyast.Attribute) and isinstance(n.func.value, pyast.Name) \
                and id(n.func.value) in self.names:
            return n.func.value
        return self.generic_visit(n)


def fold_ascii_bytes(stmts: list[pyast.stmt]) -> list[pyast.stmt]:
    """``v = x.encode('ascii', 'ignore')`` followed by statements that use ``v`` only as ``v.decode()``
    or as the whole test of an ``if``: the same statements with ``v`` the decoded text (see above).
    Anything else is returned unchanged (and refused where it is used, as bytes)."""
    for i, stmt in enumerate(stmts):
        if not (isinstance(stmt, pyast.Assign) and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], pyast.Name) and _encoded(stmt.value)):
            continue
        name = stmt.targets[0].id
        rest = stmts[i + 1:]
        decodes: set[int] = set()
        tests: set[int] = set()
        for s in rest:
            for n in pyast.walk(s):
                if isinstance(n, pyast.Call) and isinstance(n.func, pyast.Attribute) \
                        and n.func.attr == "decode" and not n.args and not n.keywords \
                        and isinstance(n.func.value, pyast.Name) and n.func.value.id == name:
                    decodes.add(id(n.func.value))
                if isinstance(n, pyast.If) and isinstance(n.test, pyast.Name) and n.test.id == name:
                    tests.add(id(n.test))
        uses = [n for s in rest for n in pyast.walk(s) if isinstance(n, pyast.Name) and n.id == name]
        if not uses or any(id(n) not in decodes | tests or isinstance(n.ctx, pyast.Store) for n in uses):
            continue

        text = pyast.Call(pyast.Attribute(stmt.value, "decode", pyast.Load()), [], [])
        for n in (text, text.func):
            pyast.copy_location(n, stmt.value)
        bound = pyast.copy_location(pyast.Assign([stmt.targets[0]], text), stmt)
        return [*stmts[:i], bound, *fold_ascii_bytes([_Decoded(decodes).visit(s) for s in rest])]
    return stmts
