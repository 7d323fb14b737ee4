"""Table schemas for SQL and DataFrame programs: ``CREATE TABLE`` files and ``--schema 'name=DDL'``.

Why a small reader of our own rather than sqlglot: schema files in the wild are MySQL dumps as often as
Spark DDL (backticks, ``int(11)``, ``AUTO_INCREMENT``, ``ENGINE=InnoDB`` trailers, ``KEY idx (..)``), and
what matters here is narrow and must be exact: each column's Spark type and nullability, and the keys,
which become ``types.Constraint`` assumptions about the inputs (a verdict that uses one says so). Every
problem is a ``SchemaError`` located at the line and column of the offending text, never a traceback.

Rules (as Spark and SQL define them): columns are nullable unless ``NOT NULL``; ``PRIMARY KEY`` (on a
column or as a table constraint) implies NOT NULL; ``UNIQUE`` and ``REFERENCES t(c)`` declare keys
without changing nullability. MySQL display widths (``int(11)``) are not types and are dropped; the
integer types keep Spark's ranges (``int`` 32 bits...). Secondary indexes (``KEY``/``INDEX``) and
``CHECK`` constraints say nothing sparkeq uses and are skipped, as are statements other than
``CREATE TABLE`` (``DROP TABLE``, ``SET``...). A composite ``FOREIGN KEY`` is skipped too (dropping an
assumption is sound; the kernel's ``Constraint`` names one target column).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sparklite.ast import Loc
from sparklite.relational.types import (
    Constraint,
    Field,
    Schema,
    SchemaError,
    SqlType,
    parse_ddl,
    parse_type,
)

__all__ = ["parse_schema_file", "schema_option", "SchemaError"]


@dataclass(frozen=True)
class _Tok:
    """A token of a schema file: ``kind`` is ``word`` (names and keywords, backticks/quotes removed
    into ``quoted``), ``num``, ``str`` or ``punct``; ``pos`` its offset in the text."""

    kind: str
    text: str
    pos: int
    quoted: bool = False

    @property
    def low(self) -> str:
        return "" if self.quoted else self.text.lower()


_TOKEN = re.compile(
    r"""(?P<ws>\s+)|(?P<line>(?:--|\#)[^\n]*)|(?P<block>/\*.*?\*/)
      |`(?P<bq>(?:[^`]|``)*)`|"(?P<dq>(?:[^"\\]|\\.|"")*)"|'(?P<sq>(?:[^'\\]|\\.|'')*)'
      |(?P<num>\d+(?:\.\d*)?)|(?P<word>[A-Za-z_][\w$]*)|(?P<punct>.)""",
    re.S | re.X,
)


def _tokens(text: str, filename: str) -> list[_Tok]:
    out: list[_Tok] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:  # an unterminated quote or comment
            raise SchemaError("unterminated quote or comment", _loc_of(text, pos, filename))
        kind = m.lastgroup
        if kind == "bq":
            out.append(_Tok("word", m.group("bq").replace("``", "`"), pos, quoted=True))
        elif kind == "dq":
            out.append(_Tok("word", m.group("dq"), pos, quoted=True))
        elif kind == "sq":
            out.append(_Tok("str", m.group("sq"), pos))
        elif kind in ("num", "word", "punct"):
            out.append(_Tok(kind, m.group(0), pos))
        pos = m.end()
    return out


def _loc_of(text: str, pos: int, filename: str) -> Loc:
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return Loc(filename, line, col)


class _Reader:
    """A cursor over one statement's tokens (no state beyond the position)."""

    def __init__(self, toks: list[_Tok], text: str, filename: str, end_pos: int) -> None:
        self.toks, self.text, self.filename, self.i, self.end_pos = toks, text, filename, 0, end_pos

    def peek(self, k: int = 0) -> _Tok | None:
        return self.toks[self.i + k] if self.i + k < len(self.toks) else None

    def loc(self, tok: _Tok | None = None) -> Loc:
        tok = tok or self.peek()
        return _loc_of(self.text, tok.pos if tok is not None else self.end_pos, self.filename)

    def at(self, *words: str) -> bool:
        for k, w in enumerate(words):
            t = self.peek(k)
            if t is None or (t.low != w if w.isalpha() or "_" in w else t.text != w):
                return False
        return True

    def accept(self, *words: str) -> bool:
        if self.at(*words):
            self.i += len(words)
            return True
        return False

    def expect(self, word: str, what: str) -> _Tok:
        t = self.peek()
        if not self.accept(word):
            got = repr(t.text) if t is not None else "the end of the statement"
            raise SchemaError(f"expected {what}, found {got}", self.loc(t))
        return self.toks[self.i - 1]

    def name(self, what: str) -> str:
        t = self.peek()
        if t is None or t.kind != "word":
            got = repr(t.text) if t is not None else "the end of the statement"
            raise SchemaError(f"expected {what}, found {got}", self.loc(t))
        self.i += 1
        return t.text

    def qualified_name(self, what: str) -> str:
        """``db.table`` names the table ``table``."""
        n = self.name(what)
        while self.accept("."):
            n = self.name(what)
        return n

    def name_list(self, what: str) -> list[str]:
        self.expect("(", f"'(' before the {what}")
        names = [self.name(what)]
        self._skip_key_part_suffix()
        while self.accept(","):
            names.append(self.name(what))
            self._skip_key_part_suffix()
        self.expect(")", f"')' after the {what}")
        return names

    def _skip_key_part_suffix(self) -> None:
        """MySQL key parts may carry a prefix length and an order: ``KEY (name(10) DESC)``."""
        nxt = self.peek(1)
        if self.at("(") and nxt is not None and nxt.kind == "num" and self.at("(", nxt.text, ")"):
            self.i += 3
        if not self.accept("asc"):
            self.accept("desc")

    def skip_balanced(self) -> None:
        """Skips one token, or a whole parenthesised group."""
        depth = 0
        while self.peek() is not None:
            t = self.peek()
            self.i += 1
            if t.text == "(":  # type: ignore[union-attr]
                depth += 1
            elif t.text == ")":  # type: ignore[union-attr]
                depth -= 1
            if depth <= 0:
                return


def _statements(toks: list[_Tok]) -> list[list[_Tok]]:
    stmts: list[list[_Tok]] = [[]]
    for t in toks:
        if t.kind == "punct" and t.text == ";":
            stmts.append([])
        else:
            stmts[-1].append(t)
    return [s for s in stmts if s]


def parse_schema_file(text: str, filename: str) -> dict[str, Schema]:
    """The tables of a schema file, by name as declared (look them up case-insensitively, as Spark
    does: ``by_lower = {k.lower(): v ...}``). A table declared twice (up to case) is an error."""
    toks = _tokens(text, filename)
    tables: dict[str, Schema] = {}
    seen: dict[str, str] = {}
    for stmt in _statements(toks):
        end_pos = stmt[-1].pos + len(stmt[-1].text)
        r = _Reader(stmt, text, filename, end_pos)
        if not r.accept("create"):
            continue
        r.accept("or", "replace")
        r.accept("temporary") or r.accept("temp") or r.accept("external")
        if not r.accept("table"):
            continue  # CREATE INDEX / VIEW / DATABASE...: nothing about table columns
        r.accept("if", "not", "exists")
        start = r.peek()
        name = r.qualified_name("a table name")
        if name.lower() in seen:
            raise SchemaError(
                f"table {name!r} declared twice (table names are case-insensitive)", r.loc(start)
            )
        seen[name.lower()] = name
        tables[name] = _table_body(r, name)
    if not tables:
        raise SchemaError("no CREATE TABLE statement found", Loc(filename, 1, 1))
    return tables


def _table_body(r: _Reader, table: str) -> Schema:
    r.expect("(", f"'(' and the columns of table {table!r}")
    fields: list[Field] = []
    field_locs: list[Loc] = []
    constraints: list[Constraint] = []
    not_null: set[str] = set()
    constraint_locs: list[Loc] = []
    while True:
        start = r.peek()
        if start is None:
            raise SchemaError(f"unterminated column list of table {table!r}", r.loc())
        _table_item(r, table, fields, field_locs, constraints, not_null)
        constraint_locs += [r.loc(start)] * (len(constraints) - len(constraint_locs))
        if r.accept(","):
            continue
        r.expect(")", f"',' or ')' in the columns of table {table!r}")
        break
    # anything after the ')' (ENGINE=InnoDB DEFAULT CHARSET=utf8, USING parquet, ...) is storage detail
    if not fields:
        raise SchemaError(f"table {table!r} has no columns", r.loc(start))
    by_name = {f.name.lower(): i for i, f in enumerate(fields)}
    for c, loc in zip(constraints, constraint_locs, strict=True):
        for col in c.columns:
            if col.lower() not in by_name:
                raise SchemaError(f"key on unknown column {col!r} of table {table!r}", loc)
    fields = [Field(f.name, f.type, f.nullable and f.name.lower() not in not_null) for f in fields]
    return Schema(tuple(fields), tuple(constraints))


def _table_item(
    r: _Reader,
    table: str,
    fields: list[Field],
    field_locs: list[Loc],
    constraints: list[Constraint],
    not_null: set[str],
) -> None:
    if r.accept("constraint"):
        if (
            r.peek() is not None
            and r.peek().kind == "word"
            and not r.at("primary")
            and not r.at("unique")
            and not r.at("foreign")
            and not r.at("check")
        ):  # type: ignore[union-attr]
            r.i += 1  # the constraint's name
    if r.accept("primary", "key"):
        cols = r.name_list("primary key columns")
        constraints.append(Constraint("primary", tuple(cols)))
        not_null.update(c.lower() for c in cols)
        _skip_index_options(r)
        return
    if r.accept("unique"):
        r.accept("key") or r.accept("index")
        if r.peek() is not None and r.peek().kind == "word":  # type: ignore[union-attr]
            r.i += 1  # the index's name
        constraints.append(Constraint("unique", tuple(r.name_list("unique key columns"))))
        _skip_index_options(r)
        return
    if r.accept("foreign", "key"):
        if r.peek() is not None and r.peek().kind == "word":  # type: ignore[union-attr]
            r.i += 1
        cols = r.name_list("foreign key columns")
        r.expect("references", "REFERENCES")
        target = r.qualified_name("the referenced table")
        tcols = r.name_list("referenced columns") if r.at("(") else []
        if len(cols) == 1 and len(tcols) == 1:
            constraints.append(Constraint("references", (cols[0],), (target, tcols[0])))
        _skip_reference_actions(r)
        return
    if _index_definition(r):
        while r.peek() is not None and not r.at(",") and not r.at(")"):
            r.skip_balanced()
        return
    _column(r, table, fields, field_locs, constraints)


def _index_definition(r: _Reader) -> bool:
    """Whether the item is a MySQL index definition or CHECK (``KEY [name] [USING ..] (cols)``,
    ``FULLTEXT [KEY|INDEX] ...``, ``CHECK (expr)``) rather than a column of that name (``key INT``,
    ``index VARCHAR(10)``): the keyword is followed by ``(`` or ``USING``, or by a name and then one of
    them (a type's ``(`` holds a number or a string, an index's a column)."""
    if not any(r.at(w) for w in ("key", "index", "fulltext", "spatial", "check")):
        return False
    second = r.peek(1)
    k = 1
    if r.toks[r.i].low in ("fulltext", "spatial") and second is not None and second.low in ("key", "index"):
        k = 2
    t = r.peek(k)
    if t is None:
        return False
    if (t.kind == "punct" and t.text == "(") or t.low == "using":
        return True
    nxt, inside = r.peek(k + 1), r.peek(k + 2)
    if t.kind != "word" or nxt is None:
        return False
    if nxt.low == "using":
        return True
    return nxt.text == "(" and inside is not None and (inside.kind == "word" or inside.text == "(")


def _skip_index_options(r: _Reader) -> None:
    while r.peek() is not None and not r.at(",") and not r.at(")"):
        r.skip_balanced()


def _skip_reference_actions(r: _Reader) -> None:
    while r.accept("on"):
        r.i += 1  # DELETE / UPDATE
        if not (
            r.accept("cascade")
            or r.accept("restrict")
            or r.accept("set", "null")
            or r.accept("set", "default")
            or r.accept("no", "action")
        ):
            raise SchemaError("expected CASCADE, RESTRICT, SET NULL, SET DEFAULT or NO ACTION", r.loc())


_INTEGER_WIDTHS = {
    "int": "int",
    "integer": "int",
    "mediumint": "int",
    "bigint": "bigint",
    "smallint": "smallint",
    "tinyint": "tinyint",
}
_STRING_TYPES = {
    "text",
    "tinytext",
    "mediumtext",
    "longtext",
    "string",
    "varchar",
    "char",
    "nvarchar",
    "nchar",
    "character",
    "clob",
}


def _column(
    r: _Reader, table: str, fields: list[Field], field_locs: list[Loc], constraints: list[Constraint]
) -> None:
    name_tok = r.peek()
    name = r.name(f"a column of table {table!r}")
    loc = r.loc(name_tok)
    if any(f.name.lower() == name.lower() for f in fields):
        raise SchemaError(f"column {name!r} of table {table!r} declared twice", loc)
    typ = _column_type(r, name)
    nullable = True
    while r.peek() is not None and not r.at(",") and not r.at(")"):
        if r.accept("not", "null"):
            nullable = False
        elif r.accept("null"):
            pass
        elif r.accept("primary", "key"):
            nullable = False
            constraints.append(Constraint("primary", (name,)))
        elif r.accept("unique"):
            r.accept("key")
            constraints.append(Constraint("unique", (name,)))
        elif r.accept("key"):  # MySQL: a bare KEY on a column means PRIMARY KEY
            nullable = False
            constraints.append(Constraint("primary", (name,)))
        elif r.accept("references"):
            target = r.qualified_name("the referenced table")
            if r.at("("):
                tcols = r.name_list("referenced column")
                if len(tcols) == 1:
                    constraints.append(Constraint("references", (name,), (target, tcols[0])))
            _skip_reference_actions(r)
        elif r.accept("default"):
            if r.accept("-") or r.accept("+"):
                pass
            r.skip_balanced()
        elif r.accept("comment") or r.accept("collate"):
            r.i += 1
        elif r.accept("character", "set") or r.accept("charset"):
            r.i += 1
        elif (
            r.accept("auto_increment")
            or r.accept("autoincrement")
            or r.accept("signed")
            or r.accept("zerofill")
            or r.accept("binary")
        ):
            pass
        elif r.accept("on", "update"):
            r.skip_balanced()
        elif r.accept("check"):
            r.skip_balanced()
        elif r.accept("generated") or r.accept("as"):
            raise SchemaError(f"generated column {name!r} is not supported", loc)
        else:
            t = r.peek()
            raise SchemaError(
                f"cannot read {t.text!r} in the definition of column {name!r} "  # type: ignore[union-attr]
                "(expected NOT NULL, NULL, PRIMARY KEY, UNIQUE, REFERENCES t(c) or DEFAULT)",
                r.loc(t),
            )
    fields.append(Field(name, typ, nullable))
    field_locs.append(loc)


def _column_type(r: _Reader, column: str) -> SqlType:
    tok = r.peek()
    loc = r.loc(tok)
    base = r.name(f"the type of column {column!r}").lower()
    if base == "double" and r.accept("precision"):
        pass
    elif base in ("character", "char") and r.accept("varying"):
        base = "varchar"
    args: list[str] = []
    if r.accept("("):
        while not r.accept(")"):
            t = r.peek()
            if t is None:
                raise SchemaError(f"unterminated type of column {column!r}", loc)
            if t.text != ",":
                args.append(t.text)
            r.i += 1
    if r.accept("unsigned"):
        raise SchemaError(
            f"column {column!r}: unsigned integer types have no Spark equivalent "
            "(declare the next wider signed type)",
            loc,
        )
    if base in _INTEGER_WIDTHS:  # int(11): a display width, not a type parameter
        return parse_type(_INTEGER_WIDTHS[base], loc)
    if base in _STRING_TYPES:
        return parse_type("string", loc)
    if base in ("decimal", "numeric", "dec", "number"):
        return parse_type(f"decimal({','.join(args)})" if args else "decimal", loc)
    if args:
        return parse_type(f"{base}({','.join(args)})", loc)
    return parse_type(base, loc)


def schema_option(spec: str) -> tuple[str, Schema]:
    """``--schema 'name=DDL'``: a table (or DataFrame parameter) name and a Spark DDL column list,
    ``emp=id INT NOT NULL, dept INT``."""
    name, sep, ddl = spec.partition("=")
    name = name.strip().strip("`")
    loc = Loc("--schema", 1, 1)
    if not sep or not re.fullmatch(r"[A-Za-z_][\w]*", name):
        raise SchemaError(
            f"--schema {spec!r}: expected NAME=DDL (e.g. 'emp=id INT NOT NULL, dept INT') "
            "or a .sql file of CREATE TABLE statements",
            loc,
        )
    return name, parse_ddl(ddl, loc)
