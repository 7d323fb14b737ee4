"""Operations over several rows or DataFrames: aggregations, joins, set operations and actions.

Kept together because joins and aggregations share Spark's rules for output names and types (USING
keys coalesced, self-joins' ambiguous references) and the kernel nodes they build.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace

from frontend.dataframe import functions as DFF
from frontend.dataframe import grouping, pivot
from frontend.dataframe.columns import (
    DF,
    Agg,
    Alias,
    Attr,
    AttrRef,
    Bin,
    CExpr,
    Name,
    Resolver,
    Scope,
    col_at,
    contains_agg,
    lookup_name,
    map_children,
    parse_name,
    plan_aggregate,
    pretty,
)
from frontend.dataframe.evaluator import _walk
from frontend.dataframe.module import _JOIN_KINDS
from frontend.dataframe.values import (
    DFV,
    ActionV,
    ColV,
    DictV,
    GroupedV,
    PyV,
    SeqV,
    Value,
    as_col,
    as_str,
    describe,
)
from sparklite.ast import Loc
from sparklite.errors import InputError, UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational import build
from sparklite.relational.build import AnalysisError
from sparklite.relational.moments import MOMENT_NAMES
from sparklite.relational.types import is_numeric


class JoinsMixin:
    """Aggregations, joins, set operations and actions of ``translator.DataFrameTranslator``."""

    # aggregation ---------------------------------------------------------------------------------

    def aggregate(self, df: DF, keys: Sequence[CExpr], outputs: Sequence[CExpr], loc: Loc) -> DF:
        """``groupBy(keys).agg(outputs)`` (no keys: a global aggregate, one row even on empty input)."""
        scope = Scope.of(df)
        keys = [self.bind_sql(k, scope) for k in keys]
        outputs = [self.bind_sql(o, scope) for o in outputs]
        plan = plan_aggregate(scope, keys, outputs, loc)
        key_attrs: list[Attr] = []
        for k, rk, n in zip(keys, plan.keys, plan.key_names, strict=True):
            if isinstance(k, Name | AttrRef) and isinstance(rk, R.Col):
                a = df.attrs[rk.index]
                key_attrs.append(Attr(a.id, n, a.qualifier))
            else:
                key_attrs.append(Attr(self.ids.fresh(), n))
        out_attrs = [Attr(self.ids.fresh(), n) for n in plan.output_names]
        if plan.direct:
            rel: R.Rel = build.aggregate(df.rel, plan.keys, plan.key_names, plan.aggs, plan.output_names, loc)
        else:
            inner = build.aggregate(df.rel, plan.keys, plan.key_names, plan.aggs, plan.agg_names, loc)
            key_cols = list(build.columns_of(inner))[: len(plan.keys)]
            rel = build.project(inner, [*key_cols, *plan.outputs], [*plan.key_names, *plan.output_names], loc)
        return DF(rel, tuple(key_attrs + out_attrs), df.ambiguous, df.hidden)

    def group_keys(self, df: DF, args: list[Value], loc: Loc) -> tuple[CExpr, ...]:
        items = args
        if len(items) == 1 and isinstance(items[0], SeqV):
            items = list(items[0].items)
        keys: list[CExpr] = []
        for v in items:
            if isinstance(v, PyV) and isinstance(v.value, int) and not isinstance(v.value, bool):
                if not 1 <= v.value <= len(df.attrs):
                    raise InputError(f"groupBy ordinal {v.value} is out of range", loc)
                a = df.attrs[v.value - 1]
                keys.append(AttrRef(a.id, a.name, loc=loc))
            else:
                keys.append(as_col(v, loc, "a grouping key"))
        for k in keys:
            if contains_agg(k):
                raise AnalysisError(f"an aggregate cannot be a grouping key ({pretty(k)})", k.loc or loc)
        return tuple(keys)

    def grouped_method(
        self, g: GroupedV, name: str, args: list[Value], kwargs: dict[str, Value], loc: Loc
    ) -> Value:
        df = g.df
        if name == "pivot":
            return pivot.start(g, args, kwargs, loc)
        if g.pivot is not None:
            if name not in ("agg", "count", "sum", "avg", "mean", "min", "max"):
                raise UnsupportedError(
                    f"GroupedData.{name} after pivot is not supported", loc, construct="pivot"
                )
            return pivot.aggregate(self, g, name, args, kwargs, loc)
        if g.sets is not None and name in ("agg", "count", "sum", "avg", "mean", "min", "max"):
            return DFV(grouping.expand(self, g, name, args, kwargs, loc))
        if name == "agg":
            if kwargs:
                raise InputError("agg() takes no keyword arguments", loc)
            if not args:
                raise InputError(
                    "agg() needs at least one aggregate (PySpark asserts exprs is not empty)", loc
                )
            if len(args) == 1 and isinstance(args[0], DictV):
                outs = [self._dict_agg(df, k, v, loc) for k, v in args[0].items]
            else:
                outs = []
                for a in args:
                    if not isinstance(a, ColV):
                        raise InputError(
                            f"agg() takes Columns (or one dict), not {describe(a)} (PySpark asserts "
                            "all exprs are Columns)",
                            loc,
                        )
                    outs.append(a.expr)
            return DFV(self.aggregate(df, g.keys, outs, loc))
        if name == "count":
            DFF.sig().bind("count", args, kwargs, loc)
            return DFV(
                self.aggregate(
                    df, g.keys, [Alias(Agg("count_star", (), "count", loc=loc), "count", loc=loc)], loc
                )
            )
        if name in ("sum", "avg", "mean", "min", "max"):
            if kwargs:
                raise InputError(f"{name}() takes no keyword arguments", loc)
            names = [as_str(a, loc, "a column name") for a in args]
            if not names:
                names = [a.name for a, f in zip(df.attrs, df.fields, strict=True) if is_numeric(f.type)]
            kind = "avg" if name == "mean" else name
            outs: list[CExpr] = []
            for n in names:
                e = Name((n,), loc=loc)
                i = lookup_name(Scope.of(df), e)
                if not is_numeric(df.fields[i].type):
                    raise AnalysisError(
                        f'"{n}" is not a numeric column: {name}() applies to numeric columns only', loc
                    )
                outs.append(Agg(kind, (e,), kind, loc=loc))  # type: ignore[arg-type]
            return DFV(self.aggregate(df, g.keys, outs, loc))
        if name in (
            "apply",
            "applyInPandas",
            "applyInArrow",
            "cogroup",
            "transformWithStateInPandas",
        ):
            raise UnsupportedError(f"GroupedData.{name} is not supported", loc, construct=name)
        raise UnsupportedError(f"GroupedData method '{name}' is not supported", loc, construct=name)

    def _dict_agg(self, df: DF, col: Value, fn: Value, loc: Loc) -> CExpr:
        c = as_str(col, loc, "a column name")
        f = as_str(fn, loc, "an aggregate name").lower()
        kinds = {
            "sum": "sum",
            "avg": "avg",
            "mean": "avg",
            "average": "avg",
            "min": "min",
            "max": "max",
            "count": "count",
            "size": "count",
            **{f: MOMENT_NAMES[f] for f in MOMENT_NAMES},
        }
        if f not in kinds:
            raise UnsupportedError(f"aggregate '{f}' in agg(dict) is not supported", loc, construct=f)
        kind = kinds[f]
        if c == "*" and kind == "count":
            return Agg("count_star", (), "count", loc=loc)
        # Spark's strToExpr: "std" is called stddev; the other statistics keep the name given
        shown = ("stddev" if f == "std" else f) if f in MOMENT_NAMES else kind
        return Agg(kind, (parse_name(c, loc),), shown, loc=loc)  # type: ignore[arg-type]

    # joins ------------------------------------------------------------------------------------------

    def join(self, left: DF, right: DF, on: Value, how: Value, loc: Loc) -> DF:
        """``left.join(right, on, how)`` as PySpark's ``DataFrame.join`` then Spark's ``Dataset.join``."""
        if on == PyV(None) and how == PyV(None):
            return self.join_cond(left, right, "inner", None, loc)
        kind_text = "inner" if how == PyV(None) else as_str(how, loc, "the join type")
        norm = kind_text.lower().replace("_", "")
        if norm not in _JOIN_KINDS:
            raise AnalysisError(
                f"[UNSUPPORTED_JOIN_TYPE] Unsupported join type '{kind_text}' (supported: inner, "
                "outer, full, fullouter, full_outer, leftouter, left, left_outer, rightouter, right, "
                "right_outer, leftsemi, left_semi, semi, leftanti, left_anti, anti, cross)",
                loc,
            )
        kind = _JOIN_KINDS[norm]
        if on == PyV(None):
            return self.join_using(left, right, [], kind, loc)
        items = list(on.items) if isinstance(on, SeqV) and on.is_list else [on]
        if not items:
            raise InputError("join(on=[]) raises IndexError in PySpark", loc)
        if isinstance(items[0], PyV) and isinstance(items[0].value, str):
            return self.join_using(
                left, right, [as_str(i, loc, "a join column name") for i in items], kind, loc
            )
        cond: CExpr | None = None
        for i in items:
            if not isinstance(i, ColV):
                raise InputError(
                    f"join's on must be column names or Columns, not {describe(i)} (PySpark asserts)", loc
                )
            cond = i.expr if cond is None else Bin("AND", cond, i.expr, loc=loc)
        return self.join_cond(left, right, "inner" if kind == "cross" else kind, cond, loc)

    def _dedup_right(self, left: DF, right: DF) -> tuple[DF, dict[int, int]]:
        """Spark's self-join handling: right-side columns that share an identity with the left get new
        ones (``df.k`` then names the left column, and is ambiguous after the join)."""
        lids = {a.id for a in left.attrs}
        mapping = {a.id: self.ids.fresh() for a in right.attrs if a.id in lids}
        if not mapping:
            return right, mapping
        attrs = tuple(Attr(mapping.get(a.id, a.id), a.name, a.qualifier) for a in right.attrs)
        return replace(right, attrs=attrs), mapping

    def join_cond(self, left: DF, right: DF, kind: R.JoinKind, cond: CExpr | None, loc: Loc) -> DF:
        right, mapping = self._dedup_right(left, right)
        if cond is not None and contains_agg(cond):
            raise AnalysisError(f"an aggregate in a join condition ({pretty(cond)})", cond.loc or loc)
        scope = Scope(
            left.attrs + right.attrs,
            left.fields + right.fields,
            left.ambiguous | right.ambiguous,
            left.hidden | right.hidden,
        )
        rcond = None
        if cond is not None:
            cond = _self_join_condition(cond, mapping)
            _ambiguous_self_join(cond, mapping, right.rel)
            rcond = Resolver(scope, context="a join condition").expr(self.bind_sql(cond, scope))
        rel = build.join(kind, left.rel, right.rel, rcond, loc)
        attrs = left.attrs if kind in ("semi", "anti") else left.attrs + right.attrs
        return DF(
            rel, attrs, left.ambiguous | right.ambiguous | frozenset(mapping), left.hidden | right.hidden
        )

    def join_using(self, left: DF, right: DF, names: list[str], kind: R.JoinKind, loc: Loc) -> DF:
        """A join on column names (``USING``): one output column per name (the left key for inner and left
        joins, the right key for right joins, ``coalesce`` of both for full joins), then the other left
        columns, then the other right columns."""
        if kind == "cross":
            kind = "inner"
        right, mapping = self._dedup_right(left, right)
        lscope, rscope = Scope.of(left), Scope.of(right)
        pairs: list[tuple[int, int]] = []
        for n in names:
            e = Name((n,), loc=loc)
            pos = []
            for side, sc in (("left", lscope), ("right", rscope)):
                try:
                    pos.append(lookup_name(sc, e))
                except AnalysisError as exc:
                    if "UNRESOLVED" in exc.message:
                        cols = ", ".join(f"`{a.name}`" for a in sc.attrs)
                        raise AnalysisError(
                            f"[UNRESOLVED_USING_COLUMN_FOR_JOIN] USING column `{n}` cannot be "
                            f"resolved on the {side} side of the join. The {side}-side columns: "
                            f"[{cols}]",
                            loc,
                        ) from None
                    raise
            pairs.append((pos[0], pos[1]))
        nl = len(left.attrs)
        jscope = Scope(left.attrs + right.attrs, left.fields + right.fields)
        cond: R.Expr | None = None
        for li, ri in pairs:
            eq = build.compare("=", col_at(jscope, li, loc), col_at(jscope, nl + ri, loc), loc)
            cond = eq if cond is None else build.and_(cond, eq, loc)
        rel = build.join(kind, left.rel, right.rel, cond, loc)
        ambiguous = left.ambiguous | right.ambiguous | frozenset(mapping)
        if kind in ("semi", "anti"):
            return DF(rel, left.attrs, ambiguous, left.hidden | right.hidden)
        jfields = rel.schema.fields
        exprs: list[R.Expr] = []
        out_names: list[str] = []
        attrs: list[Attr] = []
        hidden = set(left.hidden | right.hidden)

        def col(i: int) -> R.Col:
            f = jfields[i]
            return R.Col(i, f.name, f.type, f.nullable, loc=loc)

        for li, ri in pairs:
            la, ra = left.attrs[li], right.attrs[ri]
            if kind == "full":
                exprs.append(DFF_call_coalesce(col(li), col(nl + ri), loc))
                out_names.append(la.name)
                attrs.append(Attr(self.ids.fresh(), la.name))
                hidden |= {la.id, ra.id}
            elif kind == "right":
                exprs.append(col(nl + ri))
                out_names.append(ra.name)
                attrs.append(ra)
                hidden.add(la.id)
            else:
                exprs.append(col(li))
                out_names.append(la.name)
                attrs.append(la)
                hidden.add(ra.id)
        lkeys = {li for li, _ in pairs}
        rkeys = {ri for _, ri in pairs}
        for i, a in enumerate(left.attrs):
            if i not in lkeys:
                exprs.append(col(i))
                out_names.append(a.name)
                attrs.append(a)
        for i, a in enumerate(right.attrs):
            if i not in rkeys:
                exprs.append(col(nl + i))
                out_names.append(a.name)
                attrs.append(a)
        if not pairs:  # no key: the join's own columns, unchanged
            return DF(rel, left.attrs + right.attrs, ambiguous, frozenset(hidden))
        hidden -= {a.id for a in attrs}
        proj = build.project(rel, exprs, out_names, loc)
        return DF(proj, tuple(attrs), ambiguous, frozenset(hidden))

    # set operations ------------------------------------------------------------------------------------

    def set_op(self, left: DF, right: DF, kind: R.SetKind, all_: bool, loc: Loc) -> DF:
        rel = build.set_op(kind, all_, left.rel, right.rel, loc)
        if rel.left is left.rel:
            attrs = tuple(
                Attr(a.id, f.name, a.qualifier) for a, f in zip(left.attrs, rel.schema.fields, strict=True)
            )
        else:
            attrs = tuple(Attr(self.ids.fresh(), f.name) for f in rel.schema.fields)
        return DF(rel, attrs, left.ambiguous, left.hidden)

    def union_by_name(self, left: DF, right: DF, allow_missing: bool, loc: Loc) -> DF:
        lnames = [a.name for a in left.attrs]
        rlow = {}
        for i, a in enumerate(right.attrs):
            if a.name.lower() in rlow:
                raise AnalysisError(
                    f"[COLUMN_ALREADY_EXISTS] column `{a.name}` appears twice on the right side of "
                    "unionByName",
                    loc,
                )
            rlow[a.name.lower()] = i
        llow = {n.lower() for n in lnames}
        rscope = Scope.of(right)
        rexprs: list[R.Expr] = []
        for i, n in enumerate(lnames):
            j = rlow.get(n.lower())
            if j is None:
                if not allow_missing:
                    raise AnalysisError(
                        f'[UNRESOLVED_COLUMN_AMONG_FIELD_NAMES] Cannot resolve column name "{n}" '
                        f"among ({', '.join(a.name for a in right.attrs)})",
                        loc,
                    )
                rexprs.append(build.coerce(build.lit(None, loc), left.fields[i].type))
            else:
                rexprs.append(col_at(rscope, j, loc))
        extra = [j for j, a in enumerate(right.attrs) if a.name.lower() not in llow]
        if extra and not allow_missing:
            raise AnalysisError(
                f"[NUM_COLUMNS_MISMATCH] unionByName: the right side has columns the left side "
                f"lacks ({', '.join(right.attrs[j].name for j in extra)})",
                loc,
            )
        lrel = left.rel
        lattrs = left.attrs
        if extra:
            lscope = Scope.of(left)
            lexprs = [col_at(lscope, i, loc) for i in range(len(lnames))]
            lexprs += [build.coerce(build.lit(None, loc), right.fields[j].type) for j in extra]
            extra_names = [right.attrs[j].name for j in extra]
            lrel = build.project(left.rel, lexprs, lnames + extra_names, loc)
            lattrs = left.attrs + tuple(Attr(self.ids.fresh(), n) for n in extra_names)
            rexprs += [col_at(rscope, j, loc) for j in extra]
        out_names = [a.name for a in lattrs]
        identity = len(rexprs) == len(right.attrs) and all(
            isinstance(e, R.Col) and e.index == i for i, e in enumerate(rexprs)
        )
        rrel = right.rel if identity else build.project(right.rel, rexprs, out_names, loc)
        return self.set_op(
            DF(lrel, lattrs, left.ambiguous, left.hidden), DF(rrel, right.attrs), "union", True, loc
        )

    # actions --------------------------------------------------------------------------------------------

    def action(self, df: DF, kind: R.ActionKind, count: int | None, loc: Loc) -> ActionV:
        if count is not None and count < 0:
            raise InputError(f"take({count}): a negative count", loc)
        return ActionV(R.Action(kind, df.rel, count, loc=loc))




def DFF_call_coalesce(a: R.Expr, b: R.Expr, loc: Loc) -> R.Expr:
    """The key of a full outer USING join: ``coalesce(left.k, right.k)``, as Spark writes it."""
    from frontend.dataframe.columns import call_function

    return call_function("coalesce", [a, b], loc)



def _self_join_condition(cond: CExpr, mapping: Mapping[int, int]) -> CExpr:
    """Spark's fix for ``df.join(df2, df.k == df2.k)`` where both sides come from one DataFrame (so
    ``df.k`` and ``df2.k`` are one column): an equality of a column with itself, anywhere in the
    condition, compares the left column with the right one (``Dataset.join``'s trivially-true rule).
    ``df.k != df2.k`` is ``NOT (df.k = df2.k)`` in Spark, so its equality is rewritten too."""
    if not mapping:
        return cond
    if (
        isinstance(cond, Bin)
        and cond.op in ("=", "<=>", "!=")
        and isinstance(cond.left, AttrRef)
        and isinstance(cond.right, AttrRef)
        and cond.left.id == cond.right.id
        and cond.left.id in mapping
    ):
        r_ = cond.right
        # both sides become plain references to the join's children (no longer tied to a DataFrame)
        left = replace(cond.left, origin=None)
        return Bin(cond.op, left, AttrRef(mapping[r_.id], r_.name, loc=r_.loc), loc=cond.loc)
    return map_children(cond, lambda c: _self_join_condition(c, mapping))


def _ambiguous_self_join(cond: CExpr, mapping: Mapping[int, int], right: R.Rel) -> None:
    """Spark's ``DetectAmbiguousSelfJoin``: after the rewrite above, a column both sides share, taken
    from a DataFrame that is part of the right side (whose columns the join gave new IDs), cannot be
    told apart: ``t.join(t.select("k"), t.k < t.k)`` raises. Taken from a DataFrame of the left side
    only, it is the left column (``a = t.filter(..)``; ``a.join(t, a.v > 0)``)."""
    if not mapping:
        return
    inside = list(_rels_in(right))
    for e in _walk(cond):
        if (
            isinstance(e, AttrRef)
            and e.id in mapping
            and e.origin is not None
            and any(n is e.origin for n in inside)
        ):
            raise AnalysisError(
                f"[_LEGACY_ERROR_TEMP_1182] column {e.name} is ambiguous: the join's two sides come from "
                "the same DataFrame (alias the DataFrames, df.alias('l'), and use F.col('l.name'))",
                e.loc,
            )


def _rels_in(rel: R.Rel) -> Iterator[R.Rel]:
    yield rel
    for name in ("source", "left", "right"):
        child = getattr(rel, name, None)
        if isinstance(child, R.Rel):
            yield from _rels_in(child)
