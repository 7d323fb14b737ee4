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
uncorrelated scalar subquery that is a global aggregate (exactly one row) is a cross join with it;
correlated scalar subqueries, scalar subqueries in ``HAVING`` or of several possible rows, and an
``EXISTS`` inside a condition are joins as ``subqueries.py`` says; dates, ``INTERVAL`` arithmetic
and ``EXTRACT`` are ``dates.py``'s.
Output column names are Spark's (``(a + 1)``, ``count(1)``, a cast of a column keeps the column's
name...); ``tests/test_sql_frontend.py`` checks them against a real Spark.

An inline table (``VALUES (1, 2), (3, 4) AS t(a, b)``, in ``FROM`` or as the query; columns ``col1``,
``col2``... without names) is a ``Values`` relation, and so is what a ``SELECT`` without ``FROM`` reads
(Spark's one-row relation, no columns: ``SELECT 1`` projects it), also as a scalar subquery.

Everything else (window functions, ``LATERAL``, scalar subqueries correlated otherwise than by
equalities, unknown functions or UDFs...) is an ``UnsupportedError`` naming the construct; what
Spark's analyser rejects is a ``build.AnalysisError``; an unknown table or column a
``NameResolutionError`` listing the candidates. All are located (file, line, column) in the user's
file, the query text starting at ``line``/``col`` there (a ``spark.sql("...")`` string's position).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import sqlglot
from sqlglot import exp
from sqlglot.errors import TokenError

from frontend.sql.dates import DatesMixin
from frontend.sql.expressions import ExpressionsMixin
from frontend.sql.lateral import LateralMixin
from frontend.sql.queries import QueriesMixin
from frontend.sql.relations import RelationsMixin
from frontend.sql.scopes import _KEYWORDS, SqlSyntaxError, _end, _parse, _Source, _start
from frontend.sql.subqueries import SubqueriesMixin
from frontend.sql.timestamps import TimestampsMixin
from frontend.sql.windows import WindowsMixin
from sparklite.ast import Loc
from sparklite.errors import InputError, NameResolutionError, UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational import build
from sparklite.relational.types import (
    Schema,
)

__all__ = ["translate_query", "translate_sql_file", "SqlSyntaxError"]


# ---------------------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------------------


def translate_query(
    text: str, catalog: Mapping[str, R.Rel], *, filename: str | None = None, line: int = 1, col: int = 1,
    functions: Mapping[str, Callable[[list[R.Expr], Loc | None], R.Expr]] | None = None,
) -> R.Rel:
    """The relation one SQL query computes. ``catalog`` maps lower-cased table/view names to relations;
    ``line``/``col`` are where ``text`` starts in ``filename`` (errors are located there); ``functions``
    maps lower-cased names of functions the session registered (``spark.udf.register``) to their call."""
    src = _Source(text, filename, line, col)

    def missing(name: str, loc: Loc | None) -> InputError:
        known = ", ".join(sorted(catalog)) or "none"
        return NameResolutionError(
            f"table or view {name!r} not found (known: {known}; a view must be "
            "registered with createOrReplaceTempView before spark.sql reads it)",
            loc,
        )

    tree = _parse(src)
    tr = _Translator(src, catalog, missing, tree)
    tr.registered = dict(functions or {})
    return tr.top(tree)


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




class _Translator(QueriesMixin, RelationsMixin, ExpressionsMixin, DatesMixin, SubqueriesMixin,
                  WindowsMixin, TimestampsMixin, LateralMixin):
    """One query's translation: the source (for locations and raw tokens) and the catalog. Holds no
    state between calls beyond those. Its parts are the mixins ``queries``, ``relations`` and
    ``expressions``."""

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
        self.registered: dict[str, Callable[[list[R.Expr], Loc | None], R.Expr]] = {}  # spark.udf.register
        self.scalar_names: dict[int, str] = {}  # id of a correlated scalar subquery -> Spark's name for it
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
