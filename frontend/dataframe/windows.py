"""DataFrame window functions: ``Window.partitionBy(...).orderBy(...).rowsBetween(...)``,
``F.row_number().over(w)``, ``F.sum("v").over(w)``..., read into the kernel's ``Window`` node
(``sparklite.relational.windows``).

Why here and not in ``columns``/``functions``: a window call is not an expression of one row; it
becomes an operator (``Window``) under the ``select``/``withColumn`` that uses it, with a placeholder
column in its place (``WindowCalls``), as Spark's analyser extracts window expressions into a
``Window`` node under the ``Project``. The column names are Spark 4's: ``row_number() OVER (PARTITION
BY k ORDER BY o ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)``, ``RANK()``,
``lag(v, 1, NULL)``, a ``rowsBetween(-1, 1)`` frame printed ``-1 FOLLOWING AND 1 FOLLOWING``, and
``first(v)`` whatever ``ignorenulls`` says (all observed on PySpark 4, ``docs/semantics-notes.md``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from frontend.dataframe.columns import Agg, CExpr, Extension, Lit, Resolver, Scope, SortOrder, lit_pretty
from frontend.dataframe.values import ColV, ModV, PyV, SeqV, Value, WinSpecV, as_col
from sparklite.ast import Loc
from sparklite.errors import InputError, UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational import build, windows

WINDOW_CLASSES = ("pyspark.sql.Window", "pyspark.sql.window.Window")
_BOUNDS = {"unboundedPreceding": None, "unboundedFollowing": None, "currentRow": 0}
_SHOWN = {"rank": "RANK", "dense_rank": "DENSE_RANK", "percent_rank": "PERCENT_RANK"}


@dataclass(frozen=True)
class WinFn(Extension):
    """A function that only means something over a window (``F.row_number()``, ``F.lag(c, 1, 0)``,
    ``F.first(c)``...): ``offset`` is lag/lead's offset or ntile's bucket count, ``default`` lag/lead's
    default value."""

    name: str
    args: tuple[CExpr, ...] = ()
    offset: int = 0
    default: CExpr | None = None
    ignore_nulls: bool = False

    def kids(self) -> tuple[CExpr, ...]:
        return self.args + ((self.default,) if self.default is not None else ())

    def shown(self, show: Callable[[CExpr], str]) -> str:
        if self.name in ("lag", "lead"):
            default = "NULL" if self.default is None else show(self.default)
            return f"{self.name}({show(self.args[0])}, {self.offset}, {default})"
        if self.name == "ntile":
            return f"ntile({self.offset})"
        if self.name == "nth_value":
            return f"nth_value({show(self.args[0])}, {self.offset})"
        inner = ", ".join(show(a) for a in self.args)
        return f"{_SHOWN.get(self.name, self.name)}({inner})"

    def unresolved(self) -> UnsupportedError:
        why = "depends on input order" if self.name in ("first", "last") else "is a window function"
        return UnsupportedError(
            f"{self.name}() outside .over(window): it {why}", self.loc, construct=self.name
        )


@dataclass(frozen=True)
class Over(Extension):
    """``fn.over(spec)``."""

    fn: CExpr
    spec: WinSpecV

    def kids(self) -> tuple[CExpr, ...]:
        inner = self.fn.args if isinstance(self.fn, WinFn | Agg) else (self.fn,)
        return (*inner, *self.spec.partition, *self.spec.order)

    def shown(self, show: Callable[[CExpr], str]) -> str:
        order = [_order_key(o) for o in self.spec.order]
        text = windows.spec_text(
            [show(p) for p in self.spec.partition],
            [show(o) for o in order],
            self.frame(),
        )
        return f"{show(self.fn)} OVER ({text})"

    def frame(self) -> R.Frame:
        """The frame Spark prints and uses (a ranking or offset function's own one)."""
        name = self.fn.name if isinstance(self.fn, WinFn) else None
        if name in windows.RANKING:
            return windows.RANGE_TO_CURRENT if name == "cume_dist" else windows.ROWS_TO_CURRENT
        if name in windows.OFFSET:
            k = self.fn.offset if name == "lead" else -self.fn.offset  # type: ignore[union-attr]
            return R.Frame("rows", k, k)
        if self.spec.frame is not None:
            return R.Frame(*self.spec.frame)  # type: ignore[arg-type]
        return windows.default_frame(self.spec.order)  # type: ignore[arg-type]

    def unresolved(self) -> UnsupportedError:
        return UnsupportedError(
            "a window function is only supported in select() and withColumn()", self.loc, construct="over"
        )


def _order_key(o: CExpr) -> CExpr:
    return o if isinstance(o, SortOrder) else SortOrder(o, True, None, loc=o.loc)


# ---------------------------------------------------------------------------------------------------
# Building values
# ---------------------------------------------------------------------------------------------------


def window_class_path(path: str) -> str | None:
    """``Window.<tail>`` for a path under the ``Window`` class, else None."""
    for cls in WINDOW_CLASSES:
        if path.startswith(cls + "."):
            return path[len(cls) + 1 :]
    return None


def window_call(path: str, args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value | None:
    """``Window.partitionBy(...)`` & co (None: not a ``Window`` class method)."""
    tail = window_class_path(path)
    if tail is None:
        return None
    return spec_method(WinSpecV(), tail, args, kwargs, loc)


def spec_method(spec: WinSpecV, name: str, args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
    if kwargs:
        raise UnsupportedError(f"Window.{name} with keyword arguments is not supported", loc, construct=name)
    if name in ("partitionBy", "orderBy"):
        items = list(args[0].items) if len(args) == 1 and isinstance(args[0], SeqV) else args
        cols = tuple(as_col(v, loc, f"a {name} column") for v in items)
        if name == "partitionBy":
            return WinSpecV(cols, spec.order, spec.frame)
        return WinSpecV(spec.partition, cols, spec.frame)
    if name in ("rowsBetween", "rangeBetween"):
        if len(args) != 2:
            raise InputError(f"{name}() takes a start and an end", loc)
        start, end = (_bound(a, loc) for a in args)
        kind = "rows" if name == "rowsBetween" else "range"
        return WinSpecV(spec.partition, spec.order, (kind, start, end))
    raise UnsupportedError(f"Window.{name} is not supported", loc, construct=f"Window.{name}")


def _bound(v: Value, loc: Loc) -> int | None:
    if isinstance(v, ModV):
        tail = window_class_path(v.path)
        if tail in _BOUNDS:
            return _BOUNDS[tail]
    if isinstance(v, PyV) and isinstance(v.value, int) and not isinstance(v.value, bool):
        if v.value <= -sys.maxsize or v.value >= sys.maxsize:  # PySpark's thresholds: unbounded
            return None
        return v.value
    raise UnsupportedError(
        "a window frame bound that is not an integer constant", loc, construct="window frame"
    )


def over(col: CExpr, args: list[Value], kwargs: dict[str, Value], loc: Loc) -> ColV:
    """``col.over(spec)``."""
    spec = args[0] if len(args) == 1 and not kwargs else kwargs.get("window")
    if not isinstance(spec, WinSpecV):
        raise UnsupportedError("over() takes a window specification (Window...)", loc, construct="over")
    if not isinstance(col, WinFn | Agg):
        raise UnsupportedError(
            "over() of an expression that is not a window or aggregate function", loc, construct="over"
        )
    return ColV(Over(col, spec, loc=loc))


def _no_args(name: str) -> Callable[[list[Value], dict[str, Value], Loc], Value]:
    def h(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
        if args or kwargs:
            raise InputError(f"{name}() takes no arguments", loc)
        return ColV(WinFn(name, loc=loc))

    return h


def _int(v: Value, loc: Loc, what: str) -> int:
    if isinstance(v, PyV) and isinstance(v.value, int) and not isinstance(v.value, bool):
        return v.value
    raise UnsupportedError(f"{what} that is not an integer constant", loc, construct="window function")


def _offset_fn(name: str) -> Callable[[list[Value], dict[str, Value], Loc], Value]:
    def h(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
        params = ["col", "offset", "default"]
        if len(args) > 3 or set(kwargs) - set(params):
            raise InputError(f"{name}(col, offset=1, default=None)", loc)
        bound = dict(zip(params, args, strict=False)) | kwargs
        if "col" not in bound:
            raise InputError(f"{name}() needs a column", loc)
        offset = _int(bound.get("offset", PyV(1)), loc, f"the offset of {name}")
        d = bound.get("default", PyV(None))
        if not isinstance(d, PyV):
            raise UnsupportedError(f"a default of {name} that is not a constant", loc, construct=name)
        default = None if d.value is None else Lit(d.value, loc=loc)
        return ColV(WinFn(name, (as_col(bound["col"], loc),), offset, default, loc=loc))

    return h


def _ntile(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
    n = args[0] if len(args) == 1 and not kwargs else kwargs.get("n")
    if n is None:
        raise InputError("ntile(n)", loc)
    return ColV(WinFn("ntile", (), _int(n, loc, "the bucket count of ntile"), loc=loc))


def _value_fn(name: str) -> Callable[[list[Value], dict[str, Value], Loc], Value]:
    def h(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
        params = ["col", "ignorenulls"]
        bound = dict(zip(params, args, strict=False)) | kwargs
        if len(args) > 2 or set(kwargs) - set(params) or "col" not in bound:
            raise InputError(f"{name}(col, ignorenulls=False)", loc)
        ign = bound.get("ignorenulls", PyV(False))
        if not (isinstance(ign, PyV) and isinstance(ign.value, bool)):
            raise UnsupportedError(f"{name}'s ignorenulls must be a constant", loc, construct=name)
        return ColV(WinFn(name, (as_col(bound["col"], loc),), ignore_nulls=ign.value, loc=loc))

    return h


def _nth_value(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
    params = ["col", "offset", "ignoreNulls"]
    bound = dict(zip(params, args, strict=False)) | kwargs
    if len(args) > 3 or set(kwargs) - set(params) or "col" not in bound or "offset" not in bound:
        raise InputError("nth_value(col, offset, ignoreNulls=False)", loc)
    ign = bound.get("ignoreNulls", PyV(False))
    if not (isinstance(ign, PyV) and isinstance(ign.value, bool)):
        raise UnsupportedError("nth_value's ignoreNulls must be a constant", loc, construct="nth_value")
    offset = _int(bound["offset"], loc, "the offset of nth_value")
    col = as_col(bound["col"], loc)
    return ColV(WinFn("nth_value", (col,), offset, ignore_nulls=ign.value, loc=loc))


FUNCTIONS = {
    "nth_value": _nth_value,
    "row_number": _no_args("row_number"),
    "rank": _no_args("rank"),
    "dense_rank": _no_args("dense_rank"),
    "percent_rank": _no_args("percent_rank"),
    "cume_dist": _no_args("cume_dist"),
    "ntile": _ntile,
    "lag": _offset_fn("lag"),
    "lead": _offset_fn("lead"),
    "first": _value_fn("first"),
    "last": _value_fn("last"),
}


# ---------------------------------------------------------------------------------------------------
# Resolution
# ---------------------------------------------------------------------------------------------------


def has_window(e: CExpr) -> bool:
    from frontend.dataframe.columns import children

    return isinstance(e, Over) or any(has_window(c) for c in children(e))


def resolver(scope: Scope, calls: windows.WindowCalls, context: str) -> Resolver:
    """A resolver that turns each ``fn.over(spec)`` into a placeholder column of ``calls``."""
    plain = Resolver(scope, context=context)

    def hook(e: CExpr) -> R.Expr | None:
        if not isinstance(e, Over):
            return None
        from frontend.dataframe.columns import pretty

        return calls.ref(_call(e, plain), pretty(e), e.loc)

    return Resolver(scope, hook, context)


def _call(e: Over, res: Resolver) -> R.WindowCall:
    partition = [res.expr(p) for p in e.spec.partition]
    order = []
    for o in e.spec.order:
        key = _order_key(o)
        assert isinstance(key, SortOrder)
        order.append(build.sort_key(res.expr(key.operand), key.ascending, key.nulls_first))
    frame = None if e.spec.frame is None else R.Frame(*e.spec.frame)  # type: ignore[arg-type]
    fn = e.fn
    if isinstance(fn, Agg):
        if fn.kind not in ("sum", "avg", "min", "max", "count", "count_star"):
            raise UnsupportedError(f"{fn.shown}() over a window is not supported", e.loc, construct="over")
        return windows.call(fn.kind, [res.expr(a) for a in fn.args], partition, order, frame, loc=e.loc)
    assert isinstance(fn, WinFn)
    args = [res.expr(a) for a in fn.args]
    if fn.name in windows.OFFSET and fn.default is not None:
        args.append(res.expr(fn.default))
    return windows.call(
        fn.name, args, partition, order, frame, offset=fn.offset, ignore_nulls=fn.ignore_nulls, loc=e.loc
    )


def place(
    calls: windows.WindowCalls, source: R.Rel, exprs: Sequence[R.Expr], loc: Loc | None
) -> tuple[R.Rel, list[R.Expr]]:
    return calls.place(source, list(exprs), loc)


__all__ = [
    "FUNCTIONS",
    "Over",
    "WinFn",
    "has_window",
    "lit_pretty",
    "over",
    "place",
    "resolver",
    "spec_method",
    "window_call",
]
