"""Arrays in Spark SQL: ``a[i]`` and ``element_at(a, i)`` (sqlglot's ``Bracket``), the argument
defaults of the array functions, and ``LATERAL VIEW [OUTER] explode/posexplode(...) t AS c`` (a kernel
``Generate`` over the FROM clause's relation, its columns visible as ``t.c`` and ``c``).

Why apart: ``frontend/sql/expressions.py`` and ``queries.py`` are shared with other lines of work;
they call in here with a few lines. Spark's names: ``a[0]``, ``element_at(a, 1)``,
``split(s, ,, -1)`` (the default limit shown), ``sort_array(a, true)``.
"""

from __future__ import annotations

from typing import Any

from sqlglot import exp

from frontend.sql.scopes import _E, _Col, _Ctx, _Scope
from sparklite.ast import Loc
from sparklite.relational import build

#: Spark's default arguments (shown in the column name), by (function, written argument count)
DEFAULT_ARG: dict[tuple[str, int], Any] = {("split", 2): -1, ("sort_array", 1): True}
#: the array functions called by their Spark names (sqlglot's nodes for them may add arguments)
DEFAULT_FUNCS = frozenset({"split", "size", "array_contains", "array", "sort_array", "array_distinct",
                           "flatten"})


def default_args(called: str, exprs: list[Any], names: str, loc: Loc) -> tuple[list[Any], str]:
    """The arguments with Spark's default appended, and the names as Spark shows them."""
    default = DEFAULT_ARG.get((called, len(exprs)))
    if default is None:
        return exprs, names
    shown = str(default).lower() if isinstance(default, bool) else str(default)
    return [*exprs, build.lit(default, loc)], f"{names}, {shown}"


def h_bracket(self: Any, node: exp.Bracket, ctx: _Ctx, loc: Loc) -> _E:
    """``a[i]`` (0-based, ``get_item``) or ``element_at(a, i)`` (sqlglot reads it as a 1-based bracket)."""
    if len(node.expressions) != 1 or node.args.get("safe"):
        raise self.unsupported("this subscript", node)
    arr = self.expr(node.this, ctx)
    idx = self.expr(node.expressions[0], ctx)
    if node.args.get("offset") == 1:
        return _E(build.func("element_at", [arr.expr, idx.expr], loc=loc),
                  f"element_at({arr.name}, {idx.name})")
    return _E(build.func("get_item", [arr.expr, idx.expr], loc=loc), f"{arr.name}[{idx.name}]")


def collect_call(self: Any, node: exp.Expression, called: str, ctx: _Ctx, loc: Loc) -> tuple[Any, str]:
    """``collect_list(x)`` / ``collect_set(x)`` (sqlglot's ``ArrayAgg``/``ArrayUniqueAgg``), named
    ``collect_list(x)`` as Spark names them."""
    arg = node.this if isinstance(node.this, exp.Expression) else None
    if arg is None or isinstance(arg, exp.Distinct) or node.expressions:
        raise self.unsupported(f"this form of {called}", node, f"{called}(column) is")
    a = self.expr(arg, ctx)
    return build.agg(called, [a.expr], loc=loc), f"{called}({a.name})"


_GENERATORS = {exp.Explode: ("explode", False), exp.Posexplode: ("posexplode", True)}


def lateral_views(self: Any, sel: exp.Select, scope: _Scope) -> _Scope:
    """Each ``LATERAL VIEW`` of ``sel`` in turn: a ``Generate`` whose new columns are named by its
    column aliases (else ``col``, or ``pos`` and ``col``) and qualified by its table alias."""
    for lat in sel.args.get("laterals") or []:
        gen = lat.this
        kind = next((v for k, v in _GENERATORS.items() if type(gen) is k), None)
        if kind is None or not isinstance(gen.this, exp.Expression) or gen.expressions:
            raise self.unsupported(f"LATERAL VIEW {gen.key}", lat, "explode and posexplode of an array are")
        name, position = kind
        alias = lat.args.get("alias")
        names = [c.name for c in alias.columns] if alias is not None and alias.columns else []
        if names and len(names) != (2 if position else 1):
            from sparklite.relational.build import AnalysisError

            raise AnalysisError(f"[UDTF_ALIAS_NUMBER_MISMATCH] {name} gives {2 if position else 1} "
                                f"column(s); the alias names {len(names)}", self.loc(lat))
        arr = self.expr(gen.this, _Ctx(scope, "LATERAL VIEW"))
        rel = build.generate(scope.rel, arr.expr, bool(lat.args.get("outer")), position, names,
                             loc=self.loc(lat))
        qualifier = alias.name.lower() if alias is not None and alias.name else None
        width = len(scope.rel.schema)
        new = tuple(_Col(f.name, width + i, qualifier) for i, f in enumerate(rel.schema.fields[width:]))
        tables = scope.tables + (((qualifier, new),) if qualifier is not None else ())
        scope = _Scope(rel, scope.star + new, tables)
    return scope


__all__ = ["DEFAULT_ARG", "DEFAULT_FUNCS", "collect_call", "default_args", "h_bracket", "lateral_views"]
