"""``[INNER | LEFT | CROSS] JOIN LATERAL (subquery) alias`` and ``, LATERAL (subquery)``: a subquery that
may read the columns of the FROM items before it, evaluated once per row of them.

A mixin of ``translator._Translator``. Each shape becomes the join Spark's optimiser decorrelates it
into (``DecorrelateInnerQuery``); nothing is simplified:

- **uncorrelated**: the subquery is an ordinary derived table, joined as any other.
- **a global aggregate** (``SELECT agg(..) [, agg(..)] FROM .. WHERE inner = outer AND ..``): exactly one
  row per outer row, whatever the join kind. As a correlated scalar subquery
  (``subqueries.correlated_scalar``): the subquery grouped by its inner correlation expressions and
  left-joined on ``outer = inner``; an outer row without a group reads the aggregates of no rows, which
  is NULL for the NULL-on-empty items accepted (``sum``/``avg``/``min``/``max`` under arithmetic and
  casts) and 0 for a bare ``count`` (coalesced). Other items are refused.
- **rows filtered by correlated conditions** (``SELECT .. FROM .. WHERE <local> AND <correlated>``): the
  subquery's FROM filtered by its local conditions, joined (INNER, or LEFT) on the correlated ones, and
  the SELECT items read over the joined row. A LEFT lateral join pads an outer row without a match with
  NULLs; reading the items after the join gives those NULLs only when every item is a bare column of
  the subquery, so a LEFT one is accepted only then.

GROUP BY, HAVING, LIMIT, DISTINCT, ORDER BY, windows and set operations in a correlated lateral
subquery, a correlated reference outside its WHERE, and an ON condition other than ``TRUE`` are refused
with their name. Spark's semantics of each shape: docs/semantics-notes.md ("LATERAL subqueries").
"""

from __future__ import annotations

from sqlglot import exp

from frontend.sql import scopes as S
from frontend.sql.subqueries import _bare_count, _null_on_empty
from sparklite.relational import ast as R
from sparklite.relational import build


class LateralMixin:
    """LATERAL subqueries joined to the FROM items before them."""

    def lateral_join(self, left: S._Scope, j: exp.Join, env: S._Env) -> S._Scope:
        lat = j.this
        assert isinstance(lat, exp.Lateral)
        node = lat.this
        if lat.args.get("view") or not isinstance(node, exp.Subquery):
            raise self.unsupported("LATERAL over something other than a subquery", lat)  # type: ignore[attr-defined]
        side = (j.side or "").upper()
        kind_kw = (j.kind or "").upper()
        if j.args.get("method") or j.args.get("using") or side not in ("", "LEFT") or \
                kind_kw not in ("", "INNER", "CROSS", "OUTER"):
            raise self.unsupported(f"{(side + ' ' + kind_kw).strip() or 'this'} LATERAL join", j)  # type: ignore[attr-defined]
        on = j.args.get("on")
        if on is not None and not (isinstance(on, exp.Boolean) and on.this is True):
            raise self.unsupported("an ON condition on a LATERAL join", on,  # type: ignore[attr-defined]
                                   "write the condition in the subquery's WHERE")
        alias = lat.args.get("alias")
        qualifier = alias.name.lower() if alias is not None and alias.name else None
        sub = node.this
        try:
            rel = self.query(sub, S._Env(env.ctes, (left,) + env.outers))  # type: ignore[attr-defined]
        except S._OuterReference:
            rel = None
        if rel is not None:  # uncorrelated: a derived table
            plain = exp.Join(this=exp.Subquery(this=sub.copy(), alias=alias.copy() if alias else None),
                             side=j.args.get("side"), kind=j.args.get("kind"))
            plain.meta.update(j.meta)
            return self.join(left, plain, env)  # type: ignore[attr-defined]
        if not isinstance(sub, exp.Select) or sub.args.get("from_") is None:
            raise self.unsupported("this correlated LATERAL subquery", node,  # type: ignore[attr-defined]
                                   "a SELECT over a FROM clause is supported")
        for key, what in (("group", "GROUP BY"), ("having", "HAVING"), ("limit", "LIMIT"), ("with_", "WITH"),
                          ("offset", "OFFSET"), ("order", "ORDER BY"), ("distinct", "DISTINCT"),
                          ("qualify", "QUALIFY"), ("windows", "WINDOW")):
            if sub.args.get(key) is not None:
                raise self.unsupported(f"{what} in a correlated LATERAL subquery", sub.args[key])  # type: ignore[attr-defined]
        items = list(sub.expressions)
        if any(S._has_aggregate(self.src, it) for it in items):  # type: ignore[attr-defined]
            rel, names = self.lateral_aggregate(left, sub, env, node)
        else:
            rel, names = self.lateral_rows(left, sub, env, node, left_join=side == "LEFT")
        width = len(left.rel.schema)
        cols = tuple(S._Col(n, width + i, qualifier) for i, n in enumerate(names))
        tables = left.tables + (((qualifier, cols),) if qualifier is not None else ())
        if alias is not None and alias.columns:
            raise self.unsupported("column aliases on a correlated LATERAL subquery", alias)  # type: ignore[attr-defined]
        return S._Scope(rel, left.star + cols, tables)

    def lateral_aggregate(self, left: S._Scope, sub: exp.Select, env: S._Env,
                          node: exp.Expression) -> tuple[R.Rel, list[str]]:
        """A correlated global aggregate: one row per outer row (see the module's docstring)."""
        items = list(sub.expressions)
        for it in items:
            if not (_null_on_empty(it) or _bare_count(it)):
                raise self.unsupported(  # type: ignore[attr-defined]
                    "a correlated LATERAL aggregate whose value is not NULL on no rows", it,
                    "supported: sum/avg/min/max under arithmetic and casts, or a bare count",
                )
        local, pairs = self.split_correlated(left, sub, env, node)  # type: ignore[attr-defined]
        grouped = sub.copy()
        grouped.set("expressions", [p[0].copy() for p in pairs] + [it.copy() for it in items])
        grouped.set("group", exp.Group(expressions=[p[0].copy() for p in pairs]))
        grouped.set("where", self.where_of(local))  # type: ignore[attr-defined]
        try:
            rel = self.query(grouped, S._Env(env.ctes, (left,) + env.outers))  # type: ignore[attr-defined]
        except S._OuterReference:
            raise self.unsupported("a correlated reference outside the LATERAL subquery's WHERE "  # type: ignore[attr-defined]
                                   "equalities", node) from None
        joined = self.join_on_pairs(left, rel, pairs, env, node).rel  # type: ignore[attr-defined]
        loc = self.loc(node)  # type: ignore[attr-defined]
        cols = build.columns_of(joined)
        width = len(left.rel.schema)
        exprs: list[R.Expr] = list(cols[:width])
        names = [f.name for f in joined.schema.fields[:width]]
        out: list[str] = []
        for i, it in enumerate(items):
            c = cols[width + len(pairs) + i]
            # a bare count of no rows is 0 (Spark's "count bug" handling), never NULL
            exprs.append(build.func("coalesce", [c, build.lit(0, loc)], loc=loc) if _bare_count(it) else c)
            out.append(joined.schema.fields[width + len(pairs) + i].name)
        return build.project(joined, exprs, names + out, loc=loc), out

    def lateral_rows(self, left: S._Scope, sub: exp.Select, env: S._Env, node: exp.Expression,
                     left_join: bool) -> tuple[R.Rel, list[str]]:
        """A correlated row-producing subquery: its FROM joined on its correlated conditions."""
        self.check_no_args(sub, ("expressions", "from_", "joins", "where"), "LATERAL subquery")  # type: ignore[attr-defined]
        sub_env = S._Env(env.ctes, (left,) + env.outers)
        try:
            inner = self.from_clause(sub, sub_env)  # type: ignore[attr-defined]
        except S._OuterReference:
            raise self.unsupported("a correlated reference in a LATERAL subquery's FROM", sub) from None  # type: ignore[attr-defined]
        width = len(left.rel.schema)
        inner_ctx = S._Ctx(inner, "WHERE", sub_env.outers)
        local: list[exp.Expression] = []
        pulled: list[exp.Expression] = []
        where = sub.args.get("where")
        for c in S._conjuncts(where.this) if where is not None else []:
            if S._subquery_predicate(c) or any(isinstance(n, exp.Subquery | exp.Exists)
                                               for n in S._walk_here(c)):
                raise self.unsupported("a subquery in a correlated LATERAL subquery's WHERE", c)  # type: ignore[attr-defined]
            try:
                self.expr(c, inner_ctx)  # type: ignore[attr-defined]
                local.append(c)
            except S._OuterReference:
                pulled.append(c)
        if local:
            assert where is not None
            inner = self.where(inner, where.this, sub_env, inner_ctx, conjuncts=local)  # type: ignore[attr-defined]
        pull_ctx = S._Ctx(inner, "WHERE", sub_env.outers, offset=width, outer_ok=True)
        loc = self.loc(node)  # type: ignore[attr-defined]
        cond: R.Expr | None = None
        for c in pulled:
            p = self.expr(c, pull_ctx)  # type: ignore[attr-defined]
            self.check_predicate(p, c, "WHERE")  # type: ignore[attr-defined]
            cond = p.expr if cond is None else build.and_(cond, p.expr, loc=loc)
        items: list[S._E] = []
        for it in sub.expressions:
            items.extend(self.select_item(it, pull_ctx, None))  # type: ignore[attr-defined]
        if left_join:
            bare = all(isinstance(i.expr, R.Col) and i.expr.index >= width for i in items)
            if not bare:
                raise self.unsupported(  # type: ignore[attr-defined]
                    "a LEFT LATERAL subquery whose SELECT items are not columns of its FROM", sub,
                    "an outer row without a match reads NULL for each item only then",
                )
        joined = build.join("left" if left_join else "inner", left.rel, inner.rel, cond, loc=loc)
        cols = build.columns_of(joined)
        # a bare column of a LEFT join's padded side is read as the join gives it (nullable)
        values = [cols[i.expr.index] if left_join and isinstance(i.expr, R.Col) else i.expr for i in items]
        exprs = [*cols[:width], *values]
        names = [f.name for f in left.rel.schema.fields] + [i.name for i in items]
        return build.project(joined, exprs, names, loc=loc), [i.name for i in items]

    def grouped_scalar_subqueries(self, items: list[exp.Expression], group: exp.Group) -> list[exp.Subquery]:
        """The scalar subqueries an aggregate query groups by: those of its GROUP BY expressions, and
        those of the SELECT items a GROUP BY names by alias. Each is joined to the FROM before the
        aggregation (as Spark's ``RewriteCorrelatedScalarSubquery`` does), so the grouping key reads
        its value; a scalar subquery anywhere else in an aggregate query stays refused."""
        aliases = {it.alias.lower(): it.this for it in items if isinstance(it, exp.Alias) and it.alias}
        out: list[exp.Subquery] = []
        for g in group.expressions:
            g0 = S._unparen(g)
            if isinstance(g0, exp.Column) and not g0.table and g0.name.lower() in aliases:
                found = self.scalar_subqueries(aliases[g0.name.lower()])  # type: ignore[attr-defined]
            else:
                found = self.scalar_subqueries(g)  # type: ignore[attr-defined]
            out += [sq for sq in found if all(sq is not o for o in out)]
        return out


__all__ = ["LateralMixin"]
