"""Driver values of a DataFrame script beyond the DataFrame frontend's (``sys.argv[i]``, reader and
writer chains, structs, rows, the runtime conf, the SparkContext) and small helpers over them: what a
sink's value is, save modes, option flags, rows checked against a schema.
"""

from __future__ import annotations

import decimal
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from frontend.dataframe.values import (
    ActionV,
    PyV,
    describe,
)
from frontend.script.df_program import Part
from sparklite.ast import Loc
from sparklite.errors import InputError, UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational.types import (
    BooleanType,
    DecimalType,
    DoubleType,
    Field,
    IntegralType,
    Schema,
    StringType,
    parse_type,
)


@dataclass(frozen=True)
class _ArgV:
    """``sys.argv[i]``."""

    DESCRIPTION = "sys.argv[i] (an input path)"

    index: int


@dataclass(frozen=True)
class _ReaderChain:
    """``spark.read`` with its format, options and schema so far."""

    DESCRIPTION = "spark.read"

    fmt: str | None = None
    options: tuple[tuple[str, Any], ...] = ()
    schema: Schema | None = None


@dataclass(frozen=True)
class _Writer:
    """``df.write`` with its format and options so far."""

    DESCRIPTION = "df.write"

    df: Any
    fmt: str | None = None
    options: tuple[tuple[str, Any], ...] = ()
    mode: str = "errorifexists"


@dataclass(frozen=True)
class _StructV:
    """A ``StructType`` literal (or a ``StructField``: one field)."""

    DESCRIPTION = "a StructType"

    fields: tuple[Field, ...]


@dataclass(frozen=True)
class _RowV:
    """The loop variable of ``for row in df.collect():`` (its columns)."""

    DESCRIPTION = "a collected row"

    columns: tuple[str, ...]


@dataclass(frozen=True)
class _FieldV:
    """``row.name`` / ``row["name"]`` / ``row[i]``."""

    DESCRIPTION = "a field of a collected row"

    column: int


@dataclass(frozen=True)
class _StrV:
    """``str(x)`` / an f-string or ``%`` format of printable pieces: text made of parts."""

    DESCRIPTION = "a text built from printed values"

    parts: tuple[Part, ...]





@dataclass(frozen=True)
class _RowLit:
    """``Row(name="alex", age=20)`` (or ``P("alex", 20)`` with ``P = Row("name", "age")``): a row of
    literal data with its field names, in the order given (PySpark 4 keeps it)."""

    DESCRIPTION = "a Row of literal values"

    names: tuple[str, ...]
    values: tuple[Any, ...]


@dataclass(frozen=True)
class ListLit:
    """A Python list inside literal row data (``frontend.script.df_nested``): kept apart from tuples, as
    it prints with brackets."""

    DESCRIPTION = "a list inside a Row"

    items: tuple[Any, ...]


def value_repr(v: Any) -> str:
    """``repr`` of a value inside a ``Row`` as Python prints it (nested Rows and lists included)."""
    if isinstance(v, _RowLit):
        items = zip(v.names, v.values, strict=True)
        return "Row(" + ", ".join(f"{n}={value_repr(x)}" for n, x in items) + ")"
    if isinstance(v, ListLit):
        return "[" + ", ".join(value_repr(x) for x in v.items) + "]"
    return repr(v)


@dataclass(frozen=True)
class _RowClass:
    """``Row("name", "age")``: a row factory; calling it with values makes a ``_RowLit``."""

    DESCRIPTION = "a Row class"

    names: tuple[str, ...]


@dataclass(frozen=True)
class _RuntimeConf:
    """``spark.conf`` (only ``set`` of a harmless key)."""


_DONE = object()  # a statement that was a sink or a driver call: no value


@dataclass(frozen=True)
class _SparkContextV:
    """``spark.sparkContext`` (only ``setLogLevel`` is understood)."""


@dataclass(frozen=True)
class _Kept:
    """An action's result bound to a name: the job ran at the assignment (sink ``sink``)."""

    DESCRIPTION = "an action's result"

    value: ActionV
    sink: int


def _action_of(v: Any) -> R.Action:
    return v.value.action if isinstance(v, _Kept) else v.action


def _what(v: Any) -> str:
    return describe(v)


def _merged(parts: Sequence[Part]) -> list[Part]:
    out: list[Part] = []
    for p in parts:
        if p.kind == "lit" and out and out[-1].kind == "lit":
            out[-1] = Part("lit", out[-1].text + p.text)
        elif not (p.kind == "lit" and not p.text):
            out.append(p)
    return out


def _save_mode(text: str, loc: Loc) -> str:
    """``df.write.mode(m)`` as one of Spark's save modes (``error`` is ``errorifexists``)."""
    mode = text.lower()
    mode = {"error": "errorifexists", "default": "errorifexists"}.get(mode, mode)
    if mode not in ("errorifexists", "overwrite", "append", "ignore"):
        raise InputError(f"unknown save mode {text!r} (Spark raises here)", loc)
    return mode


def _flag(v: Any, loc: Loc) -> bool:
    if isinstance(v, PyV) and isinstance(v.value, bool):
        return v.value
    if isinstance(v, PyV) and isinstance(v.value, str) and v.value.lower() in ("true", "false"):
        return v.value.lower() == "true"
    raise InputError(f"expected True/False or 'true'/'false', not {_what(v)}", loc)


def _py(v: Any, loc: Loc) -> Any:
    if isinstance(v, PyV) and (
        v.value is None or isinstance(v.value, bool | int | float | str | decimal.Decimal)
    ):
        return v.value
    if isinstance(v, _RowLit) or type(v).__name__ in ("SeqV", "DictV"):
        raise UnsupportedError(
            f"{_what(v)} inside createDataFrame data (a struct, array or map column) is not modelled in "
            "script mode", loc, construct="createDataFrame",
        )
    raise UnsupportedError(
        f"createDataFrame data must be literal values, not {_what(v)}", loc, construct="createDataFrame"
    )


def _infer(rows: list[tuple[Any, ...]], names: list[str], loc: Loc) -> Schema:
    """PySpark's schema inference for literal rows of simple values: int -> bigint, float -> double,
    str -> string, bool -> boolean; every column nullable."""
    fields = []
    for i, name in enumerate(names):
        kinds = {type(r[i]) for r in rows if i < len(r) and r[i] is not None}
        if len(kinds) != 1:
            raise UnsupportedError(
                f"column {name!r}: give a schema (its values are all None or of mixed types, "
                "which PySpark's inference may merge or reject)",
                loc,
                construct="schema",
            )
        t = {int: "bigint", float: "double", str: "string", bool: "boolean"}.get(kinds.pop())
        if t is None:
            raise UnsupportedError(f"column {name!r}: give a schema", loc, construct="schema")
        fields.append(Field(name, parse_type(t, loc), True))
    return Schema(tuple(fields))


def _verified(row: tuple[Any, ...], schema: Schema, loc: Loc) -> tuple[Any, ...]:
    """A literal row as ``createDataFrame`` (verifySchema) accepts it, else a located error saying what
    PySpark raises."""
    if len(row) != len(schema.fields):
        raise InputError(
            f"a row of {len(row)} values for {len(schema.fields)} columns (PySpark raises "
            "LENGTH_SHOULD_BE_THE_SAME)",
            loc,
        )
    out = []
    for v, f in zip(row, schema.fields, strict=True):
        t = f.type
        if v is None:
            if not f.nullable:
                raise InputError(
                    f"field {f.name}: None in a NOT NULL column (PySpark raises FIELD_NOT_NULLABLE)", loc
                )
            out.append(None)
            continue
        ok = (
            (isinstance(t, IntegralType) and type(v) is int and t.min <= v <= t.max)
            or (isinstance(t, DoubleType) and type(v) is float)
            or (isinstance(t, StringType) and type(v) is str)
            or (isinstance(t, BooleanType) and type(v) is bool)
            or (isinstance(t, DecimalType) and isinstance(v, decimal.Decimal))
        )
        if not ok:
            raise InputError(f"field {f.name}: {t} cannot hold {v!r} (PySpark raises a TypeError here)", loc)
        out.append(v)
    return tuple(out)


# --- statically known text: schemas, DataFrame reprs, Python literals ------------------------------------

_TYPE_NAMES = {"int": "integer", "bigint": "long", "smallint": "short", "tinyint": "byte"}


def tree_string(names: Sequence[str], fields: Sequence[Field], loc: Loc, level: int | None = None) -> str:
    """``df.printSchema()``'s text, as PySpark prints ``schema.treeString()`` (a trailing newline, then
    print's own): ``root`` and one `` |-- name: type (nullable = b)`` line per column, the type by its
    ``typeName`` (``integer``, ``long``, ``decimal(10,2)``). Checked on Spark 4
    (``docs/semantics-notes.md``); the nullability is the analysed plan's (a filter keeps it)."""
    from sparklite.relational.types import ArrayType, DateType, NullType, StructType

    simple = IntegralType | DoubleType | DecimalType | StringType | BooleanType | DateType | NullType

    def type_name(t: Any) -> str:
        if isinstance(t, StructType | ArrayType):  # Spark's typeName, then the nested lines below
            return "struct" if isinstance(t, StructType) else "array"
        if not isinstance(t, simple):
            raise UnsupportedError(
                f"printSchema() of a column of type {t} is not modelled", loc, construct="printSchema"
            )
        return _TYPE_NAMES.get(t.simple, t.simple)

    def nested(t: Any, prefix: str) -> None:
        """Spark's ``buildFormattedString``: a struct's fields, an array's element, one level deeper."""
        if isinstance(t, StructType):
            for f in t.fields:
                nullable = str(f.nullable).lower()
                lines.append(f"{prefix}-- {f.name}: {type_name(f.type)} (nullable = {nullable})")
                nested(f.type, prefix + "    |")
        elif isinstance(t, ArrayType):
            lines.append(f"{prefix}-- element: {type_name(t.element)} "
                         f"(containsNull = {str(t.contains_null).lower()})")
            nested(t.element, prefix + "    |")

    lines = ["root"]
    for n, f in zip(names, fields, strict=True):
        lines.append(f" |-- {n}: {type_name(f.type)} (nullable = {'true' if f.nullable else 'false'})")
        nested(f.type, " |    |")
    if level is not None and level < 1:
        raise UnsupportedError(
            "printSchema(level) with level < 1 is not modelled", loc, construct="printSchema"
        )
    return "\n".join(lines) + "\n\n"


def df_repr(names: Sequence[str], fields: Sequence[Field]) -> str:
    """``str(df)`` outside eager evaluation: ``DataFrame[name: string, age: bigint]`` (its ``dtypes``)."""
    return "DataFrame[" + ", ".join(f"{n}: {f.type.simple}" for n, f in zip(names, fields, strict=True)) + "]"


def python_literal(v: Any) -> Any:
    """The Python value a driver value stands for when it is a literal (a constant, or a list or tuple of
    literals), else ``_NOT_LITERAL``: what ``print`` of it writes is then ``str()`` of that value."""
    from frontend.dataframe.values import DictV, SeqV

    if isinstance(v, PyV) and (
        v.value is None or isinstance(v.value, str | int | float | bool | decimal.Decimal)
    ):
        return v.value
    if isinstance(v, SeqV):
        items = [python_literal(i) for i in v.items]
        if any(i is _NOT_LITERAL for i in items):
            return _NOT_LITERAL
        return list(items) if v.is_list else tuple(items)
    if isinstance(v, DictV) and v.ordered:  # an OrderedDict prints otherwise (frontend.dataframe.dicts)
        return _NOT_LITERAL
    if isinstance(v, DictV):
        pairs = [(python_literal(k), python_literal(x)) for k, x in v.items]
        if any(k is _NOT_LITERAL or x is _NOT_LITERAL or isinstance(k, list) for k, x in pairs):
            return _NOT_LITERAL
        return dict(pairs)
    return _NOT_LITERAL


_TYPE_CLASSES = {"int": "IntegerType()", "bigint": "LongType()", "smallint": "ShortType()",
                 "tinyint": "ByteType()", "double": "DoubleType()", "string": "StringType()",
                 "boolean": "BooleanType()", "date": "DateType()"}


def struct_repr(fields: Sequence[Field]) -> str | None:
    """``repr(StructType)`` as PySpark 4 prints it (``StructType([StructField('id', IntegerType(),
    False)])``), or None for a type whose repr is not modelled."""
    items = []
    for f in fields:
        text = _TYPE_CLASSES.get(f.type.simple)  # DecimalType's repr is not checked on Spark: refused
        if text is None:
            return None
        items.append(f"StructField({f.name!r}, {text}, {f.nullable})")
    return f"StructType([{', '.join(items)}])"


def literal_repr(v: Any) -> str | None:
    """``repr()`` of a literal driver value as Python (and PySpark's ``Row``) prints it, or None: a
    constant, a list, tuple or dict of literals, ``Row(name='alex', age=20)``."""
    from frontend.dataframe.values import DictV, SeqV

    if isinstance(v, _RowLit):
        return value_repr(v)
    if isinstance(v, SeqV):
        items = [literal_repr(i) for i in v.items]
        if any(i is None for i in items):
            return None
        if v.is_list:
            return "[" + ", ".join(items) + "]"  # type: ignore[arg-type]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"  # type: ignore[arg-type]
    if isinstance(v, DictV) and v.ordered:  # an OrderedDict prints otherwise (frontend.dataframe.dicts)
        return None
    if isinstance(v, DictV):
        pairs = [(literal_repr(k), literal_repr(x)) for k, x in v.items]
        if any(k is None or x is None for k, x in pairs):
            return None
        return "{" + ", ".join(f"{k}: {x}" for k, x in pairs) + "}"
    value = python_literal(v)
    return None if value is _NOT_LITERAL or isinstance(value, list | tuple | dict) else repr(value)


_NOT_LITERAL = object()
SESSION_REPR = "<pyspark.sql.session.SparkSession object at 0x…>"


# --- schemas users declare for files read without one ---------------------------------------------------

_DECLARATION = re.compile(r"""^\s*#\s*sparkeq:\s*schema\s+(\S+?)\s*=\s*(["'])(.*)\2\s*$""")


def declared_schemas(source: str, filename: str) -> dict[str, Schema]:
    """``# sparkeq: schema NAME = "DDL"`` comments: the schema of a file the script reads without one
    (``NAME`` a path expression such as ``sys.argv[1]``, a literal path, or the variable the DataFrame is
    bound to) or of a catalog table (``spark.table(NAME)``). Keys are lower-cased."""
    from sparklite.relational.types import SchemaError, parse_ddl

    out: dict[str, Schema] = {}
    for number, line in enumerate(source.splitlines(), 1):
        match = _DECLARATION.match(line)
        if match is None:
            continue
        loc = Loc(filename, number, line.index("#") + 1)
        try:
            out[match.group(1).lower()] = parse_ddl(match.group(3), loc)
        except SchemaError as exc:
            raise SchemaError(f"in the schema declaration: {exc.message}", loc) from None
    return out


_INFERABLE = {
    "json": ("bigint", "double", "string", "boolean"),
    "csv-infer": ("int", "bigint", "double", "string", "boolean"),
    "csv": ("string",),
}


def check_inferable(schema: Schema, fmt: str, infer: bool, header: bool, loc: Loc) -> None:
    """A declared schema for a file read without one must be a schema Spark can find in that file
    (checked on Spark 4): JSON columns in alphabetical order (Spark sorts the fields it infers) with
    ``bigint``/``double``/``string``/``boolean`` types; CSV without ``inferSchema`` only strings, with it
    ``int``/``bigint``/``double``/``string``/``boolean``; CSV without a header names its columns
    ``_c0``, ``_c1``..."""
    names = [f.name for f in schema.fields]
    kind = "json" if fmt == "json" else ("csv-infer" if infer else "csv")
    allowed = _INFERABLE[kind]
    bad = [f"{f.name} {f.type}" for f in schema.fields if f.type.simple not in allowed]
    why = None
    if bad:
        why = f"the types Spark infers here are {', '.join(allowed)}, not {', '.join(bad)}"
    elif fmt == "json" and names != sorted(names):
        why = "Spark orders the columns it infers from JSON alphabetically: declare them in that order"
    elif fmt == "csv" and not header and names != [f"_c{i}" for i in range(len(names))]:
        why = "a CSV file read without a header names its columns _c0, _c1, ..."
    if why is not None:
        raise InputError(f"the declared schema ({schema}) cannot be the one Spark reads: {why}", loc)
