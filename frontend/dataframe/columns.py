"""PySpark ``Column`` expressions: an unresolved tree, Spark's generated column names, and resolution
against a DataFrame's columns into the relational kernel (``sparklite.relational``).

Why an unresolved tree first: in PySpark a ``Column`` is built before it meets a DataFrame
(``F.col("a") + 1`` means nothing until ``df.select`` resolves ``a`` against ``df``'s plan), and the
same ``Column`` value may be used against several DataFrames. ``df.a`` / ``df["a"]`` are different:
they are resolved when written, to one column *of that DataFrame's plan*, identified as Spark
identifies it (an expression ID, kept here as ``Attr.id``): after a condition join ``lf.k`` picks the
left ``k`` where the name ``"k"`` is ambiguous, and after ``withColumn("k", ...)`` the old ``df.k`` no
longer exists (Spark's ``MISSING_ATTRIBUTES``).

Column names are Spark's own (``df.columns``), generated from the expression as Spark's
``toPrettySQL`` prints it: ``(a + 1)``, ``sum(v)``, ``count(1)``, ``CASE WHEN (a > 1) THEN 1 END``,
``negative(a)``, a string literal unquoted, a double as Java prints it (``1.0E-4``), an implicit cast
invisible, a cast of a named column keeping the name. Each rule was checked against PySpark 4.3.

Typing, coercions and Spark's analysis errors all come from ``sparklite.relational.build``: this
module only resolves names and walks the tree, subexpression for subexpression (no simplification).
"""

from __future__ import annotations

import decimal
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from sparklite.ast import Loc
from sparklite.errors import UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational import build
from sparklite.relational.build import AnalysisError
from sparklite.relational.types import DecimalType, Field, SqlType

# ---------------------------------------------------------------------------------------------------
# DataFrame columns with identities
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Attr:
    """One output column of a DataFrame: Spark's attribute. ``id`` plays the part of Spark's expression
    ID (a column passed through ``select``/``filter``/``join`` keeps it; a computed or aliased column
    gets a new one); ``qualifier`` is the name given by ``df.alias("l")`` (``F.col("l.a")``)."""

    id: int
    name: str
    qualifier: str | None = None


@dataclass(frozen=True)
class DF:
    """A DataFrame during translation: its kernel relation and one ``Attr`` per column of
    ``rel.schema``. ``ambiguous`` holds the IDs found on both sides of a self-join (Spark rejects
    ``df.k`` after ``df.join(df, ...)``), ``hidden`` the key IDs a USING join keeps out of its output.
    ``origin`` is the DataFrame a ``select`` read (kept through later filters, sorts and limits): a
    filter or sort may still name a column the select removed, and Spark then re-adds it below
    (its ``ResolveMissingReferences`` rule), so the translator must find it there."""

    rel: R.Rel
    attrs: tuple[Attr, ...]
    ambiguous: frozenset[int] = frozenset()
    hidden: frozenset[int] = frozenset()
    origin: DF | None = None

    @property
    def fields(self) -> tuple[Field, ...]:
        return self.rel.schema.fields

    @property
    def columns(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.attrs)


@dataclass
class IdSource:
    """Fresh attribute IDs for one translation (state of the translator, never global)."""

    next_id: int = 1

    def fresh(self) -> int:
        self.next_id += 1
        return self.next_id - 1


# ---------------------------------------------------------------------------------------------------
# The unresolved Column tree
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CExpr:
    loc: Loc | None = field(default=None, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True)
class Name(CExpr):
    """``F.col("a")``, ``F.col("l.a")``, a column name given as a string: resolved by name when used.
    ``parts`` are the dot-separated parts (backticks quote a dot)."""

    parts: tuple[str, ...]


@dataclass(frozen=True)
class Star(CExpr):
    """``"*"`` / ``F.col("l.*")``: every column (of the qualifier's DataFrame); ``df["*"]``: every
    column of ``df`` (``ids``), wherever it is used."""

    qualifier: str | None = None
    ids: tuple[int, ...] | None = None


@dataclass(frozen=True)
class AttrRef(CExpr):
    """``df.a`` / ``df["a"]``: the column with ID ``id`` (``name`` as spelled by the user). ``origin`` is
    the relation of the DataFrame it was taken from (Spark tags the column with that Dataset's id): in a
    self-join, a column whose DataFrame is also part of the right side is ambiguous."""

    id: int
    name: str
    origin: R.Rel | None = field(default=None, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True)
class Lit(CExpr):
    """A Python value in a Column expression (``F.lit(1)``, the ``1`` of ``col + 1``)."""

    value: object


@dataclass(frozen=True)
class Bin(CExpr):
    """A binary operator: arithmetic ``+ - * / %``, ``pmod``, the ``try_`` arithmetic functions,
    comparisons ``= != < <= > >= <=>``, ``AND``, ``OR``."""

    op: str
    left: CExpr
    right: CExpr


@dataclass(frozen=True)
class Unary(CExpr):
    """``NOT`` (``~c``) or ``negative`` (``-c``)."""

    op: str
    operand: CExpr


@dataclass(frozen=True)
class IsNull(CExpr):
    operand: CExpr
    negated: bool = False


@dataclass(frozen=True)
class InList(CExpr):
    operand: CExpr
    values: tuple[CExpr, ...]


@dataclass(frozen=True)
class When(CExpr):
    """``F.when(c, v).when(...)``, closed by ``.otherwise(e)`` (``closed``)."""

    branches: tuple[tuple[CExpr, CExpr], ...]
    orelse: CExpr | None = None
    closed: bool = False


@dataclass(frozen=True)
class Cast(CExpr):
    operand: CExpr
    type: SqlType
    try_: bool = False


@dataclass(frozen=True)
class Call(CExpr):
    """A scalar function of ``sparklite.relational.functions`` (``coalesce``, ``upper``...). ``pretty``
    is Spark's name of the call given the argument names (most are ``name(a, b)``)."""

    name: str
    args: tuple[CExpr, ...]
    pretty_name: str | None = None  # Spark's spelling when it differs (``FLOOR``)


@dataclass(frozen=True)
class Agg(CExpr):
    """An aggregate function (``F.sum``, ``F.count("*")``, ``F.countDistinct``...). ``shown`` is the
    function name in Spark's column name (``avg`` for ``F.mean``)."""

    kind: R.AggName
    args: tuple[CExpr, ...]
    shown: str


@dataclass(frozen=True)
class Alias(CExpr):
    operand: CExpr
    name: str


@dataclass(frozen=True)
class SortOrder(CExpr):
    """``c.desc()``, ``F.asc_nulls_last("a")``...: only meaningful as an ``orderBy`` key."""

    operand: CExpr
    ascending: bool
    nulls_first: bool | None = None


@dataclass(frozen=True)
class SqlText(CExpr):
    """A SQL expression string (``F.expr("a div b")``, ``filter("a > 1")``): translated by the SQL
    frontend against the DataFrame it is used on (``line``/``col``: where the text starts)."""

    text: str
    line: int
    col: int


@dataclass(frozen=True)
class Resolved(CExpr):
    """A SQL expression string already translated against one DataFrame's columns: its kernel
    expression and the name Spark gives it."""

    expr: R.Expr
    name: str


@dataclass(frozen=True)
class Extension(CExpr):
    """A node another module defines (window functions, ``frontend.dataframe.windows``): it lists its
    children and prints itself, and only a resolver hook of that module resolves it."""

    def kids(self) -> tuple[CExpr, ...]:
        return ()

    def shown(self, show: Callable[[CExpr], str]) -> str:
        raise NotImplementedError

    def unresolved(self) -> UnsupportedError:
        return UnsupportedError(f"{type(self).__name__} is not supported here", self.loc)


def map_children(e: CExpr, f: Callable[[CExpr], CExpr]) -> CExpr:
    """``e`` with ``f`` applied to each direct child."""
    if isinstance(e, Bin):
        return replace(e, left=f(e.left), right=f(e.right))
    if isinstance(e, Unary | IsNull | Cast | Alias | SortOrder):
        return replace(e, operand=f(e.operand))
    if isinstance(e, InList):
        return replace(e, operand=f(e.operand), values=tuple(f(v) for v in e.values))
    if isinstance(e, When):
        return replace(
            e,
            branches=tuple((f(c), f(v)) for c, v in e.branches),
            orelse=None if e.orelse is None else f(e.orelse),
        )
    if isinstance(e, Call | Agg):
        return replace(e, args=tuple(f(a) for a in e.args))
    return e


def references(e: CExpr) -> list[Name | AttrRef]:
    """The column references in ``e`` (names and ``df.col`` identities), in order."""
    if isinstance(e, Name | AttrRef):
        return [e]
    return [r for c in children(e) for r in references(c)]


def resolves(scope: Scope, e: Name | AttrRef) -> bool:
    """Whether ``e`` names exactly one column of ``scope`` (an ambiguous name counts as resolving:
    its error is Spark's whatever else is tried)."""
    try:
        if isinstance(e, Name):
            lookup_name(scope, e)
        else:
            lookup_id(scope, e)
    except AnalysisError as exc:
        return "AMBIGUOUS" in exc.message or "self-join" in exc.message
    except UnsupportedError:
        return True
    return True


def contains_agg(e: CExpr) -> bool:
    if isinstance(e, Agg):
        return True
    return any(contains_agg(c) for c in children(e))


def children(e: CExpr) -> tuple[CExpr, ...]:
    if isinstance(e, Bin):
        return (e.left, e.right)
    if isinstance(e, Unary | IsNull | Cast | Alias | SortOrder):
        return (e.operand,)
    if isinstance(e, InList):
        return (e.operand, *e.values)
    if isinstance(e, When):
        out = [x for b in e.branches for x in b]
        return tuple(out + ([e.orelse] if e.orelse is not None else []))
    if isinstance(e, Call | Agg):
        return e.args
    if isinstance(e, Extension):
        return e.kids()
    return ()


def parse_name(text: str, loc: Loc | None) -> CExpr:
    """A column name string as Spark reads it: dot-separated parts, backticks quoting (``a.`b.c```),
    ``*`` and ``q.*``."""
    parts: list[str] = []
    cur: list[str] = []
    i = 0
    quoted_any = False
    while i < len(text):
        ch = text[i]
        if ch == "`":
            j = i + 1
            while True:
                k = text.find("`", j)
                if k < 0:
                    raise AnalysisError(f"unclosed backtick in column name {text!r}", loc)
                if k + 1 < len(text) and text[k + 1] == "`":
                    cur.append(text[j:k] + "`")
                    j = k + 2
                    continue
                cur.append(text[j:k])
                i = k + 1
                break
            quoted_any = True
            continue
        if ch == ".":
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    parts.append("".join(cur))
    if not quoted_any and parts[-1] == "*":
        if len(parts) == 1:
            return Star(loc=loc)
        if len(parts) == 2:
            return Star(parts[0], loc=loc)
    if any(p == "" for p in parts):
        raise AnalysisError(f"cannot read column name {text!r}", loc)
    return Name(tuple(parts), loc=loc)


# ---------------------------------------------------------------------------------------------------
# Spark's column names
# ---------------------------------------------------------------------------------------------------


def java_double(v: float) -> str:
    """``Double.toString`` as the JVM prints it (``1.0E-4``, ``1000000.0``, ``1.0E7``, ``NaN``)."""
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    if v == 0:
        return "-0.0" if math.copysign(1.0, v) < 0 else "0.0"
    sign = "-" if v < 0 else ""
    a = abs(v)
    d = decimal.Decimal(repr(a)).normalize()
    _, digits, exp = d.as_tuple()
    assert isinstance(exp, int)
    if 1e-3 <= a < 1e7:
        text = format(d, "f")
        if "." not in text:
            text += ".0"
        return sign + text
    ds = "".join(map(str, digits))
    sci = len(ds) - 1 + exp
    return f"{sign}{ds[0]}.{ds[1:] or '0'}E{sci}"


def lit_pretty(value: object) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return java_double(value)
    return str(value)


def type_sql(t: SqlType) -> str:
    if isinstance(t, DecimalType):
        return f"DECIMAL({t.precision},{t.scale})"
    return t.simple.upper()


def is_named(e: CExpr) -> bool:
    """Spark keeps the name of a named column under a cast (``col("a").cast("string")`` is ``a``)."""
    if isinstance(e, Name | AttrRef | Alias):
        return True
    return isinstance(e, Cast) and is_named(e.operand)


def output_name(e: CExpr) -> str:
    """The name Spark gives the column ``e`` produces in ``select``/``agg``."""
    if isinstance(e, Alias):
        return e.name
    if isinstance(e, Cast) and is_named(e.operand):
        return output_name(e.operand)
    return pretty(e)


_CMP_SHOWN = {"=": "=", "<": "<", "<=": "<=", ">": ">", ">=": ">=", "<=>": "<=>"}


def pretty(e: CExpr) -> str:
    """Spark's ``toPrettySQL`` of the expression (attributes by name, literals unquoted)."""
    if isinstance(e, Name):
        return e.parts[-1]
    if isinstance(e, AttrRef):
        return e.name
    if isinstance(e, Star):
        return "*" if e.qualifier is None else f"{e.qualifier}.*"
    if isinstance(e, Lit):
        return lit_pretty(e.value)
    if isinstance(e, Resolved):
        return e.name
    if isinstance(e, SqlText):
        return e.text
    if isinstance(e, Bin):
        lp, rp = pretty(e.left), pretty(e.right)
        if e.op == "!=":
            return f"(NOT ({lp} = {rp}))"
        if e.op in ("pmod", "try_add", "try_subtract", "try_multiply", "try_divide", "try_mod"):
            return f"{e.op}({lp}, {rp})"
        return f"({lp} {e.op} {rp})"
    if isinstance(e, Unary):
        return f"(NOT {pretty(e.operand)})" if e.op == "NOT" else f"negative({pretty(e.operand)})"
    if isinstance(e, IsNull):
        return f"({pretty(e.operand)} IS {'NOT ' if e.negated else ''}NULL)"
    if isinstance(e, InList):
        return f"({pretty(e.operand)} IN ({', '.join(pretty(v) for v in e.values)}))"
    if isinstance(e, When):
        parts = ["CASE"] + [f"WHEN {pretty(c)} THEN {pretty(v)}" for c, v in e.branches]
        if e.orelse is not None:
            parts.append(f"ELSE {pretty(e.orelse)}")
        return " ".join(parts + ["END"])
    if isinstance(e, Cast):
        if is_named(e.operand):
            return output_name(e.operand)
        return f"{'TRY_CAST' if e.try_ else 'CAST'}({pretty(e.operand)} AS {type_sql(e.type)})"
    if isinstance(e, Call) and e.name == "like" and len(e.args) == 2:
        return f"{pretty(e.args[0])} LIKE {pretty(e.args[1])}"
    if isinstance(e, Call) and e.name == "get_item" and len(e.args) == 2:  # ``a[0]``
        return f"{pretty(e.args[0])}[{pretty(e.args[1])}]"
    if isinstance(e, Call):
        return f"{e.pretty_name or e.name}({', '.join(pretty(a) for a in e.args)})"
    if isinstance(e, Agg):
        if e.kind == "count_star":
            return "count(1)"
        distinct = "DISTINCT " if e.kind in ("count_distinct", "sum_distinct") else ""
        return f"{e.shown}({distinct}{', '.join(pretty(a) for a in e.args)})"
    if isinstance(e, Alias):
        return f"{pretty(e.operand)} AS {e.name}"
    if isinstance(e, SortOrder):
        nf = e.ascending if e.nulls_first is None else e.nulls_first
        return f"{pretty(e.operand)} {'ASC' if e.ascending else 'DESC'} NULLS {'FIRST' if nf else 'LAST'}"
    if isinstance(e, Extension):
        return e.shown(pretty)
    raise AssertionError(f"unknown column node {e!r}")  # pragma: no cover


# ---------------------------------------------------------------------------------------------------
# Resolution
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scope:
    """What column names and IDs resolve against: a DataFrame's columns, or for a join condition the
    left columns then the right ones (``fields`` give types and nullability by position)."""

    attrs: tuple[Attr, ...]
    fields: tuple[Field, ...]
    ambiguous: frozenset[int] = frozenset()
    hidden: frozenset[int] = frozenset()

    @staticmethod
    def of(df: DF) -> Scope:
        return Scope(df.attrs, df.fields, df.ambiguous, df.hidden)


def _quote(parts: Sequence[str]) -> str:
    return ".".join(f"`{p}`" for p in parts)


def lookup_name(scope: Scope, e: Name) -> int:
    """The position of the column ``e`` names (case-insensitively, as Spark resolves): a qualified
    name matches the columns of that ``alias``; several matches with different IDs are
    ``AMBIGUOUS_REFERENCE``, none ``UNRESOLVED_COLUMN``."""
    matches: list[int] = []
    if len(e.parts) == 2:
        q, n = e.parts[0].lower(), e.parts[1].lower()
        matches = [
            i
            for i, a in enumerate(scope.attrs)
            if a.qualifier is not None and a.qualifier.lower() == q and a.name.lower() == n
        ]
    elif len(e.parts) == 1:
        n = e.parts[0].lower()
        matches = [i for i, a in enumerate(scope.attrs) if a.name.lower() == n]
    distinct: dict[int, int] = {}
    for i in matches:
        distinct.setdefault(scope.attrs[i].id, i)
    if len(distinct) > 1:
        cands = ", ".join(f"`{scope.attrs[i].name}`" for i in distinct.values())
        raise AnalysisError(
            f"[AMBIGUOUS_REFERENCE] Reference {_quote(e.parts)} is ambiguous, could be: [{cands}]", e.loc
        )
    if not distinct:
        names = ", ".join(
            f"`{a.name}`" if a.qualifier is None else f"`{a.qualifier}`.`{a.name}`" for a in scope.attrs
        )
        raise AnalysisError(
            f"[UNRESOLVED_COLUMN] A column with name {_quote(e.parts)} cannot be resolved among [{names}]",
            e.loc,
        )
    return next(iter(distinct.values()))


def lookup_id(scope: Scope, e: AttrRef) -> int:
    """The position of the column with ID ``e.id`` (``df.a`` used on a DataFrame derived from ``df``)."""
    if e.id in scope.ambiguous:
        raise AnalysisError(
            f"column {e.name} is ambiguous: it comes from both sides of a self-join "
            "(alias the DataFrames, df.alias('l'), and use F.col('l.name'))",
            e.loc,
        )
    if e.id in scope.hidden:
        raise UnsupportedError(
            f"column {e.name} is the hidden key of a USING join (join(other, '{e.name}'));"
            f" use F.col('{e.name}') or join on a condition instead",
            e.loc,
            construct="hidden-using-column",
        )
    for i, a in enumerate(scope.attrs):
        if a.id == e.id:
            return i
    present = ", ".join(a.name for a in scope.attrs)
    raise AnalysisError(
        f"[MISSING_ATTRIBUTES] column {e.name} of another DataFrame (or replaced since) is "
        f"not among the columns {present}",
        e.loc,
    )


def col_at(scope: Scope, i: int, loc: Loc | None) -> R.Col:
    f = scope.fields[i]
    return R.Col(i, f.name, f.type, f.nullable, loc=loc)


LeafHook = Callable[[CExpr], R.Expr | None]


class Resolver:
    """Resolves ``CExpr`` trees against a ``Scope``. ``hook`` sees every node first (the aggregate
    translation uses it to turn aggregate calls and grouping expressions into references to the
    aggregate's output); without it, an aggregate function is an error (Spark's analyser rejects it
    outside ``agg``/``select``)."""

    def __init__(self, scope: Scope, hook: LeafHook | None = None, context: str = "this expression") -> None:
        self.scope = scope
        self.hook = hook
        self.context = context

    def expr(self, e: CExpr) -> R.Expr:
        if self.hook is not None:
            hooked = self.hook(e)
            if hooked is not None:
                return hooked
        loc = e.loc
        if isinstance(e, Name):
            return col_at(self.scope, lookup_name(self.scope, e), loc)
        if isinstance(e, AttrRef):
            return col_at(self.scope, lookup_id(self.scope, e), loc)
        if isinstance(e, Lit):
            return build.lit(e.value, loc)
        if isinstance(e, Resolved):
            return e.expr
        if isinstance(e, Bin):
            return self._bin(e)
        if isinstance(e, Unary):
            x = self.expr(e.operand)
            return build.not_(x, loc) if e.op == "NOT" else build.neg(x, loc)
        if isinstance(e, IsNull):
            return build.is_null(self.expr(e.operand), e.negated, loc)
        if isinstance(e, InList):
            x = self.expr(e.operand)
            return build.in_(x, [self.expr(v) for v in e.values], loc)
        if isinstance(e, When):
            branches = [(self.expr(c), self.expr(v)) for c, v in e.branches]
            orelse = self.expr(e.orelse) if e.orelse is not None else None
            return build.case(branches, orelse, loc)
        if isinstance(e, Cast):
            return build.cast(self.expr(e.operand), e.type, e.try_, loc)
        if isinstance(e, Call):
            if getattr(e, "udf", None) is not None:  # a Python UDF (frontend.dataframe.udfs.UdfCall)
                return e.resolved([self.expr(a) for a in e.args], loc)  # type: ignore[attr-defined]
            return call_function(e.name, [self.expr(a) for a in e.args], loc)
        if isinstance(e, Alias):
            return self.expr(e.operand)
        if isinstance(e, Agg):
            raise AnalysisError(
                f"aggregate function {pretty(e)} is not allowed in {self.context} "
                "(aggregates belong in agg() or a select of aggregates only)",
                loc,
            )
        if isinstance(e, SortOrder):
            raise UnsupportedError(
                f"a sort order ({pretty(e)}) is only meaningful in orderBy/sort", loc, construct="sort-order"
            )
        if isinstance(e, Star):
            raise AnalysisError(f"'{pretty(e)}' is only allowed as a whole select item or in count('*')", loc)
        if isinstance(e, Extension):
            raise e.unresolved()
        raise AssertionError(f"unknown column node {e!r}")  # pragma: no cover

    def _bin(self, e: Bin) -> R.Expr:
        loc = e.loc
        left = self.expr(e.left)
        right = self.expr(e.right)
        op = e.op
        if op in ("+", "-", "*", "/", "%"):
            return build.arith(op, left, right, loc=loc)  # type: ignore[arg-type]
        if op == "pmod":
            return build.arith("pmod", left, right, loc=loc)
        if op.startswith("try_"):
            kernel = {
                "try_add": "+",
                "try_subtract": "-",
                "try_multiply": "*",
                "try_divide": "/",
                "try_mod": "%",
            }[op]
            return build.arith(kernel, left, right, try_=True, loc=loc)  # type: ignore[arg-type]
        if op == "!=":  # Spark's Column.__ne__ is NOT (a = b)
            return build.not_(build.compare("=", left, right, loc), loc)
        if op in _CMP_SHOWN:
            return build.compare(op, left, right, loc)  # type: ignore[arg-type]
        if op == "AND":
            return build.and_(left, right, loc)
        if op == "OR":
            return build.or_(left, right, loc)
        raise AssertionError(f"unknown operator {op}")  # pragma: no cover


# Spark's aliases, called under the kernel's one name (the SQL frontend does the same): the column
# name keeps the spelling the user wrote (``substr(s, 1, 2)``), the kernel has one function.
KERNEL_NAMES = {
    "ucase": "upper",
    "lcase": "lower",
    "char_length": "length",
    "character_length": "length",
    "substr": "substring",
    "regexp_like": "rlike",
    "regexp": "rlike",
    "position": "locate",
}


def call_function(name: str, args: Sequence[R.Expr], loc: Loc | None) -> R.Expr:
    """``build.func`` under the kernel's name; a function the kernel's table
    (``sparklite.relational.functions``) lacks is outside the fragment, not a Spark analysis error."""
    kernel = KERNEL_NAMES.get(name, name)
    if kernel == "nvl2" and len(args) == 3:  # Spark replaces nvl2(a, b, c) by if(isnotnull(a), b, c)
        return build.case([(build.is_null(args[0], True, loc), args[1])], args[2], loc)
    try:
        from sparklite.relational.functions import FUNCTIONS
    except ImportError:  # pragma: no cover - the table is part of the kernel
        FUNCTIONS = {}  # noqa: N806
    if kernel not in FUNCTIONS:
        raise UnsupportedError(f"function {name} is not supported yet", loc, construct=name)
    return build.func(kernel, args, loc)


# ---------------------------------------------------------------------------------------------------
# Aggregation: groupBy(...).agg(...) and selects of aggregates
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AggPlan:
    """The kernel form of ``groupBy(keys).agg(outputs)``: an ``Aggregate`` computing the keys and every
    aggregate call, and, when an output is not just one aggregate (``F.col("k") + F.sum("v")``,
    ``F.sum("a") / F.count("a")``), the expressions to compute over the aggregate's row."""

    keys: tuple[R.Expr, ...]
    key_names: tuple[str, ...]
    aggs: tuple[R.AggCall, ...]
    agg_names: tuple[str, ...]
    outputs: tuple[R.Expr, ...]  # over the Aggregate's row (keys then aggs)
    output_names: tuple[str, ...]

    @property
    def direct(self) -> bool:
        """Whether the outputs are exactly the aggregate calls in order (no projection needed: the
        aggregate's columns are then named as the outputs)."""
        n = len(self.keys)
        return len(self.outputs) == len(self.aggs) and all(
            isinstance(o, R.Col) and o.index == n + i for i, o in enumerate(self.outputs)
        )


def plan_aggregate(scope: Scope, keys: Sequence[CExpr], outputs: Sequence[CExpr], loc: Loc | None) -> AggPlan:
    """Resolve grouping keys and aggregate outputs as Spark's analyser does: aggregate calls see the
    input rows; outside them only grouping expressions may appear (else ``MISSING_AGGREGATION``, or
    ``MISSING_GROUP_BY`` without ``groupBy``)."""
    row = Resolver(scope, context="a grouping key")
    rkeys = tuple(row.expr(k) for k in keys)
    knames = tuple(output_name(k) for k in keys)
    aggs: list[R.AggCall] = []
    agg_names: list[str] = []
    key_fields = [Field(n, k.type, k.nullable) for k, n in zip(rkeys, knames, strict=True)]

    def after(i: int, loc_: Loc | None) -> R.Col:
        """A reference to column ``i`` of the aggregate's output row."""
        if i < len(rkeys):
            f = key_fields[i]
        else:
            a = aggs[i - len(rkeys)]
            f = Field(agg_names[i - len(rkeys)], a.type, a.nullable)
        return R.Col(i, f.name, f.type, f.nullable, loc=loc_)

    def hook(e: CExpr) -> R.Expr | None:
        if isinstance(e, Agg):
            inner = Resolver(scope, context="an aggregate function's argument")
            args = [inner.expr(a) for a in e.args]
            aggs.append(build.agg(e.kind, args, e.loc))
            agg_names.append(pretty(e))
            return after(len(rkeys) + len(aggs) - 1, e.loc)
        if isinstance(e, Alias | Lit):
            return None
        if isinstance(e, Name) and len(e.parts) == 1:
            # ``groupBy(expr.alias("k")).agg(F.col("k"))``: Spark resolves ``k`` to the grouping alias
            # when the input has no such column
            aliased = [
                i for i, k in enumerate(keys) if isinstance(k, Alias) and k.name.lower() == e.parts[0].lower()
            ]
            if aliased and not any(a.name.lower() == e.parts[0].lower() for a in scope.attrs):
                return after(aliased[0], e.loc)
        if not contains_agg(e):
            resolved = row.expr(e)
            for i, k in enumerate(rkeys):
                if resolved == k:
                    return after(i, e.loc)
            if isinstance(e, Name | AttrRef | Resolved):
                if rkeys:
                    raise AnalysisError(
                        f"[MISSING_AGGREGATION] the non-aggregating expression {pretty(e)} is not a grouping "
                        "column: group by it or aggregate it",
                        e.loc,
                    )
                raise AnalysisError(
                    f"[MISSING_GROUP_BY] {pretty(e)} is neither aggregated nor grouped (the query has no "
                    "groupBy)",
                    e.loc,
                )
        return None

    post = Resolver(scope, hook)
    outs = tuple(post.expr(o) for o in outputs)
    return AggPlan(rkeys, knames, tuple(aggs), tuple(agg_names), outs, tuple(output_name(o) for o in outputs))
