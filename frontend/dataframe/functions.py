"""``pyspark.sql.functions`` and the methods of ``Column``, as unresolved Column expressions.

Each entry follows PySpark's own argument conventions, which decide what a Python string means: in
``F.coalesce("a", ...)`` or ``F.sum("v")`` it names a column, in ``F.when(c, "x")``, ``c.isin("x")``,
``c + "x"`` or ``F.concat_ws("-", ...)``'s separator it is a literal. Spark's generated column name of
each call is given where it is not ``name(args)`` (``FLOOR(d)``, ``avg`` for ``F.mean``, the default
arguments Spark adds: ``round(d, 0)``). Functions outside this table are located ``UnsupportedError``s;
scalar functions inside it are typed by ``sparklite.relational.functions`` (through ``build.func``),
which may still reject them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from frontend.dataframe import nested
from frontend.dataframe.columns import (
    Agg,
    Alias,
    Bin,
    Call,
    Cast,
    CExpr,
    InList,
    IsNull,
    Lit,
    SortOrder,
    Star,
    Unary,
    When,
    parse_name,
)
from frontend.dataframe.values import (
    ColV,
    PyV,
    SeqV,
    TypeV,
    Value,
    as_col,
    as_col_or_lit,
    as_int,
    as_str,
    describe,
)
from sparklite.ast import Loc
from sparklite.errors import InputError, UnsupportedError
from sparklite.relational.types import SchemaError, SqlType, parse_type

# ---------------------------------------------------------------------------------------------------
# Argument binding (PySpark signatures)
# ---------------------------------------------------------------------------------------------------

_MISSING = object()


@dataclass(frozen=True)
class Sig:
    """A Python signature: parameter names, defaults (a ``Value`` or None for a required parameter)
    and whether extra positional arguments are collected (``*cols``)."""

    params: tuple[str, ...]
    defaults: tuple[Value | None, ...] = ()
    varargs: str | None = None

    def bind(
        self, fname: str, args: Sequence[Value], kwargs: dict[str, Value], loc: Loc
    ) -> tuple[dict[str, Value], list[Value]]:
        """Python's binding: positional, then keywords; a missing required argument or an unknown
        keyword is the ``TypeError`` Python raises (a located error here)."""
        bound: dict[str, Value] = {}
        n = len(self.params)
        if self.varargs is not None:
            # ``def f(col, *cols)``: params first, then the rest
            for p, a in zip(self.params, args, strict=False):
                bound[p] = a
            rest = list(args[n:])
        else:
            if len(args) > n:
                raise InputError(
                    f"{fname}() takes at most {n} positional arguments but {len(args)} were given "
                    "(Python raises TypeError)",
                    loc,
                )
            for p, a in zip(self.params, args, strict=False):
                bound[p] = a
            rest = []
        for k, v in kwargs.items():
            if k not in self.params or k in bound:
                raise InputError(
                    f"{fname}() got an unexpected or repeated keyword argument '{k}' "
                    "(Python raises TypeError)",
                    loc,
                )
            bound[k] = v
        defaults = dict(zip(self.params[n - len(self.defaults) :], self.defaults, strict=True))
        for p in self.params:
            if p not in bound:
                d = defaults.get(p, _MISSING)
                if d is _MISSING or d is None:
                    raise InputError(
                        f"{fname}() missing required argument '{p}' (Python raises TypeError)", loc
                    )
                bound[p] = d  # type: ignore[assignment]
        return bound, rest


NONE = PyV(None)


def sig(*params: str, varargs: str | None = None) -> Sig:
    """``sig("col", "scale=None")``: defaults are Python constants written after ``=``."""
    names: list[str] = []
    defaults: list[Value | None] = []
    for p in params:
        if "=" in p:
            name, text = p.split("=", 1)
            names.append(name)
            defaults.append(PyV(eval(text, {"__builtins__": {}})))  # noqa: S307 - our own constant strings
        else:
            if defaults:
                raise AssertionError("required parameter after a default")  # pragma: no cover
            names.append(p)
    return Sig(tuple(names), tuple(defaults), varargs)


# ---------------------------------------------------------------------------------------------------
# Data types (``cast("int")``, ``IntegerType()``)
# ---------------------------------------------------------------------------------------------------

_TYPE_CLASSES = MappingProxyType(
    {
        "IntegerType": "int",
        "LongType": "bigint",
        "ShortType": "smallint",
        "ByteType": "tinyint",
        "DoubleType": "double",
        "StringType": "string",
        "BooleanType": "boolean",
        "DateType": "date",
        "TimestampType": "timestamp",
        "TimestampNTZType": "timestamp_ntz",
    }
)
_UNSUPPORTED_TYPE_CLASSES = frozenset(
    {
        "FloatType",
        "BinaryType",
        "StructType",
        "NullType",
        "VarcharType",
        "CharType",
    }
)


def type_constructor(name: str, args: Sequence[Value], kwargs: dict[str, Value], loc: Loc) -> TypeV:
    """``pyspark.sql.types.X(...)``."""
    if name in _TYPE_CLASSES:
        if args or kwargs:
            raise InputError(f"{name}() takes no arguments (Python raises TypeError)", loc)
        return TypeV(parse_type(_TYPE_CLASSES[name], loc))
    if name == "DecimalType":
        b, _ = sig("precision=10", "scale=0").bind(name, args, kwargs, loc)
        p, s = as_int(b["precision"], loc, "precision"), as_int(b["scale"], loc, "scale")
        return TypeV(parse_type(f"decimal({p},{s})", loc))
    if name in ("ArrayType", "MapType"):  # nested types (sparklite.relational.types)
        from sparklite.relational.types import ArrayType, MapType

        params = ("elementType", "containsNull=True") if name == "ArrayType" else \
            ("keyType", "valueType", "valueContainsNull=True")
        b, _ = sig(*params).bind(name, args, kwargs, loc)
        parts = [b[p.split("=")[0]] for p in params]
        if not all(isinstance(x, TypeV) for x in parts[:-1]) or not isinstance(parts[-1], PyV) \
                or not isinstance(parts[-1].value, bool):
            raise UnsupportedError(f"{name}(...) of types given as DataType objects, with a bool flag", loc,
                                   construct=name)
        types = [x.type for x in parts[:-1]]  # type: ignore[union-attr]
        flag = bool(parts[-1].value)  # type: ignore[union-attr]
        return TypeV(ArrayType(types[0], flag) if name == "ArrayType" else MapType(types[0], types[1], flag))
    if name in _UNSUPPORTED_TYPE_CLASSES:
        raise UnsupportedError(
            f"data type {name} is not supported (supported: INT, BIGINT, SMALLINT, TINYINT, "
            "DOUBLE, DECIMAL, STRING, BOOLEAN, DATE, TIMESTAMP, TIMESTAMP_NTZ)",
            loc,
            construct=name,
        )
    raise UnsupportedError(f"pyspark.sql.types.{name} is not supported", loc, construct=name)


def data_type(v: Value, loc: Loc) -> SqlType:
    """The target of ``cast``: a type string as Spark parses it, or a type object."""
    if isinstance(v, TypeV):
        return v.type
    if isinstance(v, PyV) and isinstance(v.value, str):
        try:
            return parse_type(v.value, loc)
        except SchemaError as exc:
            raise UnsupportedError(exc.message, loc, construct="cast-type") from None
    raise UnsupportedError(
        f"a cast's type must be a type name or a DataType, not {describe(v)}", loc, construct="cast-type"
    )


# ---------------------------------------------------------------------------------------------------
# Column methods
# ---------------------------------------------------------------------------------------------------


def _column(v: Value, loc: Loc, what: str) -> CExpr:
    """An argument PySpark requires to be a Column (``F.when``'s condition, ``~``)."""
    if isinstance(v, ColV):
        return v.expr
    raise UnsupportedError(f"{what} must be a Column, not {describe(v)}", loc, construct="column-argument")


def _sort(e: CExpr, ascending: bool, nulls_first: bool | None, loc: Loc) -> ColV:
    if isinstance(e, SortOrder):
        raise UnsupportedError(
            "a sort order applied to a sort order is not supported", loc, construct="sort-order"
        )
    return ColV(SortOrder(e, ascending, nulls_first, loc=loc))


_SORT_METHODS = MappingProxyType(
    {
        "asc": (True, None),
        "desc": (False, None),
        "asc_nulls_first": (True, True),
        "asc_nulls_last": (True, False),
        "desc_nulls_first": (False, True),
        "desc_nulls_last": (False, False),
    }
)

_BINARY_METHODS = MappingProxyType({"eqNullSafe": "<=>"})
_STRING_PREDICATES = frozenset({"startswith", "endswith", "contains"})

UNSUPPORTED_COLUMN_METHODS = MappingProxyType(
    {
        "getField": "structs are not supported",
        "withField": "structs are not supported",
        "dropFields": "structs are not supported",
        "bitwiseAND": "bitwise operators are not supported",
        "bitwiseOR": "bitwise operators are not supported",
        "bitwiseXOR": "bitwise operators are not supported",
        "ilike": "LIKE is not supported yet",
    }
)


def column_method(col: CExpr, name: str, args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
    """``col.name(*args, **kwargs)``."""
    if name in ("alias", "name", "as_"):
        if len(args) != 1 or kwargs:
            raise UnsupportedError(
                f"{name}() with several names or metadata is not supported", loc, construct=name
            )
        return ColV(Alias(col, as_str(args[0], loc, "an alias"), loc=loc))
    if name in ("cast", "astype", "try_cast"):
        b, _ = sig("dataType").bind(name, args, kwargs, loc)
        t = data_type(b["dataType"], loc)
        return ColV(Cast(col, t, name == "try_cast", loc=loc))
    if name in ("isNull", "isNotNull"):
        sig().bind(name, args, kwargs, loc)
        return ColV(IsNull(col, name == "isNotNull", loc=loc))
    if name == "isin":
        values = list(args[0].items) if len(args) == 1 and isinstance(args[0], SeqV) else args
        if kwargs:
            raise InputError("isin() takes no keyword arguments (Python raises TypeError)", loc)
        return ColV(InList(col, tuple(as_col_or_lit(v, loc, "an isin value") for v in values), loc=loc))
    if name == "between":
        b, _ = sig("lowerBound", "upperBound").bind(name, args, kwargs, loc)
        lo = as_col_or_lit(b["lowerBound"], loc, "a bound")
        hi = as_col_or_lit(b["upperBound"], loc, "a bound")
        # PySpark: (self >= lowerBound) & (self <= upperBound); the column is evaluated twice
        return ColV(Bin("AND", Bin(">=", col, lo, loc=loc), Bin("<=", col, hi, loc=loc), loc=loc))
    if name in _BINARY_METHODS:
        b, _ = sig("other").bind(name, args, kwargs, loc)
        return ColV(Bin(_BINARY_METHODS[name], col, as_col_or_lit(b["other"], loc), loc=loc))
    if name in _SORT_METHODS:
        sig().bind(name, args, kwargs, loc)
        asc, nf = _SORT_METHODS[name]
        return _sort(col, asc, nf, loc)
    if name in ("when", "otherwise"):
        if not isinstance(col, When) or col.closed:
            raise InputError(
                f"{name}() can only be applied on a Column previously generated by when() "
                "(PySpark raises an error)",
                loc,
            )
        if name == "when":
            b, _ = sig("condition", "value").bind(name, args, kwargs, loc)
            cond = _column(b["condition"], loc, "when()'s condition")
            branch = (cond, as_col_or_lit(b["value"], loc, "when()'s value"))
            return ColV(When((*col.branches, branch), loc=col.loc))
        b, _ = sig("value").bind(name, args, kwargs, loc)
        return ColV(
            When(col.branches, as_col_or_lit(b["value"], loc, "otherwise()'s value"), True, loc=col.loc)
        )
    if name == "substr":
        b, _ = sig("startPos", "length").bind(name, args, kwargs, loc)
        return ColV(
            Call("substr", (col, as_col_or_lit(b["startPos"], loc), as_col_or_lit(b["length"], loc)), loc=loc)
        )
    if name == "rlike":
        b, _ = sig("other").bind(name, args, kwargs, loc)
        pattern = Lit(as_str(b["other"], loc, "rlike()'s pattern"), loc=loc)
        return ColV(Call("rlike", (col, pattern), "RLIKE", loc=loc))
    if name == "like":  # Spark's name: "s LIKE a%" (columns.pretty)
        b, _ = sig("other").bind(name, args, kwargs, loc)
        if not (isinstance(b["other"], PyV) and isinstance(b["other"].value, str)):
            raise InputError("Column.like() takes a str pattern (with a Column, PySpark 4 raises "
                             "PySparkTypeError [NOT_ITERABLE])", loc)
        return ColV(Call("like", (col, as_col_or_lit(b["other"], loc)), loc=loc))
    if name in _STRING_PREDICATES:
        b, _ = sig("other").bind(name, args, kwargs, loc)
        return ColV(Call(name, (col, as_col_or_lit(b["other"], loc)), loc=loc))
    if name == "getItem":
        b, _ = sig("key").bind(name, args, kwargs, loc)
        return nested.get_item(col, b["key"], loc)
    if name in UNSUPPORTED_COLUMN_METHODS:
        raise UnsupportedError(f"Column.{name}: {UNSUPPORTED_COLUMN_METHODS[name]}", loc, construct=name)
    raise UnsupportedError(f"Column method '{name}' is not supported", loc, construct=name)


# ---------------------------------------------------------------------------------------------------
# Column operators (``+``, ``==``, ``&``, ``~``...), with Python's reflected operands
# ---------------------------------------------------------------------------------------------------

# Python operator -> (Spark operator, whether PySpark's reflected form swaps the operands back):
# Column.__radd__ is ``_bin_op("plus")`` (``1 + c`` is ``(c + 1)``), __rsub__ ``_reverse_op`` (``(1 - c)``)
BINARY_OPS = MappingProxyType(
    {
        "+": ("+", True),
        "*": ("*", True),
        "&": ("AND", True),
        "|": ("OR", True),
        "-": ("-", False),
        "/": ("/", False),
        "%": ("%", False),
    }
)
# ``1 < c`` is Python's ``c.__gt__(1)``
REFLECTED_CMP = MappingProxyType({"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="})
CMP_OPS = MappingProxyType({"==": "=", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="})


def column_binop(op: str, left: Value, right: Value, loc: Loc) -> ColV:
    """``left op right`` where at least one side is a Column."""
    if op == "//":
        raise UnsupportedError(
            "'//' on a Column: PySpark raises TypeError (Column has no floor division); "
            "write F.floor(a / b), or F.expr('a div b') for integer division",
            loc,
            construct="//",
        )
    if op == "**":
        raise UnsupportedError("'**' on a Column (Spark's POWER) is not supported", loc, construct="**")
    if op not in BINARY_OPS:
        raise UnsupportedError(f"operator '{op}' on a Column is not supported", loc, construct=op)
    spark_op, commutes = BINARY_OPS[op]
    if isinstance(left, ColV):
        return ColV(Bin(spark_op, left.expr, as_col_or_lit(right, loc), loc=loc))
    assert isinstance(right, ColV)
    if commutes:
        return ColV(Bin(spark_op, right.expr, as_col_or_lit(left, loc), loc=loc))
    return ColV(Bin(spark_op, as_col_or_lit(left, loc), right.expr, loc=loc))


def column_compare(op: str, left: Value, right: Value, loc: Loc) -> ColV:
    if isinstance(left, ColV):
        return ColV(Bin(CMP_OPS[op], left.expr, as_col_or_lit(right, loc), loc=loc))
    assert isinstance(right, ColV)
    return ColV(Bin(CMP_OPS[REFLECTED_CMP[op]], right.expr, as_col_or_lit(left, loc), loc=loc))


# ---------------------------------------------------------------------------------------------------
# pyspark.sql.functions
# ---------------------------------------------------------------------------------------------------

Handler = Callable[[list[Value], dict[str, Value], Loc], Value]


def _one_col(fname: str, build: Callable[[CExpr, Loc], CExpr], param: str = "col") -> Handler:
    def h(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
        b, _ = sig(param).bind(fname, args, kwargs, loc)
        return ColV(build(as_col(b[param], loc), loc))

    return h


def _call(fname: str, pretty_name: str | None = None) -> Handler:
    return _one_col(fname, lambda c, loc: Call(fname, (c,), pretty_name, loc=loc))


def _two_cols(fname: str) -> Handler:
    def h(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
        b, _ = sig("col1", "col2").bind(fname, args, kwargs, loc)
        return ColV(Call(fname, (as_col(b["col1"], loc), as_col(b["col2"], loc)), loc=loc))

    return h


def _varargs_call(fname: str, minimum: int = 1) -> Handler:
    def h(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
        if kwargs:
            raise InputError(f"{fname}() takes no keyword arguments (Python raises TypeError)", loc)
        if len(args) < minimum:
            raise InputError(f"{fname}() needs at least {minimum} columns (PySpark raises an error)", loc)
        return ColV(Call(fname, tuple(as_col(a, loc) for a in args), loc=loc))

    return h


def _arith(fname: str, numbers: bool) -> Handler:
    """``pmod`` (numbers allowed as literals) and ``try_add``-like functions (columns or names)."""

    def h(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
        b, _ = sig("left", "right").bind(fname, args, kwargs, loc)
        ops = []
        for k in ("left", "right"):
            v = b[k]
            if (
                numbers
                and isinstance(v, PyV)
                and isinstance(v.value, int | float)
                and not isinstance(v.value, bool)
            ):
                ops.append(Lit(v.value, loc=loc))
            else:
                ops.append(as_col(v, loc))
        return ColV(Bin(fname, ops[0], ops[1], loc=loc))

    return h


def _agg(fname: str, kind: str, shown: str) -> Handler:
    def h(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
        b, _ = sig("col").bind(fname, args, kwargs, loc)
        c = as_col(b["col"], loc)
        if kind == "count" and isinstance(c, Star) and c.qualifier is None:
            return ColV(Agg("count_star", (), "count", loc=loc))
        return ColV(Agg(kind, (c,), shown, loc=loc))  # type: ignore[arg-type]

    return h


def _count_distinct(fname: str) -> Handler:
    def h(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
        b, rest = sig("col", varargs="cols").bind(fname, args, kwargs, loc)
        cols = [as_col(b["col"], loc)] + [as_col(a, loc) for a in rest]
        return ColV(Agg("count_distinct", tuple(cols), "count", loc=loc))

    return h


def _sort_fn(fname: str) -> Handler:
    asc, nf = _SORT_METHODS[fname]
    return _one_col(fname, lambda c, loc: _sort(c, asc, nf, loc).expr)


def _f_col(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
    b, _ = sig("col").bind("col", args, kwargs, loc)
    return ColV(parse_name(as_str(b["col"], loc, "a column name"), loc))


def _f_lit(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
    b, _ = sig("col").bind("lit", args, kwargs, loc)
    v = b["col"]
    if isinstance(v, ColV):
        return v  # PySpark: lit(column) is the column itself
    if isinstance(v, PyV):
        return ColV(Lit(v.value, loc=loc))
    raise UnsupportedError(
        f"lit() of {describe(v)} is not supported (arrays and maps are outside the fragment)",
        loc,
        construct="lit",
    )


def _f_when(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
    b, _ = sig("condition", "value").bind("when", args, kwargs, loc)
    cond = _column(b["condition"], loc, "when()'s condition")
    return ColV(When(((cond, as_col_or_lit(b["value"], loc, "when()'s value")),), loc=loc))


def _f_concat_ws(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
    b, rest = sig("sep", varargs="cols").bind("concat_ws", args, kwargs, loc)
    sep = as_str(b["sep"], loc, "concat_ws()'s separator")
    return ColV(Call("concat_ws", (Lit(sep, loc=loc), *(as_col(a, loc) for a in rest)), loc=loc))


def _f_substring(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
    b, _ = sig("str", "pos", "len").bind("substring", args, kwargs, loc)
    pos, length = (
        v if isinstance(v, ColV) else PyV(as_int(v, loc, k))
        for k, v in (("pos", b["pos"]), ("len", b["len"]))
    )
    return ColV(
        Call(
            "substring", (as_col(b["str"], loc), as_col_or_lit(pos, loc), as_col_or_lit(length, loc)), loc=loc
        )
    )


def _f_pad(fname: str) -> Handler:
    def h(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
        b, _ = sig("col", "len", "pad").bind(fname, args, kwargs, loc)
        length = b["len"] if isinstance(b["len"], ColV) else PyV(as_int(b["len"], loc, "len"))
        pad = b["pad"] if isinstance(b["pad"], ColV) else PyV(as_str(b["pad"], loc, "pad"))
        return ColV(
            Call(fname, (as_col(b["col"], loc), as_col_or_lit(length, loc), as_col_or_lit(pad, loc)), loc=loc)
        )

    return h


def _f_instr(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
    b, _ = sig("str", "substr").bind("instr", args, kwargs, loc)
    sub = b["substr"] if isinstance(b["substr"], ColV) else PyV(as_str(b["substr"], loc, "substr"))
    return ColV(Call("instr", (as_col(b["str"], loc), as_col_or_lit(sub, loc)), loc=loc))


def _f_round(fname: str) -> Handler:
    def h(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
        b, _ = sig("col", "scale=None").bind(fname, args, kwargs, loc)
        scale = b["scale"]
        s = as_col_or_lit(PyV(0) if scale == NONE else scale, loc)
        return ColV(Call(fname, (as_col(b["col"], loc), s), loc=loc))

    return h


def _lit_str(v: Value, loc: Loc, what: str) -> CExpr:
    """A parameter PySpark takes as a Python string literal (``F.locate(substr, ...)``, a pattern)."""
    return v.expr if isinstance(v, ColV) else Lit(as_str(v, loc, what), loc=loc)


def _f_locate(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
    b, _ = sig("substr", "str", "pos=1").bind("locate", args, kwargs, loc)
    sub = Lit(as_str(b["substr"], loc, "locate()'s substr"), loc=loc)
    pos = Lit(as_int(b["pos"], loc, "locate()'s pos"), loc=loc)
    return ColV(Call("locate", (sub, as_col(b["str"], loc), pos), loc=loc))


def _f_translate(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
    b, _ = sig("srcCol", "matching", "replace").bind("translate", args, kwargs, loc)
    return ColV(Call("translate", (as_col(b["srcCol"], loc), _lit_str(b["matching"], loc, "matching"),
                                   _lit_str(b["replace"], loc, "replace")), loc=loc))


def _f_replace(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
    """``F.replace(src, search, replace=None)``: all three are columns or column names; Spark's name
    shows the missing replacement as an empty string (``replace(s, a, )``)."""
    b, _ = sig("src", "search", "replace=None").bind("replace", args, kwargs, loc)
    rep = Lit("", loc=loc) if b["replace"] == NONE else as_col(b["replace"], loc)
    return ColV(Call("replace", (as_col(b["src"], loc), as_col(b["search"], loc), rep), loc=loc))


def _f_regexp_replace(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
    """``F.regexp_replace(string, pattern, replacement)``: Spark adds the position 1 (its name is
    ``regexp_replace(s, p, r, 1)``)."""
    b, _ = sig("string", "pattern", "replacement").bind("regexp_replace", args, kwargs, loc)
    return ColV(Call("regexp_replace", (as_col(b["string"], loc), _lit_str(b["pattern"], loc, "pattern"),
                                        _lit_str(b["replacement"], loc, "replacement"), Lit(1, loc=loc)),
                     loc=loc))


def _f_regexp_extract(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
    b, _ = sig("str", "pattern", "idx").bind("regexp_extract", args, kwargs, loc)
    return ColV(Call("regexp_extract", (as_col(b["str"], loc), _lit_str(b["pattern"], loc, "pattern"),
                                        Lit(as_int(b["idx"], loc, "idx"), loc=loc)), loc=loc))


def _number_or_col(v: Value, loc: Loc) -> CExpr:
    """``F.pow``'s operands: a Python number is a literal, a string names a column."""
    if isinstance(v, PyV) and isinstance(v.value, int | float) and not isinstance(v.value, bool):
        return Lit(v.value, loc=loc)
    return as_col(v, loc)


def _f_pow(fname: str) -> Handler:
    def h(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
        b, _ = sig("col1", "col2").bind(fname, args, kwargs, loc)
        return ColV(Call("pow", (_number_or_col(b["col1"], loc), _number_or_col(b["col2"], loc)), "POWER",
                         loc=loc))

    return h


# -- dates (sparklite/relational/dates.py; issue 21) ------------------------------------------------


def _date_count(fname: str, param: str) -> Handler:
    """``F.date_add(start, days)``, ``date_sub``, ``add_months``: the count may be a column or an int."""

    def h(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
        b, _ = sig("start", param).bind(fname, args, kwargs, loc)
        return ColV(Call(fname, (as_col(b["start"], loc), as_col_or_lit(b[param], loc)), loc=loc))

    return h


def _f_log(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
    """``F.log(col)`` is ``ln(col)``; ``F.log(base, col)`` with a float base is ``LOG(base, col)`` (an int
    base makes PySpark's call into the JVM fail: ``log(int, Column)`` does not exist)."""
    b, _ = sig("arg1", "arg2=None").bind("log", args, kwargs, loc)
    if b["arg2"] == NONE:
        return ColV(Call("ln", (as_col(b["arg1"], loc),), loc=loc))
    base = b["arg1"]
    if isinstance(base, PyV) and isinstance(base.value, int) and not isinstance(base.value, bool):
        raise InputError("F.log(base, col) with an int base: PySpark raises Py4JError (write a float, "
                         f"{base.value}.0)", loc)
    return ColV(Call("log", (_number_or_col(base, loc), as_col(b["arg2"], loc)), "LOG", loc=loc))


def _f_nvl2(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
    b, _ = sig("col1", "col2", "col3").bind("nvl2", args, kwargs, loc)
    return ColV(Call("nvl2", tuple(as_col(b[k], loc) for k in ("col1", "col2", "col3")), loc=loc))


def _f_to_date(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
    b, _ = sig("col", "format=None").bind("to_date", args, kwargs, loc)
    if b["format"] != NONE:
        raise UnsupportedError("F.to_date with a format is not supported (to_date(col), a cast to date, is)",
                               loc, construct="to_date")
    return ColV(Call("to_date", (as_col(b["col"], loc),), loc=loc))


def _f_datediff(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
    b, _ = sig("end", "start").bind("datediff", args, kwargs, loc)
    return ColV(Call("datediff", (as_col(b["end"], loc), as_col(b["start"], loc)), loc=loc))


_DEFAULT_TS_FORMAT = "yyyy-MM-dd HH:mm:ss"


def _ts_fmt(fname: str, first: str, fmt: str) -> Handler:
    """``F.to_timestamp(col, format=None)``, ``unix_timestamp``, ``from_unixtime``, ``date_format``
    (sparklite/relational/timestamps.py). Spark shows a default format in the column's name
    (``unix_timestamp(s, yyyy-MM-dd HH:mm:ss)``), so the default is written as an argument."""

    def h(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
        b, _ = sig(first, fmt).bind(fname, args, kwargs, loc)
        col_v, fmt_v = b[first.split("=")[0]], b[fmt.split("=")[0]]
        if col_v == NONE and fname == "unix_timestamp":
            raise UnsupportedError("F.unix_timestamp() without a column: the current time (nondeterministic)",
                                   loc, construct="unix_timestamp")
        col = as_col(col_v, loc)
        if fmt_v == NONE:
            return ColV(Call(fname, (col,), loc=loc))
        return ColV(Call(fname, (col, _lit_str(fmt_v, loc, "format")), loc=loc))

    return h


def _f_date_trunc(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
    b, _ = sig("format", "timestamp").bind("date_trunc", args, kwargs, loc)
    return ColV(Call("date_trunc", (_lit_str(b["format"], loc, "format"), as_col(b["timestamp"], loc)),
                loc=loc))


def _f_months_between(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
    b, _ = sig("date1", "date2", "roundOff=True").bind("months_between", args, kwargs, loc)
    round_off = b["roundOff"]
    flag = Lit(round_off.value, loc=loc) if isinstance(round_off, PyV) and isinstance(round_off.value, bool) \
        else as_col(round_off, loc)
    return ColV(Call("months_between", (as_col(b["date1"], loc), as_col(b["date2"], loc), flag), loc=loc))


_DATE_HANDLERS: dict[str, Handler] = {
    **{name: _call(name) for name in ("hour", "minute", "second")},
    "to_timestamp": _ts_fmt("to_timestamp", "col", "format=None"),
    "unix_timestamp": _ts_fmt("unix_timestamp", "timestamp=None", f"format={_DEFAULT_TS_FORMAT!r}"),
    "from_unixtime": _ts_fmt("from_unixtime", "timestamp", f"format={_DEFAULT_TS_FORMAT!r}"),
    "date_format": _ts_fmt("date_format", "date", "format"),
    "date_trunc": _f_date_trunc,
    "months_between": _f_months_between,
    **{name: _call(name) for name in ("year", "month", "day", "dayofmonth", "quarter", "dayofweek",
                                      "dayofyear", "weekofyear")},
    "date_add": _date_count("date_add", "days"),
    "date_sub": _date_count("date_sub", "days"),
    "add_months": _date_count("add_months", "months"),
    "datediff": _f_datediff,
    "to_date": _f_to_date,
}

FUNCTIONS = MappingProxyType(
    {
        **_DATE_HANDLERS,
        **nested.HANDLERS,  # arrays and generators (frontend/dataframe/nested.py)
        "col": _f_col,
        "column": _f_col,
        "lit": _f_lit,
        "when": _f_when,
        "coalesce": _varargs_call("coalesce"),
        "greatest": _varargs_call("greatest", 2),
        "least": _varargs_call("least", 2),
        "concat": _varargs_call("concat"),
        "abs": _call("abs"),
        "negative": _one_col("negative", lambda c, loc: Unary("neg", c, loc=loc)),
        "negate": _one_col("negate", lambda c, loc: Unary("neg", c, loc=loc)),
        "isnull": _one_col("isnull", lambda c, loc: IsNull(c, False, loc=loc)),
        "isnotnull": _one_col("isnotnull", lambda c, loc: IsNull(c, True, loc=loc)),
        "pmod": _arith("pmod", True),
        "try_add": _arith("try_add", False),
        "try_subtract": _arith("try_subtract", False),
        "try_multiply": _arith("try_multiply", False),
        "try_divide": _arith("try_divide", False),
        "try_mod": _arith("try_mod", False),
        "sum": _agg("sum", "sum", "sum"),
        "count": _agg("count", "count", "count"),
        "min": _agg("min", "min", "min"),
        "max": _agg("max", "max", "max"),
        "avg": _agg("avg", "avg", "avg"),
        "mean": _agg("mean", "avg", "avg"),
        "sumDistinct": _agg("sumDistinct", "sum_distinct", "sum"),
        "sum_distinct": _agg("sum_distinct", "sum_distinct", "sum"),
        "try_sum": _agg("try_sum", "try_sum", "try_sum"),
        "grouping": _call("grouping"),  # constants of a rollup/cube set (grouping.py)
        "grouping_id": _varargs_call("grouping_id", 0),
        "stddev": _agg("stddev", "stddev_samp", "stddev"),
        "std": _agg("std", "stddev_samp", "std"),
        "stddev_samp": _agg("stddev_samp", "stddev_samp", "stddev_samp"),
        "stddev_pop": _agg("stddev_pop", "stddev_pop", "stddev_pop"),
        "variance": _agg("variance", "var_samp", "variance"),
        "var_samp": _agg("var_samp", "var_samp", "var_samp"),
        "var_pop": _agg("var_pop", "var_pop", "var_pop"),
        "collect_list": _agg("collect_list", "collect_list", "collect_list"),
        "collect_set": _agg("collect_set", "collect_set", "collect_set"),
        "countDistinct": _count_distinct("countDistinct"),
        "count_distinct": _count_distinct("count_distinct"),
        "upper": _call("upper"),
        "lower": _call("lower"),
        "ucase": _call("ucase"),
        "lcase": _call("lcase"),
        "length": _call("length"),
        "char_length": _call("char_length"),
        "character_length": _call("character_length"),
        "trim": _call("trim"),
        "ltrim": _call("ltrim"),
        "rtrim": _call("rtrim"),
        "initcap": _call("initcap"),
        "reverse": _call("reverse"),
        "isnan": _call("isnan"),
        "signum": _call("signum", "SIGNUM"),
        "sign": _call("sign"),
        "nanvl": _two_cols("nanvl"),
        "ifnull": _two_cols("ifnull"),
        "nvl": _two_cols("nvl"),
        "nullif": _two_cols("nullif"),
        "floor": _call("floor", "FLOOR"),
        "ceil": _call("ceil", "CEIL"),
        "sqrt": _call("sqrt", "SQRT"),
        "concat_ws": _f_concat_ws,
        "substring": _f_substring,
        "lpad": _f_pad("lpad"),
        "rpad": _f_pad("rpad"),
        "instr": _f_instr,
        "round": _f_round("round"),
        "locate": _f_locate,
        "translate": _f_translate,
        "replace": _f_replace,
        "regexp_replace": _f_regexp_replace,
        "regexp_extract": _f_regexp_extract,
        "exp": _call("exp", "EXP"),
        "ln": _call("ln"),
        "log": _f_log,
        "log10": _call("log10", "LOG10"),
        "log2": _call("log2", "LOG2"),
        "pow": _f_pow("pow"),
        "power": _f_pow("power"),
        "nvl2": _f_nvl2,
        "bround": _f_round("bround"),
        **{name: _sort_fn(name) for name in _SORT_METHODS},
    }
)

UNSUPPORTED_FUNCTIONS = MappingProxyType(
    {
        "pandas_udf": "pandas UDFs are not supported",
        "any_value": "any_value() depends on input order",
        "rand": "random numbers",
        "randn": "random numbers",
        "monotonically_increasing_id": "ids depend on partitioning",
        "current_date": "the current date",
        "current_timestamp": "the current time",
        "spark_partition_id": "partition ids",
        "input_file_name": "input files",
    }
)
