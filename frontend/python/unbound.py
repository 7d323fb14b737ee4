"""Whether a free name is bound nowhere, so that reading it can only raise ``NameError``.

Why: a function Spark runs looks its free names up when it is *called*, after the driver code around it
ran (jobs are lazy): a name assigned later in the script, a Python builtin (``print``, ``Exception``) or a
name a star import may bring is defined by then, and reading it as ``NameError`` would be a wrong outcome.
Only a name that no statement of the file binds, that is not a builtin, in a file without star imports,
is certainly undefined (``frontend.python.nodes.Undefined``).
"""

from __future__ import annotations

import ast as pyast
import builtins


def bound_names(tree: pyast.Module) -> set[str]:
    """Every global name of ``tree``: bound at module level (in any block there, not inside a function,
    lambda, class body or comprehension, whose names are their own), or declared ``global`` anywhere."""
    out: set[str] = set()
    todo: list[pyast.AST] = [tree]
    while todo:
        n = todo.pop()
        if isinstance(n, pyast.FunctionDef | pyast.AsyncFunctionDef | pyast.ClassDef):
            out.add(n.name)
            todo += n.decorator_list  # evaluated at module level; the body is its own scope
            continue
        if isinstance(n, pyast.Lambda | pyast.ListComp | pyast.SetComp | pyast.DictComp | pyast.GeneratorExp):
            continue
        if isinstance(n, pyast.Name) and isinstance(n.ctx, pyast.Store | pyast.Del):
            out.add(n.id)
        elif isinstance(n, pyast.alias):
            out.add((n.asname or n.name).split(".")[0])
        elif isinstance(n, pyast.ExceptHandler) and n.name:
            out.add(n.name)
        elif isinstance(n, pyast.MatchAs | pyast.MatchStar) and n.name:
            out.add(n.name)
        todo += pyast.iter_child_nodes(n)
    out.update(name for g in pyast.walk(tree) if isinstance(g, pyast.Global) for name in g.names)
    return out


def has_star_import(tree: pyast.Module) -> bool:
    return any(isinstance(n, pyast.ImportFrom) and any(a.name == "*" for a in n.names)
               for n in pyast.walk(tree))


def certainly_undefined(name: str, tree: pyast.Module) -> bool:
    """``name`` is bound by no statement of ``tree``, is not a builtin, and no star import may bind it."""
    return (not hasattr(builtins, name) and name not in ("__file__", "__name__", "__builtins__")
            and not has_star_import(tree) and name not in bound_names(tree))
