"""Window functions in the relational kernel: typing (what the frontends call) and meaning (what the
interpreter calls), for the ``Window``/``WindowCall``/``Frame`` nodes of ``sparklite.relational.ast``.

Why one module for both: a window function's meaning is mostly *which rows it reads* (its partition,
their order, its frame), and the typing rules decide that frame (Spark's default frame depends on
whether the window is ordered; ranking and offset functions have a fixed one). Keeping the builder and
the evaluator side by side keeps the two readings of a frame identical.

Spark 4 facts relied on (``docs/semantics-notes.md``, "Window functions"):

- default frame: ``RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW`` with an ``ORDER BY`` (so peers,
  rows with equal order keys, are all in each other's frame), ``ROWS BETWEEN UNBOUNDED PRECEDING AND
  UNBOUNDED FOLLOWING`` without;
- ``row_number``/``rank``/``dense_rank``/``ntile`` are ``int`` and ``percent_rank``/``cume_dist``
  ``double``, never NULL; they need an ORDER BY; ``lag``/``lead`` keep their argument's type (the
  default is cast to it) and may be NULL; ``first``/``last`` may be NULL; the aggregates are typed as
  in a ``groupBy``;
- partition keys group as ``groupBy`` keys do (NULLs together, NaNs together, -0.0 with 0.0); order keys
  sort as ``orderBy`` does (NULLS FIRST ascending, LAST descending by default).

**Ties.** Inside a partition Spark orders rows by the order keys only; among *peers* the order is
whatever the shuffle produced. ``row_number``, ``ntile``, ``lag``, ``lead``, ``first``, ``last`` and
any aggregate over a ``ROWS`` frame that is not the whole partition can then give tied rows different
values in another run. When peers that differ somewhere exist under such a call, the interpreter adds
``CAVEAT_WINDOW_TIES``: its answer (input order among peers, a stable sort) is one of Spark's
possible answers, not the only one, so a difference resting on it waits for Spark.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Sequence
from typing import Any, Protocol

from sparklite.ast import Loc
from sparklite.errors import UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational.functions import compare, norm_key
from sparklite.relational.types import DOUBLE, INT, Field, NullType, Schema

CAVEAT_WINDOW_TIES = (
    "nondeterministic: a window function over tied rows (the order among peers is Spark's choice)"
)

RANKING = ("row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile")
OFFSET = ("lag", "lead")
VALUE = ("first", "last", "nth_value")
AGGREGATES = ("sum", "avg", "min", "max", "count", "count_star")
NAMES = RANKING + OFFSET + VALUE + AGGREGATES

ROWS_TO_CURRENT = R.Frame("rows", None, 0)
WHOLE_PARTITION = R.Frame("rows", None, None)
RANGE_TO_CURRENT = R.Frame("range", None, 0)


# ---------------------------------------------------------------------------------------------------
# Typing
# ---------------------------------------------------------------------------------------------------


def default_frame(order: Sequence[R.SortKey]) -> R.Frame:
    """Spark's frame when the window names none."""
    return RANGE_TO_CURRENT if order else WHOLE_PARTITION


def call(
    name: str,
    args: Sequence[R.Expr],
    partition: Sequence[R.Expr],
    order: Sequence[R.SortKey],
    frame: R.Frame | None,
    *,
    offset: int = 0,
    ignore_nulls: bool = False,
    loc: Loc | None = None,
) -> R.WindowCall:
    """A window function typed as Spark 4 types it. ``frame`` None: the default (or the function's
    fixed frame). A frame given to a ranking or offset function, an unordered ranking function, a
    RANGE frame with a value offset: located refusals."""
    from sparklite.relational import build

    if name not in NAMES:
        raise UnsupportedError(f"window function {name} is not supported", loc, construct=f"window {name}")
    if (
        frame is not None
        and frame.kind == "range"
        and (frame.start not in (None, 0) or frame.end not in (None, 0))
    ):
        raise UnsupportedError(
            "a RANGE window frame with a value offset is not supported", loc, construct="window RANGE offset"
        )
    if frame is not None and frame.start is not None and frame.end is not None and frame.start > frame.end:
        raise UnsupportedError(
            "a window frame whose start is after its end is not supported", loc, construct="window frame"
        )
    part, keys = tuple(partition), tuple(order)
    if (name in RANKING or name in OFFSET or name == "nth_value") and not keys:
        raise UnsupportedError(
            f"{name} over a window without ORDER BY (Spark rejects it) is not supported",
            loc,
            construct=f"window {name}",
        )
    if name in RANKING or name in OFFSET:
        if not keys:
            raise UnsupportedError(
                f"{name} over a window without ORDER BY (Spark rejects it) is not supported",
                loc,
                construct=f"window {name}",
            )
        if frame is not None:
            raise UnsupportedError(
                f"{name} over an explicit window frame is not supported", loc, construct="window frame"
            )
    if name in RANKING:
        fixed = RANGE_TO_CURRENT if name == "cume_dist" else ROWS_TO_CURRENT  # as Spark prints them
        if name == "ntile" and offset <= 0:
            raise UnsupportedError(
                "ntile with a bucket count that is not a positive literal is not supported",
                loc,
                construct="window ntile",
            )
        t = DOUBLE if name in ("percent_rank", "cume_dist") else INT
        return R.WindowCall(name, (), part, keys, fixed, t, False, offset=offset, loc=loc)
    if name in OFFSET:
        value, default = args[0], args[1] if len(args) > 1 else None
        if default is None or isinstance(default.type, NullType):
            default = R.Lit(None, value.type)
        elif default.type != value.type:
            if not build.can_cast(default.type, value.type):
                raise build.AnalysisError(
                    f"{name}: the default of type {default.type.simple} cannot be "
                    f"cast to {value.type.simple}",
                    loc,
                )
            default = build.cast(default, value.type)
        k = offset if name == "lead" else -offset
        fixed = R.Frame("rows", k, k)
        return R.WindowCall(
            name,
            (value, default),
            part,
            keys,
            fixed,
            value.type,
            True,
            offset=offset,
            ignore_nulls=ignore_nulls,
            loc=loc,
        )
    fr = frame if frame is not None else default_frame(keys)
    if name == "nth_value" and offset <= 0:
        raise UnsupportedError(
            "nth_value with an offset that is not a positive literal is not supported",
            loc,
            construct="window nth_value",
        )
    if name in VALUE:
        (value,) = args
        return R.WindowCall(
            name,
            (value,),
            part,
            keys,
            fr,
            value.type,
            True,
            offset=offset,
            ignore_nulls=ignore_nulls,
            loc=loc,
        )
    agg = build.agg(name, args, loc=loc)  # type: ignore[arg-type]
    return R.WindowCall(name, agg.args, part, keys, fr, agg.type, agg.nullable, loc=loc)


def window(
    source: R.Rel, calls: Sequence[R.WindowCall], names: Sequence[str], loc: Loc | None = None
) -> R.Window:
    fields = source.schema.fields + tuple(
        Field(n, c.type, c.nullable) for c, n in zip(calls, names, strict=True)
    )
    return R.Window(source, tuple(calls), Schema(fields), loc=loc)


def frame_text(f: R.Frame, preceding: bool = False) -> str:
    """A frame as Spark prints it (``ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW``). Spark prints
    a bound that is a literal as ``<n> FOLLOWING``, also a negative one (``rowsBetween(-1, 1)`` is
    ``-1 FOLLOWING AND 1 FOLLOWING``, and so is ``lag``'s frame), and the parser's ``1 PRECEDING`` (a
    negation) as ``1 PRECEDING``: ``preceding`` says which."""

    def bound(b: int | None, unbounded: str) -> str:
        if b is None:
            return f"UNBOUNDED {unbounded}"
        if b == 0:
            return "CURRENT ROW"
        return f"{-b} PRECEDING" if b < 0 and preceding else f"{b} FOLLOWING"

    return f"{f.kind.upper()} BETWEEN {bound(f.start, 'PRECEDING')} AND {bound(f.end, 'FOLLOWING')}"


def spec_text(partition: Sequence[str], order: Sequence[str], frame: R.Frame, preceding: bool = False) -> str:
    """A window specification as Spark prints it in a generated column name."""
    parts = []
    if partition:
        parts.append("PARTITION BY " + ", ".join(partition))
    if order:
        parts.append("ORDER BY " + ", ".join(order))
    parts.append(frame_text(frame, preceding))
    return " ".join(parts)


def shown_name(name: str) -> str:
    """The function's name in a generated column name (Spark prints these three in capitals)."""
    return name.upper() if name in ("rank", "dense_rank", "percent_rank") else name


class WindowCalls:
    """The window calls of one SELECT list (or DataFrame ``select``/``withColumn``), in order, equal
    calls shared as Spark shares them.

    Why placeholders: while a SELECT list is read, the relation the calls read is not built yet (an
    aggregate query keeps discovering aggregate calls), so each call is first a placeholder column (a
    negative index) and ``place`` rewrites the placeholders to the columns the ``Window`` node appends
    once the relation below it is known."""

    def __init__(self) -> None:
        self.calls: list[R.WindowCall] = []
        self.names: list[str] = []

    def ref(self, call: R.WindowCall, name: str, loc: Loc | None) -> R.Col:
        if call in self.calls:
            i = self.calls.index(call)
        else:
            self.calls.append(call)
            self.names.append(name)
            i = len(self.calls) - 1
        return R.Col(-1 - i, name, call.type, call.nullable, loc=loc)

    def place(self, source: R.Rel, exprs: list[R.Expr], loc: Loc | None) -> tuple[R.Rel, list[R.Expr]]:
        """The ``Window`` node over ``source`` and ``exprs`` reading its columns (unchanged without
        calls)."""
        if not self.calls:
            return source, exprs
        base = len(source.schema)
        node = window(source, self.calls, self.names, loc=loc)
        return node, [_placed(e, base) for e in exprs]


def _placed(node: Any, base: int) -> Any:
    return _map_cols(node, lambda c: dataclasses.replace(c, index=base - 1 - c.index) if c.index < 0 else c)


def _map_cols(node: Any, fn: Any) -> Any:
    """``node`` with every column reference ``c`` replaced by ``fn(c)``."""
    if isinstance(node, R.Col):
        return fn(node)
    if isinstance(node, tuple):
        return tuple(_map_cols(x, fn) for x in node)
    if isinstance(node, R.RNode):
        changes = {
            f.name: _map_cols(getattr(node, f.name), fn)
            for f in dataclasses.fields(node)
            if f.compare and f.name != "loc" and isinstance(getattr(node, f.name), R.RNode | tuple)
        }
        return dataclasses.replace(node, **changes) if changes else node
    return node


def pushed_filter(f: R.Filter) -> R.Rel | None:
    """``filter(p)`` above a window (directly or through a projection) moved below it, when ``p`` reads
    only columns that every call partitions by and cannot raise: it then keeps or drops whole
    partitions, and the window computes the same values in the partitions it keeps (Spark's own
    pushdown of a filter through a window on partition keys). None when that does not hold; a filter
    on another column changes what the partitions hold and is never moved."""
    from sparklite.relational import effects

    src, project = f.source, None
    if isinstance(src, R.Project) and isinstance(src.source, R.Window):
        project, w = src, src.source
        pred = _substituted(f.pred, project.exprs)
    elif isinstance(src, R.Window):
        w, pred = src, f.pred
    else:
        return None
    if effects.may_raise(pred):
        return None
    read: set[int] = set()
    _collect_cols(pred, read)
    keys = set.intersection(*({p.index for p in c.partition if isinstance(p, R.Col)} for c in w.calls))
    if not read or not read <= keys or max(read) >= len(w.source.schema):
        return None
    if any(_holds_double(w.source.schema.fields[i].type) for i in read):
        # a partition groups -0.0 with 0.0 (and every NaN), but a filter can tell them apart
        # (cast(d AS string) = '0.0'): it then splits a partition, and Spark 4 does not always move it
        # (a DataFrame select(window).filter(...) counts both rows; review s4, tests/test_review_s4.py)
        return None
    moved = dataclasses.replace(w, source=R.Filter(w.source, pred, loc=f.loc))
    return moved if project is None else dataclasses.replace(project, source=moved)


def zero_key_filter(f: R.Filter, parts: Sequence[Sequence[tuple]]) -> bool:
    """Whether ``filter(p)`` sits on an aggregate, a window or a distinct (through projections and
    unions), reads a column that may hold a double, and meets a zero there: Spark's optimizer moves such
    a filter below the operator (where -0.0 is still -0.0) unless the plan is cached, and the kernel
    cannot tell which (``cache()`` is dropped), so a difference resting on it waits for Spark
    (review s4)."""
    if not _keyed(f.source):
        return False
    read: set[int] = set()
    _collect_cols(f.pred, read)
    cols = [i for i in read if i < len(f.source.schema) and _holds_double(f.source.schema.fields[i].type)]
    return any(_has_zero(row[i]) for part in parts for row in part for i in cols)


def _keyed(node: Any) -> bool:
    """An operator that groups by value (aggregate, window, distinct, dropDuplicates) under projections
    and unions (grouping sets are a union of aggregations)."""
    if isinstance(node, R.Project):
        return _keyed(node.source)
    if isinstance(node, R.SetOp):
        return _keyed(node.left) or _keyed(node.right)
    return isinstance(node, R.Aggregate | R.Window | R.Distinct | R.DropDuplicates)


def _has_zero(v: Any) -> bool:
    if isinstance(v, float):
        return v == 0.0
    return isinstance(v, tuple) and any(_has_zero(x) for x in v)


def _holds_double(t: Any) -> bool:
    """Whether values of type ``t`` may hold a double (whose -0.0 and NaNs group with 0.0 and NaN)."""
    return re.search(r"\b(double|float)\b", t.simple) is not None


def _substituted(e: Any, exprs: Sequence[R.Expr]) -> Any:
    return _map_cols(e, lambda c: exprs[c.index])


def _collect_cols(e: Any, out: set[int]) -> None:
    if isinstance(e, R.Col):
        out.add(e.index)
    elif isinstance(e, tuple):
        for x in e:
            _collect_cols(x, out)
    elif isinstance(e, R.RNode):
        for f in dataclasses.fields(e):
            if f.compare and f.name != "loc":
                _collect_cols(getattr(e, f.name), out)


def tie_sensitive(c: R.WindowCall) -> bool:
    """Does ``c``'s value for a row depend on the order among its peers?"""
    if c.name in ("row_number", "ntile") or c.name in OFFSET or c.name in VALUE:
        return True
    return (
        c.frame.kind == "rows"
        and not (c.frame.start is None and c.frame.end is None)
        and c.name in AGGREGATES
    )


def window_call_code(c: R.WindowCall, expr: Any, sort_key: Any) -> str:
    """The PySpark expression for ``c`` (for ``codegen``): ``expr``/``sort_key`` give the code of an
    expression and of an order key over the input's columns."""
    spec = f"Window.partitionBy({', '.join(expr(p) for p in c.partition)})"
    if c.order:
        spec += f".orderBy({', '.join(sort_key(k) for k in c.order)})"
    if c.name in AGGREGATES or c.name in VALUE:

        def bound(b: int | None, unbounded: str) -> str:
            return f"Window.{unbounded}" if b is None else str(b)

        method = "rowsBetween" if c.frame.kind == "rows" else "rangeBetween"
        spec += (
            f".{method}({bound(c.frame.start, 'unboundedPreceding')}, "
            f"{bound(c.frame.end, 'unboundedFollowing')})"
        )
    args = [expr(a) for a in c.args]
    if c.name in ("row_number", "rank", "dense_rank", "percent_rank", "cume_dist"):
        fn = f"F.{c.name}()"
    elif c.name == "ntile":
        fn = f"F.ntile({c.offset})"
    elif c.name in OFFSET:
        # PySpark's F.lag/F.lead have no ignoreNulls; Spark's function registry takes it as a 4th argument
        nulls = ", F.lit(True)" if c.ignore_nulls else ""
        fn = f"F.call_function({c.name!r}, {args[0]}, F.lit({c.offset}), {args[1]}{nulls})"
    elif c.name == "nth_value":
        fn = f"F.nth_value({args[0]}, {c.offset}, ignoreNulls={c.ignore_nulls})"
    elif c.name in VALUE:
        fn = f"F.{c.name}({args[0]}, ignorenulls={c.ignore_nulls})"
    elif c.name == "count_star":
        fn = "F.count(F.lit(1))"
    else:
        fn = f"F.{c.name}({args[0]})"
    return f"{fn}.over({spec})"


def as_aggregate(c: R.WindowCall) -> R.AggCall:
    return R.AggCall(c.name, c.args, c.type, c.nullable)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------------
# Meaning
# ---------------------------------------------------------------------------------------------------


class Interp(Protocol):
    """What the evaluator needs of ``sparklite.relational.interpreter._Interp``."""

    caveats: set[str]

    def ev(self, e: R.Expr, row: tuple[Any, ...]) -> Any: ...
    def demand(self, v: Any) -> Any: ...
    def _agg(self, call: R.AggCall, members: list[tuple[int, tuple[Any, ...]]], narrow: bool) -> Any: ...


def evaluate(
    interp: Interp, w: R.Window, rows: list[tuple[Any, ...]], same: Any, poisoned: Any
) -> list[tuple[Any, ...]]:
    """The rows of ``w`` over its input ``rows`` (in input order): each row with its calls' values.
    ``same(a, b)``: are two input rows indistinguishable (so swapping them changes nothing)?
    ``poisoned(v)``: is ``v`` a failed computation (the interpreter's lazy error)?"""
    values: list[list[Any]] = [[] for _ in rows]
    for c in w.calls:
        for i, v in _call_values(interp, c, rows, same, poisoned).items():
            values[i].append(v)
    return [row + tuple(vs) for row, vs in zip(rows, values, strict=True)]


def _call_values(
    interp: Interp, c: R.WindowCall, rows: list[tuple[Any, ...]], same: Any, poisoned: Any
) -> dict[int, Any]:
    groups: dict[tuple, list[int]] = {}
    for i, row in enumerate(rows):
        key = tuple(norm_key(interp.demand(interp.ev(p, row))) for p in c.partition)
        groups.setdefault(key, []).append(i)
    out: dict[int, Any] = {}
    # Spark computes a call's arguments for every input row below the window (its analyser extracts
    # them into a projection): one failing row fails the call for all rows, whatever frame reads it
    for row in rows:
        for a in c.args:
            v = interp.ev(a, row)
            if poisoned(v):
                return dict.fromkeys(range(len(rows)), v)
    cmp = functools.partial(compare_keys, c.order)
    for members in groups.values():
        keyed = [(tuple(interp.demand(interp.ev(k.expr, rows[i])) for k in c.order), i) for i in members]
        keyed.sort(key=functools.cmp_to_key(lambda a, b: cmp(a[0], b[0])))
        peer: list[int] = []
        for p, item in enumerate(keyed):
            peer.append(0 if p == 0 else peer[-1] + (cmp(keyed[p - 1][0], item[0]) != 0))
        order = [i for _, i in keyed]
        if tie_sensitive(c) and _distinct_peers(order, peer, rows, same):
            interp.caveats.add(CAVEAT_WINDOW_TIES)
        for p, v in enumerate(_partition_values(interp, c, [rows[i] for i in order], peer)):
            out[order[p]] = v
    return out


def compare_keys(keys: Sequence[R.SortKey], a: tuple, b: tuple) -> int:
    """Order two rows' key values as ``orderBy`` does (NULLs per ``nulls_first``; also the
    interpreter's ``Sort``)."""
    for spec, x, y in zip(keys, a, b, strict=True):
        if x is None or y is None:
            if x is None and y is None:
                continue
            c = -1 if x is None else 1
            c = c if spec.nulls_first else -c
        else:
            c = compare(x, y) if spec.ascending else -compare(x, y)
        if c:
            return c
    return 0


def _distinct_peers(order: list[int], peer: list[int], rows: list[tuple[Any, ...]], same: Any) -> bool:
    for p in range(1, len(order)):
        if peer[p] == peer[p - 1]:
            first = next(q for q in range(p) if peer[q] == peer[p])
            if not same(rows[order[first]], rows[order[p]]):
                return True
    return False


def _partition_values(
    interp: Interp, c: R.WindowCall, part: list[tuple[Any, ...]], peer: list[int]
) -> list[Any]:
    n = len(part)
    first_of = {}
    last_of = {}
    for p, g in enumerate(peer):
        first_of.setdefault(g, p)
        last_of[g] = p
    if c.name == "row_number":
        return [p + 1 for p in range(n)]
    if c.name == "rank":
        return [first_of[peer[p]] + 1 for p in range(n)]
    if c.name == "dense_rank":
        return [peer[p] + 1 for p in range(n)]
    if c.name == "percent_rank":
        return [first_of[peer[p]] / (n - 1) if n > 1 else 0.0 for p in range(n)]
    if c.name == "cume_dist":
        return [(last_of[peer[p]] + 1) / n for p in range(n)]
    if c.name == "ntile":
        q, r = divmod(n, c.offset)
        big = r * (q + 1)
        return [p // (q + 1) + 1 if p < big else r + (p - big) // q + 1 for p in range(n)]
    if c.name in OFFSET:
        step = c.offset if c.name == "lead" else -c.offset
        if c.ignore_nulls and step:
            return [_offset_ignoring_nulls(c, interp, part, p, step) for p in range(n)]
        out = []
        for p in range(n):
            j = p + step
            out.append(interp.ev(c.args[0], part[j]) if 0 <= j < n else interp.ev(c.args[1], part[p]))
        return out
    out = []
    agg = as_aggregate(c) if c.name in AGGREGATES else None
    for p in range(n):
        lo, hi = _frame(c.frame, p, n, first_of[peer[p]], last_of[peer[p]])
        frame_rows = part[lo : hi + 1] if lo <= hi else []
        if agg is not None:
            out.append(interp._agg(agg, [(0, r) for r in frame_rows], False))
            continue
        vs = [interp.ev(c.args[0], r) for r in frame_rows]
        if c.ignore_nulls:
            vs = [v for v in vs if v is not None]
        if c.name == "nth_value":  # the offset-th row of the frame, NULL when it has fewer
            out.append(vs[c.offset - 1] if len(vs) >= c.offset else None)
        elif not vs:
            out.append(None)
        else:
            out.append(vs[0] if c.name == "first" else vs[-1])
    return out


def _offset_ignoring_nulls(c: R.WindowCall, interp: Any, part: Sequence[Any], p: int, step: int) -> Any:
    """``lag``/``lead(x, n) IGNORE NULLS`` as Spark 4 computes it (docs/semantics-notes.md): the |n|-th
    non-NULL ``x`` strictly before (lag) or after (lead) row ``p`` in the ordered partition, else the
    default; an offset of 0 is the row's own ``x``, NULL or not (handled by the caller)."""
    direction, wanted = (1, step) if step > 0 else (-1, -step)
    j = p + direction
    while 0 <= j < len(part):
        v = interp.ev(c.args[0], part[j])
        if v is not None:
            wanted -= 1
            if wanted == 0:
                return v
        j += direction
    return interp.ev(c.args[1], part[p])


def _frame(f: R.Frame, p: int, n: int, peers_start: int, peers_end: int) -> tuple[int, int]:
    """The positions ``[lo, hi]`` of row ``p``'s frame in its partition of ``n`` ordered rows."""
    if f.kind == "range":
        if f.start not in (None, 0) or f.end not in (None, 0):
            raise ValueError("RANGE frames with value offsets are not modelled")
        lo = 0 if f.start is None else peers_start
        hi = n - 1 if f.end is None else peers_end
        return lo, hi
    lo = 0 if f.start is None else max(0, p + f.start)
    hi = n - 1 if f.end is None else min(n - 1, p + f.end)
    return lo, hi
