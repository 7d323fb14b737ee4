"""Scalar subqueries beyond the uncorrelated one-row case: correlated ones, ones in HAVING, and ones
that may return several rows.

A mixin of ``translator._Translator``. Each is a join, as Spark's optimiser plans it
(``RewriteCorrelatedScalarSubquery``), with the value read where the subquery stood:

- **correlated** ``(SELECT agg(..) FROM .. WHERE inner = outer AND ..)``: the subquery grouped by its
  inner correlation expressions, left-joined on ``outer = inner``; an outer row without a group reads
  NULL. That is Spark's value only when the SELECT item is NULL on an empty input (``sum``, ``avg``,
  ``min``, ``max`` under arithmetic and casts), so only such items are accepted (``count`` would be 0:
  Spark's "count bug" handling; refused here). The correlated conditions must be equalities between an
  expression of the subquery and one of the enclosing query; other correlated conditions are refused.
- **in HAVING** (uncorrelated): joined to the aggregation's output, read by the HAVING condition.
- **several rows possible** (``(SELECT x FROM t)``): Spark raises ``SCALAR_SUBQUERY_TOO_MANY_ROWS``
  when it returns more than one row, and gives NULL for none. The subquery is aggregated to its row
  count and ``max(x)`` (its one value when there is one row), and the value read is
  ``CASE WHEN count > 1 THEN scalar_subquery_too_many_rows() ELSE max END``, an error value that raises
  where demanded.
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from sqlglot import exp

from frontend.sql import scopes as S
from sparklite.errors import NameResolutionError
from sparklite.relational import ast as R
from sparklite.relational import build
from sparklite.relational.build import AnalysisError

#: where a HAVING condition reads a scalar subquery before the aggregation's width is known
_PLACEHOLDER = 1 << 40

#: aggregates that are NULL over no rows (a correlated subquery without a matching group reads NULL)
_NULL_ON_EMPTY = (exp.Sum, exp.Avg, exp.Min, exp.Max)


def _null_on_empty(node: exp.Expression) -> bool:
    """Whether a SELECT item is NULL when its aggregates see no row: aggregates that are, combined by
    arithmetic, negation and casts (each NULL on a NULL operand), with literals."""
    node = S._unparen(node)
    if isinstance(node, exp.Alias):
        return _null_on_empty(node.this)
    if isinstance(node, _NULL_ON_EMPTY):
        return True
    if isinstance(node, exp.Add | exp.Sub | exp.Mul | exp.Div):
        sides = (node.this, node.expression)
        return any(_null_on_empty(s) for s in sides) and all(
            _null_on_empty(s) or isinstance(S._unparen(s), exp.Literal) for s in sides
        )
    if isinstance(node, exp.Neg | exp.Cast):
        return _null_on_empty(node.this)
    return False


def _bare_count(node: exp.Expression) -> bool:
    """A SELECT item that is one ``count(...)`` (aliased or not): 0 on no rows, never NULL on a group."""
    node = S._unparen(node)
    if isinstance(node, exp.Alias):
        node = S._unparen(node.this)
    return isinstance(node, exp.Count)


def _factor_or(node: exp.Expression) -> tuple[list[exp.Expression], exp.Expression | None] | None:
    """``(a AND b) OR (a AND c)`` as ``([a], b OR c)``: the conjuncts every disjunct shares, and the OR of
    what is left of each (``None`` when a disjunct has nothing left: the OR is then true whenever the
    shared conjuncts are). Distributivity holds in SQL's three-valued logic, so the WHERE keeps the same
    rows; TPC-DS q41 correlates its count subquery this way. ``None`` when nothing is shared."""
    node = S._unparen(node)
    if not isinstance(node, exp.Or):
        return None
    disjuncts: list[exp.Expression] = []
    stack: list[exp.Expression] = [node]
    while stack:
        n = S._unparen(stack.pop())
        if isinstance(n, exp.Or):
            stack += [n.expression, n.this]
        else:
            disjuncts.append(n)
    parts = [S._conjuncts(d) for d in disjuncts]
    common = [c for c in parts[0] if all(any(c == o for o in p) for p in parts[1:])]
    if not common:
        return None
    rests = [[c for c in p if not any(c == k for k in common)] for p in parts]
    if any(not r for r in rests):
        return common, None
    ors: exp.Expression | None = None
    for r in rests:
        conj: exp.Expression = r[0]
        for c in r[1:]:
            conj = exp.And(this=conj, expression=c)
        conj = exp.Paren(this=conj)
        ors = conj if ors is None else exp.Or(this=ors, expression=conj)
    return common, ors


def remap_cols(e: Any, index: dict[int, int]) -> Any:
    """``e`` with every column whose index is a key of ``index`` reading that entry instead."""
    if isinstance(e, R.Col):
        return replace(e, index=index[e.index]) if e.index in index else e
    if isinstance(e, tuple):
        return tuple(remap_cols(x, index) for x in e)
    if isinstance(e, R.RNode) and not isinstance(e, R.Rel):
        changes = {f.name: remap_cols(getattr(e, f.name), index) for f in fields(e)}
        return replace(e, **changes)
    return e


def correlated_name(pairs: list[tuple[exp.Expression, exp.Expression]]) -> str:
    """The column name Spark gives an unaliased correlated scalar subquery: ``scalarsubquery(a, b)``,
    the outer columns it reads (checked on Spark 4, docs/semantics-notes.md)."""
    names: list[str] = []
    for _inner, outer in pairs:
        for c in outer.find_all(exp.Column):
            if c.name not in names:
                names.append(c.name)
    return f"scalarsubquery({', '.join(names)})"


class SubqueriesMixin:
    """Correlated, HAVING and possibly multi-row scalar subqueries."""

    # ---- correlated -----------------------------------------------------------------------------

    def correlated_scalar(self, scope: S._Scope, node: exp.Subquery, env: S._Env) -> tuple[S._Scope, int]:
        sub = node.this
        if not isinstance(sub, exp.Select):
            raise self.unsupported("a correlated set-operation subquery", node)  # type: ignore[attr-defined]
        for key, what in (("group", "GROUP BY"), ("having", "HAVING"), ("limit", "LIMIT"), ("with_", "WITH"),
                          ("offset", "OFFSET"), ("order", "ORDER BY"), ("distinct", "DISTINCT")):
            if sub.args.get(key) is not None:
                raise self.unsupported(  # type: ignore[attr-defined]
                    f"{what} in a correlated scalar subquery", sub.args[key])
        if sub.args.get("from_") is None or len(sub.expressions) != 1:
            raise self.unsupported("this correlated scalar subquery", node,  # type: ignore[attr-defined]
                                   "one aggregate over a FROM clause is supported")
        item = sub.expressions[0]
        counted = _bare_count(item)
        if not S._has_aggregate(self.src, item) or not (_null_on_empty(item) or counted):  # type: ignore[attr-defined]
            raise self.unsupported(  # type: ignore[attr-defined]
                "a correlated scalar subquery whose value is not NULL on no rows", item,
                "supported: sum/avg/min/max under arithmetic and casts, or a bare count",
            )
        local, pairs = self.split_correlated(scope, sub, env, node)
        if not pairs:  # pragma: no cover - the caller saw an outer reference
            raise self.unsupported("a correlated reference outside WHERE", node)  # type: ignore[attr-defined]
        self.scalar_names[id(node)] = correlated_name(pairs)  # type: ignore[attr-defined]
        # the subquery grouped by its correlation expressions:
        # SELECT k.., item FROM .. WHERE local GROUP BY k..
        grouped = sub.copy()
        grouped.set("expressions", [p[0].copy() for p in pairs] + [item.copy()])
        grouped.set("group", exp.Group(expressions=[p[0].copy() for p in pairs]))
        grouped.set("where", self.where_of(local))
        try:
            rel = self.query(grouped, S._Env(env.ctes, (scope,) + env.outers))  # type: ignore[attr-defined]
        except S._OuterReference:
            raise self.unsupported("a correlated reference outside the subquery's WHERE equalities",  # type: ignore[attr-defined]
                                   node) from None
        joined = self.join_on_pairs(scope, rel, pairs, env, node)
        index = len(scope.rel.schema) + len(pairs)
        if counted:
            # Spark's answer to the "count bug": an outer row without a matching group reads the count
            # of no rows, 0 (a matching group's count is never NULL), so the column is coalesced to 0
            cols = build.columns_of(joined.rel)
            loc = self.loc(item)  # type: ignore[attr-defined]
            filled = build.func("coalesce", [cols[index], build.lit(0, loc)], loc=loc)
            names = [f.name for f in joined.rel.schema.fields] + [joined.rel.schema.fields[index].name]
            joined = replace(joined, rel=build.project(joined.rel, [*cols, filled], names, loc=loc))
            index = len(cols)
        return joined, index

    def split_correlated(
        self, scope: S._Scope, sub: exp.Select, env: S._Env, node: exp.Expression
    ) -> tuple[list[exp.Expression], list[tuple[exp.Expression, exp.Expression]]]:
        """A subquery's WHERE conjuncts: those reading only its own FROM, and the correlated ones as
        (inner side, outer side) of ``inner = outer`` equalities (anything else correlated: refused)."""
        sub_env = S._Env(env.ctes, (scope,) + env.outers)
        try:
            inner = self.from_clause(sub, sub_env)  # type: ignore[attr-defined]
        except S._OuterReference:
            raise self.unsupported("a correlated reference in a subquery's FROM", sub) from None  # type: ignore[attr-defined]
        inner_ctx = S._Ctx(inner, "WHERE", sub_env.outers)
        outer_ctx = S._Ctx(scope, "WHERE", env.outers)
        local: list[exp.Expression] = []
        pairs: list[tuple[exp.Expression, exp.Expression]] = []
        where = sub.args.get("where")
        for c in S._conjuncts(where.this) if where is not None else []:
            if S._subquery_predicate(c):
                local.append(c)
                continue
            try:
                self.expr(c, inner_ctx)  # type: ignore[attr-defined]
                local.append(c)
                continue
            except S._OuterReference:
                pass
            factored = _factor_or(c)
            if factored is None:
                pairs.append(self.correlation_pair(c, inner_ctx, outer_ctx))
                continue
            common, rest = factored
            for f in common:
                try:
                    self.expr(f, inner_ctx)  # type: ignore[attr-defined]
                    local.append(f)
                except S._OuterReference:
                    pairs.append(self.correlation_pair(f, inner_ctx, outer_ctx))
            if rest is not None:
                try:
                    self.expr(rest, inner_ctx)  # type: ignore[attr-defined]
                except S._OuterReference:
                    raise self.unsupported(  # type: ignore[attr-defined]
                        "a correlated condition other than inner = outer in a scalar subquery", c,
                        "supported: AND-ed equalities between the subquery's columns and the enclosing "
                        "query's",
                    ) from None
                local.append(rest)
        return local, pairs

    @staticmethod
    def where_of(conjuncts: list[exp.Expression]) -> exp.Where | None:
        cond: exp.Expression | None = None
        for c in conjuncts:
            cond = c.copy() if cond is None else exp.And(this=cond, expression=c.copy())
        return exp.Where(this=cond) if cond is not None else None

    def join_on_pairs(self, scope: S._Scope, rel: R.Rel, pairs: list[tuple[exp.Expression, exp.Expression]],
                      env: S._Env, node: exp.Expression) -> S._Scope:
        """``scope`` left-joined with ``rel`` (whose first columns are the pairs' inner sides) on
        ``outer = inner`` for every pair."""
        outer_ctx = S._Ctx(scope, "WHERE", env.outers)
        width = len(scope.rel.schema)
        loc = self.loc(node)  # type: ignore[attr-defined]
        cond: R.Expr | None = None
        for i, (_inner, outer) in enumerate(pairs):
            o = self.expr(outer, outer_ctx)  # type: ignore[attr-defined]
            k = S._shift(build.columns_of(rel)[i], width)
            eq = build.compare("=", o.expr, k, loc=loc)
            cond = eq if cond is None else build.and_(cond, eq, loc=loc)
        return replace(scope, rel=build.join("left", scope.rel, rel, cond, loc=loc))

    def correlation_pair(
        self, c: exp.Expression, inner_ctx: S._Ctx, outer_ctx: S._Ctx
    ) -> tuple[exp.Expression, exp.Expression]:
        """(inner side, outer side) of a correlated condition ``inner = outer``; anything else is refused."""
        c = S._unparen(c)
        if isinstance(c, exp.EQ):
            for a, b in ((c.this, c.expression), (c.expression, c.this)):
                if any(isinstance(n, exp.Subquery) for n in S._walk_here(c)):
                    break
                try:
                    self.expr(a, inner_ctx)  # type: ignore[attr-defined]
                    self.expr(b, outer_ctx)  # type: ignore[attr-defined]
                except (S._OuterReference, NameResolutionError):
                    continue
                return a, b
        raise self.unsupported(  # type: ignore[attr-defined]
            "a correlated condition other than inner = outer in a scalar subquery", c,
            "supported: AND-ed equalities between the subquery's columns and the enclosing query's",
        )

    # ---- EXISTS inside a condition --------------------------------------------------------------

    @staticmethod
    def nested_exists(node: exp.Expression) -> list[exp.Exists]:
        """The ``EXISTS`` subqueries of a WHERE condition that is not itself one (``a OR EXISTS(..)``)."""
        return [c for n in S._walk_here(node) for c in n.iter_expressions() if isinstance(c, exp.Exists)]

    def exists_column(self, scope: S._Scope, node: exp.Exists, env: S._Env) -> tuple[S._Scope, int]:
        """A correlated ``EXISTS`` read inside a condition (Spark's existence join): the distinct
        values of the subquery's correlation expressions, left-joined on ``outer = inner``; the
        subquery has a row for the outer row exactly when the first joined column is not NULL (an
        equality holds only between non-NULL values). Returns the scope and that column."""
        sub = node.this
        if not isinstance(sub, exp.Select) or sub.args.get("from_") is None:
            raise self.unsupported("this EXISTS subquery inside a condition", node)  # type: ignore[attr-defined]
        for key, what in (("group", "GROUP BY"), ("having", "HAVING"), ("limit", "LIMIT"), ("with_", "WITH"),
                          ("offset", "OFFSET")):
            if sub.args.get(key) is not None:
                raise self.unsupported(f"{what} in an EXISTS subquery inside a condition",  # type: ignore[attr-defined]
                                       sub.args[key])
        sub_env = S._Env(env.ctes, (scope,) + env.outers)
        local, pairs = self.split_correlated(scope, sub, env, node)
        if not pairs:
            raise self.unsupported(  # type: ignore[attr-defined]
                "an uncorrelated EXISTS subquery inside a condition", node,
                "supported: one correlated by AND-ed equalities with the enclosing query",
            )
        keys = sub.copy()
        keys.set("expressions", [p[0].copy() for p in pairs])
        keys.set("distinct", exp.Distinct())
        keys.set("order", None)
        keys.set("where", self.where_of(local))
        try:
            rel = self.query(keys, sub_env)  # type: ignore[attr-defined]
        except S._OuterReference:
            raise self.unsupported("a correlated reference outside the subquery's WHERE equalities",  # type: ignore[attr-defined]
                                   node) from None
        return self.join_on_pairs(scope, rel, pairs, env, node), len(scope.rel.schema)

    @staticmethod
    def positive_in_subqueries(node: exp.Expression) -> list[exp.In]:
        """The ``x IN (SELECT ..)`` of a WHERE condition reached through AND and OR only (``a OR x IN
        (..)``): there a NULL and a FALSE of the IN drop the row alike, so the IN may be read as "a row of
        the subquery equals x" (Spark's existence join)."""
        node = S._unparen(node)
        if isinstance(node, exp.And | exp.Or):
            return (SubqueriesMixin.positive_in_subqueries(node.this)
                    + SubqueriesMixin.positive_in_subqueries(node.expression))
        if isinstance(node, exp.In) and node.args.get("query") is not None:
            return [node]
        return []

    def in_column(self, scope: S._Scope, node: exp.In, env: S._Env) -> tuple[S._Scope, int]:
        """An uncorrelated one-column ``x IN (SELECT y ..)`` read inside an OR: ``scope`` left-joined on
        ``x = y`` with the distinct ``y`` (at most one match per row, none when x or y is NULL); the IN
        holds exactly when the joined column is not NULL. Only for ``positive_in_subqueries``."""
        q = node.args["query"]
        sub = q.this if isinstance(q, exp.Subquery) else q
        if isinstance(S._unparen(node.this), exp.Tuple):
            raise self.unsupported("a tuple IN subquery inside a condition", node)  # type: ignore[attr-defined]
        try:
            rel = self.query(sub, S._Env(env.ctes, (scope,) + env.outers))  # type: ignore[attr-defined]
        except S._OuterReference:
            raise self.unsupported("a correlated IN subquery inside a condition", node) from None  # type: ignore[attr-defined]
        loc = self.loc(node)  # type: ignore[attr-defined]
        if len(rel.schema) != 1:
            raise AnalysisError(f"IN compares 1 value with a subquery of {len(rel.schema)} column(s)", loc)
        rel = build.distinct(rel, loc=loc)
        x = self.expr(node.this, S._Ctx(scope, "WHERE", env.outers))  # type: ignore[attr-defined]
        width = len(scope.rel.schema)
        k = S._shift(build.columns_of(rel)[0], width)
        cond = build.compare("=", x.expr, k, loc=loc)
        return replace(scope, rel=build.join("left", scope.rel, rel, cond, loc=loc)), width

    def h_exists_column(self, node: exp.Exists, ctx: S._Ctx) -> S._E | None:
        for sid, index in ctx.scalars:
            if sid == id(node):
                f = ctx.scope.rel.schema.fields[index]
                col = R.Col(index + ctx.offset, f.name, f.type, f.nullable)
                return S._E(build.is_null(col, negated=True, loc=self.loc(node)), "exists()")  # type: ignore[attr-defined]
        return None

    # ---- HAVING ---------------------------------------------------------------------------------

    def having_scalars(self, having: exp.Expression, env: S._Env, outer: S._Scope
                       ) -> list[tuple[exp.Subquery, R.Rel, R.JoinKind]]:
        """The scalar subqueries of a HAVING condition, each as the relation joined to the aggregation
        (uncorrelated ones only)."""
        out = []
        for sq in self.scalar_subqueries(having):  # type: ignore[attr-defined]
            try:
                rel, kind = self.scalar_relation(sq, S._Env(env.ctes, (outer,) + env.outers))  # type: ignore[attr-defined]
            except S._OuterReference:
                raise self.unsupported("a correlated scalar subquery in HAVING", sq) from None  # type: ignore[attr-defined]
            out.append((sq, rel, kind))
        return out

    @staticmethod
    def having_hook_for(scalars: list[tuple[exp.Subquery, R.Rel, R.JoinKind]]):  # noqa: ANN205
        """A hook reading each HAVING scalar subquery as a placeholder column (fixed by ``join_scalars``)."""
        by_id = {id(sq): (j, rel) for j, (sq, rel, _k) in enumerate(scalars)}

        def hook(node: exp.Expression, _c: S._Ctx) -> S._E | None:
            if isinstance(node, exp.Subquery) and id(node) in by_id:
                j, rel = by_id[id(node)]
                f = rel.schema.fields[-1]
                return S._E(R.Col(_PLACEHOLDER + j, f.name, f.type, f.nullable), "scalarsubquery()")
            return None

        return hook

    @staticmethod
    def join_scalars(rel: R.Rel, pred: R.Expr, scalars: list[tuple[exp.Subquery, R.Rel, R.JoinKind]],
                     loc: Any) -> tuple[R.Rel, R.Expr]:
        """The aggregation's output joined with each HAVING scalar subquery, and the HAVING condition
        reading their values."""
        index: dict[int, int] = {}
        for j, (_sq, srel, kind) in enumerate(scalars):
            index[_PLACEHOLDER + j] = len(rel.schema) + len(srel.schema) - 1
            rel = build.join(kind, rel, srel, None, loc=loc)
        return rel, remap_cols(pred, index)

    # ---- several rows ---------------------------------------------------------------------------

    def at_most_one_row(self, rel: R.Rel, loc: Any) -> R.Rel:
        """A one-row relation holding the subquery's value: NULL for no row, its value for one, an error
        value (``SCALAR_SUBQUERY_TOO_MANY_ROWS``) for more."""
        col = build.columns_of(rel)[-1]
        n = build.agg("count_star", [], loc=loc)
        m = build.agg("max", [col], loc=loc)
        counted = build.aggregate(rel, [], [], [n, m], ["n", "v"], loc=loc)
        cn, cv = build.columns_of(counted)
        too_many = build.compare(">", cn, build.lit(1, loc), loc=loc)
        error = build.func("scalar_subquery_too_many_rows", [], loc=loc)
        value = build.case([(too_many, error)], cv, loc=loc)
        return build.project(counted, [value], [rel.schema.fields[-1].name], loc=loc)


__all__ = ["SubqueriesMixin", "remap_cols"]
