"""Column-level DataFrame methods: select, withColumn(s), drop, filter, sort.

They share name resolution against a DataFrame's lineage (a column of an earlier DataFrame still
resolves by identity, ``_widen``) and the way Spark names projected columns.
"""

from __future__ import annotations

import ast as pyast
from collections.abc import Mapping, Sequence
from dataclasses import replace

from frontend.dataframe import nested
from frontend.dataframe import windows as DFW
from frontend.dataframe.columns import (
    DF,
    Alias,
    Attr,
    AttrRef,
    CExpr,
    Name,
    Resolver,
    Scope,
    SortOrder,
    SqlText,
    Star,
    col_at,
    contains_agg,
    lookup_id,
    lookup_name,
    output_name,
    pretty,
    references,
    resolves,
)
from frontend.dataframe.evaluator import _walk
from frontend.dataframe.module import _IDENTITY_METHODS, UNSUPPORTED_DF_METHODS
from frontend.dataframe.values import (
    DFV,
    ColV,
    PyV,
    SeqV,
    Value,
    as_col,
    describe,
    flatten_single,
    py_value,
)
from sparklite.ast import Loc
from sparklite.errors import InputError, UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational import build
from sparklite.relational.build import AnalysisError
from sparklite.relational.windows import WindowCalls


class ProjectionsMixin:
    """Column-level methods of ``translator.DataFrameTranslator``."""

    # -- DataFrame methods ------------------------------------------------------------------------

    def df_method(
        self, df: DF, name: str, args: list[Value], kwargs: dict[str, Value], loc: Loc, node: pyast.AST
    ) -> Value:
        if name in _IDENTITY_METHODS:
            return DFV(df)
        if name in UNSUPPORTED_DF_METHODS:
            raise UnsupportedError(f"DataFrame.{name}: {UNSUPPORTED_DF_METHODS[name]}", loc, construct=name)
        handler = self.DF_METHODS.get(name)
        if handler is None:
            raise UnsupportedError(f"DataFrame method '{name}' is not supported", loc, construct=name)
        return handler(self, df, args, kwargs, loc, node)

    # select ----------------------------------------------------------------------------------------

    def select(self, df: DF, items: list[Value], loc: Loc) -> DF:
        cols = [as_col(v, loc, "a select item") for v in flatten_single(items)]
        return self.project(df, cols, loc)

    def project(self, df: DF, cols: Sequence[CExpr], loc: Loc) -> DF:
        """``select``: one output column per item (``*`` expanded); a select of aggregates is a global
        aggregation (Spark plans ``df.select(F.sum("a"))`` as an ``Aggregate``)."""
        expanded: list[CExpr] = []
        for c in cols:
            if isinstance(c, Star):
                expanded += self.star(df, c)
            else:
                expanded.append(c)
        if any(contains_agg(c) for c in expanded):
            return self.aggregate(df, (), expanded, loc)
        gen = nested.check_generators(expanded, loc)
        if gen is not None:  # explode & co.: a Generate below the projection (frontend/dataframe/nested.py)
            df, expanded = self.generate(df, expanded, gen, loc)
        scope = Scope.of(df)
        expanded = [self.bind_sql(c, scope) for c in expanded]
        calls = WindowCalls()
        res = DFW.resolver(scope, calls, "select")
        exprs = [res.expr(c) for c in expanded]
        names = [output_name(c) for c in expanded]
        source, exprs = calls.place(df.rel, exprs, loc)
        rel = build.project(source, exprs, names, loc)
        attrs = [self.passthrough_attr(df, c, e, n) for c, e, n in zip(expanded, exprs, names, strict=True)]
        return self._projected(df, rel, attrs)

    def generate(self, df: DF, items: list[CExpr], at: int, loc: Loc) -> tuple[DF, list[CExpr]]:
        """The select item ``items[at]`` is a generator: ``df`` with its columns appended (a kernel
        ``Generate``), and the items with that one replaced by references to them."""
        found = nested.generator_of(items[at])
        assert found is not None
        call, names = found
        position, outer = nested.GENERATORS[call.name]
        if names and position:
            raise UnsupportedError(f"{call.name}(...).alias() with one name (Spark needs two)", loc,
                                   construct=call.name)
        scope = Scope.of(df)
        arr = Resolver(scope, context="select").expr(self.bind_sql(call.args[0], scope))
        rel = build.generate(df.rel, arr, outer, position, names, call.loc or loc)
        new_names = rel.schema.names[len(df.attrs):]
        new_attrs = tuple(Attr(self.ids.fresh(), n) for n in new_names)
        gdf = DF(rel, df.attrs + new_attrs, df.ambiguous, df.hidden, origin=None)
        refs = nested.refs_for([a.id for a in new_attrs], new_names, loc)
        return gdf, items[:at] + refs + items[at + 1:]

    def star(self, df: DF, s: Star) -> list[CExpr]:
        if s.ids is not None:
            for i in s.ids:
                lookup_id(Scope.of(df), AttrRef(i, "*", loc=s.loc))
            return [AttrRef(a.id, a.name, loc=s.loc) for a in df.attrs if a.id in s.ids]
        chosen = [
            a
            for a in df.attrs
            if s.qualifier is None or (a.qualifier is not None and a.qualifier.lower() == s.qualifier.lower())
        ]
        if s.qualifier is not None and not chosen:
            raise AnalysisError(
                f"[CANNOT_RESOLVE_STAR_EXPAND] cannot resolve {s.qualifier}.* among the columns "
                f"{', '.join(df.columns)}",
                s.loc,
            )
        return [AttrRef(a.id, a.name, loc=s.loc) for a in chosen]

    def passthrough_attr(self, df: DF, c: CExpr, e: R.Expr, name: str) -> Attr:
        """A plain column reference keeps its identity (and ``alias`` qualifier); anything computed or
        aliased is a new column."""
        if isinstance(c, Name | AttrRef) and isinstance(e, R.Col):
            a = df.attrs[e.index]
            return Attr(a.id, name, a.qualifier)
        return Attr(self.ids.fresh(), name)

    def _projected(self, df: DF, rel: R.Rel, attrs: Sequence[Attr]) -> DF:
        return DF(rel, tuple(attrs), df.ambiguous, df.hidden, origin=df)

    # Spark's ResolveMissingReferences -------------------------------------------------------------

    def with_missing(self, df: DF, exprs: Sequence[CExpr], loc: Loc) -> tuple[DF, int]:
        """``df`` widened so that every column reference in ``exprs`` resolves: a column an earlier
        ``select`` removed is added back to that select's output (after ``df``'s own columns, which keep
        their positions), through the filters, sorts and limits since, as Spark's analyser does for a
        ``filter``/``orderBy`` that names it. Returns the widened DataFrame and ``df``'s width (the
        caller projects the result back to those columns)."""
        scope = Scope.of(df)
        missing = [r for e in exprs for r in references(e) if not resolves(scope, r)]
        if not missing or df.origin is None:
            return df, len(df.attrs)
        return self._widen(df, missing, loc), len(df.attrs)

    def _widen(self, df: DF, refs: Sequence[Name | AttrRef], loc: Loc) -> DF:
        chain: list[R.Rel] = []
        rel = df.rel
        while isinstance(rel, R.Filter | R.Sort | R.Limit | R.Distinct | R.DropDuplicates):
            chain.append(rel)
            rel = rel.source
        origin = df.origin
        if not isinstance(rel, R.Project) or origin is None or rel.source is not origin.rel:
            raise UnsupportedError(
                f"{pretty(refs[0])} is not a column here; Spark may re-add it from an "
                "earlier select, which is supported through filters, sorts, limits and distinct only",
                refs[0].loc or loc,
                construct="missing-reference",
            )
        oscope = Scope.of(origin)
        deeper = [r for r in refs if not resolves(oscope, r)]
        if deeper:
            if origin.origin is None:
                lookup_name(oscope, deeper[0]) if isinstance(deeper[0], Name) else lookup_id(
                    oscope, deeper[0]
                )
            origin = self._widen(origin, deeper, loc)
            oscope = Scope.of(origin)
        extra_attrs: list[Attr] = []
        extra_exprs: list[R.Expr] = []
        for r in refs:
            i = lookup_name(oscope, r) if isinstance(r, Name) else lookup_id(oscope, r)
            a = origin.attrs[i]
            if any(x.id == a.id for x in extra_attrs):
                continue
            extra_attrs.append(a)
            extra_exprs.append(col_at(oscope, i, r.loc))
        new: R.Rel = build.project(
            origin.rel,
            [*rel.exprs, *extra_exprs],
            [*rel.schema.names, *(a.name for a in extra_attrs)],
            rel.loc,
        )
        for node in reversed(chain):
            if isinstance(node, R.Filter):
                new = build.filter_(new, node.pred, node.loc)
            elif isinstance(node, R.Sort):
                new = build.sort(new, node.keys, node.loc)
            elif isinstance(node, R.Limit):
                new = build.limit(new, node.count, node.loc)
            elif isinstance(node, R.Distinct):
                # Spark: the distinct becomes a Deduplicate on the select's columns only, keeping any
                # one value of the re-added ones (``select("a").distinct().filter(col("b") > 1)``)
                new = build.drop_duplicates(new, range(len(rel.exprs)), node.loc)
            else:
                new = build.drop_duplicates(new, node.columns, node.loc)
        return DF(new, df.attrs + tuple(extra_attrs), df.ambiguous, df.hidden, origin=origin)

    def narrowed(self, widened: DF, width: int, loc: Loc) -> DF:
        """The result of an operation on a widened DataFrame, back to the original columns (which keep
        their identities); it remembers the widened one, so that a later filter or sort can widen again."""
        if len(widened.attrs) == width:
            return widened
        return self.passthrough(widened, list(range(width)), loc)

    def wide_resolver(self, df: DF, wide: DF, context: str) -> Resolver:
        """Resolves against ``wide`` (``df`` plus re-added columns), a reference that ``df`` resolves
        going to ``df``'s column: Spark resolves against the child first and re-adds only what is
        missing (``orderBy(old.a, "a")`` after ``select(expr.alias("a"))``: ``"a"`` is the new one)."""
        narrow = Scope.of(df)
        wscope = Scope.of(wide)

        def hook(e: CExpr) -> R.Expr | None:
            if isinstance(e, Name | AttrRef) and resolves(narrow, e):
                i = lookup_name(narrow, e) if isinstance(e, Name) else lookup_id(narrow, e)
                return col_at(wscope, i, e.loc)
            return None

        return Resolver(wscope, hook if wide is not df else None, context=context)

    def bind_sql_widening(self, df: DF, c: CExpr, loc: Loc) -> tuple[CExpr, DF, int]:
        """``bind_sql`` for a filter or sort: SQL text that names a column an earlier select removed
        is read against the DataFrame widened by that select's input columns."""
        try:
            return self.bind_sql(c, Scope.of(df)), df, len(df.attrs)
        except InputError:
            if df.origin is None or not any(isinstance(x, SqlText) for x in _walk(c)):
                raise
            refs = [
                AttrRef(a.id, a.name, loc=loc)
                for a in df.origin.attrs
                if a.id not in {x.id for x in df.attrs}
            ]
            try:
                wide = self._widen(df, refs, loc) if refs else df
            except InputError:
                raise
            return self.bind_sql(c, Scope.of(wide)), wide, len(df.attrs)

    def passthrough(
        self, df: DF, keep: Sequence[int], loc: Loc, renames: Mapping[int, str] | None = None
    ) -> DF:
        """A projection of ``df``'s columns at positions ``keep`` (renamed ones get new identities)."""
        renames = renames or {}
        exprs: list[R.Expr] = []
        names: list[str] = []
        attrs: list[Attr] = []
        scope = Scope.of(df)
        for i in keep:
            exprs.append(col_at(scope, i, loc))
            a = df.attrs[i]
            if i in renames:
                names.append(renames[i])
                attrs.append(Attr(self.ids.fresh(), renames[i]))
            else:
                names.append(a.name)
                attrs.append(a)
        return self._projected(df, build.project(df.rel, exprs, names, loc), attrs)

    def with_columns(self, df: DF, pairs: Sequence[tuple[str, CExpr]], loc: Loc) -> DF:
        """``withColumn``/``withColumns``: each new column replaces every column of that name
        (case-insensitively, keeping its position) or is appended; all are computed from ``df``."""
        lowered = [n.lower() for n, _ in pairs]
        if len(set(lowered)) != len(lowered):
            raise AnalysisError("[COLUMN_ALREADY_EXISTS] withColumns() got the same column name twice", loc)
        if any(nested.contains_generator(c) for _, c in pairs):  # Spark plans it as a select
            new = dict(zip(lowered, pairs, strict=True))
            items: list[CExpr] = [Alias(new.pop(a.name.lower())[1], a.name, loc=loc) if a.name.lower() in new
                                  else AttrRef(a.id, a.name, loc=loc) for a in df.attrs]
            return self.project(df, items + [Alias(c, n, loc=loc) for n, c in new.values()], loc)
        for _, c in pairs:
            if contains_agg(c):
                raise AnalysisError(
                    f"[MISSING_GROUP_BY] withColumn() of an aggregate ({pretty(c)}): the other "
                    "columns are neither grouped nor aggregated",
                    c.loc or loc,
                )
        scope = Scope.of(df)
        calls = WindowCalls()
        res = DFW.resolver(scope, calls, "withColumn")
        new = [(n, res.expr(self.bind_sql(c, scope))) for n, c in pairs]
        exprs: list[R.Expr] = [col_at(scope, i, loc) for i in range(len(df.attrs))]
        names = [a.name for a in df.attrs]
        attrs = list(df.attrs)
        for n, e in new:
            hits = [i for i, a in enumerate(attrs) if a.name.lower() == n.lower()]
            if hits:
                for i in hits:
                    exprs[i], names[i], attrs[i] = e, n, Attr(self.ids.fresh(), n)
            else:
                exprs.append(e)
                names.append(n)
                attrs.append(Attr(self.ids.fresh(), n))
        source, exprs = calls.place(df.rel, exprs, loc)
        return self._projected(df, build.project(source, exprs, names, loc), attrs)

    def drop(self, df: DF, items: list[Value], loc: Loc) -> DF:
        gone: set[int] = set()
        scope = Scope.of(df)
        for v in items:
            if isinstance(v, PyV) and isinstance(v.value, str):
                gone |= {i for i, a in enumerate(df.attrs) if a.name.lower() == v.value.lower()}
            elif isinstance(v, ColV):
                e = v.expr
                if isinstance(e, AttrRef):
                    ids = {e.id}
                    if e.id in df.ambiguous:
                        lookup_id(scope, e)
                    gone |= {i for i, a in enumerate(df.attrs) if a.id in ids}
                elif isinstance(e, Name):
                    try:
                        i = lookup_name(scope, e)
                    except AnalysisError as exc:
                        if "AMBIGUOUS" in exc.message:
                            raise
                        continue
                    gone |= {j for j, a in enumerate(df.attrs) if a.id == df.attrs[i].id}
                else:
                    raise UnsupportedError(
                        "drop() of a computed Column has no effect in Spark; drop by name",
                        e.loc or loc,
                        construct="drop",
                    )
            else:
                raise UnsupportedError(
                    f"drop() takes column names or Columns, not {describe(v)}", loc, construct="drop"
                )
        if not gone:
            return df
        return self.passthrough(df, [i for i in range(len(df.attrs)) if i not in gone], loc)

    # filter / sort / limit ---------------------------------------------------------------------------

    def df_filter(self, df: DF, cond: Value, loc: Loc, node: pyast.AST | None = None) -> DF:
        if isinstance(cond, PyV) and isinstance(cond.value, str):
            c: CExpr = self.sql_text(cond.value, node or pyast.Pass(), loc)
        elif isinstance(cond, ColV):
            c = cond.expr
        else:
            raise UnsupportedError(
                f"filter() takes a Column or a SQL string, not {describe(cond)}", loc, construct="filter"
            )
        if contains_agg(c):
            raise AnalysisError(
                f"an aggregate in a filter condition ({pretty(c)}): filter after the agg()", c.loc or loc
            )
        c, base, width = self.bind_sql_widening(df, c, loc)
        wide, _ = self.with_missing(base, [c], loc)
        pred = self.wide_resolver(df, wide, "a filter").expr(c)
        return self.narrowed(replace(wide, rel=build.filter_(wide.rel, pred, loc)), width, loc)

    def sort(self, df: DF, args: list[Value], kwargs: dict[str, Value], loc: Loc) -> DF:
        extra = set(kwargs) - {"ascending"}
        if extra:
            raise InputError(f"orderBy() got unexpected keyword arguments {sorted(extra)}", loc)
        if not args:
            raise InputError("orderBy() needs at least one column (PySpark raises CANNOT_BE_EMPTY)", loc)
        items = args
        if len(items) == 1 and isinstance(items[0], SeqV):
            items = list(items[0].items)
        cols: list[CExpr] = []
        for v in items:
            if isinstance(v, PyV) and isinstance(v.value, int) and not isinstance(v.value, bool):
                k = v.value
                if k == 0 or abs(k) > len(df.attrs):
                    raise InputError(f"orderBy ordinal {k} is out of range", loc)
                a = df.attrs[abs(k) - 1]
                ref: CExpr = AttrRef(a.id, a.name, loc=loc)
                cols.append(ref if k > 0 else SortOrder(ref, False, loc=loc))
            else:
                cols.append(as_col(v, loc, "a sort key"))
        asc = kwargs.get("ascending", PyV(True))
        if isinstance(asc, PyV) and isinstance(asc.value, bool | int):
            if not asc.value:
                cols = [self._desc(c, loc) for c in cols]
        elif isinstance(asc, SeqV):
            flags = [py_value(x, loc, "ascending") for x in asc.items]
            cols = [c if f else self._desc(c, loc) for f, c in zip(flags, cols, strict=False)]
        else:
            raise InputError(f"ascending must be a bool or a list of bools, not {describe(asc)}", loc)
        base, width = df, len(df.attrs)
        bound: list[CExpr] = []
        for c in cols:
            b, base, _ = self.bind_sql_widening(base, c, loc)
            bound.append(b)
        cols = bound
        wide, _ = self.with_missing(base, cols, loc)
        res = self.wide_resolver(df, wide, "a sort key")
        keys: list[R.SortKey] = []
        for c in cols:
            if isinstance(c, SortOrder):
                keys.append(build.sort_key(res.expr(c.operand), c.ascending, c.nulls_first))
            else:
                keys.append(build.sort_key(res.expr(c)))
        return self.narrowed(replace(wide, rel=build.sort(wide.rel, keys, loc)), width, loc)

    @staticmethod
    def _desc(c: CExpr, loc: Loc) -> CExpr:
        if isinstance(c, SortOrder):
            raise UnsupportedError(
                "ascending=False applied to a sort order (c.asc()/c.desc()) is not supported",
                loc,
                construct="sort-order",
            )
        return SortOrder(c, False, loc=c.loc)
