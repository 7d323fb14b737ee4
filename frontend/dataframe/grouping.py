"""``df.rollup(...)`` and ``df.cube(...)`` followed by an aggregation, as the union of one aggregation per
grouping set, the keys a set leaves out replaced by NULL.

Why this is Spark's meaning: Spark's ``Expand`` copies every row once per grouping set with the keys the
set leaves out set to NULL and a grouping id, and aggregates by keys and id; so the rows of one set are
the aggregation of the input by that set's keys, a NULL key of the data and a rolled-up key stay apart
(different ids), and the empty set is grouped by the id alone: **no row on an empty input** (unlike a
global ``agg``), checked on Spark 4 (``docs/semantics-notes.md``, "rollup and cube"). The empty set is
therefore an aggregation by a constant. ``rollup(a, b)`` is the sets ``(a, b), (a), ()``; ``cube(a, b)``
every subset, in Spark's order. ``F.grouping(k)``/``F.grouping_id()`` as a whole ``agg`` item (aliased or
not) are constants of a set (``tinyint``/``bigint``, as in SQL: ``sparklite/relational/grouping_sets.py``);
nested in an expression they are refused, and outside ``rollup``/``cube`` they are unknown functions;
an output reading a key outside an aggregate is refused (its per-set analysis differs).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from frontend.dataframe.columns import DF, Alias, Attr, Call, Cast, CExpr, Lit, Name, children, pretty
from frontend.dataframe.values import ColV, GroupedV, Value
from sparklite.ast import Loc
from sparklite.errors import UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational import build
from sparklite.relational.build import AnalysisError
from sparklite.relational.grouping_sets import GroupingCall


def rollup_sets(n: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(range(k)) for k in range(n, -1, -1))


def cube_sets(n: int) -> tuple[tuple[int, ...], ...]:
    """Spark's ``Cube.groupingSets``: subsets by decreasing size, each size in the keys' order."""
    return tuple(c for k in range(n, -1, -1) for c in combinations(range(n), k))


def expand(t: Any, g: GroupedV, name: str, args: list[Value], kwargs: dict[str, Any], loc: Loc) -> DF:
    """The union of ``groupBy(set).name(args)`` over ``g.sets``, in the columns of the full grouping
    (``t`` is the translator, ``frontend.dataframe.joins.JoinsMixin``, which calls this module)."""
    assert g.sets is not None
    n_all = tuple(range(len(g.keys)))
    full = _per_set(t, GroupedV(g.df, g.keys), name, _constants(args, g.keys, n_all, loc), kwargs, loc)
    n = len(g.keys)
    key_fields = full.rel.schema.fields[:n]
    out_fields = full.rel.schema.fields[n:]
    rel: R.Rel | None = None
    for s in g.sets:
        keys = tuple(g.keys[i] for i in s) if s else (Lit(0, loc=loc),)
        part = _per_set(t, GroupedV(g.df, keys), name, _constants(args, g.keys, s, loc), kwargs, loc)
        width = len(keys)
        exprs: list[R.Expr] = []
        for j, f in enumerate(key_fields):
            if j in s:
                exprs.append(R.Col(s.index(j), f.name, f.type, part.rel.schema.fields[s.index(j)].nullable))
            else:
                exprs.append(R.Lit(None, f.type, loc=loc))
        for m in range(len(out_fields)):
            pf = part.rel.schema.fields[width + m]
            exprs.append(R.Col(width + m, pf.name, pf.type, pf.nullable))
        names = [f.name for f in (*key_fields, *out_fields)]
        projected = build.project(part.rel, exprs, names, loc)
        rel = projected if rel is None else build.set_op("union", True, rel, projected, loc)
    assert rel is not None
    return DF(rel, tuple(Attr(t.ids.fresh(), a.name) for a in full.attrs), g.df.ambiguous, g.df.hidden)


def _constants(args: list[Value], keys: tuple[CExpr, ...], s: tuple[int, ...], loc: Loc) -> list[Value]:
    """``args`` with each ``agg`` item that is ``F.grouping(k)``/``F.grouping_id(...)`` replaced by its
    value for the set ``s`` (named as Spark names the call, unless aliased)."""
    out: list[Value] = []
    for a in args:
        if not isinstance(a, ColV):
            out.append(a)
            continue
        e, alias = (a.expr.operand, a.expr.name) if isinstance(a.expr, Alias) else (a.expr, None)
        if isinstance(e, Call) and e.name in ("grouping", "grouping_id"):
            out.append(ColV(Alias(_constant(e, keys, s, loc), alias or pretty(e), loc=e.loc)))
            continue
        if _has_grouping_call(a.expr):
            raise UnsupportedError("grouping()/grouping_id() inside an expression of a rollup/cube", loc,
                                   construct="grouping")
        out.append(a)
    return out


def _constant(e: Call, keys: tuple[CExpr, ...], s: tuple[int, ...], loc: Loc) -> CExpr:
    def index(c: CExpr) -> int:
        for i, k in enumerate(keys):
            if _same_key(c, k):
                return i
        raise AnalysisError(f"{pretty(e)}: {pretty(c)} is not one of the grouping columns "
                            "(GROUPING_COLUMN_MISMATCH)", e.loc or loc)

    call = GroupingCall(e.name, tuple(range(len(keys))) if not e.args else tuple(index(c) for c in e.args),
                        len(keys))
    if e.name == "grouping_id" and e.args and list(call.keys) != list(range(len(keys))):
        raise AnalysisError("grouping_id's columns must be the grouping columns, in order "
                            "(GROUPING_ID_COLUMN_MISMATCH)", e.loc or loc)
    return Cast(Lit(call.value(s), loc=e.loc), call.type, False, loc=e.loc)


def _same_key(c: CExpr, k: CExpr) -> bool:
    k = k.operand if isinstance(k, Alias) else k
    return c == k or (isinstance(c, Name) and isinstance(k, Name) and [p.lower() for p in c.parts] ==
                      [p.lower() for p in k.parts])


def _has_grouping_call(e: CExpr) -> bool:
    if isinstance(e, Call) and e.name in ("grouping", "grouping_id"):
        return True
    return any(_has_grouping_call(c) for c in children(e))


def _per_set(t: Any, g: GroupedV, name: str, args: list[Value], kwargs: dict[str, Any], loc: Loc) -> DF:
    try:
        out = t.grouped_method(g, name, args, kwargs, loc)
    except AnalysisError as exc:
        raise UnsupportedError(f"rollup/cube: an output the grouping sets analyse differently ({exc})", loc,
                               construct="rollup") from None
    return out.df  # type: ignore[union-attr]


def grouping_sets(kind: str, keys: tuple[CExpr, ...]) -> tuple[tuple[int, ...], ...]:
    return rollup_sets(len(keys)) if kind == "rollup" else cube_sets(len(keys))


__all__ = ["cube_sets", "expand", "grouping_sets", "rollup_sets"]
