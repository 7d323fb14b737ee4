"""Spark SQL text -> the relational kernel (``sparklite.relational``), as Spark 4's analyser reads it.

``translate_query(text, catalog)`` translates one query over named relations (the tables of a ``.sql``
file's schema, or the views a DataFrame function registered before calling ``spark.sql``);
``translate_sql_file`` makes a ``RelProgram`` of a ``.sql`` file holding one query.

Why by hand over sqlglot's tree, and never through sqlglot's optimiser: its rules are not Spark's
(``simplify`` folds ``2147483647 + 1``, which raises in Spark; ``annotate_types`` types ``1.5`` as a
double). sqlglot is only the parser; names, types and implicit casts come from
``sparklite.relational.build`` (Spark's analysis rules, shared with the DataFrame frontend, so that
``SELECT a + 1 FROM t`` and ``t.select(F.col('a') + 1)`` give the same kernel). Where sqlglot's tree
forgets what Spark would see, the source text is read back through the tokens' positions: ``1L`` parses
as ``TRY_CAST(1 AS BIGINT)`` but is a bigint *literal*, ``a IS NOT NULL`` and ``NOT a IS NULL`` parse
alike but Spark names them differently.

The translation is faithful, subexpression for subexpression: what the user wrote is what the kernel
says (``x + 1 - 1`` stays, since it raises on ``int`` overflow); Spark's *optimiser* rewrites nothing
here. Spark's *analyser* rules are applied: ``BETWEEN`` is ``x >= lo AND x <= hi``; a simple
``CASE x WHEN v`` compares ``x = v``; ``USING`` joins output the key once, first (the left key for inner,
left and semi joins, the right key for right joins, ``coalesce`` for full joins); ``IN``/``EXISTS``
subqueries that are top-level ``AND``-ed ``WHERE`` conditions become semi joins and their negations
anti joins, after the other conditions (as ``RewritePredicateSubquery`` places them); ``NOT IN`` is
null-aware: its anti join's condition is ``(x = k) OR ((x = k) IS NULL)``, Spark's own; an
uncorrelated scalar subquery that is a global aggregate (exactly one row) is a cross join with it.
Output column names are Spark's (``(a + 1)``, ``count(1)``, a cast of a column keeps the column's
name...); ``tests/test_sql_frontend.py`` checks them against a real Spark.

An inline table (``VALUES (1, 2), (3, 4) AS t(a, b)``, in ``FROM`` or as the query; columns ``col1``,
``col2``... without names) is a ``Values`` relation, and so is what a ``SELECT`` without ``FROM`` reads
(Spark's one-row relation, no columns: ``SELECT 1`` projects it), also as a scalar subquery.

Everything else (window functions, ``LATERAL``, correlated scalar subqueries, unknown functions or
UDFs...) is an ``UnsupportedError`` naming the construct; what
Spark's analyser rejects is a ``build.AnalysisError``; an unknown table or column a
``NameResolutionError`` listing the candidates. All are located (file, line, column) in the user's
file, the query text starting at ``line``/``col`` there (a ``spark.sql("...")`` string's position).
"""

from __future__ import annotations

import bisect
import datetime
import decimal
import difflib
import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError, TokenError
from sqlglot.tokens import TokenType

from sparklite.ast import Loc
from sparklite.errors import InputError, NameResolutionError, SyntaxError_, UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational import build
from sparklite.relational.build import AnalysisError
from sparklite.relational.types import (
    BIGINT,
    BOOLEAN,
    DATE,
    DOUBLE,
    INT,
    SMALLINT,
    STRING,
    TINYINT,
    BooleanType,
    DecimalType,
    DoubleType,
    IntegralType,
    NullType,
    Schema,
    SqlType,
)

__all__ = ["translate_query", "translate_sql_file", "SqlSyntaxError"]


class SqlSyntaxError(SyntaxError_):
    """The SQL text does not parse (Spark would raise a ``ParseException``)."""


# ---------------------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------------------


def translate_query(
    text: str, catalog: Mapping[str, R.Rel], *, filename: str | None = None, line: int = 1, col: int = 1
) -> R.Rel:
    """The relation one SQL query computes. ``catalog`` maps lower-cased table/view names to relations;
    ``line``/``col`` are where ``text`` starts in ``filename`` (errors are located there)."""
    src = _Source(text, filename, line, col)

    def missing(name: str, loc: Loc | None) -> InputError:
        known = ", ".join(sorted(catalog)) or "none"
        return NameResolutionError(
            f"table or view {name!r} not found (known: {known}; a view must be "
            "registered with createOrReplaceTempView before spark.sql reads it)",
            loc,
        )

    tree = _parse(src)
    return _Translator(src, catalog, missing, tree).top(tree)


def translate_sql_file(
    path_or_text: str | Path,
    schemas: Mapping[str, Schema],
    *,
    filename: str | None = None,
    text: str | None = None,
) -> R.RelProgram:
    """A ``.sql`` file holding one query (``--`` and ``/* */`` comments allowed) as a program whose
    parameters are the tables it reads, in order of first appearance, named as ``schemas`` names them
    (matched case-insensitively); the program is named after the file.

    Called as ``translate_sql_file(path, schemas)`` (the file is read), ``translate_sql_file(path,
    schemas, text=content)`` or ``translate_sql_file(content, schemas, filename=path)`` (already read)."""
    if filename is not None:
        text = str(path_or_text) if text is None else text
    else:
        filename = str(path_or_text)
        if text is None:
            try:
                text = Path(path_or_text).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise InputError(f"cannot read {filename}: {exc}", Loc(filename, 1, 1)) from None
    src = _Source(text, filename, 1, 1)
    by_lower = {name.lower(): (name, schema) for name, schema in schemas.items()}
    tables: dict[str, R.Table] = {}

    class _Catalog(Mapping[str, R.Rel]):
        """The schemas' tables as the query reads them (each becomes a parameter when first read)."""

        def __getitem__(self, key: str) -> R.Rel:
            if key not in tables:
                name, schema = by_lower[key]
                tables[key] = build.table(name, schema)
            return tables[key]

        def __iter__(self) -> Iterator[str]:
            return iter(by_lower)

        def __len__(self) -> int:
            return len(by_lower)

    def missing(name: str, loc: Loc | None) -> InputError:
        known = ", ".join(n for n, _ in by_lower.values()) or "none"
        return NameResolutionError(
            f"table {name!r} has no schema (declared: {known}); declare it with "
            f"--schema '{name}=col1 INT, col2 STRING, ...' or a CREATE TABLE {name} (...) statement in "
            "the --schema file",
            loc,
        )

    tree = _parse(src)
    body = _Translator(src, _Catalog(), missing, tree).top(tree)
    first_seen: dict[str, int] = {}
    for t in tree.find_all(exp.Table):
        key = t.name.lower()
        if key in tables:
            first_seen[key] = min(first_seen.get(key, 1 << 62), _start(t) or 0)
    order = sorted(tables, key=lambda k: first_seen.get(k, 1 << 62))
    params = tuple(R.TableParam(tables[k].name, tables[k].schema) for k in order)
    return R.RelProgram(Path(filename).stem or "query", params, body, language="sql", loc=Loc(filename, 1, 1))


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


_AGGREGATES = {"count", "sum", "min", "max", "avg", "mean", "try_sum"}
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
    """The nodes of an expression, not descending into subqueries or window specifications."""
    yield node
    for child in node.iter_expressions():
        if isinstance(child, exp.Subquery | exp.Select | exp.SetOperation | exp.Exists | exp.Window):
            if isinstance(child, exp.Window):
                yield child
            continue
        yield from _walk_here(child)


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
    if isinstance(value, datetime.date):
        return f"DATE '{value.isoformat()}'"
    return str(value)


# ---------------------------------------------------------------------------------------------------
# The translator
# ---------------------------------------------------------------------------------------------------


class _Aggregation:
    """The grouping keys of an aggregate query and the aggregate calls its SELECT, HAVING and ORDER BY
    use (collected while translating them; one call per distinct aggregate, as Spark shares them)."""

    def __init__(self, keys: list[_E]) -> None:
        self.keys = keys
        self.aggs: list[R.AggCall] = []
        self.agg_names: list[str] = []

    def ref(self, call: R.AggCall, name: str, loc: Loc | None) -> R.Col:
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
                return R.Col(i, k.name, k.expr.type, k.expr.nullable, loc=loc)
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


class _Translator:
    """One query's translation: the source (for locations and raw tokens) and the catalog. Holds no
    state between calls beyond those."""

    def __init__(
        self,
        src: _Source,
        catalog: Mapping[str, R.Rel],
        missing: Callable[[str, Loc | None], InputError],
        tree: exp.Expression,
    ) -> None:
        self.src = src
        self.catalog = catalog
        self.missing = missing
        try:
            self.raw_tokens = sqlglot.tokenize(src.text, read="spark")
        except TokenError:  # pragma: no cover - the text parsed, so it tokenizes
            self.raw_tokens = []
        self.tokens = [(t.start, t.text.upper()) for t in self.raw_tokens]
        self.ends = sorted(n.meta["end"] for n in tree.walk() if n.meta and "end" in n.meta)

    # ---- errors and locations -------------------------------------------------------------------

    def loc(self, node: exp.Expression | None) -> Loc:
        return self.src.loc(self.offset(node)) if node is not None else self.src.loc(0)

    def offset(self, node: exp.Expression) -> int:
        """Where ``node`` starts in the text. sqlglot positions only some leaves (names, literals,
        function names); a keyword that starts a node (``EXISTS``, ``CASE``, ``LATERAL``, ``WHERE``,
        ``NULL``...) is found among the tokens between the previous positioned token and the node's
        first one, or, for a node without positioned tokens, after its parent's start."""
        keywords = _KEYWORDS.get(type(node), ())
        if isinstance(node, exp.SetOperation):  # the keyword between the operands
            lo, hi = _end(node.this), _start(node.expression)
            if lo is not None and hi is not None:
                for start, text in self.tokens:
                    if lo < start < hi and text in ("UNION", "INTERSECT", "EXCEPT", "MINUS"):
                        return start
        s = _start(node)
        if s is not None:
            if keywords:
                lo = (
                    self.ends[bisect.bisect_left(self.ends, s) - 1]
                    if bisect.bisect_left(self.ends, s)
                    else -1
                )
                for start, text in self.tokens:
                    if lo < start <= s and text in keywords:
                        return start
            return s
        p = self.offset(node.parent) if node.parent is not None else 0
        for start, text in self.tokens:
            if start >= p and text in keywords:
                return start
        return p

    def unsupported(self, what: str, node: exp.Expression | None, detail: str = "") -> UnsupportedError:
        return UnsupportedError(
            f"{what} is not supported{': ' + detail if detail else ''}", self.loc(node), construct=what
        )

    def sql(self, node: exp.Expression) -> str:
        s, e = _start(node), _end(node)
        if s is not None and e is not None:
            text = self.src.text[s : e + 1]
            return text if len(text) <= 60 else text[:57] + "..."
        return node.sql(dialect="spark")[:60]

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
        items_nodes = list(sel.expressions)
        group = sel.args.get("group")
        having = sel.args.get("having")
        is_agg = (
            group is not None or having is not None or any(_has_aggregate(self.src, n) for n in items_nodes)
        )
        # scalar subqueries: WHERE always, SELECT when no aggregation (each a cross join with one row)
        where = sel.args.get("where")
        scalar_nodes: list[exp.Subquery] = []
        if where is not None:
            for c in _conjuncts(where.this):
                if not _subquery_predicate(c):
                    scalar_nodes += self.scalar_subqueries(c)
        if not is_agg:
            for n in items_nodes:
                scalar_nodes += self.scalar_subqueries(n)
        scalars: list[tuple[int, int]] = []
        for sq in scalar_nodes:
            scope, index = self.cross_join_scalar(scope, sq, env)
            scalars.append((id(sq), index))
        ctx = _Ctx(scope, "WHERE", env.outers, scalars=tuple(scalars))
        if where is not None:
            scope = self.where(scope, where.this, env, ctx)
            ctx = replace(ctx, scope=scope)
        if is_agg:
            return self.aggregate_select(sel, scope, ctx, env)
        out = _Output(
            [],
            allow_hidden=distinct is None,
            why_not="with SELECT DISTINCT, ORDER BY may only use the selected columns",
        )
        aliases: list[tuple[str, _E]] = []
        sel_ctx = replace(ctx, clause="SELECT", hook=self.lateral_alias_hook(aliases))
        for n in items_nodes:
            items = self.select_item(n, sel_ctx, None)
            out.items.extend(items)
            if isinstance(n, exp.Alias):
                aliases.append((n.alias, items[0]))
        return self.finish_select(sel, scope.rel, out, distinct is not None, ctx, None)

    def finish_select(
        self,
        sel: exp.Select,
        source: R.Rel,
        out: _Output,
        distinct: bool,
        base_ctx: _Ctx,
        agg: _Aggregation | None,
    ) -> R.Rel:
        """Project, DISTINCT, ORDER BY (with hidden columns when it needs some), LIMIT."""
        keys = self.sort_keys(sel.args.get("order"), out, base_ctx, agg) if sel.args.get("order") else None
        loc = self.loc(sel)
        exprs = [e.expr for e in out.items + out.hidden]
        names = [e.name for e in out.items + out.hidden]
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
            if any(star.args.get(k) for k in ("except_", "replace", "rename", "ilike")):
                raise self.unsupported("* EXCEPT/REPLACE", node)
            cols = self.star_columns(node, ctx.scope)
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
        if group is not None:
            self.check_no_args(group, ("expressions",), "GROUP BY")
            for g in group.expressions:
                keys.append(self.group_key(g, items_nodes, from_ctx))
        agg = _Aggregation(keys)
        global_agg = group is None
        agg_hook = self.aggregate_hook(agg, from_ctx, global_agg)
        aliases: list[tuple[str, _E]] = []
        lca = self.lateral_alias_hook(aliases, unsupported=True)

        def sel_hook(node: exp.Expression, c: _Ctx) -> _E | None:
            return lca(node, c) or agg_hook(node, c)

        sel_ctx = replace(ctx, clause="SELECT", hook=sel_hook)
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

            pred = self.expr(having.this, replace(ctx, clause="HAVING", hook=having_hook))
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
        rel: R.Rel = build.aggregate(
            scope.rel, [k.expr for k in keys], [k.name for k in keys], agg.aggs, agg.agg_names, loc=agg_loc
        )
        if pred is not None:
            rel = build.filter_(rel, pred.expr, loc=self.loc(having))
        loc = self.loc(sel)
        exprs = [e.expr for e in out.items + out.hidden]
        names = [e.name for e in out.items + out.hidden]
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
        distinct = False
        star = False
        args_nodes: list[exp.Expression]
        if isinstance(node, exp.Count | exp.Sum | exp.Min | exp.Max | exp.Avg) or (
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
                "supported: count, sum, min, max, avg/mean, try_sum (with DISTINCT and FILTER)",
            )
        if called == "mean":
            kernel = "avg"
        else:
            kernel = called
        if kernel not in ("count", "sum", "min", "max", "avg", "try_sum"):
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

    # ---- FROM -----------------------------------------------------------------------------------

    def from_clause(self, sel: exp.Expression, env: _Env) -> _Scope:
        from_ = sel.args["from_"]
        scope = self.table_factor(from_.this, env)
        for j in sel.args.get("joins") or []:
            scope = self.join(scope, j, env)
        return scope

    def table_factor(self, node: exp.Expression, env: _Env) -> _Scope:
        if isinstance(node, exp.Table):
            self.check_no_args(node, ("this", "alias", "joins"), "table")
            if node.args.get("db") is not None:
                raise self.unsupported(
                    "a qualified table name", node, f"write the table name alone ({node.name})"
                )
            if not isinstance(node.this, exp.Identifier):
                raise self.unsupported(f"table-valued function {self.sql(node)}", node)
            name = node.name
            rel = env.cte(name)
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
            raise self.unsupported("LATERAL", right_node)
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
            for n in _walk_here(c):
                if isinstance(n, exp.Exists) or (isinstance(n, exp.In) and n.args.get("query") is not None):
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
        """An uncorrelated scalar subquery joins every row, and its one column is read where the
        subquery stood: a global aggregate (exactly one row) by a cross join; a ``LIMIT 1`` (or 0) query,
        at most one row, by a left join without condition (no row: NULL, Spark's value of an empty
        scalar subquery). Any other may return several rows (a runtime error in Spark): unsupported."""
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
        try:
            rel = self.query(inner, _Env(env.ctes, (scope,) + env.outers))
        except _OuterReference:
            raise self.unsupported("a correlated scalar subquery", node) from None
        if len(rel.schema) != 1:
            raise AnalysisError(
                f"a scalar subquery must return one column, not {len(rel.schema)} "
                "(SCALAR_SUBQUERY_TOO_MANY_COLUMNS)",
                self.loc(node),
            )
        if not (exactly_one or at_most_one):
            raise self.unsupported(
                "a scalar subquery that may return several rows",
                node,
                "supported: an aggregate without GROUP BY or HAVING (one row), or a LIMIT 1 query",
            )
        index = len(scope.rel.schema)
        kind: R.JoinKind = "cross" if exactly_one else "left"
        joined = build.join(kind, scope.rel, rel, None, loc=self.loc(node))
        return replace(scope, rel=joined), index

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

    # ---- names ----------------------------------------------------------------------------------

    @staticmethod
    def lookup(scope: _Scope, qualifier: str, name: str) -> list[_Col]:
        low = name.lower()
        if qualifier:
            q = qualifier.lower()
            cols = [c for tq, cs in scope.tables if tq == q for c in cs if c.name.lower() == low]
        else:
            cols = [c for c in scope.star if c.name.lower() == low]
        seen: dict[int, _Col] = {}
        for c in cols:
            seen.setdefault(c.index, c)
        return list(seen.values())

    def column(self, node: exp.Column, ctx: _Ctx) -> _E:
        if node.args.get("db") is not None or node.args.get("catalog") is not None:
            raise self.unsupported("a three-part column name (or a struct field)", node)
        name, qual = node.name, node.table
        loc = self.loc(node)
        shown = f"{qual}.{name}" if qual else name
        hits = self.lookup(ctx.scope, qual, name)
        if len(hits) > 1:
            cands = ", ".join(f"{c.qualifier}.{c.name}" if c.qualifier else c.name for c in hits)
            raise AnalysisError(
                f"reference {shown!r} is ambiguous, could be: {cands} (AMBIGUOUS_REFERENCE)", loc
            )
        if hits:
            return _E(ctx.scope.col(hits[0], ctx.offset, loc), name)
        for depth, outer in enumerate(ctx.outers):
            outer_hits = self.lookup(outer, qual, name)
            if not outer_hits:
                continue
            if len(outer_hits) > 1:
                raise AnalysisError(f"reference {shown!r} is ambiguous (AMBIGUOUS_REFERENCE)", loc)
            if depth > 0:
                raise self.unsupported(
                    "a reference to a query more than one level out",
                    node,
                    f"{shown} belongs to an enclosing query's enclosing query",
                )
            if not ctx.outer_ok:
                raise _OuterReference(shown)
            return _E(outer.col(outer_hits[0], 0, loc), name)
        cands = [f"{c.qualifier}.{c.name}" if c.qualifier and qual else c.name for c in ctx.scope.star]
        if qual:
            cands = [f"{q}.{c.name}" for q, cs in ctx.scope.tables for c in cs]
        close = difflib.get_close_matches(shown, cands, n=5, cutoff=0.0)
        raise NameResolutionError(
            f"column {shown!r} cannot be resolved in {ctx.clause} (UNRESOLVED_COLUMN); "
            f"did you mean one of: {', '.join(close) or 'none'}",
            loc,
        )

    # ---- expressions ----------------------------------------------------------------------------

    def expr(self, node: exp.Expression, ctx: _Ctx) -> _E:
        if isinstance(node, exp.Paren):
            return self.expr(node.this, ctx)
        if ctx.hook is not None:
            r = ctx.hook(node, ctx)
            if r is not None:
                return r
        loc = self.loc(node)
        handler = _HANDLERS.get(type(node))
        if handler is not None:
            return handler(self, node, ctx, loc)
        if isinstance(node, exp.Window):
            raise self.unsupported("window functions", node, f"{self.sql(node)}")
        if _is_aggregate(self.src, node):
            if ctx.in_aggregate:
                raise AnalysisError(
                    f"aggregate function {self.sql(node)} inside another aggregate "
                    "(NESTED_AGGREGATE_FUNCTION)",
                    loc,
                )
            raise AnalysisError(f"aggregate function {self.sql(node)} is not allowed in {ctx.clause}", loc)
        if isinstance(node, exp.Func):
            return self.function(node, ctx, loc)
        raise self.unsupported(_construct_name(node), node, self.sql(node))

    def args(self, nodes: Sequence[exp.Expression], ctx: _Ctx) -> list[_E]:
        return [self.expr(n, ctx) for n in nodes]

    # literals

    def literal_cast(self, node: exp.Expression) -> bool:
        """Whether a (TRY_)CAST node is sqlglot's reading of a typed literal (``1L``, ``1.5D``, ``1BD``)."""
        if not isinstance(node, exp.TryCast) or node.args.get("safe"):
            return False
        lit = node.this
        if not isinstance(lit, exp.Literal):
            return False
        if lit.is_string:
            return not (lit.meta and "start" in lit.meta) and node.to.this == exp.DataType.Type.DECIMAL
        raw = self.raw(lit)
        return raw is not None and _NUMERIC_SUFFIX.match(raw) is not None and not raw.lower().startswith("0x")

    def raw(self, node: exp.Expression) -> str | None:
        if node.meta and "start" in node.meta:
            return self.src.text[node.meta["start"] : node.meta["end"] + 1]
        return None

    def number(self, raw: str, negative: bool, node: exp.Expression, loc: Loc) -> _E:
        """A numeric literal typed as Spark's parser types it: ``1`` int (bigint past 32 bits, decimal
        past 64), ``1L`` bigint, ``1S`` smallint, ``1Y`` tinyint, ``1.5`` decimal(2,1), ``1.5D``/``1e0``
        double, ``1BD`` decimal; ``-`` directly before a number is part of the literal."""
        text = raw.strip()
        sign = "-" if negative else ""
        m = _NUMERIC_SUFFIX.match(text)
        suffix = m.group(2).lower() if m and not re.fullmatch(r"\d+(\.\d*)?[eE][+-]?\d+", text) else ""
        body = m.group(1) if suffix else text
        try:
            if suffix in ("l", "s", "y"):
                if not re.fullmatch(r"\d+", body):
                    raise AnalysisError(f"invalid numeric literal {raw}", loc)
                t = {"l": BIGINT, "s": SMALLINT, "y": TINYINT}[suffix]
                v = int(sign + body)
                assert isinstance(t, IntegralType)
                if not t.min <= v <= t.max:
                    raise AnalysisError(
                        f"numeric literal {sign}{raw} is outside the range of {t.simple} "
                        "(INVALID_NUMERIC_LITERAL_RANGE)",
                        loc,
                    )
                return _E(R.Lit(v, t, loc=loc), str(v))
            if suffix == "f":
                raise self.unsupported(
                    "FLOAT literals", node, "32-bit floats have no kernel type; write 1.5D"
                )
            if suffix == "d" or (not suffix and re.search(r"[eE]", body)):
                f = float(sign + body)
                if math.isinf(f):
                    raise AnalysisError(f"double literal {sign}{raw} is outside the range of double", loc)
                return _E(R.Lit(f, DOUBLE, loc=loc), _java_double(f))
            if suffix == "bd" or "." in body:
                d = decimal.Decimal(sign + body)
                if d.as_tuple().exponent > 0:  # type: ignore[operator]
                    d = d.quantize(decimal.Decimal(1))
                return _E(R.Lit(d, build.decimal_type_of(d), loc=loc), _decimal_str(d))
            v = int(sign + body)
        except (ValueError, decimal.InvalidOperation):
            raise AnalysisError(f"invalid numeric literal {raw}", loc) from None
        if INT.min <= v <= INT.max:
            return _E(R.Lit(v, INT, loc=loc), str(v))
        if BIGINT.min <= v <= BIGINT.max:
            return _E(R.Lit(v, BIGINT, loc=loc), str(v))
        d = decimal.Decimal(v)
        return _E(R.Lit(d, build.decimal_type_of(d), loc=loc), str(v))

    def literal(self, node: exp.Literal, ctx: _Ctx, loc: Loc, negative: bool = False) -> _E:
        if node.is_string:
            return _E(build.lit(node.this, loc), node.this)
        raw = self.raw(node) or node.this
        return self.plus(node, self.number(raw, negative, node, loc))

    def plus(self, node: exp.Expression, e: _E) -> _E:
        """sqlglot drops a unary ``+``; Spark keeps it (``(+ a)``): read it back from the source."""
        s = _start(node)
        if s is None:
            return e
        before = self.src.text[:s].rstrip()
        if not before.endswith("+"):
            return e
        prev = before[:-1].rstrip()
        if (
            prev == ""
            or prev[-1] in "(,=<>*/%+-|"
            or re.search(
                r"(?i)\b(select|where|and|or|not|then|else|when|by|on|having|case|in|between|distinct)$", prev
            )
        ):
            return _E(e.expr, f"(+ {e.name})")
        return e

    # handlers (dispatched by node type)

    def h_literal(self, node: exp.Literal, ctx: _Ctx, loc: Loc) -> _E:
        return self.literal(node, ctx, loc)

    def h_boolean(self, node: exp.Boolean, ctx: _Ctx, loc: Loc) -> _E:
        return _E(build.lit(bool(node.this), loc), "true" if node.this else "false")

    def h_null(self, node: exp.Null, ctx: _Ctx, loc: Loc) -> _E:
        return _E(build.lit(None, loc), "NULL")

    def h_column(self, node: exp.Column, ctx: _Ctx, loc: Loc) -> _E:
        if isinstance(node.this, exp.Star):
            raise self.unsupported("* inside an expression", node)
        return self.plus(node, self.column(node, ctx))

    def h_concat_literals(self, node: exp.Concat, ctx: _Ctx, loc: Loc) -> _E:
        if (
            not (node.meta and "start" in node.meta)
            and not isinstance(node, exp.DPipe)
            and all(isinstance(a, exp.Literal) and a.is_string for a in node.expressions)
        ):
            value = self.adjacent_strings(node.expressions)
            return _E(build.lit(value, loc), value)
        return self.function(node, ctx, loc)

    def adjacent_strings(self, parts: Sequence[exp.Expression]) -> str:
        """String literals written one after the other are one string (``'a' 'b'`` is ``'ab'``), but
        sqlglot also splits a doubled quote, which Spark's lexer reads as an escaped quote: ``'it''s'``
        is ``it's``. Two of sqlglot's string tokens with nothing between them and the same quote were
        one token of Spark's, joined by the quote."""
        values = [str(p.this) for p in parts]
        first = parts[0].meta.get("start") if parts[0].meta else None
        index = next((i for i, t in enumerate(self.raw_tokens) if t.start == first), None)
        toks = self.raw_tokens[index : index + len(parts)] if index is not None else []
        if len(toks) != len(parts) or any(t.token_type != TokenType.STRING for t in toks):
            return "".join(values)
        text = self.src.text
        out = values[0]
        for prev, tok, value in zip(toks, toks[1:], values[1:], strict=False):
            quote = text[tok.start]
            out += (quote if prev.end + 1 == tok.start and text[prev.end] == quote else "") + value
        return out

    def h_trim(self, node: exp.Trim, ctx: _Ctx, loc: Loc) -> _E:
        """``TRIM([BOTH|LEADING|TRAILING] [chars] FROM s)``, ``trim(chars_first, s)``-style calls and
        ``ltrim``/``rtrim`` (sqlglot gives the source as ``this`` and the characters as ``expression``).
        Spark names them ``trim(s)``/``ltrim(s)``/``rtrim(s)``, or ``TRIM(BOTH chars FROM s)``."""
        src = self.expr(node.this, ctx)
        position = str(node.args.get("position") or "BOTH").upper()
        called = {"BOTH": "trim", "LEADING": "ltrim", "TRAILING": "rtrim"}.get(position)
        if called is None:
            raise self.unsupported(f"TRIM({position} ...)", node)
        chars_node = node.args.get("expression")
        if chars_node is None:
            return _E(self.func(called, [src.expr], node, loc), f"{called}({src.name})")
        chars = self.expr(chars_node, ctx)
        return _E(self.func(called, [src.expr, chars.expr], node, loc),
                  f"TRIM({position} {chars.name} FROM {src.name})")

    def h_dpipe(self, node: exp.DPipe, ctx: _Ctx, loc: Loc) -> _E:
        a, b = self.expr(node.this, ctx), self.expr(node.expression, ctx)
        return _E(self.func("concat", [a.expr, b.expr], node, loc), f"concat({a.name}, {b.name})")

    def h_neg(self, node: exp.Neg, ctx: _Ctx, loc: Loc) -> _E:
        inner = node.this
        if isinstance(inner, exp.Literal) and not inner.is_string:
            return self.literal(inner, ctx, loc, negative=True)
        if isinstance(inner, exp.TryCast) and self.literal_cast(inner):
            return self.typed_literal(inner, ctx, loc, negative=True)
        e = self.expr(inner, ctx)
        return _E(build.neg(e.expr, loc=loc), f"(- {e.name})")

    def typed_literal(self, node: exp.TryCast, ctx: _Ctx, loc: Loc, negative: bool = False) -> _E:
        lit = node.this
        if lit.is_string:  # 1BD: sqlglot keeps the digits only
            return self.number(lit.this + "BD", negative, node, loc)
        raw = self.raw(lit)
        assert raw is not None
        return self.number(raw, negative, node, loc)

    def h_binary(self, node: exp.Binary, ctx: _Ctx, loc: Loc) -> _E:
        a, b = self.expr(node.this, ctx), self.expr(node.expression, ctx)
        if isinstance(node, exp.Add | exp.Sub | exp.Mul | exp.Div | exp.IntDiv | exp.Mod):
            op = {exp.Add: "+", exp.Sub: "-", exp.Mul: "*", exp.Div: "/", exp.IntDiv: "div", exp.Mod: "%"}[
                type(node)
            ]
            e = build.arith(op, a.expr, b.expr, loc=loc)  # type: ignore[arg-type]
            if isinstance(node, exp.Mod) and node.meta and "start" in node.meta:
                return _E(e, f"{_called_name(self.src, node)}({a.name}, {b.name})")
            return _E(e, f"({a.name} {op} {b.name})")
        if isinstance(node, exp.EQ | exp.NEQ | exp.GT | exp.GTE | exp.LT | exp.LTE | exp.NullSafeEQ):
            if isinstance(node, exp.NEQ):
                eq = build.compare("=", a.expr, b.expr, loc=loc)
                return _E(build.not_(eq, loc=loc), f"(NOT ({a.name} = {b.name}))")
            op = {exp.EQ: "=", exp.GT: ">", exp.GTE: ">=", exp.LT: "<", exp.LTE: "<=", exp.NullSafeEQ: "<=>"}[
                type(node)
            ]
            return self.compare(op, a, b, loc)  # type: ignore[arg-type]
        if isinstance(node, exp.And):
            return _E(build.and_(a.expr, b.expr, loc=loc), f"({a.name} AND {b.name})")
        if isinstance(node, exp.Or):
            return _E(build.or_(a.expr, b.expr, loc=loc), f"({a.name} OR {b.name})")
        raise self.unsupported(_construct_name(node), node)

    def h_safe(self, node: exp.Expression, ctx: _Ctx, loc: Loc) -> _E:
        """``try_add``/``try_subtract``/``try_multiply``/``try_divide``: NULL instead of an error."""
        a, b = self.expr(node.this, ctx), self.expr(node.expression, ctx)
        op = {exp.SafeAdd: "+", exp.SafeSubtract: "-", exp.SafeMultiply: "*", exp.SafeDivide: "/"}[type(node)]
        return _E(
            build.arith(op, a.expr, b.expr, try_=True, loc=loc),  # type: ignore[arg-type]
            f"{_called_name(self.src, node)}({a.name}, {b.name})",
        )

    def h_not(self, node: exp.Not, ctx: _Ctx, loc: Loc) -> _E:
        inner = _unparen(node.this)
        if isinstance(inner, exp.Is) and node.this is inner and self.is_not_null_syntax(inner):
            e = self.expr(inner.this, ctx)
            if not isinstance(inner.expression, exp.Null):
                raise self.unsupported("IS [NOT] TRUE/FALSE", node)
            return _E(build.is_null(e.expr, negated=True, loc=loc), f"({e.name} IS NOT NULL)")
        e = self.expr(node.this, ctx)
        return _E(build.not_(e.expr, loc=loc), f"(NOT {e.name})")

    def is_not_null_syntax(self, node: exp.Is) -> bool:
        end = _end(node.this)
        if end is None:
            return False
        return re.match(r"(?is)[\s)]*is\s+not\b", self.src.text[end + 1 :]) is not None

    def h_is(self, node: exp.Is, ctx: _Ctx, loc: Loc) -> _E:
        if not isinstance(node.expression, exp.Null):
            raise self.unsupported("IS [NOT] TRUE/FALSE/DISTINCT FROM", node)
        e = self.expr(node.this, ctx)
        return _E(build.is_null(e.expr, loc=loc), f"({e.name} IS NULL)")

    def h_between(self, node: exp.Between, ctx: _Ctx, loc: Loc) -> _E:
        if node.args.get("symmetric"):
            raise self.unsupported("BETWEEN SYMMETRIC", node)
        x, lo, hi = (
            self.expr(node.this, ctx),
            self.expr(node.args["low"], ctx),
            self.expr(node.args["high"], ctx),
        )
        e = build.and_(self.compare(">=", x, lo, loc).expr, self.compare("<=", x, hi, loc).expr, loc=loc)
        return _E(e, f"between({x.name}, {lo.name}, {hi.name})")

    def compare(self, op: R.CmpOp, a: _E, b: _E, loc: Loc) -> _E:
        """A comparison, after Spark's analyser rule for an integral expression ordered against a
        decimal literal (``b < 2.5`` is ``b < 3``, named so; beyond bigint, the literal TRUE or FALSE)."""
        rewritten = build.compare_decimal_literal(op, a.expr, b.expr, loc=loc)
        if rewritten is None:
            return _E(build.compare(op, a.expr, b.expr, loc=loc), f"({a.name} {op} {b.name})")
        if isinstance(rewritten, R.Lit):
            return _E(rewritten, "true" if rewritten.value else "false")
        assert isinstance(rewritten, R.Cmp)
        bound = rewritten.right if isinstance(b.expr, R.Lit) else rewritten.left
        assert isinstance(bound, R.Lit)
        if isinstance(b.expr, R.Lit) and isinstance(b.expr.type, DecimalType):
            return _E(rewritten, f"({a.name} {op} {bound.value})")
        return _E(rewritten, f"({bound.value} {op} {b.name})")

    def h_in(self, node: exp.In, ctx: _Ctx, loc: Loc) -> _E:
        if node.args.get("query") is not None:
            raise self.unsupported("an IN subquery that is not a top-level AND-ed WHERE condition", node)
        if node.args.get("unnest") is not None or node.args.get("field") is not None:
            raise self.unsupported("IN UNNEST", node)
        x = self.expr(node.this, ctx)
        vs = self.args(node.expressions, ctx)
        return _E(
            build.in_(x.expr, [v.expr for v in vs], loc=loc),
            f"({x.name} IN ({', '.join(v.name for v in vs)}))",
        )

    def h_exists(self, node: exp.Exists, ctx: _Ctx, loc: Loc) -> _E:
        raise self.unsupported("an EXISTS subquery that is not a top-level AND-ed WHERE condition", node)

    def h_case(self, node: exp.Case, ctx: _Ctx, loc: Loc) -> _E:
        operand = self.expr(node.this, ctx) if node.this is not None else None
        branches = []
        names = []
        for if_ in node.args.get("ifs") or []:
            c = self.expr(if_.this, ctx)
            if operand is not None:  # CASE x WHEN v: x = v
                c = _E(
                    build.compare("=", operand.expr, c.expr, loc=self.loc(if_)),
                    f"({operand.name} = {c.name})",
                )
            v = self.expr(if_.args["true"], ctx)
            branches.append((c.expr, v.expr))
            names.append(f"WHEN {c.name} THEN {v.name}")
        default = node.args.get("default")
        d = self.expr(default, ctx) if default is not None else None
        name = "CASE " + " ".join(names) + (f" ELSE {d.name}" if d is not None else "") + " END"
        return _E(build.case(branches, d.expr if d is not None else None, loc=loc), name)

    def h_if(self, node: exp.If, ctx: _Ctx, loc: Loc) -> _E:
        c, t = self.expr(node.this, ctx), self.expr(node.args["true"], ctx)
        f_node = node.args.get("false")
        if f_node is None:
            raise AnalysisError("if() takes three arguments", loc)
        f = self.expr(f_node, ctx)
        return _E(build.case([(c.expr, t.expr)], f.expr, loc=loc), f"(IF({c.name}, {t.name}, {f.name}))")

    def h_cast(self, node: exp.Cast, ctx: _Ctx, loc: Loc) -> _E:
        if self.literal_cast(node):
            return self.typed_literal(node, ctx, loc)  # type: ignore[arg-type]
        to = node.to
        inner = node.this
        if (
            isinstance(inner, exp.Literal)
            and inner.is_string
            and to.this == exp.DataType.Type.DATE
            and self.typed_date_syntax(inner)
        ):
            try:
                d = datetime.date.fromisoformat(inner.this.strip())
            except ValueError:
                raise AnalysisError(
                    f"invalid DATE literal {inner.this!r} (INVALID_TYPED_LITERAL)", loc
                ) from None
            return _E(build.lit(d, loc), f"DATE '{d.isoformat()}'")
        t = self.sql_type(to, node)
        e = self.expr(inner, ctx)
        try_ = isinstance(node, exp.TryCast) and bool(node.args.get("safe"))
        return _E(
            build.cast(e.expr, t, try_=try_, loc=loc),
            f"{'TRY_CAST' if try_ else 'CAST'}({e.name} AS {_type_sql(t)})",
        )

    def typed_date_syntax(self, lit: exp.Literal) -> bool:
        s = lit.meta.get("start") if lit.meta else None
        return s is not None and re.search(r"(?i)\bdate\s*$", self.src.text[:s]) is not None

    def sql_type(self, dt: exp.DataType, node: exp.Expression) -> SqlType:
        T = exp.DataType.Type
        kind = dt.this
        simple = {
            T.INT: INT,
            T.BIGINT: BIGINT,
            T.SMALLINT: SMALLINT,
            T.TINYINT: TINYINT,
            T.DOUBLE: DOUBLE,
            T.TEXT: STRING,
            T.VARCHAR: STRING,
            T.CHAR: STRING,
            T.NVARCHAR: STRING,
            T.NCHAR: STRING,
            T.BOOLEAN: BOOLEAN,
            T.DATE: DATE,
        }
        if kind in simple:
            return simple[kind]
        if kind == T.DECIMAL:
            params = [p.this if isinstance(p, exp.DataTypeParam) else p for p in dt.expressions]
            nums = [int(p.this) for p in params if isinstance(p, exp.Literal)]
            p, s = (nums + [10, 0])[:2] if nums else (10, 0)
            if len(nums) == 1:
                s = 0
            if not 1 <= p <= 38 or not 0 <= s <= p:
                raise AnalysisError(f"invalid decimal type DECIMAL({p},{s})", self.loc(node))
            return DecimalType(p, s)
        if kind == T.FLOAT:
            raise self.unsupported("the FLOAT type", node, "32-bit floats have no kernel type; use DOUBLE")
        return _raise(self.unsupported(f"the type {dt.sql(dialect='spark')}", node))

    def function(self, node: exp.Func, ctx: _Ctx, loc: Loc) -> _E:
        """Other functions: a few are operators in Spark (``pmod``, ``positive``, ``nullif``...); the
        rest go to ``build.func`` under Spark's name for them (``ifnull``/``nvl`` are ``coalesce``)."""
        called = _called_name(self.src, node)
        if isinstance(node, exp.Anonymous):
            arg_nodes = list(node.expressions)
        else:
            arg_nodes = _func_args(node)
        args = self.args(arg_nodes, ctx)
        names = ", ".join(a.name for a in args)
        exprs = [a.expr for a in args]
        pretty = f"{called}({names})"

        def need(n: int) -> None:
            if len(args) != n:
                raise AnalysisError(
                    f"{called}() takes {n} argument(s), not {len(args)} (WRONG_NUM_ARGS)", loc
                )

        if called in ("pmod", "mod", "try_mod", "div"):
            need(2)
            op = {"pmod": "pmod", "mod": "%", "try_mod": "%", "div": "div"}[called]
            return _E(
                build.arith(op, exprs[0], exprs[1], try_=called == "try_mod", loc=loc),  # type: ignore[arg-type]
                pretty if called != "div" else f"({args[0].name} div {args[1].name})",
            )
        if called == "positive":
            need(1)
            if not (isinstance(exprs[0].type, NullType) or _numeric(exprs[0].type)):
                raise AnalysisError(f"positive() needs a number, not {exprs[0].type.simple}", loc)
            return _E(exprs[0], f"(+ {names})")
        if called in ("negative", "ifnull", "nvl", "nullif") and self.has_function(called):
            # the function table has them: the same kernel as F.negative, F.ifnull... in DataFrame code
            return _E(build.func(called, exprs, loc=loc), pretty)
        if called == "negative":
            need(1)
            return _E(build.neg(exprs[0], loc=loc), pretty)
        if called in ("ifnull", "nvl"):
            need(2)
            return _E(self.func("coalesce", exprs, node, loc), pretty)
        if called == "nullif":
            need(2)
            eq = build.compare("=", exprs[0], exprs[1], loc=loc)
            return _E(build.case([(eq, R.Lit(None, exprs[0].type, loc=loc))], exprs[0], loc=loc), pretty)
        if called == "nvl2":
            need(3)
            return _E(
                build.case([(build.is_null(exprs[0], negated=True, loc=loc), exprs[1])], exprs[2], loc=loc),
                pretty,
            )
        if called in ("isnull", "isnotnull"):
            need(1)
            neg = called == "isnotnull"
            return _E(
                build.is_null(exprs[0], negated=neg, loc=loc), f"({names} IS {'NOT ' if neg else ''}NULL)"
            )
        if called in ("substr", "substring") and len(args) == 2:
            exprs.append(build.lit(INT.max, loc))  # Spark's default length
            pretty = f"{called}({names}, {INT.max})"
        if called in ("round", "bround") and len(args) == 1:
            pretty = f"{called}({names}, 0)"  # Spark names round(b) as round(b, 0)
        if called in ("floor", "ceil", "signum") and len(args) == 1:
            pretty = f"{called.upper()}({names})"  # Spark's names: FLOOR(v), CEIL(v), SIGNUM(v)
        canonical = {
            "char_length": "length",
            "character_length": "length",
            "ucase": "upper",
            "lcase": "lower",
            "substr": "substring",
        }.get(called, called)
        return _E(self.func(canonical, exprs, node, loc), pretty)

    @staticmethod
    def has_function(name: str) -> bool:
        from sparklite.relational import functions

        return name in getattr(functions, "FUNCTIONS", {})

    def func(self, name: str, args: Sequence[R.Expr], node: exp.Expression, loc: Loc) -> R.Expr:
        """``build.func``, after checking the function table knows ``name`` (an unknown function or a
        UDF is unsupported, not an analysis error)."""
        from sparklite.relational import functions

        table = getattr(functions, "FUNCTIONS", None)
        if table is not None and name not in table:
            raise self.unsupported(
                f"function {name}", node, f"supported: {', '.join(sorted(table))} and the SQL operators"
            )
        return build.func(name, args, loc=loc)

    def h_like(self, node: exp.Like, ctx: _Ctx, loc: Loc) -> _E:
        if node.args.get("escape") is not None:
            raise self.unsupported("LIKE ... ESCAPE", node)
        a, b = self.expr(node.this, ctx), self.expr(node.expression, ctx)
        e = _E(self.func("like", [a.expr, b.expr], node, loc), f"{a.name} LIKE {b.name}")
        if node.args.get("negate"):
            return _E(build.not_(e.expr, loc=loc), f"(NOT {e.name})")
        return e

    def h_subquery(self, node: exp.Subquery, ctx: _Ctx, loc: Loc) -> _E:
        for sid, index in ctx.scalars:
            if sid == id(node):
                f = ctx.scope.rel.schema.fields[index]
                return _E(R.Col(index + ctx.offset, f.name, f.type, f.nullable, loc=loc), "scalarsubquery()")
        raise self.unsupported(
            f"a scalar subquery in {ctx.clause}",
            node,
            "only in WHERE, and in the SELECT list of a query without aggregation",
        )


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

_HANDLERS: dict[type, Callable[[_Translator, exp.Expression, _Ctx, Loc], _E]] = {  # type: ignore[dict-item]
    exp.Literal: _Translator.h_literal,
    exp.Boolean: _Translator.h_boolean,
    exp.Null: _Translator.h_null,
    exp.Column: _Translator.h_column,
    exp.Neg: _Translator.h_neg,
    exp.Trim: _Translator.h_trim,
    exp.Add: _Translator.h_binary,
    exp.Sub: _Translator.h_binary,
    exp.Mul: _Translator.h_binary,
    exp.Div: _Translator.h_binary,
    exp.IntDiv: _Translator.h_binary,
    exp.Mod: _Translator.h_binary,
    exp.EQ: _Translator.h_binary,
    exp.NEQ: _Translator.h_binary,
    exp.GT: _Translator.h_binary,
    exp.GTE: _Translator.h_binary,
    exp.LT: _Translator.h_binary,
    exp.LTE: _Translator.h_binary,
    exp.NullSafeEQ: _Translator.h_binary,
    exp.And: _Translator.h_binary,
    exp.Or: _Translator.h_binary,
    exp.SafeAdd: _Translator.h_safe,
    exp.SafeSubtract: _Translator.h_safe,
    exp.SafeMultiply: _Translator.h_safe,
    exp.SafeDivide: _Translator.h_safe,
    exp.Not: _Translator.h_not,
    exp.Is: _Translator.h_is,
    exp.Between: _Translator.h_between,
    exp.In: _Translator.h_in,
    exp.Exists: _Translator.h_exists,
    exp.Case: _Translator.h_case,
    exp.If: _Translator.h_if,
    exp.Cast: _Translator.h_cast,
    exp.TryCast: _Translator.h_cast,
    exp.Concat: _Translator.h_concat_literals,
    exp.DPipe: _Translator.h_dpipe,
    exp.Like: _Translator.h_like,
    exp.Subquery: _Translator.h_subquery,
}
