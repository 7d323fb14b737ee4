"""SQL window functions: ``f(...) OVER (PARTITION BY ... ORDER BY ... ROWS|RANGE BETWEEN ...)``, named
windows (``WINDOW w AS (...)``) and windows over aggregates (``sum(sum(x)) OVER (...)``), translated to
the kernel's ``Window`` node (``sparklite.relational.windows``).

Spark evaluates the window functions of a SELECT after WHERE, GROUP BY and HAVING and before
DISTINCT, ORDER BY and LIMIT, over the rows the SELECT list reads (the aggregate's output in an
aggregate query): the calls are collected while the list is read (``windows.WindowCalls``) and placed
between that relation and the projection.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from sqlglot import exp

from frontend.sql.scopes import _E, Hook, _called_name, _Ctx
from sparklite.ast import Loc
from sparklite.relational import ast as R
from sparklite.relational import build, windows
from sparklite.relational.build import AnalysisError
from sparklite.relational.windows import WindowCalls

_FUNCTION_NAMES = {
    "row_number": "row_number",
    "rank": "rank",
    "dense_rank": "dense_rank",
    "percent_rank": "percent_rank",
    "cume_dist": "cume_dist",
    "ntile": "ntile",
    "lag": "lag",
    "lead": "lead",
    "first": "first",
    "first_value": "first",
    "last": "last",
    "last_value": "last",
    "nth_value": "nth_value",
    "sum": "sum",
    "avg": "avg",
    "mean": "avg",
    "min": "min",
    "max": "max",
    "count": "count",
}


class WindowsMixin:
    """Window translation for ``translator._Translator``."""

    def window_hook(self, calls: WindowCalls, named: dict[str, exp.Window], inner: Hook | None) -> Hook:
        """A hook that reads ``f(...) OVER (...)`` into ``calls`` (its arguments, partition and order
        keys through ``inner``, the SELECT list's own hook) and otherwise defers to ``inner``."""

        def hook(node: exp.Expression, ctx: _Ctx) -> _E | None:
            if isinstance(node, exp.Window):
                c = dataclasses.replace(ctx, hook=hook)
                call, name = self.window_call(node, named, c)
                return _E(calls.ref(call, name, self.loc(node)), name)  # type: ignore[attr-defined]
            return inner(node, ctx) if inner is not None else None

        return hook

    def qualify(
        self, sel: exp.Select, calls: WindowCalls, aliases: list[tuple[str, _E]], ctx: _Ctx
    ) -> R.Expr | None:
        """``QUALIFY cond`` (Spark 4 reads it): a filter on the rows after the window functions, before
        the projection; ``cond`` may use window functions and the SELECT list's aliases (an alias that
        is also an input column name is refused: which one Spark reads was not checked)."""
        node = sel.args.get("qualify")
        if node is None:
            return None
        by_alias = {a.lower(): e for a, e in aliases}
        expr = self.expr  # type: ignore[attr-defined]

        def alias_hook(n: exp.Expression, c: _Ctx) -> _E | None:
            if isinstance(n, exp.Column) and not n.table and n.name.lower() in by_alias:
                if self.lookup(c.scope, "", n.name):  # type: ignore[attr-defined]
                    raise self.unsupported("a QUALIFY name that is both an alias and a column", n)  # type: ignore[attr-defined]
                return by_alias[n.name.lower()]
            return None

        hook = self.window_hook(calls, self.named_windows(sel), alias_hook)
        pred = expr(node.this, dataclasses.replace(ctx, clause="QUALIFY", hook=hook))
        self.check_predicate(pred, node.this, "QUALIFY")  # type: ignore[attr-defined]
        return pred.expr

    def named_windows(self, sel: exp.Select) -> dict[str, exp.Window]:
        out: dict[str, exp.Window] = {}
        for w in sel.args.get("windows") or []:
            out[w.name.lower()] = w
        return out

    def window_call(
        self, node: exp.Window, named: dict[str, exp.Window], ctx: _Ctx
    ) -> tuple[R.WindowCall, str]:
        loc: Loc | None = self.loc(node)  # type: ignore[attr-defined]
        spec = node
        alias = node.args.get("alias")
        if alias is not None:
            found = named.get(alias.name.lower())
            if found is None:
                raise AnalysisError(f"window {alias.name} is not defined (MISSING_WINDOW_SPECIFICATION)", loc)
            if node.args.get("partition_by") or node.args.get("order") or node.args.get("spec"):
                raise self.unsupported("a window that refines a named window", node)  # type: ignore[attr-defined]
            spec = found
        fn = node.this
        ignore_nulls = False
        if isinstance(fn, exp.IgnoreNulls):
            ignore_nulls, fn = True, fn.this
        elif isinstance(fn, exp.RespectNulls):
            fn = fn.this
        called = _called_name(self.src, fn)  # type: ignore[attr-defined]
        name = _FUNCTION_NAMES.get(called)
        if name is None or isinstance(fn, exp.Filter):
            raise self.unsupported(f"window function {called}", node)  # type: ignore[attr-defined]
        expr = self.expr  # type: ignore[attr-defined]
        partition = [expr(p, ctx) for p in spec.args.get("partition_by") or []]
        order = []
        order_names = []
        order_node = spec.args.get("order")
        for o in order_node.expressions if order_node is not None else []:
            e = expr(o.this, ctx)
            desc = bool(o.args.get("desc"))
            key = dataclasses.replace(
                build.sort_key(e.expr, not desc, o.args.get("nulls_first")), loc=self.loc(o)
            )  # type: ignore[attr-defined]
            order.append(key)
            order_names.append(
                f"{e.name} {'DESC' if desc else 'ASC'} NULLS {'FIRST' if key.nulls_first else 'LAST'}"
            )
        frame = self.frame(spec.args.get("spec"), node)
        offset, args, shown = 0, [], []
        if name in ("lag", "lead"):
            value = expr(fn.this, ctx)
            off = fn.args.get("offset")
            offset = self.int_literal(off, node, f"the offset of {called}") if off is not None else 1
            args = [value.expr]
            shown = [value.name, str(offset)]
            default = fn.args.get("default")
            if default is not None:
                d = expr(default, ctx)
                args.append(d.expr)
                shown.append(d.name)
            else:
                shown.append("NULL")
        elif name == "ntile":
            offset = self.int_literal(fn.this, node, "the bucket count of ntile")
            shown = [str(offset)]
        elif name == "nth_value":
            value = expr(fn.this, ctx)
            off = fn.args.get("offset")
            if off is None:
                raise self.unsupported("nth_value without an offset", node)  # type: ignore[attr-defined]
            offset = self.int_literal(off, node, "the offset of nth_value")
            args, shown = [value.expr], [value.name, str(offset)]
        elif name in windows.RANKING:
            pass
        else:
            first = (
                fn.this
                if not isinstance(fn, exp.Anonymous)
                else (fn.expressions[0] if fn.expressions else None)
            )
            if isinstance(first, exp.Distinct):
                raise self.unsupported(f"{called}(DISTINCT ...) over a window", node)  # type: ignore[attr-defined]
            rest = list(fn.expressions)[1:] if isinstance(fn, exp.Anonymous) else []
            if name in ("first", "last") and (rest or fn.args.get("expression") is not None):
                raise self.unsupported(f"{called} with an ignoreNulls argument over a window", node)  # type: ignore[attr-defined]
            if isinstance(first, exp.Star):
                name = "count_star"
                shown = ["1"]
            elif first is not None:
                a = expr(first, ctx)
                args, shown = [a.expr], [a.name]
            if rest or (name != "count_star" and not args):
                raise self.unsupported(f"{called} with these arguments over a window", node)  # type: ignore[attr-defined]
        call = windows.call(
            name,
            args,
            [p.expr for p in partition],
            order,
            frame,
            offset=offset,
            ignore_nulls=ignore_nulls,
            loc=loc,
        )
        # a frame written n PRECEDING prints so; lag's own frame prints -1 FOLLOWING
        preceding = name not in windows.OFFSET
        text = windows.spec_text([p.name for p in partition], order_names, call.frame, preceding=preceding)
        # Spark names first/last without their ignore-nulls flag (seen for F.last(c, True)); nth_value's
        # spelling with it was not checked (an alias avoids relying on it)
        nulls = " IGNORE NULLS" if ignore_nulls and name == "nth_value" else ""
        return call, f"{windows.shown_name(called)}({', '.join(shown)}){nulls} OVER ({text})"

    def frame(self, spec: exp.WindowSpec | None, node: exp.Expression) -> R.Frame | None:
        if spec is None:
            return None
        kind = str(spec.args.get("kind") or "").lower()
        if kind not in ("rows", "range"):
            raise self.unsupported(f"a {kind.upper()} window frame", node)  # type: ignore[attr-defined]
        start = self.bound(spec.args.get("start"), spec.args.get("start_side"), node, "PRECEDING")
        end = self.bound(spec.args.get("end"), spec.args.get("end_side"), node, "FOLLOWING")
        return R.Frame(kind, start, end)  # type: ignore[arg-type]

    def bound(self, value: Any, side: Any, node: exp.Expression, unbounded_side: str) -> int | None:
        side_s = str(side or "").upper()
        if isinstance(value, str):
            v = value.upper()
            if v == "UNBOUNDED":
                if side_s != unbounded_side:
                    raise self.unsupported(f"UNBOUNDED {side_s} at this end of a window frame", node)  # type: ignore[attr-defined]
                return None
            if v == "CURRENT ROW":
                return 0
        if isinstance(value, exp.Expression):
            n = self.int_literal(value, node, "a window frame bound")
            return -n if side_s == "PRECEDING" else n
        raise self.unsupported("this window frame bound", node)  # type: ignore[attr-defined]

    def int_literal(self, value: exp.Expression, node: exp.Expression, what: str) -> int:
        if isinstance(value, exp.Literal) and not value.is_string and value.this.isdigit():
            return int(value.this)
        raise self.unsupported(f"{what} that is not an integer literal", node)  # type: ignore[attr-defined]
