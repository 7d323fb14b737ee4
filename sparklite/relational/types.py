"""Spark SQL's data types, schemas and DDL strings, as the relational kernel uses them.

A DataFrame (or a SQL query's result) is a bag of rows plus a schema: ordered, named, typed, nullable
columns. Types are Spark's own (``int`` is 32-bit, ``bigint`` 64-bit, both raising on overflow in ANSI
mode, the default of Spark 4), not Python's: ``dataframe-semantics.md`` is the reference for every rule
here. ``simple`` is Spark's ``simpleString`` (what ``df.dtypes`` shows), which is also how a result's
column types are compared and printed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sparklite.ast import Loc
from sparklite.errors import InputError


@dataclass(frozen=True)
class SqlType:
    """Base of Spark's data types."""

    @property
    def simple(self) -> str:  # pragma: no cover - every subclass overrides it
        raise NotImplementedError

    def __str__(self) -> str:
        return self.simple


@dataclass(frozen=True)
class IntegralType(SqlType):
    """``int`` (32 bits) or ``bigint`` (64 bits); arithmetic raises ``ARITHMETIC_OVERFLOW`` past them."""

    bits: int

    @property
    def simple(self) -> str:
        return {8: "tinyint", 16: "smallint", 32: "int", 64: "bigint"}[self.bits]

    @property
    def min(self) -> int:
        return -(1 << (self.bits - 1))

    @property
    def max(self) -> int:
        return (1 << (self.bits - 1)) - 1


@dataclass(frozen=True)
class DoubleType(SqlType):
    @property
    def simple(self) -> str:
        return "double"


@dataclass(frozen=True)
class DecimalType(SqlType):
    """``decimal(p, s)``: exact, ``p`` digits of which ``s`` after the point; overflow raises."""

    precision: int
    scale: int

    @property
    def simple(self) -> str:
        return f"decimal({self.precision},{self.scale})"


@dataclass(frozen=True)
class StringType(SqlType):
    @property
    def simple(self) -> str:
        return "string"


@dataclass(frozen=True)
class BooleanType(SqlType):
    @property
    def simple(self) -> str:
        return "boolean"


@dataclass(frozen=True)
class DateType(SqlType):
    @property
    def simple(self) -> str:
        return "date"


@dataclass(frozen=True)
class TimestampType(SqlType):
    """``timestamp`` (an instant, shown in the session time zone, which sparkeq fixes to UTC) or, with
    ``ntz``, ``timestamp_ntz`` (a wall-clock reading); both microsecond precision
    (``sparklite.relational.timestamps``)."""

    ntz: bool = False

    @property
    def simple(self) -> str:
        return "timestamp_ntz" if self.ntz else "timestamp"


@dataclass(frozen=True)
class NullType(SqlType):
    """The type of an untyped ``NULL`` literal (Spark's ``void``); coerces to any type."""

    @property
    def simple(self) -> str:
        return "void"


@dataclass(frozen=True)
class ArrayType(SqlType):
    """``array<T>``: ``contains_null`` says whether an element may be NULL (``split`` gives
    ``array<string>`` whose elements never are; ``array(a, b)`` of nullable columns may hold NULLs).
    Values are Python tuples (hashable: arrays group, join and compare in Spark)."""

    element: SqlType
    contains_null: bool = True

    @property
    def simple(self) -> str:
        return f"array<{self.element.simple}>"


@dataclass(frozen=True)
class MapType(SqlType):
    """``map<K,V>``: values are tuples of (key, value) pairs in insertion order (Spark keeps it)."""

    key: SqlType
    value: SqlType
    value_contains_null: bool = True

    @property
    def simple(self) -> str:
        return f"map<{self.key.simple},{self.value.simple}>"


@dataclass(frozen=True)
class StructType(SqlType):
    """``struct<a:int,b:string>``: values are tuples, one item per field."""

    fields: tuple[Field, ...]

    @property
    def simple(self) -> str:
        return "struct<" + ",".join(f"{f.name}:{f.type.simple}" for f in self.fields) + ">"


INT = IntegralType(32)
BIGINT = IntegralType(64)
SMALLINT = IntegralType(16)
TINYINT = IntegralType(8)
DOUBLE = DoubleType()
STRING = StringType()
BOOLEAN = BooleanType()
DATE = DateType()
TIMESTAMP = TimestampType()
TIMESTAMP_NTZ = TimestampType(ntz=True)
NULL = NullType()


def is_numeric(t: SqlType) -> bool:
    return isinstance(t, IntegralType | DoubleType | DecimalType)


@dataclass(frozen=True)
class Field:
    """One column: ``name`` as the user spelled it (Spark resolves names case-insensitively)."""

    name: str
    type: SqlType
    nullable: bool = True

    def __str__(self) -> str:
        name = self.name if re.fullmatch(r"[A-Za-z_]\w*", self.name) else f"`{self.name.replace('`', '``')}`"
        return f"{name} {ddl_type(self.type)}{'' if self.nullable else ' NOT NULL'}"


def ddl_type(t: SqlType) -> str:
    """A type as a DDL string writes it: upper case, except nested types, whose field names keep
    their case (``STRUCT<x:INT>`` would rename the field ``X``)."""
    return t.simple if isinstance(t, ArrayType | MapType | StructType) else t.simple.upper()


@dataclass(frozen=True)
class Constraint:
    """A declared key: ``primary`` (unique and not null), ``unique``, or ``references`` another table's
    column. Constraints are assumptions about the inputs, never checked by Spark."""

    kind: str  # "primary" | "unique" | "references"
    columns: tuple[str, ...]
    target: tuple[str, str] | None = None  # (table, column) for "references"


@dataclass(frozen=True)
class Schema:
    fields: tuple[Field, ...]
    constraints: tuple[Constraint, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    def __len__(self) -> int:
        return len(self.fields)

    def __str__(self) -> str:
        return ", ".join(str(f) for f in self.fields)

    def indices(self, name: str) -> list[int]:
        """Positions of the columns named ``name`` (case-insensitively, as Spark resolves them)."""
        low = name.lower()
        return [i for i, f in enumerate(self.fields) if f.name.lower() == low]


# ---------------------------------------------------------------------------------------------------
# DDL strings: "id INT NOT NULL, dept INT, sal BIGINT, name STRING"
# ---------------------------------------------------------------------------------------------------

_TYPE_NAMES: dict[str, SqlType] = {
    "int": INT, "integer": INT, "bigint": BIGINT, "long": BIGINT, "smallint": SMALLINT, "short": SMALLINT,
    "tinyint": TINYINT, "byte": TINYINT, "double": DOUBLE, "float": DOUBLE, "real": DOUBLE,
    "string": STRING, "text": STRING, "boolean": BOOLEAN, "bool": BOOLEAN, "date": DATE,
    "timestamp": TIMESTAMP, "timestamp_ltz": TIMESTAMP, "timestamp_ntz": TIMESTAMP_NTZ,
}


class SchemaError(InputError):
    """A DDL string or ``CREATE TABLE`` statement sparkeq cannot read."""


def parse_type(text: str, loc: Loc | None = None) -> SqlType:
    """A Spark type name: ``int``, ``BIGINT``, ``decimal(10,2)``, ``varchar(20)`` (a string),
    ``array<int>``, ``map<string,int>``, ``struct<a:int,b:string>``..."""
    t = text.strip().lower()
    nested = _parse_nested(text.strip(), loc)
    if nested is not None:
        return nested
    if t in _TYPE_NAMES:
        if t in ("float", "real"):
            raise SchemaError(f"type {text!r} (32-bit float) is not supported; use DOUBLE", loc)
        return _TYPE_NAMES[t]
    m = re.fullmatch(r"(?:decimal|numeric|dec)\s*(?:\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\))?", t)
    if m:
        p = int(m.group(1) or 10)
        s = int(m.group(2) or 0)
        if not 1 <= p <= 38 or s > p:
            raise SchemaError(f"invalid decimal type {text!r}", loc)
        return DecimalType(p, s)
    if re.fullmatch(r"(?:var)?char\s*\(\s*\d+\s*\)|varchar", t):
        return STRING
    raise SchemaError(f"unsupported column type {text!r} (supported: INT, BIGINT, SMALLINT, TINYINT, DOUBLE, "
                      "DECIMAL(p,s), STRING, VARCHAR(n), BOOLEAN, DATE, TIMESTAMP, TIMESTAMP_NTZ, ARRAY<T>, "
                      "MAP<K,V>, STRUCT<...>)", loc)


def _parse_nested(text: str, loc: Loc | None) -> SqlType | None:
    """``array<T>``, ``map<K,V>``, ``struct<name:T,...>`` (``struct<name T>`` too), or None."""
    m = re.fullmatch(r"(?is)(array|map|struct)\s*<(.*)>", text)
    if not m:
        return None
    kind, inner = m.group(1).lower(), m.group(2)
    parts = [p.strip() for p in _split_top(inner)]
    if kind == "array" and len(parts) == 1:
        return ArrayType(parse_type(parts[0], loc))
    if kind == "map" and len(parts) == 2:
        return MapType(parse_type(parts[0], loc), parse_type(parts[1], loc))
    if kind == "struct" and all(parts):
        fields = []
        for p in parts:
            f = re.fullmatch(r"(?s)(?:([A-Za-z_]\w*)|`((?:[^`]|``)+)`)\s*:?\s*(.+?)(\s+not\s+null)?", p, re.I)
            if not f:
                raise SchemaError(f"cannot read struct field {p!r}", loc)
            name = f.group(1) if f.group(1) is not None else f.group(2).replace("``", "`")
            fields.append(Field(name, parse_type(f.group(3), loc), f.group(4) is None))
        return StructType(tuple(fields))
    raise SchemaError(f"cannot read type {text!r}", loc)


_COLUMN_DEF = re.compile(r"(?is)(?:([A-Za-z_][\w]*)|`((?:[^`]|``)+)`)"  # a name, or any text in back quotes
                         # the type (with its parameters or <element types>), then NOT NULL...
                         r"\s*:?\s*([A-Za-z][A-Za-z_]*(?:\s*\([^)]*\)|\s*<.*>)?)(.*)")


def parse_ddl(text: str, loc: Loc | None = None) -> Schema:
    """A Spark DDL column list (``Annotated[DataFrame, "a INT NOT NULL, b STRING"]``, ``--schema``)."""
    fields: list[Field] = []
    constraints: list[Constraint] = []
    for part in _split_top(text):
        part = part.strip()
        if not part:
            continue
        m = re.fullmatch(r"(?is)primary\s+key\s*\((.*)\)", part)
        if m:
            constraints.append(Constraint("primary", tuple(c.strip(" `") for c in m.group(1).split(","))))
            continue
        # a name is an identifier or any text in back quotes (`order id`; `` is one back quote), as Spark
        m = _COLUMN_DEF.fullmatch(part)
        if not m:
            raise SchemaError(f"cannot read column definition {part!r} (expected: name TYPE [NOT NULL])", loc)
        name = m.group(1) if m.group(1) is not None else m.group(2).replace("``", "`")
        typ, rest = parse_type(m.group(3), loc), m.group(4).strip().lower()
        nullable = True
        words = rest.split()
        i = 0
        while i < len(words):
            w = words[i]
            if w == "not" and i + 1 < len(words) and words[i + 1] == "null":
                nullable = False
                i += 2
            elif w == "null":
                i += 1
            elif w == "primary" and i + 1 < len(words) and words[i + 1] == "key":
                nullable = False
                constraints.append(Constraint("primary", (name,)))
                i += 2
            elif w == "unique":
                constraints.append(Constraint("unique", (name,)))
                i += 1
            else:
                raise SchemaError(f"cannot read {rest!r} after column {name!r} "
                                  "(expected NOT NULL, PRIMARY KEY or UNIQUE)", loc)
        fields.append(Field(name, typ, nullable))
    if not fields:
        raise SchemaError("empty schema", loc)
    _check_unique([f.name for f in fields], loc)
    return Schema(tuple(fields), tuple(constraints))


def _check_unique(names: list[str], loc: Loc | None) -> None:
    seen: set[str] = set()
    for n in names:
        if n.lower() in seen:
            raise SchemaError(f"column {n!r} declared twice", loc)
        seen.add(n.lower())


def _split_top(text: str) -> list[str]:
    """Split on commas outside parentheses and back quotes (``decimal(10,2)``, `` `a,b` INT`` stay whole)."""
    parts, depth, cur = [], 0, []
    quoted = False
    for ch in text:
        if ch == "`":
            quoted = not quoted  # `` inside a quoted name toggles twice
        elif ch in "(<" and not quoted:
            depth += 1
        elif ch in ")>" and not quoted:
            depth -= 1
        if ch == "," and depth == 0 and not quoted:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


# ---------------------------------------------------------------------------------------------------
# Coercion (Spark's type widening for arithmetic, comparisons, CASE branches and set operations)
# ---------------------------------------------------------------------------------------------------

_NUMERIC_RANK = {TINYINT: 0, SMALLINT: 1, INT: 2, BIGINT: 3}


def decimal_of_integral(t: IntegralType) -> DecimalType:
    """The decimal Spark uses for an integral operand meeting a decimal: int -> decimal(10,0)."""
    return DecimalType({8: 3, 16: 5, 32: 10, 64: 20}[t.bits], 0)


def string_promotion(a: SqlType, b: SqlType) -> SqlType | None:
    """Spark 4's ANSI coercion of a string meeting another atomic type, where the two need one type
    (comparisons, CASE, ``coalesce``, ``IN``, set operations): an integral makes it ``bigint``, a
    double or a decimal ``double``, a date ``date``, a boolean ``boolean`` (the string is cast, and may
    raise ``CAST_INVALID_INPUT``). None for other pairs."""
    for s, o in ((a, b), (b, a)):
        if isinstance(s, StringType):
            if isinstance(o, IntegralType):
                return BIGINT
            if isinstance(o, DoubleType | DecimalType):
                return DOUBLE
            if isinstance(o, DateType | BooleanType | TimestampType):
                return o
    return None


def wider(a: SqlType, b: SqlType) -> SqlType | None:
    """The tightest common type of two types (Spark's ``findTightestCommonType`` plus decimal widening
    and string promotion for set operations and CASE), or None if there is none."""
    if a == b:
        return a
    if isinstance(a, NullType):
        return b
    if isinstance(b, NullType):
        return a
    if isinstance(a, IntegralType) and isinstance(b, IntegralType):
        return a if a.bits >= b.bits else b
    if isinstance(a, TimestampType | DateType) and isinstance(b, TimestampType | DateType):
        # a date meets a timestamp as its midnight; timestamp_ntz meets timestamp as timestamp
        return TIMESTAMP if TIMESTAMP in (a, b) else TIMESTAMP_NTZ
    if isinstance(a, DoubleType) and is_numeric(b) or isinstance(b, DoubleType) and is_numeric(a):
        return DOUBLE
    if isinstance(a, ArrayType) and isinstance(b, ArrayType):
        e = wider(a.element, b.element)
        return None if e is None else ArrayType(e, a.contains_null or b.contains_null)
    if isinstance(a, DecimalType | IntegralType) and isinstance(b, DecimalType | IntegralType):
        da = decimal_of_integral(a) if isinstance(a, IntegralType) else a
        db = decimal_of_integral(b) if isinstance(b, IntegralType) else b
        scale = max(da.scale, db.scale)
        whole = max(da.precision - da.scale, db.precision - db.scale)
        return DecimalType(min(38, whole + scale), scale)
    return None
