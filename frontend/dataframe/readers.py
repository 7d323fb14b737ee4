"""Where DataFrames come from: the session's methods (``spark.table``, ``spark.sql``, ``createDataFrame``
...), catalog tables and SQL text inside DataFrame code (``spark.sql``, ``expr``, ``selectExpr``), which
``frontend.sql`` reads against the DataFrames in scope.
"""

from __future__ import annotations

import ast as pyast
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from frontend.dataframe import functions as DFF
from frontend.dataframe.columns import (
    DF,
    Attr,
    CExpr,
    Resolved,
    Scope,
    SqlText,
    map_children,
)
from frontend.dataframe.evaluator import _TableUse
from frontend.dataframe.module import _PLACEHOLDER
from frontend.dataframe.values import (
    DFV,
    PyV,
    Value,
    as_str,
    describe,
    flatten_single,
)
from sparklite.ast import Loc
from sparklite.errors import InputError, UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational.build import AnalysisError
from sparklite.relational.types import Schema


class ReadersMixin:
    """The session and SQL-text methods of ``translator.DataFrameTranslator``."""

    def session_method(
        self, name: str, args: list[Value], kwargs: dict[str, Value], loc: Loc, node: pyast.AST
    ) -> Value:
        if name == "sql":
            # SparkSession.sql(sqlQuery, args=None, **kwargs): the other keywords format the query
            own = {k: v for k, v in kwargs.items() if k in ("sqlQuery", "args")}
            fmt = {k: v for k, v in kwargs.items() if k not in own}
            b, _ = DFF.sig("sqlQuery", "args=None").bind("sql", args, own, loc)
            if b["args"] != PyV(None):
                raise UnsupportedError(
                    "spark.sql with query arguments is not supported", loc, construct="sql"
                )
            text = as_str(b["sqlQuery"], loc, "the query")
            query_node = node.args[0] if isinstance(node, pyast.Call) and node.args else node
            if not fmt:
                return DFV(self.sql_query(text, query_node, loc))
            text, views = _format_sql(text, fmt, loc)
            saved = dict(self.views)
            self.views.update(views)
            try:  # the formatter's temporary views are dropped once the query is analysed
                return DFV(self.sql_query(text, query_node, loc))
            finally:
                self.views = saved
        if name == "table":
            b, _ = DFF.sig("tableName").bind("table", args, kwargs, loc)
            return DFV(self.read_table(as_str(b["tableName"], loc, "a table name"), loc))
        raise UnsupportedError(
            f"spark.{name} is not supported (DataFrames come in as parameters)", loc, construct=name
        )

    def read_table(self, name: str, loc: Loc) -> DF:
        key = name.lower()
        if key in self.views:
            df = self.views[key]
            return replace(df, attrs=tuple(Attr(a.id, a.name, name) for a in df.attrs))
        if key in self.catalog:
            t = self.catalog[key]
            self._use_table(t)
            return DF(t, tuple(Attr(self.ids.fresh(), f.name, name) for f in t.schema.fields))
        raise AnalysisError(
            f"[TABLE_OR_VIEW_NOT_FOUND] table or view '{name}' is not registered in this function "
            "(createOrReplaceTempView) nor given with --schema",
            loc,
        )

    def _use_table(self, t: R.Table) -> None:
        if all(u.name != t.name for u in self.tables_used):
            self.tables_used.append(_TableUse(t.name, t.schema))

    # -- SQL ----------------------------------------------------------------------------------------

    def _sql_position(self, node: pyast.AST) -> tuple[int, int]:
        """Where a string literal's text starts (past its prefix and opening quotes), so that positions
        inside the SQL text map to the Python file."""
        line, col = getattr(node, "lineno", 1), getattr(node, "col_offset", 0)
        if isinstance(node, pyast.Constant) and 0 < line <= len(self.lines):
            text = self.lines[line - 1]
            i = col
            while i < len(text) and text[i] in "rRbBuUfF":
                i += 1
            q = text[i : i + 3]
            i += 3 if q in ('"""', "'''") else 1
            return line, i + 1
        return line, col + 1

    def sql_query(self, text: str, node: pyast.AST, loc: Loc) -> DF:
        try:
            from frontend.sql import translator as sqlfront
        except ImportError:
            raise UnsupportedError(
                "spark.sql is not supported yet (the SQL frontend is missing)", loc, construct="spark.sql"
            ) from None
        catalog: dict[str, R.Rel] = {k: v for k, v in self.catalog.items()}
        catalog.update({k: v.rel for k, v in self.views.items()})
        line, col = self._sql_position(node)
        registered = {name: udf.sql_call for name, udf in getattr(self, "registered_udfs", {}).items()}
        rel = sqlfront.translate_query(text, catalog, filename=self.filename, line=line, col=col,
                                       functions=registered)
        for t in _tables_in(rel):
            if any(t is c for c in self.catalog.values()):
                self._use_table(t)
        return self.fresh_df(rel)

    def sql_text(self, text: str, node: pyast.AST, loc: Loc) -> SqlText:
        """A SQL expression string, translated where it is used (``F.expr``, ``filter("a > 1")``)."""
        line, col = self._sql_position(node)
        return SqlText(text, line, col, loc=loc)

    def _sql_frontend(self, loc: Loc) -> Any:
        try:
            from frontend.sql import translator as sqlfront
        except ImportError:  # pragma: no cover - the SQL frontend is part of sparkeq
            raise UnsupportedError(
                "SQL text is not supported yet (the SQL frontend is missing)", loc, construct="sql"
            ) from None
        return sqlfront

    @staticmethod
    def _sql_from(scope_attrs: Sequence[Attr]) -> str:
        """``FROM`` clause naming the DataFrame as SQL text sees it: under its ``alias`` when every
        column has the same one (``F.expr("l.a + 1")`` after ``df.alias("l")``)."""
        quals = {a.qualifier for a in scope_attrs}
        if len(quals) == 1 and None not in quals:
            q = next(iter(quals))
            assert q is not None
            return f"{_PLACEHOLDER} AS `{q.replace('`', '``')}`"
        return _PLACEHOLDER

    def bind_sql(self, c: CExpr, scope: Scope) -> CExpr:
        """``c`` with every SQL expression string translated against ``scope``'s columns (by the SQL
        frontend, as ``SELECT <text> FROM df``: SQL's own rules, names and Spark's column name)."""
        if isinstance(c, SqlText):
            sqlfront = self._sql_frontend(c.loc or Loc(self.filename, c.line, c.col))
            placeholder = R.Table(_PLACEHOLDER, Schema(scope.fields))
            prefix = "SELECT "
            query = f"{prefix}{c.text} FROM {self._sql_from(scope.attrs)}"
            rel = sqlfront.translate_query(
                query,
                {_PLACEHOLDER: placeholder},
                filename=self.filename,
                line=c.line,
                col=c.col - len(prefix),
            )
            if not (isinstance(rel, R.Project) and rel.source is placeholder and len(rel.exprs) == 1):
                raise UnsupportedError(
                    f"SQL expression {c.text!r}: only a single scalar expression over the "
                    "DataFrame's columns is supported here (no aggregates, no *)",
                    c.loc,
                    construct="sql-expression",
                )
            return Resolved(rel.exprs[0], rel.schema.fields[0].name, loc=c.loc)
        return map_children(c, lambda x: self.bind_sql(x, scope))

    def select_expr(self, df: DF, args: list[Value], loc: Loc, node: pyast.AST) -> DF:
        """``selectExpr("a + 1", "b AS z")``: ``SELECT <exprs> FROM df`` by the SQL frontend."""
        items = flatten_single(args)
        if not items:
            return self.project(df, [], loc)
        texts = [as_str(v, loc, "a selectExpr expression") for v in items]
        sqlfront = self._sql_frontend(loc)
        first = node.args[0] if isinstance(node, pyast.Call) and node.args else node
        line, col = self._sql_position(first)
        prefix = "SELECT "
        query = f"{prefix}{', '.join(texts)} FROM {self._sql_from(df.attrs)}"
        rel = sqlfront.translate_query(
            query, {_PLACEHOLDER: df.rel}, filename=self.filename, line=line, col=col - len(prefix)
        )
        return self.fresh_df(rel)




def _format_sql(text: str, values: Mapping[str, Value], loc: Loc) -> tuple[str, dict[str, DF]]:
    """PySpark's ``SQLStringFormatter``: ``spark.sql("SELECT * FROM {t} WHERE k > {x}", t=df, x=1)``
    formats the query with Python's ``str.format``, a DataFrame becoming a temporary view (returned, by
    name), a string a quoted SQL literal and any other value its ``format()``."""
    import string
    import uuid

    out: list[str] = []
    views: dict[str, DF] = {}
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError as exc:
        raise InputError(f"spark.sql's query is not a valid format string: {exc} (Python raises ValueError)",
                         loc) from None
    for literal, field, spec, conversion in parsed:
        out.append(literal)
        if field is None:
            continue
        if field not in values:
            error = "IndexError" if field == "" or field.isdigit() else "KeyError"
            if field.isidentifier():
                raise InputError(f"spark.sql's query names {{{field}}}, which no keyword argument gives "
                                 f"(Python raises {error})", loc)
            if error == "IndexError":
                raise InputError(f"spark.sql's query has a positional field {{{field}}} (Python raises "
                                 "IndexError)", loc)
            raise UnsupportedError(f"the format field {{{field}}} in spark.sql's query is not supported",
                                   loc, construct="spark.sql format")
        if spec or conversion:
            raise UnsupportedError(f"a conversion or format spec in spark.sql's query ({{{field}}})", loc,
                                   construct="spark.sql format")
        v = values[field]
        if isinstance(v, DFV):
            known = next((n for n, df in views.items() if df is v.df), None)
            view = known or f"_pyspark_{uuid.uuid4().hex}"
            views[view] = v.df
            out.append(view)
        elif isinstance(v, PyV) and isinstance(v.value, str):
            out.append("'" + v.value.replace("\\", "\\\\").replace("'", "\\'") + "'")
        elif isinstance(v, PyV):
            out.append(format(v.value))
        else:
            raise UnsupportedError(f"{describe(v)} as a value in spark.sql's query ({{{field}}})", loc,
                                   construct="spark.sql format")
    return "".join(out), views




def _tables_in(rel: R.Rel) -> Iterator[R.Table]:
    if isinstance(rel, R.Table):
        yield rel
        return
    for name in ("source", "left", "right"):
        child = getattr(rel, name, None)
        if isinstance(
            child,
            R.Table
            | R.Project
            | R.Filter
            | R.Join
            | R.Aggregate
            | R.Distinct
            | R.DropDuplicates
            | R.SetOp
            | R.Sort
            | R.Limit,
        ):
            yield from _tables_in(child)
