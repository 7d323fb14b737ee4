"""Random well-typed relational kernel programs, tables and partitionings.

Used by the differential test against Spark (``tests/test_relational_vs_spark.py``,
``scripts/df_difftest.py``), by the verifier's random testing and by soundness fuzzing, so everything
here is general (any schemas), deterministic per seed (all randomness comes from the ``rng`` passed
in; no global state) and builds programs only through ``sparklite.relational.build``: a program is
well typed because the builder accepted it, and it carries exactly the implicit casts Spark's
analyser would insert. A draw the builder rejects (``AnalysisError``, an unsupported function) is
replaced by a simpler one, never emitted.

What the draws aim at is where Spark SQL's meaning is easy to get wrong (``dataframe-semantics.md``):
literals at the ``int``/``bigint`` boundaries, 0 and negatives as divisors (``DIVIDE_BY_ZERO``,
truncating ``div`` and ``%``, ``pmod``), NULL (typed and untyped), NaN, ``-0.0`` and infinities in
doubles, strings that do and do not parse as numbers or dates (coercions that raise
``CAST_INVALID_INPUT``), ``try_`` forms, short-circuit ``AND``/``OR``/``CASE`` over expressions that can
raise, NULL-safe equality, ``IN`` lists with NULLs, every join kind over NULL and NaN keys, set
operations with ``ALL`` and without, aggregates over empty and all-NULL groups, sorts with every NULL
placement, and limits with and without an order. Tables get NULLs where nullable, boundary values,
duplicates, empty tables, and the caller's constants (so a verifier can test the values a program
mentions).
"""

from __future__ import annotations

import datetime
import decimal
import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sparklite.errors import InputError
from sparklite.partitions import random_partitioning as _random_partitioning
from sparklite.relational import ast as R
from sparklite.relational import build as B
from sparklite.relational import generate_nested
from sparklite.relational.grouping_sets import GroupingCall, cube_sets, rollup_sets
from sparklite.relational.grouping_sets import lower as lower_grouping_sets
from sparklite.relational.moments import MOMENT_AGGREGATES
from sparklite.relational.types import (
    BIGINT,
    BOOLEAN,
    DATE,
    DOUBLE,
    INT,
    SMALLINT,
    STRING,
    TIMESTAMP,
    ArrayType,
    BooleanType,
    DateType,
    DecimalType,
    DoubleType,
    Field,
    IntegralType,
    Schema,
    SqlType,
    StringType,
    StructType,
    TimestampType,
)

__all__ = ["random_program", "random_tables", "random_partitioning", "random_partitionings", "random_schemas",
           "random_value", "kind_of", "FUNCTIONS"]

Kind = str  # "int" | "double" | "decimal" | "string" | "bool" | "date" | "ts"
KINDS: tuple[Kind, ...] = ("int", "double", "decimal", "string", "bool", "date", "ts")

# ---------------------------------------------------------------------------------------------------
# Value pools
# ---------------------------------------------------------------------------------------------------

_INT_VALUES = (0, 1, -1, 2, -2, 3, 7, 10, 2147483647, -2147483648, 2147483646)
_BIGINT_VALUES = (0, 1, -1, 2, 5, -3, 2147483647, 2147483648, -2147483649, 9223372036854775807,
                  -9223372036854775808, 9223372036854775806, 2 ** 53, 2 ** 53 + 1)
_SMALLINT_VALUES = (0, 1, -1, 2, 32767, -32768)
_DOUBLE_VALUES = (0.0, -0.0, 1.0, -1.0, 1.5, -2.5, 0.1, 3.0, math.nan, math.inf, -math.inf, 1e308, 1e16,
                  2147483647.0, 9.3e18)
_STRING_VALUES = ("", "a", "b", "A", "é", "abc", "1", "-7", " 2 ", "2147483648", "1.5", "NaN", "true",
                  "2024-02-29", "zz", "x\n", "a\r\nb", "a1b22", "hello wORLD", "ßa", "2024-01-02 03:04:05",
                  "2023-12-31T23:59:59.999", "2024/03/01", "2024-1-2 3:4")
#: timestamps (sparklite.relational.timestamps; the session time zone is UTC)
_TS_VALUES = (datetime.datetime(2024, 2, 29, 23, 59, 59, 999999), datetime.datetime(1970, 1, 1),
              datetime.datetime(2023, 12, 31, 12, 30, 5, 120000), datetime.datetime(1969, 12, 31, 23, 59,
                                59, 500000),
              datetime.datetime(2024, 3, 31, 1, 2, 3), datetime.datetime(1900, 1, 31, 6, 0))
_DATE_VALUES = (datetime.date(2024, 2, 29), datetime.date(1970, 1, 1), datetime.date(2023, 12, 31),
                datetime.date(1900, 3, 1))
_DECIMAL_LITERALS = ("0", "1", "-1", "1.5", "-2.25", "0.05", "99.99", "123456789.123", "0.000001",
                     "-0.5", "10")

_COLUMN_TYPES: tuple[tuple[SqlType, float], ...] = (
    (INT, 5), (BIGINT, 3), (DOUBLE, 3), (STRING, 3), (BOOLEAN, 1.5), (DecimalType(5, 2), 1.5),
    (DecimalType(10, 0), 0.7), (DecimalType(38, 18), 0.5), (SMALLINT, 0.5), (DATE, 0.5),
    (TIMESTAMP, 0.5),
    *generate_nested.COLUMN_TYPES,
)
_NAMES = ("a", "b", "c", "k", "v", "x", "s", "A", "id")


#: Scalar functions the generator draws: name, argument kinds, result kind (``build.func`` types them
#: by ``sparklite.relational.functions``; a function that table lacks is skipped).
FUNCTIONS: tuple[tuple[str, tuple[Kind, ...], Kind], ...] = (
    ("abs", ("int",), "int"), ("abs", ("double",), "double"), ("abs", ("decimal",), "decimal"),
    ("coalesce", ("int", "int"), "int"), ("coalesce", ("double", "double"), "double"),
    ("coalesce", ("string", "string"), "string"), ("coalesce", ("int", "decimal"), "decimal"),
    ("greatest", ("int", "int"), "int"), ("least", ("double", "double"), "double"),
    ("greatest", ("string", "string"), "string"), ("least", ("int", "int", "int"), "int"),
    ("upper", ("string",), "string"), ("lower", ("string",), "string"),
    ("length", ("string",), "int"), ("concat", ("string", "string"), "string"),
    ("nullif", ("int", "int"), "int"), ("nvl", ("string", "string"), "string"),
    ("ifnull", ("int", "int"), "int"), ("trim", ("string",), "string"),
    ("substring", ("string", "int", "int"), "string"), ("sign", ("double",), "double"),
    ("floor", ("double",), "int"), ("ceil", ("double",), "int"), ("round", ("double",), "double"),
    ("round", ("decimal",), "decimal"), ("isnan", ("double",), "bool"),
    ("nanvl", ("double", "double"), "double"), ("concat_ws", ("string", "string", "string"), "string"),
    ("negative", ("int",), "int"), ("signum", ("int",), "double"), ("bround", ("double",), "double"),
    ("ltrim", ("string",), "string"), ("rtrim", ("string",), "string"), ("abs", ("string",), "double"),
    ("greatest", ("decimal", "int"), "decimal"), ("floor", ("decimal",), "decimal"),
    # dates and LIKE (sparklite.relational.dates); "days" and "pattern" are small literals (_SMALL_ARGS)
    ("year", ("date",), "int"), ("month", ("date",), "int"), ("dayofmonth", ("date",), "int"),
    ("quarter", ("date",), "int"), ("dayofweek", ("date",), "int"), ("dayofyear", ("date",), "int"),
    ("weekofyear", ("date",), "int"), ("datediff", ("date", "date"), "int"),
    ("date_add", ("date", "days"), "date"), ("date_sub", ("date", "days"), "date"),
    ("add_months", ("date", "days"), "date"), ("year", ("string",), "int"), ("to_date", ("string",), "date"),
    ("like", ("string", "pattern"), "bool"),
    # timestamps (sparklite.relational.timestamps); "tsfmt", "tsparse", "secs", "unit" are literals
    ("hour", ("ts",), "int"), ("minute", ("ts",), "int"), ("second", ("ts",), "int"), ("year", ("ts",),
     "int"),
    ("to_date", ("ts",), "date"), ("datediff", ("ts", "date"), "int"), ("hour", ("string",), "int"),
    ("date_format", ("ts", "tsfmt"), "string"), ("date_format", ("date", "tsfmt"), "string"),
    ("to_timestamp", ("string",), "ts"), ("to_timestamp", ("string", "tsparse"), "ts"),
    ("to_timestamp", ("date",), "ts"), ("unix_timestamp", ("ts",), "int"),
    ("unix_timestamp", ("string", "tsparse"), "int"), ("from_unixtime", ("secs", "tsfmt"), "string"),
    ("date_trunc", ("unit", "ts"), "ts"), ("months_between", ("ts", "ts"), "double"),
    ("months_between", ("date", "ts", "bool"), "double"),
    # sparklite.relational.strings and mathfuncs; kinds in _SMALL_ARGS are literals of their pools
    ("instr", ("string", "string"), "int"), ("locate", ("string", "string", "int"), "int"),
    ("lpad", ("string", "padlen", "string"), "string"), ("rpad", ("string", "padlen", "string"), "string"),
    ("initcap", ("string",), "string"), ("reverse", ("string",), "string"),
    ("translate", ("string", "string", "string"), "string"),
    ("replace", ("string", "string", "string"), "string"),
    ("rlike", ("string", "regex"), "bool"), ("regexp_replace", ("string", "regex", "replacement"), "string"),
    ("regexp_extract", ("string", "regex", "group"), "string"),
    ("sqrt", ("double",), "double"), ("exp", ("double",), "double"), ("ln", ("double",), "double"),
    ("log10", ("double",), "double"), ("log2", ("int",), "double"), ("log", ("double", "double"), "double"),
    ("pow", ("double", "double"), "double"), ("power", ("int", "int"), "double"),
    *generate_nested.FUNCTIONS,  # arrays: "strarray"/"intarray" arguments (generate_nested.array_arg)
)

#: literals for the arguments whose random values would leave what the interpreter can represent
#: (a date beyond year 9999, which PySpark cannot even collect) or what the test means to draw
_SMALL_ARGS: dict[str, tuple[Any, ...]] = {
    "days": (0, 1, -1, 2, 28, 31, -59, 365, -366),
    "pattern": ("a%", "%", "_", "%b", "a_c", "", "A%", "%1%", "\\%"),
    # Java patterns of the common subset, Java replacements, group indexes and small pad lengths
    # (sparklite.relational.strings): where the two regex dialects differ
    "regex": (r"(\d+)", r"^(a)", r"(b|c)$", r"(.)", r"(x*)", r"([a-z]+)(\d)?", r"(?i)(A)", r"(\s)",
              r"([^a-z0-9])", r"(\w+)-?", r"(é)", r"(a.?b){1,2}"),
    "replacement": ("", "-", "<$1>", "$0$0", "\\$", "x$1y"),
    "group": (0, 1),
    "padlen": (-1, 0, 1, 2, 3, 5),
    "tsfmt": ("yyyy-MM-dd HH:mm:ss", "yyyy/MM/dd", "HH:mm", "d M yyyy H m s", "yyyy-MM-dd'T'HH:mm:ss.SSS",
              "ss.SSSSSS"),
    "tsparse": ("yyyy-MM-dd HH:mm:ss", "yyyy/MM/dd", "yyyy-MM-dd", "dd-MM-yyyy HH:mm"),
    "secs": (0, -1, 1704164645, 86399, 951782400, -2208988800),
    "unit": ("year", "QUARTER", "month", "week", "day", "HOUR", "minute", "second", "millisecond", "bogus"),
    **generate_nested.SMALL_ARGS,
}


def kind_of(t: SqlType) -> Kind | None:
    """The generator's coarse class of a type (None for the untyped NULL)."""
    if isinstance(t, IntegralType):
        return "int"
    if isinstance(t, DoubleType):
        return "double"
    if isinstance(t, DecimalType):
        return "decimal"
    if isinstance(t, StringType):
        return "string"
    if isinstance(t, BooleanType):
        return "bool"
    if isinstance(t, DateType):
        return "date"
    if isinstance(t, TimestampType):
        return "ts"
    return None


def _weighted(rng: random.Random, options: Sequence[tuple[Any, float]]) -> Any:
    total = sum(w for _, w in options)
    x = rng.random() * total
    for value, w in options:
        x -= w
        if x < 0:
            return value
    return options[-1][0]


# ---------------------------------------------------------------------------------------------------
# Schemas and tables
# ---------------------------------------------------------------------------------------------------


def random_schemas(rng: random.Random, names: Sequence[str] = ("T", "U"), max_columns: int = 3
                   ) -> dict[str, Schema]:
    """Random table schemas (1..``max_columns`` columns of mixed types, some NOT NULL), a convenience for
    tests that need inputs to draw programs over."""
    out: dict[str, Schema] = {}
    for name in names:
        n = rng.randint(1, max_columns)
        used: list[str] = []
        fields = []
        for _ in range(n):
            col = rng.choice([c for c in _NAMES if c.lower() not in {u.lower() for u in used}])
            used.append(col)
            fields.append(Field(col, _weighted(rng, _COLUMN_TYPES), rng.random() < 0.75))
        out[name] = Schema(tuple(fields))
    return out


def _wide_context() -> decimal.Context:
    """Arithmetic wide enough for decimal(38, s) values (the default context has 28 digits)."""
    return decimal.Context(prec=100)


def _decimal_fits(d: decimal.Decimal, t: DecimalType) -> bool:
    if not d.is_finite():
        return False
    ctx = _wide_context()
    q = d.quantize(decimal.Decimal(1).scaleb(-t.scale), context=ctx)
    if q.compare(d, context=ctx) != 0:
        return False
    return abs(q) < decimal.Decimal(10) ** (t.precision - t.scale)


def _decimal_value(rng: random.Random, t: DecimalType) -> decimal.Decimal:
    """A value of ``decimal(p, s)`` with exactly ``s`` digits after the point (as Spark returns them):
    0, the largest magnitude, or a short random number."""
    ctx = _wide_context()
    whole = t.precision - t.scale
    unit = decimal.Decimal(1).scaleb(-t.scale)
    choice = rng.random()
    if choice < 0.15:
        v = decimal.Decimal(0)
    elif choice < 0.3:  # the maximum magnitude
        v = ctx.multiply(ctx.subtract(ctx.power(10, whole), unit), rng.choice((1, -1)))
    else:
        digits = rng.randint(0, min(whole, 6))
        frac = min(t.scale, 3)
        v = ctx.add(decimal.Decimal(rng.randint(-(10 ** digits) + 1, 10 ** digits - 1)),
                    decimal.Decimal(rng.randint(0, 10 ** frac - 1)).scaleb(-frac))
    v = v.quantize(unit, context=ctx)
    return v if _decimal_fits(v, t) else decimal.Decimal(0).quantize(unit, context=ctx)


def random_value(rng: random.Random, t: SqlType, nullable: bool = True, constants: Sequence[Any] = ()) -> Any:
    """A value of Spark type ``t`` as PySpark's ``createDataFrame`` takes it (int, float, str, bool,
    ``Decimal``, ``date``; None for NULL when ``nullable``), drawn from pools of boundary values and,
    one time in five, from ``constants`` that fit the type."""
    if nullable and rng.random() < 0.15:
        return None
    fitting = [c for c in constants if _fits(c, t)]
    if fitting and rng.random() < 0.2:
        c = rng.choice(fitting)
        if isinstance(t, DecimalType):
            return decimal.Decimal(c).quantize(decimal.Decimal(1).scaleb(-t.scale), context=_wide_context())
        return float(c) if isinstance(t, DoubleType) else c
    if isinstance(t, IntegralType):
        pools = {32: _INT_VALUES, 64: _BIGINT_VALUES, 16: _SMALLINT_VALUES}
        pool = pools.get(t.bits, (0, 1, -1, t.max, t.min))
        return rng.choice(pool) if rng.random() < 0.8 else rng.randint(-3, 3)
    if isinstance(t, DoubleType):
        return rng.choice(_DOUBLE_VALUES) if rng.random() < 0.85 else float(rng.randint(-3, 3))
    if isinstance(t, DecimalType):
        return _decimal_value(rng, t)
    if isinstance(t, StringType):
        return rng.choice(_STRING_VALUES)
    if isinstance(t, BooleanType):
        return rng.random() < 0.5
    if isinstance(t, DateType):
        return rng.choice(_DATE_VALUES)
    if isinstance(t, TimestampType):
        return rng.choice(_TS_VALUES)
    if isinstance(t, ArrayType):  # up to 3 elements, duplicates likely (array_distinct, explode)
        n = rng.randint(0, 3)
        return tuple(random_value(rng, t.element, t.contains_null, constants) for _ in range(n))
    if isinstance(t, StructType):
        return tuple(random_value(rng, f.type, f.nullable, constants) for f in t.fields)
    return None


def _fits(c: Any, t: SqlType) -> bool:
    if isinstance(t, IntegralType):
        return isinstance(c, int) and not isinstance(c, bool) and t.min <= c <= t.max
    if isinstance(t, DoubleType):
        return isinstance(c, float) or isinstance(c, int) and not isinstance(c, bool) and abs(c) < 2 ** 53
    if isinstance(t, DecimalType):
        if isinstance(c, bool) or not isinstance(c, int | decimal.Decimal):
            return False
        return _decimal_fits(decimal.Decimal(c), t)
    if isinstance(t, StringType):
        return isinstance(c, str)
    if isinstance(t, BooleanType):
        return isinstance(c, bool)
    if isinstance(t, TimestampType):
        return isinstance(c, datetime.datetime)
    if isinstance(t, DateType):
        return isinstance(c, datetime.date) and not isinstance(c, datetime.datetime)
    return False


def random_tables(rng: random.Random, params: Sequence[R.TableParam], max_rows: int,
                  constants: Sequence[Any] | set[Any] = ()) -> dict[str, list[tuple]]:
    """Rows for every table parameter: sometimes empty, often with duplicate rows (bags), NULLs only in
    nullable columns, values from boundary pools and ``constants``."""
    consts = sorted(constants, key=repr)
    out: dict[str, list[tuple]] = {}
    for p in params:
        r = rng.random()
        n = 0 if r < 0.08 else rng.randint(1, max(1, max_rows))
        rows: list[tuple] = []
        for _ in range(n):
            if rows and rng.random() < 0.2:
                rows.append(rng.choice(rows))
            else:
                rows.append(tuple(random_value(rng, f.type, f.nullable, consts) for f in p.schema.fields))
        out[p.name] = rows
    return out


def random_partitioning(rng: random.Random, rows: Sequence[tuple], max_parts: int = 3
                        ) -> tuple[tuple[tuple, ...], ...]:
    """A random explicit partitioning of ``rows``: shuffled, 1..``max_parts`` pieces, some possibly empty."""
    return _random_partitioning(rows, rng, max_parts)


def random_partitionings(rng: random.Random, tables: Mapping[str, Sequence[tuple]], max_parts: int = 3
                         ) -> dict[str, tuple[tuple[tuple, ...], ...]]:
    return {name: random_partitioning(rng, rows, max_parts) for name, rows in tables.items()}


# ---------------------------------------------------------------------------------------------------
# Expressions
# ---------------------------------------------------------------------------------------------------

_BUILD_ERRORS = (InputError, ValueError, AssertionError, KeyError, ImportError)


def _children(e: R.RNode) -> list[R.RNode]:
    """The nodes directly inside ``e`` (``Case`` branches are pairs inside a tuple)."""
    out: list[R.RNode] = []
    for value in vars(e).values():
        stack = [value]
        while stack:
            x = stack.pop()
            if isinstance(x, tuple):
                stack.extend(x)
            elif isinstance(x, R.RNode):
                out.append(x)
    return out


def _has_literal_of(e: R.RNode, kind: Kind) -> bool:
    if isinstance(e, R.Lit):
        return kind_of(e.type) == kind
    return any(_has_literal_of(c, kind) for c in _children(e))


def is_constant(e: R.RNode) -> bool:
    """Whether ``e`` reads no column (Spark's optimiser can fold it before any row is read)."""
    return not isinstance(e, R.Col) and all(is_constant(c) for c in _children(e))


class _Exprs:
    """Draws expressions over the columns ``cols`` (references into some operator's input row).

    With ``foldable`` off, no expression the optimiser can simplify before reading rows is drawn: every
    compound expression reads a column, no boolean literal is an operand (``e AND FALSE`` is folded to
    FALSE without evaluating ``e``), no NULL literal is an operand (``e + NULL`` becomes NULL), and no
    comparison has one expression on both sides (``e <=> e`` becomes TRUE)."""

    def __init__(self, rng: random.Random, cols: Sequence[R.Col], foldable: bool = True) -> None:
        self.rng = rng
        self.cols = list(cols)
        self.foldable = foldable

    def kinds(self) -> list[Kind]:
        return sorted({k for c in self.cols if (k := kind_of(c.type)) is not None})

    def any_kind(self) -> Kind:
        present = self.kinds()
        if present and self.rng.random() < 0.8:
            return self.rng.choice(present)
        return _weighted(self.rng, [("int", 4), ("double", 2), ("decimal", 1), ("string", 2), ("bool", 1),
                                    ("date", 0.3), ("ts", 0.3)])

    def column(self, kind: Kind) -> R.Col | None:
        matching = [c for c in self.cols if kind_of(c.type) == kind]
        return self.rng.choice(matching) if matching else None

    # leaves ---------------------------------------------------------------------------------------

    def literal(self, kind: Kind) -> R.Expr:
        rng = self.rng
        if rng.random() < 0.08 and self.foldable:
            return B.lit(None)
        if rng.random() < 0.05 and self.foldable:
            t = {"int": INT, "double": DOUBLE, "decimal": DecimalType(5, 2), "string": STRING,
                 "bool": BOOLEAN, "date": DATE, "ts": TIMESTAMP}[kind]
            return R.Lit(None, t)
        if kind == "int":
            if rng.random() < 0.3:
                return R.Lit(rng.choice(_BIGINT_VALUES), BIGINT)
            if rng.random() < 0.1:
                return B.lit(rng.choice((2 ** 31, -(2 ** 31) - 1, 2 ** 63 - 1, -(2 ** 63))))
            return B.lit(rng.choice(_INT_VALUES[:8]) if rng.random() < 0.7 else rng.choice(_INT_VALUES))
        if kind == "double":
            return B.lit(float(rng.choice(_DOUBLE_VALUES)))
        if kind == "decimal":
            return B.lit(decimal.Decimal(rng.choice(_DECIMAL_LITERALS)))
        if kind == "string":
            return B.lit(rng.choice(_STRING_VALUES))
        if kind == "bool":
            return B.lit(rng.random() < 0.5)
        if kind == "ts":
            return B.lit(rng.choice(_TS_VALUES))
        return B.lit(rng.choice(_DATE_VALUES))

    def leaf(self, kind: Kind) -> R.Expr:
        col = self.column(kind)
        if col is not None and (self.rng.random() < 0.75 or kind == "bool" and not self.foldable):
            return col
        if kind == "bool" and not self.foldable and self.cols:
            try:
                return self.comparison(0)
            except _BUILD_ERRORS:
                return B.is_null(self.rng.choice(self.cols), self.rng.random() < 0.5)
        return self.literal(kind)

    # compound -------------------------------------------------------------------------------------

    def expr(self, kind: Kind, depth: int) -> R.Expr:
        """An expression whose type is of ``kind`` (or the untyped NULL), at most ``depth`` deep."""
        if depth <= 0 or self.rng.random() < 0.25:
            return self.leaf(kind)
        for _ in range(4):
            try:
                e = self._compound(kind, depth)
            except _BUILD_ERRORS:
                continue
            if not self.foldable and self.cols and is_constant(e):
                continue
            if kind_of(e.type) in (kind, None):
                return e
        return self.leaf(kind)

    def _compound(self, kind: Kind, depth: int) -> R.Expr:
        rng, d = self.rng, depth - 1
        forms: list[tuple[Callable[[], R.Expr], float]] = [
            (lambda: self.case(kind, d), 1.0),
            (lambda: self.function(kind, d), 1.0),
        ]
        if kind in ("int", "double", "decimal"):
            forms += [(lambda: self.arith(kind, d), 4.0), (lambda: B.neg(self.expr(kind, d)), 0.7),
                      (lambda: self.cast_to(kind, d), 1.5)]
        elif kind == "string":
            forms += [(lambda: self.cast_to(kind, d), 2.0)]
        elif kind == "bool":
            forms += [(lambda: self.comparison(d), 5.0),
                      (lambda: B.and_(self.expr("bool", d), self.expr("bool", d)), 1.5),
                      (lambda: B.or_(self.expr("bool", d), self.expr("bool", d)), 1.5),
                      (lambda: B.not_(self.expr("bool", d)), 1.0),
                      (lambda: B.is_null(self.expr(self.any_kind(), d), rng.random() < 0.5), 1.0),
                      (lambda: self.in_list(d), 1.5),
                      (lambda: self.cast_to("bool", d), 0.3)]
        else:  # date, ts
            forms += [(lambda: self.cast_to(kind, d), 1.0)]
        return _weighted(rng, forms)()

    def arith(self, kind: Kind, d: int) -> R.Expr:
        rng = self.rng
        if kind == "int":
            op = _weighted(rng, [("+", 3), ("-", 2), ("*", 2), ("div", 1), ("%", 1), ("pmod", 0.7)])
            left, right = self.expr("int", d), self.expr("int", d)
        elif kind == "double":
            op = _weighted(rng, [("+", 3), ("-", 2), ("*", 2), ("/", 2), ("%", 0.7), ("pmod", 0.3)])
            if op == "/" and rng.random() < 0.5:
                left, right = self.expr("int", d), self.expr("int", d)
            else:
                left = self.expr("double", d)
                right = self.expr(rng.choice(("double", "double", "int")), d)
                if rng.random() < 0.5:
                    left, right = right, left
        else:
            op = _weighted(rng, [("+", 3), ("-", 2), ("*", 2), ("/", 1.5), ("%", 0.7), ("pmod", 0.3)])
            left = self.expr("decimal", d)
            right = self.expr(rng.choice(("decimal", "int")), d)
            if rng.random() < 0.5:
                left, right = right, left
        try_ = op in ("+", "-", "*", "/", "%") and rng.random() < 0.2
        return B.arith(op, left, right, try_=try_)

    def cast_to(self, kind: Kind, d: int) -> R.Expr:
        rng = self.rng
        target: SqlType = {
            "int": rng.choice((INT, INT, BIGINT, SMALLINT)),
            "double": DOUBLE,
            "decimal": rng.choice((DecimalType(5, 2), DecimalType(10, 0), DecimalType(12, 4),
                                   DecimalType(3, 0))),
            "string": STRING, "bool": BOOLEAN, "date": DATE, "ts": TIMESTAMP,
        }[kind]
        src_options = {"int": ("double", "decimal", "string", "int", "bool", "ts"),
                       "double": ("int", "decimal", "string", "ts"),
                       "decimal": ("int", "double", "string", "decimal"),
                       "string": ("int", "double", "decimal", "bool", "date", "ts"),
                       "bool": ("int", "string"), "date": ("string", "ts"),
                       "ts": ("string", "date", "ts")}[kind]
        src = self.expr(rng.choice(src_options), d)
        return B.cast(src, target, try_=rng.random() < 0.25)

    def case(self, kind: Kind, d: int) -> R.Expr:
        n = 1 if self.rng.random() < 0.7 else 2
        branches = [(self.expr("bool", d), self.expr(kind, d)) for _ in range(n)]
        orelse = self.expr(kind, d) if self.rng.random() < 0.75 else None
        return B.case(branches, orelse)

    def function(self, kind: Kind, d: int) -> R.Expr:
        candidates = [f for f in FUNCTIONS if f[2] == kind]
        if not candidates:
            raise ValueError(f"no function returns {kind}")
        name, arg_kinds, _ = self.rng.choice(candidates)
        args = [B.lit(self.rng.choice(_SMALL_ARGS[k])) if k in _SMALL_ARGS
                else generate_nested.array_arg(self.rng, self.expr, k, d, self.cols)
                if k in generate_nested.ARRAY_KINDS
                else self.expr(k, d) if i == 0 or self.rng.random() < 0.6 else self.leaf(k)
                for i, k in enumerate(arg_kinds)]
        return B.func(name, args)

    def comparison(self, d: int) -> R.Expr:
        rng = self.rng
        op = _weighted(rng, [("=", 3), ("!=", 1), ("<", 1.5), ("<=", 1), (">", 1.5), (">=", 1), ("<=>", 1)])
        k1 = self.any_kind()
        if rng.random() < 0.12:  # mixed kinds: coercions that may raise (a string meets a number)
            k2 = rng.choice({"int": ("double", "decimal", "string"), "double": ("int", "decimal", "string"),
                             "decimal": ("int", "double"), "string": ("int", "double", "date"),
                             "bool": ("bool",), "date": ("string", "ts"), "ts": ("string", "date")}[k1])
        else:
            k2 = k1
        left, right = self.expr(k1, d), self.expr(k2, d)
        if not self.foldable and k1 != k2:
            # the coercion of a string literal to a number is a constant that can fail at planning time
            lcol, rcol = self.column(k1), self.column(k2)
            if lcol is None or rcol is None:
                raise ValueError("no foldable-free mixed comparison here")
            left = left if not _has_literal_of(left, "string") else lcol
            right = right if not _has_literal_of(right, "string") else rcol
        if not self.foldable and (left == right or is_constant(left) and is_constant(right)):
            col = self.column(k1)
            if col is None or col == right:
                raise ValueError("no foldable-free comparison here")
            left = col
        return B.compare(op, left, right)

    def in_list(self, d: int) -> R.Expr:
        k = self.any_kind()
        values = [self.leaf(k) if self.rng.random() < 0.7 else self.expr(k, d)
                  for _ in range(self.rng.randint(1, 3))]
        return B.in_(self.expr(k, d), values)

    def predicate(self, depth: int) -> R.Expr:
        return self.expr("bool", max(depth, 1))

    # aggregates -----------------------------------------------------------------------------------

    def aggregate(self, d: int) -> R.AggCall:
        rng = self.rng
        for _ in range(6):
            name = _weighted(rng, [("sum", 3), ("count", 2), ("count_star", 1.5), ("min", 2), ("max", 2),
                                   ("avg", 2), ("count_distinct", 1), ("sum_distinct", 0.7),
                                   ("try_sum", 0.7), ("stddev_samp", 0.4), ("stddev_pop", 0.4),
                                   ("var_samp", 0.4), ("var_pop", 0.4), *generate_nested.AGGREGATES])
            try:
                if name == "count_star":
                    return B.agg(name, [])
                if name in ("sum", "avg", "sum_distinct", "try_sum", *MOMENT_AGGREGATES):
                    numeric = [k for k in self.kinds() if k in ("int", "double", "decimal")] or ["int"]
                    return B.agg(name, [self.expr(rng.choice(numeric), d)])
                if name == "count_distinct":
                    n = 1 if rng.random() < 0.7 else 2
                    return B.agg(name, [self.expr(self.any_kind(), d) for _ in range(n)])
                return B.agg(name, [self.expr(self.any_kind(), d)])
            except _BUILD_ERRORS:
                continue
        return B.agg("count_star", [])


# ---------------------------------------------------------------------------------------------------
# Relations and programs
# ---------------------------------------------------------------------------------------------------


class _Rels:
    def __init__(self, rng: random.Random, params: Sequence[R.TableParam], foldable: bool = True) -> None:
        self.rng = rng
        self.params = list(params)
        self.foldable = foldable

    def exprs(self, rel: R.Rel) -> _Exprs:
        return _Exprs(self.rng, B.columns_of(rel), self.foldable)

    def name(self, base: str | None = None) -> str:
        if base is not None and self.rng.random() < 0.6:
            return base
        return self.rng.choice(_NAMES)

    def rel(self, depth: int) -> R.Rel:
        rng = self.rng
        if depth <= 0:
            p = rng.choice(self.params)
            return B.table(p.name, p.schema)
        ops: list[tuple[Callable[[int], R.Rel], float]] = [
            (self.project, 3), (self.filter, 3), (self.join, 2.5), (self.aggregate, 2), (self.distinct, 0.8),
            (self.drop_duplicates, 0.8), (self.set_op, 2), (self.sort, 1.2), (self.limit, 1.2),
            (self.window, 1.2),
            (self.generate, 0.8),
        ]
        for _ in range(5):
            op = _weighted(rng, ops)
            try:
                return op(depth)
            except _BUILD_ERRORS:
                continue
        return self.rel(0)

    def _child(self, depth: int) -> R.Rel:
        """A child relation: mostly one level down, sometimes a table directly (keeps sizes varied)."""
        if depth > 1 and self.rng.random() < 0.25:
            return self.rel(0)
        return self.rel(depth - 1)

    def project(self, depth: int) -> R.Rel:
        src = self._child(depth)
        gen = self.exprs(src)
        cols = B.columns_of(src)
        exprs: list[R.Expr] = []
        names: list[str] = []
        for _ in range(self.rng.randint(1, 4)):
            if self.rng.random() < 0.4:
                c = self.rng.choice(cols)
                exprs.append(c)
                names.append(self.name(c.name))
            else:
                e = gen.expr(gen.any_kind(), self.rng.randint(1, 3))
                if not self.foldable and is_constant(e):
                    # a constant column makes the implicit conditions of a later set operation
                    # constant: Spark then drops a whole side unevaluated
                    e = self.rng.choice(cols)
                exprs.append(e)
                names.append(self.name())
        return B.project(src, exprs, names)

    def generate(self, depth: int) -> R.Rel:
        src = self._child(depth)
        return generate_nested.generate(self.rng, src, self.exprs(src).expr)

    def filter(self, depth: int) -> R.Rel:
        src = self._child(depth)
        return B.filter_(src, self.exprs(src).predicate(self.rng.randint(1, 3)))

    def join(self, depth: int) -> R.Rel:
        rng = self.rng
        left, right = self._child(depth), self._child(depth)
        kind = _weighted(rng, [("inner", 3), ("left", 2), ("right", 1.5), ("full", 1.5), ("semi", 1.2),
                               ("anti", 1.2), ("cross", 0.6)])
        if kind == "cross":
            return B.join("cross", left, right, None)
        lcols = list(B.columns_of(left))
        rcols = [R.Col(i + len(lcols), c.name, c.type, c.nullable) for i, c in enumerate(B.columns_of(right))]
        gen = _Exprs(rng, lcols + rcols, self.foldable)
        cond: R.Expr | None
        r = rng.random()
        if r < 0.05:
            cond = None
        elif r < 0.15:
            cond = gen.predicate(2)
        else:
            pairs = [(a, b) for a in lcols for b in rcols if kind_of(a.type) == kind_of(b.type)]
            if not pairs or rng.random() < 0.1:
                pairs = [(a, b) for a in lcols for b in rcols]
            a, b = rng.choice(pairs)
            op = _weighted(rng, [("=", 6), ("<=>", 1.5), ("<", 0.5), ("!=", 0.3)])
            cond = B.compare(op, a, b)
            if rng.random() < 0.3:
                extra = gen.predicate(1)
                cond = B.and_(cond, extra) if rng.random() < 0.7 else B.or_(cond, extra)
        return B.join(kind, left, right, cond)

    def aggregate(self, depth: int) -> R.Rel:
        rng = self.rng
        src = self._child(depth)
        gen = self.exprs(src)
        cols = B.columns_of(src)
        nkeys = _weighted(rng, [(0, 1.5), (1, 3), (2, 1.5)])
        keys: list[R.Expr] = []
        key_names: list[str] = []
        for _ in range(nkeys):
            if rng.random() < 0.7:
                c = rng.choice(cols)
                keys.append(c)
                key_names.append(self.name(c.name))
            else:
                key = gen.expr(gen.any_kind(), 2)
                keys.append(rng.choice(cols) if not self.foldable and is_constant(key) else key)
                key_names.append(self.name())
        naggs = rng.randint(0 if nkeys else 1, 3)
        aggs = [gen.aggregate(rng.randint(0, 2)) for _ in range(naggs)]
        if nkeys and rng.random() < 0.2:
            return self.grouping_sets(src, keys, key_names, aggs)
        return B.aggregate(src, keys, key_names, aggs, [self.name() for _ in aggs])

    def window(self, depth: int) -> R.Rel:
        from sparklite.relational.window_gen import random_window

        return random_window(self, depth)

    def grouping_sets(self, src: R.Rel, keys: list[R.Expr], key_names: list[str],
                      aggs: list[R.AggCall]) -> R.Rel:
        """ROLLUP, CUBE or explicit GROUPING SETS (duplicates and the empty set included) over the keys,
        with ``grouping()``/``grouping_id()`` columns (``grouping_sets.py``)."""
        rng = self.rng
        n = len(keys)
        parts = [[i] for i in range(n)]
        kind = _weighted(rng, [("rollup", 2), ("cube", 1.5), ("sets", 1)])
        if kind == "rollup":
            sets = [tuple(s) for s in rollup_sets(parts)]
        elif kind == "cube":
            sets = [tuple(s) for s in cube_sets(parts)]
        else:
            sets = [tuple(i for i in range(n) if rng.random() < 0.5) for _ in range(rng.randint(1, 3))]
        calls: list[R.AggCall | GroupingCall] = list(aggs)
        for _ in range(rng.randint(0, 2)):
            if rng.random() < 0.5:
                calls.insert(rng.randint(0, len(calls)), GroupingCall("grouping", (rng.randrange(n),), n))
            else:
                calls.insert(rng.randint(0, len(calls)), GroupingCall("grouping_id", tuple(range(n)), n))
        return lower_grouping_sets(src, keys, key_names, calls, [self.name() for _ in calls], sets, None)

    def distinct(self, depth: int) -> R.Rel:
        return B.distinct(self._child(depth))

    def drop_duplicates(self, depth: int) -> R.Rel:
        src = self._child(depth)
        n = len(src.schema)
        columns = sorted(self.rng.sample(range(n), self.rng.randint(1, n)))
        return B.drop_duplicates(src, columns)

    def set_op(self, depth: int) -> R.Rel:
        rng = self.rng
        left, right = self._child(depth), self._child(depth)
        kind = _weighted(rng, [("union", 2), ("intersect", 1), ("except", 1)])
        all_ = rng.random() < 0.5
        if len(left.schema) == len(right.schema) and rng.random() < 0.5:
            try:
                return B.set_op(kind, all_, left, right)
            except _BUILD_ERRORS:
                pass
        # align the sides: a projection of each to the same number of columns of matching kinds
        n = rng.randint(1, 3)
        lgen, rgen = self.exprs(left), self.exprs(right)
        lex, rex, names = [], [], []
        for _ in range(n):
            k = lgen.any_kind()
            k2 = k
            if rng.random() < 0.1 and self.foldable:  # a string literal widened to a number may not parse
                k2 = rng.choice(("int", "double", "decimal", "string"))
            le, re_ = lgen.expr(k, rng.randint(0, 2)), rgen.expr(k2, rng.randint(0, 2))
            if not self.foldable:  # constant columns would make the set operation's conditions constant
                le = lgen.column(k) if is_constant(le) else le
                re_ = rgen.column(k2) if is_constant(re_) else re_
                if le is None or re_ is None:
                    raise ValueError("no column of that kind to align on")
            lex.append(le)
            rex.append(re_)
            names.append(self.name())
        lp = B.project(left, lex, names)
        rp = B.project(right, rex, [self.name() for _ in rex])
        return B.set_op(kind, all_, lp, rp)

    def _sort_keys(self, src: R.Rel) -> list[R.SortKey]:
        rng = self.rng
        gen = self.exprs(src)
        cols = B.columns_of(src)
        keys = []
        for _ in range(1 if rng.random() < 0.6 else 2):
            e = rng.choice(cols) if rng.random() < 0.75 else gen.expr(gen.any_kind(), 1)
            nulls = None if rng.random() < 0.5 else rng.random() < 0.5
            keys.append(B.sort_key(e, rng.random() < 0.6, nulls))
        return keys

    def sort(self, depth: int) -> R.Rel:
        src = self._child(depth)
        return B.sort(src, self._sort_keys(src))

    def limit(self, depth: int) -> R.Rel:
        src = self._child(depth)
        if self.rng.random() < 0.6:
            src = B.sort(src, self._sort_keys(src))
        return B.limit(src, self.rng.randint(0 if self.foldable else 1, 4))


def random_program(rng: random.Random, schemas: Mapping[str, Schema], depth: int, name: str = "program",
                   foldable: bool = True) -> R.RelProgram:
    """A random well-typed program over tables named and typed by ``schemas`` (its parameters, in that
    order), with about ``depth`` levels of relational operators, and an action on top half of the time.

    ``foldable=False`` draws no expression Spark's optimiser rewrites before reading rows (constant
    subexpressions, which ConstantFolding evaluates at planning time and raises from even on empty
    inputs; boolean and NULL literal operands, which BooleanSimplification and NullPropagation use to
    drop the other operand unevaluated; ``e op e``; ``limit(0)``): programs whose errors depend only on
    the rows. The default draws everything."""
    params = tuple(R.TableParam(n, s) for n, s in schemas.items())
    if not params:
        raise ValueError("random_program needs at least one table schema")
    rel = _Rels(rng, params, foldable).rel(depth)
    body: R.Rel | R.Action = rel
    r = rng.random()
    if r < 0.15:
        body = R.Action("count", rel)
    elif r < 0.25:
        body = R.Action("collect", rel)
    elif r < 0.35:
        body = R.Action("first", rel)
    elif r < 0.45:
        body = R.Action("take", rel, rng.randint(0 if foldable else 1, 3))
    return R.RelProgram(name, params, body)
