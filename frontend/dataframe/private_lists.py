"""Lists a function builds and mutates on its own: ``stack = [...]``, ``stack.append(x)``, ``stack.pop()``.

Why: real driver code walks a schema with a work list (the corpus's
``elasticsearch_transformations.flatten_struct_fields``: ``while stack: parents, df = stack.pop()`` ...
``columns.extend(flat_cols)``). The evaluator's values are immutable, so a mutation is modelled by
binding the name to the new list, which is exact only when no other name, container or closure can
hold the same list. That is decided from the function's source before it runs (``private_names``): a
name is *private* when every assignment to it is a fresh list (a list display or comprehension) and
every use of it is one that cannot keep a reference -- a method call on it, the test of ``while``/
``if``, the iterable of ``for`` or of a comprehension, ``len(x)``, ``x[i]``, or an argument of a method
call (a DataFrame or Column method reads the list's items; the user's own functions are called by
name, which is not allowed). Anything else (``y = x``, ``return x``, ``f(x)``, ``[x]``, a use in a nested
function or lambda) keeps the list immutable and a mutation is refused as before.
"""

from __future__ import annotations

import ast as pyast
from typing import Any

MUTATORS = frozenset({"append", "extend", "pop", "remove", "insert", "clear"})
_READERS = frozenset({"index", "count", "copy"})


def private_names(fn: pyast.FunctionDef | pyast.Lambda) -> frozenset[str]:
    """The local names of ``fn`` whose lists may be mutated in place (see the module docstring)."""
    if isinstance(fn, pyast.Lambda):
        return frozenset()
    fresh: set[str] = set()
    spoiled: set[str] = {a.arg for a in (*fn.args.args, *fn.args.kwonlyargs, *fn.args.posonlyargs)}
    parents: dict[int, pyast.AST] = {}
    for node in pyast.walk(fn):
        for child in pyast.iter_child_nodes(node):
            parents[id(child)] = node
    for node in pyast.walk(fn):
        if isinstance(node, pyast.Global | pyast.Nonlocal):
            spoiled.update(node.names)
        if isinstance(node, pyast.Assign):
            for t in node.targets:
                for n in pyast.walk(t):
                    if isinstance(n, pyast.Name):
                        ok = isinstance(t, pyast.Name) and isinstance(node.value, pyast.List | pyast.ListComp)
                        (fresh if ok else spoiled).add(n.id)
        elif isinstance(node, pyast.AugAssign | pyast.AnnAssign | pyast.For | pyast.comprehension
                        | pyast.NamedExpr | pyast.With):
            for n in pyast.walk(node.target if not isinstance(node, pyast.With) else node):
                if isinstance(n, pyast.Name) and isinstance(n.ctx, pyast.Store):
                    spoiled.add(n.id)
        elif isinstance(node, pyast.Name) and isinstance(node.ctx, pyast.Del):
            spoiled.add(node.id)
        elif isinstance(node, pyast.Name) and isinstance(node.ctx, pyast.Load):
            if not _safe_use(node, parents, fn):
                spoiled.add(node.id)
    return frozenset(fresh - spoiled)


def _inside_nested_scope(node: pyast.AST, parents: dict[int, pyast.AST], fn: pyast.AST) -> bool:
    p = parents.get(id(node))
    while p is not None and p is not fn:
        if isinstance(p, pyast.FunctionDef | pyast.AsyncFunctionDef | pyast.Lambda | pyast.ClassDef):
            return True
        p = parents.get(id(p))
    return False


def _safe_use(name: pyast.Name, parents: dict[int, pyast.AST], fn: pyast.AST) -> bool:
    if _inside_nested_scope(name, parents, fn):
        return False
    p: Any = parents.get(id(name))
    if isinstance(p, pyast.Attribute) and p.value is name:  # x.append(...), x.index(...)
        call = parents.get(id(p))
        return p.attr in MUTATORS | _READERS and isinstance(call, pyast.Call) and call.func is p
    if isinstance(p, pyast.While | pyast.If) and p.test is name:
        return True
    if isinstance(p, pyast.UnaryOp) and isinstance(p.op, pyast.Not):
        return True
    if isinstance(p, pyast.For) and p.iter is name:  # Python iterates the live list: no mutation inside
        return not any(isinstance(n, pyast.Call) and isinstance(n.func, pyast.Attribute)
                       and isinstance(n.func.value, pyast.Name) and n.func.value.id == name.id
                       and n.func.attr in MUTATORS for s in p.body for n in pyast.walk(s))
    if isinstance(p, pyast.comprehension) and p.iter is name:
        return True
    if isinstance(p, pyast.Subscript) and p.value is name and isinstance(p.ctx, pyast.Load):
        return True
    if isinstance(p, pyast.Call) and name in p.args:
        if isinstance(p.func, pyast.Name) and p.func.id == "len":
            return True
        # a DataFrame/Column method reads the items; append/insert would keep the list itself
        return isinstance(p.func, pyast.Attribute) and p.func.attr not in ("append", "insert")
    return False
