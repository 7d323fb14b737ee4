"""FROM and WHERE: table factors, joins (ON, USING, NATURAL), subquery predicates and scalar subqueries.

A mixin of ``translator._Translator``; where subqueries become joins, as Spark's analyser rewrites them.
"""

from __future__ import annotations

from dataclasses import replace

from sqlglot import exp

from frontend.sql.scopes import (
    _E,
    _Col,
    _conjuncts,
    _Ctx,
    _Env,
    _has_aggregate,
    _OuterReference,
    _Scope,
    _scope_of,
    _shift,
    _subquery_predicate,
    _unparen,
    _walk_here,
)
from sparklite.relational import ast as R
from sparklite.relational import build
from sparklite.relational.build import AnalysisError
from sparklite.relational.types import (
    BooleanType,
    NullType,
)


class RelationsMixin:
    """FROM and WHERE of ``translator._Translator``."""

    # ---- FROM -----------------------------------------------------------------------------------

    def from_clause(self, sel: exp.Expression, env: _Env) -> _Scope:
        from_ = sel.args["from_"]
        scope = self.table_factor(from_.this, env)
        for j in sel.args.get("joins") or []:
            scope = self.join(scope, j, env)
        return scope

    def table_factor(self, node: exp.Expression, env: _Env) -> _Scope:
        if isinstance(node, exp.Table):
            self.check_no_args(node, ("this", "alias", "joins", "db"), "table")
            db = node.args.get("db")
            qualified = f"{db.name.lower()}.{node.name.lower()}" if db is not None else ""
            if qualified.startswith("global_temp.") and qualified in self.catalog:
                db = None  # a global temp view (createGlobalTempView), named global_temp.name
            if db is not None:
                raise self.unsupported(
                    "a qualified table name", node, f"write the table name alone ({node.name})"
                )
            if not isinstance(node.this, exp.Identifier):
                raise self.unsupported(f"table-valued function {self.sql(node)}", node)
            name = node.name
            rel = self.catalog[qualified] if qualified and db is None else env.cte(name)
            if rel is None:
                if name.lower() not in self.catalog:
                    raise self.missing(name, self.loc(node))
                rel = self.catalog[name.lower()]
            alias = node.args.get("alias")
            qualifier = (alias.name if alias is not None and alias.name else name).lower()
            if alias is not None and alias.columns:
                rel = self.rename(rel, [c.name for c in alias.columns], alias)
            scope = _scope_of(rel, qualifier)
            for j in node.args.get("joins") or []:  # "(t1 JOIN t2 ON ..)" parses as a table with joins
                scope = self.join(scope, j, env)
            return scope
        if isinstance(node, exp.Subquery):
            alias = node.args.get("alias")
            inner = node.this
            if not alias and isinstance(inner, exp.Table | exp.Subquery | exp.Lateral | exp.Values):
                scope = self.table_factor(inner, env)  # "(t1 JOIN t2 ON ..)": a parenthesised join
            else:
                rel = self.query(inner, env)
                if any(node.args.get(k) for k in ("order", "limit")):
                    rel = self.order_limit_output(node, rel, env)
                if alias is not None and alias.columns:
                    rel = self.rename(rel, [c.name for c in alias.columns], alias)
                scope = _scope_of(rel, alias.name.lower() if alias is not None and alias.name else None)
            for j in node.args.get("joins") or []:
                scope = self.join(scope, j, env)
            return scope
        if isinstance(node, exp.Lateral):
            raise self.unsupported("LATERAL", node)
        if isinstance(node, exp.Values):
            alias = node.args.get("alias")
            qualifier = alias.name.lower() if alias is not None and alias.name else None
            scope = _scope_of(self.values(node), qualifier)
            for j in node.args.get("joins") or []:
                scope = self.join(scope, j, env)
            return scope
        raise self.unsupported(f"FROM item {node.key.upper()}", node)

    def join(self, left: _Scope, j: exp.Join, env: _Env) -> _Scope:
        self.check_no_args(j, ("this", "on", "side", "kind", "using", "method"), "join")
        right_node = j.this
        if isinstance(right_node, exp.Lateral):
            return self.lateral_join(left, j, env)  # type: ignore[attr-defined]  # frontend/sql/lateral.py
        right = self.table_factor(right_node, env)
        side = (j.side or "").upper()
        kind_kw = (j.kind or "").upper()
        method = j.args.get("method") or ""
        method = method.upper() if isinstance(method, str) else str(method).upper()
        loc = self.loc(j)
        if kind_kw in ("SEMI", "ANTI"):
            if side not in ("", "LEFT"):
                raise self.unsupported(f"{side} {kind_kw} JOIN", j)
            kind: R.JoinKind = "semi" if kind_kw == "SEMI" else "anti"
        elif side == "LEFT":
            kind = "left"
        elif side == "RIGHT":
            kind = "right"
        elif side == "FULL":
            kind = "full"
        elif kind_kw in ("", "INNER", "CROSS", "OUTER"):
            kind = "inner"
        else:
            raise self.unsupported(f"{kind_kw} JOIN", j)
        using = j.args.get("using")
        if method == "NATURAL":
            if using or j.args.get("on") is not None:
                raise AnalysisError("NATURAL JOIN takes no ON or USING", loc)
            right_names = {c.name.lower() for c in right.star}
            names = [c.name for c in left.star if c.name.lower() in right_names]
            return self.using_join(left, right, kind, names, j)
        elif method:
            raise self.unsupported(f"{method} JOIN", j)
        if using:
            return self.using_join(left, right, kind, [u.name for u in using], j)
        combined = self.combine(left, right)
        on = j.args.get("on")
        cond = None
        if on is not None:
            for n in _walk_here(on):
                if isinstance(n, exp.Subquery | exp.Exists) or (
                    isinstance(n, exp.In) and n.args.get("query")
                ):
                    raise self.unsupported("a subquery in a join condition", n)
            c = self.expr(on, _Ctx(combined, "ON", env.outers))
            self.check_predicate(c, on, "join condition")
            cond = c.expr
        if kind == "inner" and cond is None and kind_kw == "CROSS":
            kind = "cross"
        rel = build.join(kind, left.rel, right.rel, cond, loc=loc)
        if kind in ("semi", "anti"):
            return replace(left, rel=rel)
        return replace(combined, rel=rel)

    @staticmethod
    def combine(left: _Scope, right: _Scope) -> _Scope:
        """The scope of a join's row: the left columns, then the right ones (shifted)."""
        n = len(left.rel.schema)

        def shift(cs: tuple[_Col, ...]) -> tuple[_Col, ...]:
            return tuple(replace(c, index=c.index + n) for c in cs)

        # the row a join condition reads: both sides unpadded (an inner join's schema)
        row = build.join("inner", left.rel, right.rel, None)
        return _Scope(
            row, left.star + shift(right.star), left.tables + tuple((q, shift(cs)) for q, cs in right.tables)
        )

    def using_join(
        self, left: _Scope, right: _Scope, kind: R.JoinKind, names: list[str], j: exp.Join
    ) -> _Scope:
        """``JOIN .. USING (k)`` as Spark's analyser builds it: the join on ``l.k = r.k`` under a projection
        putting the key first, once (left key for inner/left/semi/anti, right key for right,
        ``coalesce(l.k, r.k)`` for full), then the other columns; the hidden keys stay reachable as
        ``l.k`` and ``r.k``."""
        loc = self.loc(j)
        combined = self.combine(left, right)
        n = len(left.rel.schema)
        pairs: list[tuple[_Col, _Col]] = []
        for name in names:
            lc = self.using_side(left, name, "left", j)
            rc = self.using_side(right, name, "right", j)
            pairs.append((lc, replace(rc, index=rc.index + n)))
        conds = [
            build.compare("=", combined.col(lc, 0, loc), combined.col(rc, 0, loc), loc=loc)
            for lc, rc in pairs
        ]
        cond: R.Expr | None = None
        for c in conds:
            cond = c if cond is None else build.and_(cond, c, loc=loc)
        rel = build.join(kind, left.rel, right.rel, cond, loc=loc)
        view = _Scope(rel, combined.star, combined.tables)
        exprs: list[R.Expr] = []
        out_names: list[str] = []
        new_index: dict[int, int] = {}
        left_keys = {lc.index for lc, _ in pairs}
        right_keys = {rc.index for _, rc in pairs}
        for lc, rc in pairs:
            if kind == "full":
                le, re_ = view.col(lc, 0, loc), view.col(rc, 0, loc)
                exprs.append(build.func("coalesce", [le, re_], loc=loc))
            elif kind == "right":
                exprs.append(view.col(rc, 0, loc))
                new_index[rc.index] = len(exprs) - 1
            else:
                exprs.append(view.col(lc, 0, loc))
                new_index[lc.index] = len(exprs) - 1
            out_names.append(lc.name if kind != "right" else rc.name)
        star: list[_Col] = [_Col(nm, i, None) for i, nm in enumerate(out_names)]
        visible_right = (
            []
            if kind in ("semi", "anti")
            else [c for c in combined.star[len(left.star) :] if c.index not in right_keys]
        )
        for c in [c for c in left.star if c.index not in left_keys] + visible_right:
            if c.index not in new_index:
                exprs.append(view.col(c, 0, loc))
                out_names.append(rel.schema.fields[c.index].name)
                new_index[c.index] = len(exprs) - 1
            star.append(_Col(c.name, new_index[c.index], c.qualifier))
        width = n if kind in ("semi", "anti") else len(rel.schema)
        for i in range(width):  # hidden: the other side's keys, columns hidden by earlier USING joins
            if i not in new_index:
                f = rel.schema.fields[i]
                exprs.append(R.Col(i, f.name, f.type, f.nullable, loc=loc))
                out_names.append(f.name)
                new_index[i] = len(exprs) - 1
        proj = build.project(rel, exprs, out_names, loc=loc)
        tables_src = left.tables if kind in ("semi", "anti") else combined.tables
        tables = tuple((q, tuple(replace(c, index=new_index[c.index]) for c in cs)) for q, cs in tables_src)
        return _Scope(proj, tuple(star), tables)

    def using_side(self, scope: _Scope, name: str, side: str, j: exp.Join) -> _Col:
        hits = [c for c in scope.star if c.name.lower() == name.lower()]
        if not hits:
            raise AnalysisError(
                f"USING column {name!r} cannot be resolved on the {side} side of the join "
                f"(columns: {', '.join(c.name for c in scope.star)})",
                self.loc(j),
            )
        if len({c.index for c in hits}) > 1:
            raise AnalysisError(
                f"USING column {name!r} is ambiguous on the {side} side of the join (AMBIGUOUS_REFERENCE)",
                self.loc(j),
            )
        return hits[0]

    # ---- WHERE and subquery predicates ----------------------------------------------------------

    def where(
        self,
        scope: _Scope,
        cond: exp.Expression,
        env: _Env,
        ctx: _Ctx,
        conjuncts: list[exp.Expression] | None = None,
    ) -> _Scope:
        """The plain conditions as one filter, then each ``[NOT] IN``/``[NOT] EXISTS`` subquery
        condition as a semi or anti join, in order (Spark's ``RewritePredicateSubquery``). With
        ``conjuncts``, only those (a part of ``cond``) are applied."""
        whole = conjuncts is None
        conjuncts = _conjuncts(cond) if conjuncts is None else conjuncts
        preds = [c for c in conjuncts if _subquery_predicate(c)]
        plain = [c for c in conjuncts if not _subquery_predicate(c)]
        for c in plain:
            positive = self.positive_in_subqueries(c)  # type: ignore[attr-defined]  # read as joins (select)
            for n in _walk_here(c):
                nested_in = isinstance(n, exp.In) and n.args.get("query") is not None
                if nested_in and not any(n is p for p in positive):
                    raise self.unsupported(
                        "an IN/EXISTS subquery that is not a top-level AND-ed WHERE condition", n
                    )
        wctx = replace(ctx, scope=scope, clause="WHERE")
        rel = scope.rel
        if plain:
            if not preds and whole:
                pred = self.expr(cond, wctx)
                self.check_predicate(pred, cond, "WHERE")
                e = pred.expr
            else:
                e = None
                for c in plain:
                    p = self.expr(c, wctx)
                    self.check_predicate(p, c, "WHERE")
                    e = p.expr if e is None else build.and_(e, p.expr, loc=self.loc(c))
            assert e is not None
            rel = build.filter_(rel, e, loc=self.loc(cond))
        for p in preds:
            rel = self.subquery_join(replace(scope, rel=rel), p, env, wctx)
        return replace(scope, rel=rel)

    def subquery_join(self, scope: _Scope, node: exp.Expression, env: _Env, ctx: _Ctx) -> R.Rel:
        n = _unparen(node)
        negated = isinstance(n, exp.Not)
        if negated:
            n = _unparen(n.this)
        loc = self.loc(node)
        outer_ctx = replace(ctx, scope=scope, hook=None)
        if isinstance(n, exp.Exists):
            sub = n.this
            values: list[exp.Expression] = []
        else:
            q = n.args["query"]
            sub = q.this if isinstance(q, exp.Subquery) else q
            v = _unparen(n.this)
            values = list(v.expressions) if isinstance(v, exp.Tuple) else [n.this]
        xs = [self.expr(v, outer_ctx) for v in values]
        width = len(scope.rel.schema)
        sub_env = _Env(env.ctes, (scope,) + env.outers)
        try:
            sub_rel = self.query(sub, sub_env)
            ks: list[R.Expr] = [c for c in build.columns_of(sub_rel)]
            ks = [_shift(k, width) for k in ks]
            correlated: list[R.Expr] = []
            if values and len(ks) != len(values):
                raise AnalysisError(
                    f"IN compares {len(values)} value(s) with a subquery of {len(ks)} column(s)", loc
                )
        except _OuterReference:
            sub_rel, ks, correlated = self.correlated_subquery(scope, sub, env, len(values), ctx)
        cond_parts: list[R.Expr] = []
        for x, k in zip(xs, ks, strict=False):
            eq = build.compare("=", x.expr, k, loc=loc)
            cond_parts.append(build.or_(eq, build.is_null(eq, loc=loc), loc=loc) if negated else eq)
        cond_parts += correlated
        cond: R.Expr | None = None
        for c in cond_parts:
            cond = c if cond is None else build.and_(cond, c, loc=loc)
        return build.join("anti" if negated else "semi", scope.rel, sub_rel, cond, loc=loc)

    def correlated_subquery(
        self, outer: _Scope, sub: exp.Expression, env: _Env, n_values: int, ctx: _Ctx
    ) -> tuple[R.Rel, list[R.Expr], list[R.Expr]]:
        """A correlated ``IN``/``EXISTS`` subquery: its FROM and uncorrelated conditions, and the
        conditions reading the outer row (plus, for IN, its SELECT expressions), over the outer columns
        then the subquery's, for the semi/anti join's condition (Spark pulls them up the same way)."""
        if not isinstance(sub, exp.Select):
            raise self.unsupported("a correlated set-operation subquery", sub)
        for key, what in (
            ("group", "GROUP BY"),
            ("having", "HAVING"),
            ("limit", "LIMIT"),
            ("with_", "WITH"),
            ("offset", "OFFSET"),
        ):
            if sub.args.get(key) is not None:
                raise self.unsupported(f"{what} in a correlated subquery", sub.args[key])
        if any(_has_aggregate(self.src, e) for e in sub.expressions):
            raise self.unsupported("an aggregate in a correlated subquery", sub)
        if sub.args.get("from_") is None:
            raise self.unsupported(
                "SELECT without FROM", sub, "the relational kernel has no one-row relation"
            )
        self.check_no_args(sub, ("expressions", "distinct", "from_", "joins", "where", "order"), "subquery")
        sub_env = _Env(env.ctes, (outer,) + env.outers)
        try:
            inner = self.from_clause(sub, sub_env)
        except _OuterReference:
            raise self.unsupported("a correlated reference in a subquery's FROM", sub) from None
        width = len(outer.rel.schema)
        inner_ctx = _Ctx(inner, "WHERE", sub_env.outers)
        pull_ctx = _Ctx(inner, "WHERE", sub_env.outers, offset=width, outer_ok=True)
        local: list[exp.Expression] = []
        pulled: list[exp.Expression] = []
        where = sub.args.get("where")
        for c in _conjuncts(where.this) if where is not None else []:
            if _subquery_predicate(c):
                local.append(c)
                continue
            try:
                self.expr(c, inner_ctx)
                local.append(c)
            except _OuterReference:
                pulled.append(c)
        if local:
            assert where is not None
            inner = self.where(inner, where.this, sub_env, inner_ctx, conjuncts=local)
            pull_ctx = replace(pull_ctx, scope=inner)
        correlated = []
        for c in pulled:
            for n in _walk_here(c):
                if isinstance(n, exp.Subquery | exp.Exists):
                    raise self.unsupported("a nested subquery in a correlated condition", n)
            p = self.expr(c, pull_ctx)
            self.check_predicate(p, c, "WHERE")
            correlated.append(p.expr)
        ks: list[R.Expr] = []
        if n_values:
            items: list[_E] = []
            for it in sub.expressions:
                items.extend(self.select_item(it, pull_ctx, None))
            if len(items) != n_values:
                raise AnalysisError(
                    f"IN compares {n_values} value(s) with a subquery of {len(items)} column(s)",
                    self.loc(sub),
                )
            ks = [i.expr for i in items]
        return inner.rel, ks, correlated

    def scalar_subqueries(self, node: exp.Expression) -> list[exp.Subquery]:
        return [n for n in _walk_here(node) if isinstance(n, exp.Subquery)] + [
            c
            for n in _walk_here(node)
            for c in n.iter_expressions()
            if isinstance(c, exp.Subquery) and not (isinstance(n, exp.In) and c is n.args.get("query"))
        ]

    def cross_join_scalar(self, scope: _Scope, node: exp.Subquery, env: _Env) -> tuple[_Scope, int]:
        """A scalar subquery joins every row, and its one column is read where the subquery stood
        (``scalar_relation``); a correlated one is ``subqueries.correlated_scalar``'s."""
        try:
            rel, kind = self.scalar_relation(node, _Env(env.ctes, (scope,) + env.outers))
        except _OuterReference:
            return self.correlated_scalar(scope, node, env)  # type: ignore[attr-defined]
        index = len(scope.rel.schema)
        joined = build.join(kind, scope.rel, rel, None, loc=self.loc(node))
        return replace(scope, rel=joined), index

    def scalar_relation(self, node: exp.Subquery, env: _Env) -> tuple[R.Rel, R.JoinKind]:
        """An uncorrelated scalar subquery as a relation of at most one row and how it joins: a global
        aggregate (exactly one row) by a cross join; a ``LIMIT 1`` (or 0) query, at most one row, by a
        left join without condition (no row: NULL, Spark's value of an empty scalar subquery); any other
        through ``subqueries.at_most_one_row`` (more than one row raises, as in Spark). Raises
        ``_OuterReference`` for a correlated one."""
        inner = node.this
        lim = inner.args.get("limit")
        lim_value = _unparen(lim.expression) if lim is not None and lim.expression is not None else None
        at_most_one = (
            isinstance(lim_value, exp.Literal) and not lim_value.is_string and lim_value.this in ("0", "1")
        )
        exactly_one = (
            isinstance(inner, exp.Select)
            and inner.args.get("group") is None
            and inner.args.get("having") is None
            and len(inner.expressions) == 1
            and _has_aggregate(self.src, inner.expressions[0])
            and lim is None
        ) or (
            # "(SELECT 1)": one row of the one-row relation, unless something drops it
            isinstance(inner, exp.Select)
            and inner.args.get("from_") is None
            and not any(inner.args.get(k) for k in ("where", "having", "limit", "group"))
        )
        if isinstance(inner, exp.Select) and inner.args.get("from_") is None:
            at_most_one = True  # a SELECT over the one-row relation has at most one row
        rel = self.query(inner, env)
        if len(rel.schema) != 1:
            raise AnalysisError(
                f"a scalar subquery must return one column, not {len(rel.schema)} "
                "(SCALAR_SUBQUERY_TOO_MANY_COLUMNS)",
                self.loc(node),
            )
        if exactly_one:
            return rel, "cross"
        if at_most_one:
            return rel, "left"
        return self.at_most_one_row(rel, self.loc(node)), "cross"  # type: ignore[attr-defined]

    def check_predicate(self, e: _E, node: exp.Expression, what: str) -> None:
        if isinstance(e.expr.type, NullType):
            raise AnalysisError(
                f"{what} condition {e.name} has type VOID, not BOOLEAN (FILTER_NOT_BOOLEAN)", self.loc(node)
            )
        if not isinstance(e.expr.type, BooleanType):
            raise AnalysisError(
                f"{what} condition {e.name} has type {e.expr.type.simple.upper()}, not BOOLEAN",
                self.loc(node),
            )
