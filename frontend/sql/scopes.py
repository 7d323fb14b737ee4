"""What every part of the SQL translator reads: source positions, scopes and naming helpers.

Positions map sqlglot's offsets back to the user's file (a ``spark.sql("...")`` string's place in it);
scopes are the columns a name may refer to; the naming helpers write Spark's "pretty" SQL of an
expression, which is a result column's name. Kept below the translator's parts so that they share one
copy and import no part of the translator.
"""

from __future__ import annotations

import datetime
import decimal
import math
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError, TokenError

from sparklite.ast import Loc
from sparklite.errors import SyntaxError_, UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational.types import (
    DecimalType,
    DoubleType,
    IntegralType,
    SqlType,
)


class SqlSyntaxError(SyntaxError_):
    """The SQL text does not parse (Spark would raise a ``ParseException``)."""


# ---------------------------------------------------------------------------------------------------
# Source positions and parsing
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Source:
    """The query text and where it starts in its file."""

    text: str
    filename: str | None
    line: int
    col: int

    def loc(self, offset: int) -> Loc:
        offset = max(0, min(offset, len(self.text)))
        line = self.text.count("\n", 0, offset)
        start = self.text.rfind("\n", 0, offset) + 1
        col = offset - start + 1
        return Loc(self.filename, self.line + line, col + (self.col - 1 if line == 0 else 0))

    def loc_line_col(self, line: int, col: int) -> Loc:
        return Loc(self.filename, self.line + line - 1, col + (self.col - 1 if line == 1 else 0))


def _parse(src: _Source) -> exp.Expression:
    try:
        stmts = [s for s in sqlglot.parse(src.text, read="spark") if s is not None]
    except ParseError as exc:
        err = exc.errors[0] if exc.errors else {}
        col = err.get("col", 1) - max(len(err.get("highlight") or "") - 1, 0)  # sqlglot gives the token's end
        loc = src.loc_line_col(err.get("line", 1), max(col, 1)) if err else src.loc(0)
        desc = err.get("description", str(exc)).split("<Token")[0].strip() if err else str(exc)
        word = (err.get("highlight") or "") if err else ""
        if desc.startswith("Expected TYPE after CAST") and word.isidentifier():
            # MySQL's CAST(x AS SIGNED): Spark's parser rejects it too (checked on Spark 4)
            desc = f"unsupported data type {word.upper()} in CAST (Spark: UNSUPPORTED_DATATYPE)"
        raise SqlSyntaxError(f"SQL syntax error: {desc}", loc) from None
    except TokenError as exc:
        raise SqlSyntaxError(
            f"SQL syntax error: {exc} (an unterminated string or comment?)", src.loc(0)
        ) from None
    except RecursionError:
        raise UnsupportedError("a query this deeply nested", src.loc(0), construct="deep nesting") from None
    if not stmts:
        raise SqlSyntaxError("no SQL query found", src.loc(0))
    if len(stmts) > 1:
        toks = sqlglot.tokenize(src.text, read="spark")
        second = next((b for a, b in zip(toks, toks[1:], strict=False) if a.text == ";"), None)
        loc = src.loc(second.start) if second is not None else _node_loc(src, stmts[1])
        raise UnsupportedError(
            "more than one SQL statement (a query is one statement)", loc, construct="multiple statements"
        )
    return stmts[0]


def _start(node: exp.Expression) -> int | None:
    """The smallest source offset of a token inside ``node`` (sqlglot keeps positions on leaves)."""
    best: int | None = None
    for n in node.walk():
        s = n.meta.get("start") if n.meta else None
        if s is not None and (best is None or s < best):
            best = s
    return best


def _end(node: exp.Expression) -> int | None:
    best: int | None = None
    for n in node.walk():
        e = n.meta.get("end") if n.meta else None
        if e is not None and (best is None or e > best):
            best = e
    return best


def _node_loc(src: _Source, node: exp.Expression | None) -> Loc:
    """Where ``node`` starts (its first positioned token; else its nearest positioned ancestor's)."""
    while node is not None:
        s = _start(node)
        if s is not None:
            return src.loc(s)
        node = node.parent
    return src.loc(0)


# ---------------------------------------------------------------------------------------------------
# Scopes: the columns a name may refer to
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Col:
    """A column a name can resolve to: position ``index`` in the scope's relation."""

    name: str
    index: int
    qualifier: str | None  # the table or alias it belongs to, lower-cased


@dataclass(frozen=True)
class _Scope:
    """What a FROM clause makes visible: ``star`` are the columns ``*`` expands to and unqualified names
    resolve among; ``tables`` the columns of each table or alias, for ``t.*`` and ``t.a`` (they include
    the key columns a ``USING`` join hides from ``*``)."""

    rel: R.Rel
    star: tuple[_Col, ...]
    tables: tuple[tuple[str, tuple[_Col, ...]], ...]

    def col(self, c: _Col, offset: int = 0, loc: Loc | None = None) -> R.Col:
        f = self.rel.schema.fields[c.index]
        return R.Col(c.index + offset, f.name, f.type, f.nullable, loc=loc)


def _scope_of(rel: R.Rel, qualifier: str | None) -> _Scope:
    cols = tuple(_Col(f.name, i, qualifier) for i, f in enumerate(rel.schema.fields))
    return _Scope(rel, cols, ((qualifier, cols),) if qualifier is not None else ())


@dataclass(frozen=True)
class _E:
    """A translated expression and the column name Spark gives it (``(a + 1)``, ``count(1)``)."""

    expr: R.Expr
    name: str


class _OuterReference(Exception):  # noqa: N818 - control flow, never escapes the translator
    """A subquery read a column of the enclosing query: it is correlated (caught by the caller)."""


Hook = Callable[[exp.Expression, "_Ctx"], "_E | None"]


@dataclass(frozen=True)
class _Ctx:
    """How to translate an expression: names resolve in ``scope`` (its columns at ``offset`` in the row
    the expression reads), then in the enclosing queries' ``outers`` (the nearest at offset 0 when
    ``outer_ok``, else reading it raises ``_OuterReference``). ``hook`` sees every node first (aggregate
    queries map grouped expressions and aggregates to the Aggregate's output; ORDER BY maps to the
    SELECT list's). ``scalars`` places the scalar subqueries already cross-joined into the scope."""

    scope: _Scope
    clause: str
    outers: tuple[_Scope, ...] = ()
    offset: int = 0
    outer_ok: bool = False
    hook: Hook | None = None
    scalars: tuple[tuple[int, int], ...] = ()
    in_aggregate: bool = False


@dataclass(frozen=True)
class _Env:
    """The CTEs in scope (lower-cased name -> relation, name as written) and the enclosing queries' FROM
    scopes, nearest first (for correlated subqueries)."""

    ctes: tuple[tuple[str, R.Rel], ...] = ()
    outers: tuple[_Scope, ...] = ()

    def cte(self, name: str) -> R.Rel | None:
        for n, rel in reversed(self.ctes):
            if n == name.lower():
                return rel
        return None


_AGGREGATES = {"count", "sum", "min", "max", "avg", "mean", "try_sum", "std"}
_NUMERIC_SUFFIX = re.compile(r"(?i)^(.*?)(bd|[lsydf])$")


def _called_name(src: _Source, node: exp.Expression) -> str:
    """The function name as the user wrote it (``ifnull``, not sqlglot's ``Coalesce``), lower-cased."""
    if node.meta and "start" in node.meta:
        return src.text[node.meta["start"] : node.meta["end"] + 1].lower()
    if isinstance(node, exp.Anonymous):
        return str(node.this).lower()
    first = _start(node)  # the name just before the first argument: "substr(s, 2)"
    if first is not None:
        m = re.search(r"([A-Za-z_][\w]*)\s*\(\s*(?:distinct\s+)?\(*\s*$", src.text[:first], re.I)
        if m:
            return m.group(1).lower()
    return node.key.lower()


def _unparen(node: exp.Expression) -> exp.Expression:
    while isinstance(node, exp.Paren):
        node = node.this
    return node


def _conjuncts(node: exp.Expression) -> list[exp.Expression]:
    node = _unparen(node)
    if isinstance(node, exp.And):
        return _conjuncts(node.this) + _conjuncts(node.expression)
    return [node]


def _subquery_predicate(node: exp.Expression) -> bool:
    """``[NOT] EXISTS (..)`` or ``x [NOT] IN (SELECT ..)``: a semi or anti join when a top-level
    conjunct of WHERE."""
    n = _unparen(node)
    if isinstance(n, exp.Not):
        n = _unparen(n.this)
    return isinstance(n, exp.Exists) or (isinstance(n, exp.In) and n.args.get("query") is not None)


def _walk_here(node: exp.Expression) -> Iterator[exp.Expression]:
    """The nodes of an expression, not descending into subqueries; of a window ``f(args) OVER (...)``
    the window node and what its arguments, partition and order keys hold (``sum(sum(x)) OVER ()`` holds
    the aggregate ``sum(x)``), not the window function itself."""
    yield node
    for child in _window_parts(node) if isinstance(node, exp.Window) else node.iter_expressions():
        if isinstance(child, exp.Subquery | exp.Select | exp.SetOperation | exp.Exists):
            continue
        yield from _walk_here(child)


def _window_parts(w: exp.Window) -> Iterator[exp.Expression]:
    fn = w.this
    while isinstance(fn, exp.IgnoreNulls | exp.RespectNulls):
        fn = fn.this
    if isinstance(fn, exp.Expression):
        yield from fn.iter_expressions()
    yield from w.args.get("partition_by") or []
    order = w.args.get("order")
    if order is not None:
        yield from order.iter_expressions()


def _is_aggregate(src: _Source, node: exp.Expression) -> bool:
    if isinstance(node, exp.Filter):
        return _is_aggregate(src, node.this)
    if isinstance(node, exp.AggFunc):
        return True
    return isinstance(node, exp.Anonymous) and str(node.this).lower() in _AGGREGATES


def _has_aggregate(src: _Source, node: exp.Expression) -> bool:
    return any(_is_aggregate(src, n) for n in _walk_here(node) if not isinstance(n, exp.Window))


def _has_column(node: exp.Expression) -> bool:
    return any(isinstance(n, exp.Column | exp.Subquery) for n in _walk_here(node))


# ---------------------------------------------------------------------------------------------------
# Naming helpers (Spark's "pretty" SQL of an expression, which is a result column's name)
# ---------------------------------------------------------------------------------------------------


def _type_sql(t: SqlType) -> str:
    if isinstance(t, DecimalType):
        return f"DECIMAL({t.precision},{t.scale})"
    return {
        "int": "INT",
        "bigint": "BIGINT",
        "smallint": "SMALLINT",
        "tinyint": "TINYINT",
        "double": "DOUBLE",
        "string": "STRING",
        "boolean": "BOOLEAN",
        "date": "DATE",
        "timestamp": "TIMESTAMP",
        "timestamp_ntz": "TIMESTAMP_NTZ",
        "void": "VOID",
    }[t.simple]


def _java_double(x: float) -> str:
    """Java's ``Double.toString`` (Spark prints double literals with it: ``1.0``, ``1.0E10``)."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0.0" if math.copysign(1, x) < 0 else "0.0"
    a = abs(x)
    sign = "-" if x < 0 else ""
    if 1e-3 <= a < 1e7:
        r = repr(a)
        return sign + (r if "." in r else r + ".0")
    d = decimal.Decimal(repr(a))
    digits = "".join(str(g) for g in d.as_tuple().digits).rstrip("0") or "0"
    exponent = d.adjusted()
    mantissa = digits[0] + "." + (digits[1:] or "0")
    return f"{sign}{mantissa}E{exponent}"


def _decimal_str(v: decimal.Decimal) -> str:
    """Java's ``BigDecimal.toString`` of a literal (no negative zero)."""
    if v == 0:
        v = v.copy_abs()
    return str(v)


def _lit_name(value: object, t: SqlType) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(t, DoubleType):
        return _java_double(float(value))  # type: ignore[arg-type]
    if isinstance(value, decimal.Decimal):
        return _decimal_str(value)
    if isinstance(value, datetime.datetime):  # sparklite.relational.timestamps
        from sparklite.relational.timestamps import format_default

        return f"{t.simple.upper()} '{format_default(value)}'"
    if isinstance(value, datetime.date):
        return f"DATE '{value.isoformat()}'"
    return str(value)




def _raise(exc: Exception) -> SqlType:
    raise exc


def _numeric(t: SqlType) -> bool:
    return isinstance(t, IntegralType | DoubleType | DecimalType)


def _func_args(node: exp.Func) -> list[exp.Expression]:
    """A sqlglot function node's arguments in call order: sqlglot may store them in another order
    (``locate(substr, str)`` keeps ``str`` first), so when every argument has a source position they
    are sorted by it; otherwise its ``arg_types`` order."""
    out: list[exp.Expression] = []
    for key in type(node).arg_types:
        v = node.args.get(key)
        if isinstance(v, exp.Expression):
            out.append(v)
        elif isinstance(v, list):
            out.extend(x for x in v if isinstance(x, exp.Expression))
    starts = [_start(a) for a in out]
    if all(s is not None for s in starts):
        out = [a for _, a in sorted(zip(starts, out, strict=True), key=lambda p: p[0])]  # type: ignore[arg-type,return-value]
    return out


def _construct_name(node: exp.Expression) -> str:
    names = {
        "bracket": "array/map subscripts",
        "dot": "struct field access",
        "interval": "INTERVAL literals",
        "hexstring": "binary literals",
        "bitwiseand": "bitwise operators",
        "bitwiseor": "bitwise operators",
        "bitwisexor": "bitwise operators",
        "bitwisenot": "bitwise operators",
        "lambda": "lambda functions",
        "placeholder": "query parameters",
        "parameter": "query parameters",
        "struct": "structs",
        "propertyeq": "structs (struct/named_struct fields)",
        "array": "arrays",
        "map": "maps",
        "collate": "COLLATE",
    }
    return names.get(node.key, node.key.upper())


def _shift(e: R.Expr, k: int) -> R.Expr:
    """``e`` reading its columns ``k`` places further right (the right side of a join)."""
    if isinstance(e, R.Col):
        return replace(e, index=e.index + k)
    return e  # only columns are shifted here (subquery outputs are plain columns)


def _cols_of(e: R.Expr) -> Iterator[R.Expr]:
    yield e
    for f in e.__dataclass_fields__:
        v = getattr(e, f)
        if isinstance(v, R.RNode) and not isinstance(v, R.SortKey):
            yield from _cols_of(v)  # type: ignore[arg-type]
        elif isinstance(v, tuple):
            for x in v:
                if isinstance(x, tuple):
                    for y in x:
                        if isinstance(y, R.RNode):
                            yield from _cols_of(y)  # type: ignore[arg-type]
                elif isinstance(x, R.RNode):
                    yield from _cols_of(x)  # type: ignore[arg-type]


def _identity(source: R.Rel, exprs: Sequence[R.Expr], names: Sequence[str]) -> bool:
    """Whether a projection would repeat its input exactly (``SELECT * FROM t``): then it is omitted."""
    fields = source.schema.fields
    return len(exprs) == len(fields) and all(
        isinstance(e, R.Col) and e.index == i and n == f.name
        for i, (e, n, f) in enumerate(zip(exprs, names, fields, strict=True))
    )


_KEYWORDS: dict[type, tuple[str, ...]] = {
    exp.Null: ("NULL",),
    exp.Boolean: ("TRUE", "FALSE"),
    exp.Star: ("*",),
    exp.Exists: ("EXISTS",),
    exp.Lateral: ("LATERAL",),
    exp.Case: ("CASE",),
    exp.Cast: ("CAST",),
    exp.TryCast: ("CAST", "TRY_CAST"),
    exp.Subquery: ("(",),
    exp.Values: ("VALUES",),
    exp.Where: ("WHERE",),
    exp.Having: ("HAVING",),
    exp.Group: ("GROUP",),
    exp.Order: ("ORDER",),
    exp.Limit: ("LIMIT",),
    exp.Select: ("SELECT",),
    exp.Join: ("LEFT", "RIGHT", "FULL", "INNER", "CROSS", "NATURAL", "JOIN", ","),
    exp.Interval: ("INTERVAL",),
}
