"""Queries: WITH, VALUES, SELECT lists (lateral aliases, stars), aggregate queries, ORDER BY and LIMIT,
set operations. A mixin of ``translator._Translator``, kept apart from FROM/WHERE and expressions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from sqlglot import exp

from frontend.sql import star_except
from frontend.sql.grouping import grouping_analytics
from frontend.sql.nested import collect_call, lateral_views
from frontend.sql.scopes import (
    _AGGREGATES,
    _E,
    Hook,
    _called_name,
    _Col,
    _cols_of,
    _conjuncts,
    _Ctx,
    _Env,
    _has_aggregate,
    _has_column,
    _identity,
    _is_aggregate,
    _OuterReference,
    _Scope,
    _scope_of,
    _subquery_predicate,
    _unparen,
)
from sparklite.ast import Loc
from sparklite.errors import InputError, UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational import build
from sparklite.relational.build import AnalysisError
from sparklite.relational.grouping_sets import GroupingCall, GroupingSet
from sparklite.relational.grouping_sets import lower as lower_grouping_sets
from sparklite.relational.moments import MOMENT_NAMES
from sparklite.relational.types import (
    Schema,
)
from sparklite.relational.windows import WindowCalls

# ---------------------------------------------------------------------------------------------------
# The translator
# ---------------------------------------------------------------------------------------------------


_MOMENT_NAMES = MOMENT_NAMES  # the statistics aggregates (sparklite/relational/moments.py)
_MOMENT_NODES = exp.Stddev | exp.StddevSamp | exp.StddevPop | exp.Variance | exp.VariancePop


class _Aggregation:
    """The grouping keys of an aggregate query and the aggregate calls its SELECT, HAVING and ORDER BY
    use (collected while translating them; one call per distinct aggregate, as Spark shares them)."""

    def __init__(self, keys: list[_E], sets: list[GroupingSet] | None = None) -> None:
        self.keys = keys
        self.sets = sets  # grouping analytics (ROLLUP, CUBE, GROUPING SETS): frontend/sql/grouping.py
        self.only_empty_set = False  # GROUPING SETS (()): a global aggregation
        self.aggs: list[R.AggCall | GroupingCall] = []
        self.agg_names: list[str] = []

    def rolled_up(self, i: int) -> bool:
        """Key ``i`` is left out of some grouping set (its column is then NULL in that set's rows)."""
        return self.sets is not None and any(i not in s for s in self.sets)

    def ref(self, call: R.AggCall | GroupingCall, name: str, loc: Loc | None) -> R.Col:
        if call in self.aggs:
            i = self.aggs.index(call)
        else:
            self.aggs.append(call)
            self.agg_names.append(name)
            i = len(self.aggs) - 1
        return R.Col(len(self.keys) + i, self.agg_names[i], call.type, call.nullable, loc=loc)

    def key_ref(self, e: R.Expr, loc: Loc | None) -> R.Col | None:
        for i, k in enumerate(self.keys):
            if k.expr == e:
                return R.Col(i, k.name, k.expr.type, k.expr.nullable or self.rolled_up(i), loc=loc)
        return None


class _Output:
    """A SELECT list being built: the visible items and the hidden columns ORDER BY needs (dropped
    after the sort, as Spark's analyser adds and removes them)."""

    def __init__(self, items: list[_E], allow_hidden: bool, why_not: str) -> None:
        self.items = items
        self.hidden: list[_E] = []
        self.allow_hidden = allow_hidden
        self.why_not = why_not

    def lift(self, e: _E, loc: Loc | None) -> _E:
        """``e`` (over the projection's input) as a column of the projection's output."""
        for i, it in enumerate(self.items):
            if it.expr == e.expr:
                return _E(R.Col(i, it.name, it.expr.type, it.expr.nullable, loc=loc), e.name)
        for j, h in enumerate(self.hidden):
            if h.expr == e.expr:
                return _E(R.Col(len(self.items) + j, h.name, h.expr.type, h.expr.nullable, loc=loc), e.name)
        if not self.allow_hidden:
            raise AnalysisError(f"ORDER BY {e.name}: {self.why_not}", loc)
        self.hidden.append(e)
        j = len(self.hidden) - 1
        return _E(R.Col(len(self.items) + j, e.name, e.expr.type, e.expr.nullable, loc=loc), e.name)




class QueriesMixin:
    """Query-level translation of ``translator._Translator``."""

    # ---- queries --------------------------------------------------------------------------------

    def top(self, tree: exp.Expression) -> R.Rel:
        if not isinstance(tree, exp.Query | exp.Values):
            raise UnsupportedError(
                f"statement {tree.key.upper()} is not supported: sparkeq reads one query (SELECT ...)",
                self.src.loc(self.tokens[0][0] if self.tokens else 0),
                construct=f"statement {tree.key.upper()}",
            )
        try:
            return self.query(tree, _Env())
        except _OuterReference:  # pragma: no cover - only raised under an enclosing query
            raise self.unsupported("correlated reference", tree) from None
        except RecursionError:
            raise self.unsupported("a query this deeply nested", tree) from None

    def query(self, node: exp.Expression, env: _Env) -> R.Rel:
        with_ = node.args.get("with_")
        if with_ is not None:
            env = self.ctes(with_, env)
        if isinstance(node, exp.Select):
            return self.select(node, env)
        if isinstance(node, exp.SetOperation):
            rel = self.set_op(node, env)
            return self.order_limit_output(node, rel, env)
        if isinstance(node, exp.Subquery):
            self.check_no_args(node, ("this", "with_", "order", "limit", "alias"), "parenthesised query")
            rel = self.query(node.this, env)
            return self.order_limit_output(node, rel, env)
        if isinstance(node, exp.Values):
            return self.values(node)
        raise self.unsupported(f"query form {node.key.upper()}", node)

    def ctes(self, with_: exp.With, env: _Env) -> _Env:
        if with_.args.get("recursive"):
            raise self.unsupported("WITH RECURSIVE", with_)
        for cte in with_.expressions:
            name = cte.alias
            rel = self.query(cte.this, env)
            columns = cte.args["alias"].columns if cte.args.get("alias") else []
            if columns:
                rel = self.rename(rel, [c.name for c in columns], cte)
            env = replace(env, ctes=env.ctes + ((name.lower(), rel),))
        return env

    def rename(self, rel: R.Rel, names: Sequence[str], node: exp.Expression) -> R.Rel:
        if len(names) != len(rel.schema):
            raise AnalysisError(
                f"{len(names)} column names given for {len(rel.schema)} columns", self.loc(node)
            )
        if isinstance(rel, R.Values):  # "(VALUES ...) AS t(a, b)": Spark names the inline table's columns
            fields = tuple(replace(f, name=n) for f, n in zip(rel.schema.fields, names, strict=True))
            return replace(rel, schema=Schema(fields))
        return build.project(rel, build.columns_of(rel), names, loc=self.loc(node))

    def values(self, node: exp.Values) -> R.Values:
        """An inline table: its rows' cells are expressions over no column (Spark evaluates them while
        analysing the query); its columns are named by the alias's column list, else ``col1``,
        ``col2``... as Spark names them."""
        alias = node.args.get("alias")
        ctx = _Ctx(_scope_of(build.one_row(), None), "VALUES")
        rows: list[list[R.Expr]] = []
        for row in node.expressions:
            cells = list(row.expressions) if isinstance(row, exp.Tuple) else [row]
            for c in cells:
                if isinstance(c, exp.Alias):  # "VALUES 1, 2 AS t(a)": sqlglot reads the alias into the row
                    raise self.unsupported("VALUES rows without parentheses and an alias", node)
                for n in c.walk():
                    if isinstance(n, exp.Subquery | exp.Exists | exp.Select):
                        raise self.unsupported("a subquery in VALUES", n)
            rows.append([self.expr(c, ctx).expr for c in cells])
        width = len(rows[0]) if rows else 0
        names = [c.name for c in alias.columns] if alias is not None and alias.columns else \
            [f"col{i + 1}" for i in range(width)]
        return build.values(rows, names, loc=self.loc(node))

    def check_no_args(self, node: exp.Expression, allowed: Sequence[str], what: str) -> None:
        names = {
            "distribute": "DISTRIBUTE BY",
            "sort": "SORT BY",
            "cluster": "CLUSTER BY",
            "qualify": "QUALIFY",
            "windows": "WINDOW clause",
            "laterals": "LATERAL VIEW",
            "offset": "OFFSET",
            "pivots": "PIVOT",
            "sample": "TABLESAMPLE",
            "hint": "hints",
            "into": "SELECT INTO",
            "connect": "CONNECT BY",
            "by_name": "UNION BY NAME",
            "kind": f"{what} kind",
            "side": f"{what} side",
            "options": "query options",
            "settings": "SETTINGS",
            "locks": "FOR UPDATE",
            "prewhere": "PREWHERE",
            "match": "MATCH_RECOGNIZE",
            "format": "FORMAT",
            "for_": "FOR",
            "exclude": "EXCLUDE",
            "operation_modifiers": "query modifiers",
        }
        for key, value in node.args.items():
            if key in allowed or key.startswith("_") or value in (None, False, [], ""):
                continue
            raise self.unsupported(names.get(key, key.upper()), node)

    # ---- SELECT ---------------------------------------------------------------------------------

    def select(self, sel: exp.Select, env: _Env) -> R.Rel:
        self.check_no_args(
            sel,
            (
                "with_",
                "expressions",
                "distinct",
                "from_",
                "joins",
                "where",
                "group",
                "having",
                "order",
                "limit",
                "windows",
                "qualify",
                "laterals",
            ),
            "SELECT",
        )
        distinct = sel.args.get("distinct")
        if distinct is not None and distinct.args.get("on"):
            raise self.unsupported("DISTINCT ON", sel)
        if sel.args.get("from_") is None:
            if sel.args.get("joins"):
                raise self.unsupported("a JOIN without FROM", sel)
            scope = _scope_of(build.one_row(loc=self.loc(sel)), None)  # Spark's OneRowRelation
        else:
            scope = self.from_clause(sel, env)
        scope = lateral_views(self, sel, scope)  # LATERAL VIEW explode(...) (frontend/sql/nested.py)
        items_nodes = list(sel.expressions)
        group = sel.args.get("group")
        having = sel.args.get("having")
        is_agg = (
            group is not None or having is not None or any(_has_aggregate(self.src, n) for n in items_nodes)
        )
        # scalar subqueries: WHERE always, SELECT when no aggregation (each a cross join with one row)
        where = sel.args.get("where")
        scalar_nodes: list[exp.Subquery | exp.Exists | exp.In] = []
        if where is not None:
            for c in _conjuncts(where.this):
                if not _subquery_predicate(c):
                    scalar_nodes += self.scalar_subqueries(c)
                    scalar_nodes += self.nested_exists(c)  # type: ignore[attr-defined]
                    scalar_nodes += self.positive_in_subqueries(c)  # type: ignore[attr-defined]
        if not is_agg:
            for n in items_nodes:
                scalar_nodes += self.scalar_subqueries(n)
        elif group is not None:  # a scalar subquery grouped by (frontend/sql/lateral.py)
            scalar_nodes += self.grouped_scalar_subqueries(items_nodes, group)  # type: ignore[attr-defined]
        scalars: list[tuple[int, int]] = []
        for sq in scalar_nodes:
            if isinstance(sq, exp.Exists):  # an existence join (subqueries.py)
                scope, index = self.exists_column(scope, sq, env)  # type: ignore[attr-defined]
                scalars.append((id(sq), index))
                continue
            if isinstance(sq, exp.In):  # an IN inside an OR (subqueries.py)
                scope, index = self.in_column(scope, sq, env)  # type: ignore[attr-defined]
                scalars.append((id(sq), index))
                continue
            scope, index = self.cross_join_scalar(scope, sq, env)
            scalars.append((id(sq), index))
        ctx = _Ctx(scope, "WHERE", env.outers, scalars=tuple(scalars))
        if where is not None:
            scope = self.where(scope, where.this, env, ctx)
            ctx = replace(ctx, scope=scope)
        if is_agg:
            if sel.args.get("qualify") is not None:
                raise self.unsupported("QUALIFY in an aggregate query", sel.args["qualify"])
            return self.aggregate_select(sel, scope, ctx, env)
        out = _Output(
            [],
            allow_hidden=distinct is None,
            why_not="with SELECT DISTINCT, ORDER BY may only use the selected columns",
        )
        aliases: list[tuple[str, _E]] = []
        calls = WindowCalls()
        hook = self.window_hook(calls, self.named_windows(sel), self.lateral_alias_hook(aliases))  # type: ignore[attr-defined]
        sel_ctx = replace(ctx, clause="SELECT", hook=hook)
        for n in items_nodes:
            items = self.select_item(n, sel_ctx, None)
            out.items.extend(items)
            if isinstance(n, exp.Alias):
                aliases.append((n.alias, items[0]))
        qualify = self.qualify(sel, calls, aliases, sel_ctx)  # type: ignore[attr-defined]
        return self.finish_select(sel, scope.rel, out, distinct is not None, ctx, None, calls, qualify)

    def finish_select(
        self,
        sel: exp.Select,
        source: R.Rel,
        out: _Output,
        distinct: bool,
        base_ctx: _Ctx,
        agg: _Aggregation | None,
        calls: WindowCalls | None = None,
        qualify: R.Expr | None = None,
    ) -> R.Rel:
        """Window functions, QUALIFY, Project, DISTINCT, ORDER BY (with hidden columns when it needs
        some), LIMIT."""
        keys = self.sort_keys(sel.args.get("order"), out, base_ctx, agg) if sel.args.get("order") else None
        loc = self.loc(sel)
        exprs = [e.expr for e in out.items + out.hidden]
        names = [e.name for e in out.items + out.hidden]
        if calls is not None:
            source, placed = calls.place(source, [*exprs, *([qualify] if qualify is not None else [])], loc)
            exprs = placed[: len(exprs)]
            if qualify is not None:
                source = build.filter_(source, placed[-1], loc=self.loc(sel.args["qualify"]))
        rel: R.Rel
        if not out.hidden and _identity(source, exprs, names):
            rel = source
        else:
            rel = build.project(source, exprs, names, loc=loc)
        if distinct:
            rel = build.distinct(rel, loc=loc)
        if keys is not None:
            rel = build.sort(rel, keys, loc=self.loc(sel.args["order"]))
            if out.hidden:
                n = len(out.items)
                rel = build.project(rel, build.columns_of(rel)[:n], names[:n], loc=loc)
        return self.limit(sel, rel)

    def limit(self, node: exp.Expression, rel: R.Rel) -> R.Rel:
        lim = node.args.get("limit")
        if lim is None:
            return rel
        value = lim.expression if lim.expression is not None else lim.this
        v = _unparen(value) if value is not None else None
        if isinstance(v, exp.Literal) and not v.is_string and re.fullmatch(r"\d+", v.this):
            return build.limit(rel, int(v.this), loc=self.loc(lim))
        raise self.unsupported("a LIMIT that is not an integer literal", lim)

    def select_item(self, node: exp.Expression, ctx: _Ctx, agg: _Aggregation | None) -> list[_E]:
        """One SELECT item: ``*`` and ``t.*`` expand to columns; otherwise one named expression."""
        if isinstance(node, exp.Star) or (isinstance(node, exp.Column) and isinstance(node.this, exp.Star)):
            star = node if isinstance(node, exp.Star) else node.this
            if any(star.args.get(k) for k in ("replace", "rename", "ilike")):
                raise self.unsupported("* REPLACE/RENAME/ILIKE", node)
            cols = self.star_columns(node, ctx.scope)
            if star.args.get("except_"):
                cols = star_except.remaining(star.args["except_"], cols, self.loc)
            out = []
            for c in cols:
                e = _E(ctx.scope.col(c, ctx.offset, self.loc(node)), c.name)
                if agg is not None:
                    ref = agg.key_ref(e.expr, self.loc(node))
                    if ref is None:
                        raise self.missing_aggregation(c.name, node, agg)
                    e = _E(ref, c.name)
                out.append(e)
            return out
        if isinstance(node, exp.Alias):
            if node.args.get("alias") is None:
                raise self.unsupported("an alias list", node)
            e = self.expr(node.this, ctx)
            return [_E(e.expr, node.alias)]
        e = self.expr(node, ctx)
        inner = _unparen(node)
        if (
            isinstance(inner, exp.Cast | exp.TryCast)
            and not self.literal_cast(inner)
            and not (inner.meta and "start" in inner.meta)  # a call sqlglot reads as a cast: to_timestamp(s)
            and isinstance(_unparen(inner.this), exp.Column)
        ):
            # Spark names a top-level cast of a column after the column (ResolveAliases)
            return [_E(e.expr, _unparen(inner.this).name)]
        return [e]

    def star_columns(self, node: exp.Expression, scope: _Scope) -> tuple[_Col, ...]:
        if isinstance(node, exp.Star):
            return scope.star
        qual = node.table.lower()
        if node.args.get("db") is not None:
            raise self.unsupported("a three-part name", node)
        cols = tuple(c for q, cs in scope.tables if q == qual for c in cs)
        if not cols:
            known = ", ".join(sorted({q for q, _ in scope.tables})) or "none"
            raise AnalysisError(
                f"cannot resolve {node.table}.* (tables and aliases here: {known})", self.loc(node)
            )
        return cols

    def lateral_alias_hook(self, aliases: list[tuple[str, _E]], unsupported: bool = False) -> Hook:
        """Spark resolves a SELECT item's unknown name to an alias defined earlier in the same list
        (a "lateral column alias", named ``lateralAliasReference(x)``); ``aliases`` grows as the list
        is read. In an aggregate query such a reference is not supported."""

        def hook(node: exp.Expression, ctx: _Ctx) -> _E | None:
            if not isinstance(node, exp.Column) or node.table or isinstance(node.this, exp.Star):
                return None
            if self.lookup(ctx.scope, "", node.name):
                return None
            for alias, item in aliases:
                if alias.lower() == node.name.lower():
                    if unsupported:
                        raise self.unsupported(
                            "a lateral column alias in an aggregate query",
                            node,
                            f"{node.name} is defined earlier in the same SELECT list",
                        )
                    return _E(item.expr, f"lateralAliasReference({node.name})")
            return None

        return hook

    # ---- aggregate queries ----------------------------------------------------------------------

    def aggregate_select(self, sel: exp.Select, scope: _Scope, ctx: _Ctx, env: _Env) -> R.Rel:
        group = sel.args.get("group")
        having = sel.args.get("having")
        items_nodes = list(sel.expressions)
        from_ctx = replace(ctx, clause="GROUP BY")
        keys: list[_E] = []
        sets = None
        if group is not None:
            self.check_no_args(group, ("expressions", "rollup", "cube", "all", "grouping_sets"), "GROUP BY")
            if group.args.get("all"):
                keys = self.group_by_all(items_nodes, from_ctx)
            else:
                keys, sets = grouping_analytics(
                    group,
                    lambda g: self.group_key(g, items_nodes, from_ctx),
                    lambda a, b: a.expr == b.expr,
                    self.unsupported,
                    self.loc,
                )
        only_empty_set = sets == []
        if only_empty_set:
            sets = None
        agg = _Aggregation(keys, sets)
        agg.only_empty_set = only_empty_set
        global_agg = group is None or (group.args.get("all") and not keys) or only_empty_set
        agg_hook = self.aggregate_hook(agg, from_ctx, global_agg)
        aliases: list[tuple[str, _E]] = []
        lca = self.lateral_alias_hook(aliases, unsupported=True)

        def sel_hook(node: exp.Expression, c: _Ctx) -> _E | None:
            return lca(node, c) or agg_hook(node, c)

        calls = WindowCalls()
        win_hook = self.window_hook(calls, self.named_windows(sel), sel_hook)  # type: ignore[attr-defined]
        sel_ctx = replace(ctx, clause="SELECT", hook=win_hook)
        out = _Output(
            [],
            allow_hidden=sel.args.get("distinct") is None,
            why_not="with SELECT DISTINCT, ORDER BY may only use the selected columns",
        )
        for n in items_nodes:
            items = self.select_item(n, sel_ctx, agg)
            out.items.extend(items)
            if isinstance(n, exp.Alias):
                aliases.append((n.alias, items[0]))
        pred = None
        if having is not None:
            aliases = {}
            for n, it in zip(items_nodes, out.items, strict=False):
                if isinstance(n, exp.Alias):
                    aliases.setdefault(n.alias.lower(), it)
            base = self.aggregate_hook(agg, from_ctx, global_agg)

            def having_hook(node: exp.Expression, c: _Ctx) -> _E | None:
                if isinstance(node, exp.Column) and not node.table and node.name.lower() in aliases:
                    return aliases[node.name.lower()]
                return base(node, c)

            having_scalars = self.having_scalars(having.this, env, scope)  # type: ignore[attr-defined]
            scalar_hook = self.having_hook_for(having_scalars)  # type: ignore[attr-defined]

            def having_hook2(node: exp.Expression, c: _Ctx) -> _E | None:
                return scalar_hook(node, c) or having_hook(node, c)

            pred = self.expr(having.this, replace(ctx, clause="HAVING", hook=having_hook2))
            self.check_predicate(pred, having.this, "HAVING")
        agg_loc = self.loc(group if group is not None else sel)
        n_keys = len(keys)

        def lift_check(e: _E, node: exp.Expression) -> None:
            if having is not None and any(
                isinstance(x, R.Col) and x.index >= n_keys for x in _cols_of(e.expr)
            ):
                raise AnalysisError(
                    f"ORDER BY {e.name}: Spark cannot sort a query with HAVING by an aggregate "
                    "that is not in its SELECT list",
                    self.loc(node),
                )

        base_ctx = replace(ctx, clause="ORDER BY", hook=self.aggregate_hook(agg, from_ctx, global_agg))
        order = sel.args.get("order")
        keys_sort = self.sort_keys(order, out, base_ctx, agg, lift_check) if order is not None else None
        rel: R.Rel
        if sets is not None:
            key_exprs, key_names = [k.expr for k in keys], [k.name for k in keys]
            rel = lower_grouping_sets(scope.rel, key_exprs, key_names, agg.aggs, agg.agg_names, sets, agg_loc)
        else:
            rel = build.aggregate(
                scope.rel, [k.expr for k in keys], [k.name for k in keys], agg.aggs, agg.agg_names,  # type: ignore[arg-type]
                loc=agg_loc,
            )
        if pred is not None:
            cond = pred.expr
            if having_scalars:  # joined after the aggregation, read by HAVING (subqueries.py)
                rel, cond = self.join_scalars(rel, cond, having_scalars, self.loc(having))  # type: ignore[attr-defined]
            rel = build.filter_(rel, cond, loc=self.loc(having))
        loc = self.loc(sel)
        exprs = [e.expr for e in out.items + out.hidden]
        names = [e.name for e in out.items + out.hidden]
        rel, exprs = calls.place(rel, exprs, loc)
        rel = build.project(rel, exprs, names, loc=loc)
        if sel.args.get("distinct") is not None:
            rel = build.distinct(rel, loc=loc)
        if keys_sort is not None:
            rel = build.sort(rel, keys_sort, loc=self.loc(order))
            if out.hidden:
                n = len(out.items)
                rel = build.project(rel, build.columns_of(rel)[:n], names[:n], loc=loc)
        return self.limit(sel, rel)

    def group_key(self, g: exp.Expression, items_nodes: list[exp.Expression], ctx: _Ctx) -> _E:
        if isinstance(g, exp.Literal) and not g.is_string and re.fullmatch(r"\d+", g.this):
            expanded = self.expanded_items(items_nodes, ctx.scope)
            k = int(g.this)
            if not 1 <= k <= len(expanded):
                raise AnalysisError(
                    f"GROUP BY position {k} is not in the select list (1 to {len(expanded)})", self.loc(g)
                )
            target = expanded[k - 1]
            if isinstance(target, _Col):
                return _E(ctx.scope.col(target, ctx.offset, self.loc(g)), target.name)
            node = target.this if isinstance(target, exp.Alias) else target
            if _has_aggregate(self.src, node):
                raise AnalysisError(
                    f"GROUP BY {k} refers to {self.sql(node)}, which contains an aggregate "
                    "function (GROUP_BY_POS_AGGREGATE)",
                    self.loc(g),
                )
            return self.expr(node, ctx)
        if (
            isinstance(g, exp.Column)
            and not g.table
            and not isinstance(g.this, exp.Star)
            and not self.lookup(ctx.scope, "", g.name)
        ):
            for n in items_nodes:
                if isinstance(n, exp.Alias) and n.alias.lower() == g.name.lower():
                    if _has_aggregate(self.src, n.this):
                        raise AnalysisError(
                            f"GROUP BY {g.name} refers to an aggregate (GROUP_BY_AGGREGATE)", self.loc(g)
                        )
                    return self.expr(n.this, ctx)
        if _has_aggregate(self.src, g):
            raise AnalysisError(
                f"aggregate function in GROUP BY: {self.sql(g)} (GROUP_BY_AGGREGATE)", self.loc(g)
            )
        return self.expr(g, ctx)

    def group_by_all(self, items_nodes: list[exp.Expression], ctx: _Ctx) -> list[_E]:
        """``GROUP BY ALL``: the SELECT items that contain no aggregate function, in order (none: a global
        aggregation)."""
        keys: list[_E] = []
        for target in self.expanded_items(items_nodes, ctx.scope):
            if isinstance(target, _Col):
                keys.append(_E(ctx.scope.col(target, ctx.offset, None), target.name))
                continue
            node = target.this if isinstance(target, exp.Alias) else target
            if _has_aggregate(self.src, node):
                continue
            if not _has_column(node):
                # whether Spark groups by a constant item (no row on an empty input) is not checked
                raise self.unsupported("GROUP BY ALL with a constant SELECT item", node)
            keys.append(self.expr(node, ctx))
        return keys

    def grouping_call(
        self, node: exp.Grouping | exp.GroupingId, agg: _Aggregation, from_ctx: _Ctx
    ) -> tuple[GroupingCall, str]:
        """``grouping(k)``/``grouping_id(k, ...)``: the keys must be grouping expressions of a query with
        grouping sets (``grouping_id()`` is all of them; with arguments, Spark wants exactly the GROUP BY
        list)."""
        called = "grouping" if isinstance(node, exp.Grouping) else "grouping_id"
        if agg.only_empty_set:
            raise self.unsupported(f"{called}() with GROUPING SETS (())", node)
        if agg.sets is None:
            raise AnalysisError(
                f"{called}() can only be used with GROUPING SETS, ROLLUP or CUBE "
                "(UNSUPPORTED_GROUPING_EXPRESSION)",
                self.loc(node),
            )
        args = [self.expr(a, replace(from_ctx, hook=None)) for a in node.expressions]
        indices: list[int] = []
        for a, n in zip(args, node.expressions, strict=True):
            ref = agg.key_ref(a.expr, None)
            if ref is None:
                raise AnalysisError(
                    f"{called}: {a.name} is not one of the grouping columns (GROUPING_COLUMN_MISMATCH)",
                    self.loc(n),
                )
            indices.append(ref.index)
        n_keys = len(agg.keys)
        if called == "grouping":
            if len(indices) != 1:
                raise AnalysisError("grouping() takes exactly one argument", self.loc(node))
        elif not indices:
            indices = list(range(n_keys))
        elif indices != list(range(n_keys)):
            raise AnalysisError(
                "grouping_id's columns must be the grouping columns, in order (GROUPING_ID_COLUMN_MISMATCH)",
                self.loc(node),
            )
        name = f"{called}({', '.join(a.name for a in args)})"
        return GroupingCall(called, tuple(indices), n_keys), name

    def expanded_items(self, items_nodes: list[exp.Expression], scope: _Scope) -> list[_Col | exp.Expression]:
        out: list[_Col | exp.Expression] = []
        for n in items_nodes:
            if isinstance(n, exp.Star) or (isinstance(n, exp.Column) and isinstance(n.this, exp.Star)):
                out.extend(self.star_columns(n, scope))
            else:
                out.append(n)
        return out

    def aggregate_hook(self, agg: _Aggregation, from_ctx: _Ctx, global_agg: bool) -> Hook:
        """Inside an aggregate query, an aggregate call reads the group's rows (its arguments in the FROM
        scope) and any other column must be a grouping expression (matched as Spark matches them: the
        same expression)."""

        def hook(node: exp.Expression, ctx: _Ctx) -> _E | None:
            if isinstance(node, exp.Window):
                return None
            if isinstance(node, exp.Grouping | exp.GroupingId):
                call, name = self.grouping_call(node, agg, from_ctx)
                return _E(agg.ref(call, name, self.loc(node)), name)
            if _is_aggregate(self.src, node):
                call, name = self.aggregate_call(node, from_ctx)
                return _E(agg.ref(call, name, self.loc(node)), name)
            if not _has_column(node) or _has_aggregate(self.src, node):
                return None
            if isinstance(node, exp.Column) and isinstance(node.this, exp.Star):
                return None
            try:
                e = self.expr(node, replace(from_ctx, clause=ctx.clause))
            except InputError:
                if isinstance(node, exp.Column):
                    raise
                return None  # e.g. a HAVING alias inside: matched further down
            ref = agg.key_ref(e.expr, self.loc(node))
            if ref is not None:
                return _E(ref, e.name)
            if isinstance(node, exp.Column):
                raise self.missing_aggregation(node.name, node, agg, global_agg)
            return None

        return hook

    def missing_aggregation(
        self, name: str, node: exp.Expression, agg: _Aggregation, global_agg: bool = False
    ) -> AnalysisError:
        if global_agg or not agg.keys:
            return AnalysisError(
                f"column {name!r} is read outside an aggregate function in a query without GROUP BY "
                "(MISSING_GROUP_BY: add it to a GROUP BY or aggregate it)",
                self.loc(node),
            )
        return AnalysisError(
            f"column {name!r} is neither grouped nor aggregated (MISSING_AGGREGATION; grouping "
            f"expressions: {', '.join(k.name for k in agg.keys)})",
            self.loc(node),
        )

    def aggregate_call(self, node: exp.Expression, ctx: _Ctx) -> tuple[R.AggCall, str]:
        """``sum``/``count``/``min``/``max``/``avg``/``mean``/``try_sum``, with DISTINCT and FILTER; the
        arguments read the group's rows. A FILTER is a CASE on each argument (the call then skips the
        rows it turns to NULL, as every one of these aggregates skips NULLs)."""
        loc = self.loc(node)
        filt = None
        if isinstance(node, exp.Filter):
            filt = node.expression.this if isinstance(node.expression, exp.Where) else node.expression
            node = node.this
        called = _called_name(self.src, node)
        arg_ctx = replace(ctx, hook=None, in_aggregate=True, clause=f"the arguments of {called}")
        if filt is None and called in ("collect_list", "collect_set"):  # frontend/sql/nested.py
            return collect_call(self, node, called, arg_ctx, loc)
        distinct = False
        star = False
        args_nodes: list[exp.Expression]
        if isinstance(node, exp.Count | exp.Sum | exp.Min | exp.Max | exp.Avg | _MOMENT_NODES) or (
            isinstance(node, exp.Anonymous) and called in _AGGREGATES
        ):
            first = node.this if not isinstance(node, exp.Anonymous) else None
            if isinstance(first, exp.Distinct):
                distinct = True
                args_nodes = list(first.expressions)
            elif isinstance(first, exp.Star):
                star = True
                args_nodes = []
            elif isinstance(node, exp.Anonymous):
                args_nodes = list(node.expressions)
            else:
                args_nodes = [first] if first is not None else []
                args_nodes += list(node.expressions) if node.args.get("expressions") else []
        else:
            raise self.unsupported(
                f"aggregate function {called}",
                node,
                "supported: count, sum, min, max, avg/mean, try_sum (with DISTINCT and FILTER), "
                "stddev/std/stddev_samp, stddev_pop, variance/var_samp, var_pop",
            )
        if called == "mean":
            kernel = "avg"
        else:
            kernel = _MOMENT_NAMES.get(called, called)
        if distinct and kernel in _MOMENT_NAMES.values():
            raise self.unsupported(f"{called}(DISTINCT ...)", node)
        if kernel not in ("count", "sum", "min", "max", "avg", "try_sum", *_MOMENT_NAMES.values()):
            raise self.unsupported(f"aggregate function {called}", node)
        args = [self.expr(a, arg_ctx) for a in args_nodes]
        cond = self.expr(filt, replace(arg_ctx, clause="FILTER")) if filt is not None else None
        if cond is not None:
            self.check_predicate(cond, filt, "FILTER")
        arg_names = ", ".join(a.name for a in args)
        name = f"{called}({'DISTINCT ' if distinct else ''}{'1' if star else arg_names})"
        if cond is not None:
            name += f" FILTER (WHERE {cond.name})"
        kargs = [a.expr for a in args]
        if star and cond is not None:
            kernel_name: R.AggName = "count"
            kargs = [build.lit(1, loc)]
        elif star:
            kernel_name = "count_star"
        elif distinct and kernel == "count":
            kernel_name = "count_distinct"
        elif distinct and kernel == "sum":
            kernel_name = "sum_distinct"
        elif distinct and kernel in ("min", "max"):
            kernel_name = kernel  # type: ignore[assignment]  # DISTINCT changes nothing for them
        elif distinct:
            raise self.unsupported(f"{called}(DISTINCT ...)", node)
        else:
            kernel_name = kernel  # type: ignore[assignment]
        if kernel_name == "count" and not kargs:
            raise AnalysisError("count needs an argument", loc)
        if cond is not None:
            kargs = [build.case([(cond.expr, a)], None, loc=loc) for a in kargs]
        return build.agg(kernel_name, kargs, loc=loc), name

    # ---- ORDER BY -------------------------------------------------------------------------------

    def sort_keys(
        self,
        order: exp.Order,
        out: _Output,
        base_ctx: _Ctx,
        agg: _Aggregation | None,
        lift_check: Callable[[_E, exp.Expression], None] | None = None,
    ) -> list[R.SortKey]:
        """ORDER BY over a SELECT list: an ordinal or an output name is that column; anything else is
        resolved in the FROM scope (or as a grouping expression or aggregate) and becomes a hidden column
        of the projection when it is not one of the selected expressions."""
        self.check_no_args(order, ("expressions",), "ORDER BY")
        from_hook = base_ctx.hook

        def hook(node: exp.Expression, ctx: _Ctx) -> _E | None:
            if isinstance(node, exp.Column) and not node.table and not isinstance(node.this, exp.Star):
                hits = [i for i, it in enumerate(out.items) if it.name.lower() == node.name.lower()]
                if any(out.items[i].expr != out.items[hits[0]].expr for i in hits):
                    raise AnalysisError(
                        f"ORDER BY {node.name} is ambiguous: several selected columns have that "
                        "name (AMBIGUOUS_REFERENCE)",
                        self.loc(node),
                    )
                if hits:
                    it = out.items[hits[0]]
                    return _E(
                        R.Col(hits[0], it.name, it.expr.type, it.expr.nullable, loc=self.loc(node)), node.name
                    )
            lifted: _E | None
            if from_hook is not None:
                lifted = from_hook(node, replace(ctx, hook=from_hook))
                if lifted is None:
                    return None
            else:
                if not _has_column(node):
                    return None
                plain = replace(ctx, hook=None)
                if isinstance(node, exp.Column):
                    lifted = self.expr(node, plain)
                else:
                    try:
                        e = self.expr(node, plain)
                    except InputError:
                        return None  # e.g. an output alias inside: resolved further down
                    if not any(it.expr == e.expr for it in out.items):
                        return None
                    lifted = e
            if lift_check is not None:
                lift_check(lifted, node)
            return out.lift(lifted, self.loc(node))

        ctx = replace(base_ctx, hook=hook, clause="ORDER BY")
        keys = []
        for o in order.expressions:
            node = o.this if isinstance(o, exp.Ordered) else o
            e = self.ordinal_or_expr(node, out, ctx)
            desc = bool(o.args.get("desc")) if isinstance(o, exp.Ordered) else False
            nf = o.args.get("nulls_first") if isinstance(o, exp.Ordered) else None
            keys.append(replace(build.sort_key(e.expr, not desc, nf), loc=self.loc(o)))
        return keys

    def ordinal_or_expr(self, node: exp.Expression, out: _Output, ctx: _Ctx) -> _E:
        if isinstance(node, exp.Literal) and not node.is_string and re.fullmatch(r"\d+", node.this):
            k = int(node.this)
            if not 1 <= k <= len(out.items):
                raise AnalysisError(
                    f"ORDER BY position {k} is not in the select list (1 to {len(out.items)})", self.loc(node)
                )
            it = out.items[k - 1]
            return _E(R.Col(k - 1, it.name, it.expr.type, it.expr.nullable, loc=self.loc(node)), it.name)
        return self.expr(node, ctx)

    def order_limit_output(self, node: exp.Expression, rel: R.Rel, env: _Env) -> R.Rel:
        """ORDER BY and LIMIT after a set operation or a parenthesised query: over its output columns."""
        order = node.args.get("order")
        if order is not None:
            scope = _scope_of(rel, None)
            out = _Output(
                list(_E(c, c.name) for c in build.columns_of(rel)),
                allow_hidden=False,
                why_not="after a set operation, ORDER BY may only use the result's columns",
            )
            ctx = _Ctx(scope, "ORDER BY", env.outers)
            keys = self.sort_keys(order, out, ctx, None)
            rel = build.sort(rel, keys, loc=self.loc(order))
        return self.limit(node, rel)

    # ---- set operations -------------------------------------------------------------------------

    def set_op(self, node: exp.SetOperation, env: _Env) -> R.Rel:
        self.check_no_args(
            node, ("this", "expression", "distinct", "with_", "order", "limit"), "set operation"
        )
        kind: R.SetKind = (
            "union"
            if isinstance(node, exp.Union)
            else "intersect"
            if isinstance(node, exp.Intersect)
            else "except"
        )
        left = self.query(node.this, env)
        right = self.query(node.expression, env)
        return build.set_op(kind, not node.args.get("distinct", True), left, right, loc=self.loc(node))
