"""The relational kernel of SparkLite: what DataFrame code and SQL text both lower to.

Why a kernel of its own rather than RDD operations over tuples: Spark SQL's meaning differs from the RDD
API's exactly where easy reasoning goes wrong (``dataframe-semantics.md``): NULLs and three-valued logic,
typed overflow (``int`` raises past 2^31, ``bigint`` past 2^63), errors that are *lazy* (a row-level
error counts only where its value is demanded), grouping and set operations under which NULL equals
NULL and NaN equals NaN while joins never match NULLs, ``-0.0`` grouped with ``0.0``... The RDD nodes
would need a wrapper on every value to mean that; here it is the meaning of the nodes themselves.

The kernel is *elaborated*: every expression carries its Spark type and nullability, and every implicit
coercion Spark's analyser inserts is an explicit ``Cast`` (so the interpreter, the code generator and
later the encoder never re-derive typing rules). Column references are positions into the input row
of the operator (for a ``Join``, the left columns then the right ones). The frontends resolve names
(case-insensitively, with Spark's ambiguity errors) through ``sparklite.relational.build``, which is the
one place Spark's analysis rules live.

All nodes are frozen dataclasses; ``loc`` points at the user's code (DataFrame call or SQL text) and is
excluded from equality.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from sparklite.ast import Loc
from sparklite.relational.types import BOOLEAN, Schema, SqlType


@dataclass(frozen=True)
class RNode:
    loc: Loc | None = field(default=None, compare=False, repr=False, kw_only=True)


# ---------------------------------------------------------------------------------------------------
# Scalar expressions (evaluated per row; every node knows its type and whether it may be NULL)
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Predicate(RNode):
    """A boolean-valued expression (comparison, AND/OR/NOT, IS NULL, IN): its type is BOOLEAN whatever
    its operands' types."""

    @property
    def type(self) -> SqlType:
        return BOOLEAN


@dataclass(frozen=True)
class Col(RNode):
    """The input row's column ``index``; ``name`` is for messages and generated code only."""

    index: int
    name: str
    type: SqlType
    nullable: bool


@dataclass(frozen=True)
class Lit(RNode):
    """A literal: ``value`` is a Python int/float/str/bool/``decimal.Decimal``/``datetime.date`` or None
    (NULL), of Spark type ``type`` (``F.lit(1)`` is ``int``, SQL ``1.5`` is ``decimal(2,1)``)."""

    value: Any
    type: SqlType

    @property
    def nullable(self) -> bool:
        return self.value is None


ArithOp = Literal["+", "-", "*", "/", "div", "%", "pmod"]


@dataclass(frozen=True)
class Arith(RNode):
    """Binary arithmetic in ``type`` (operands already cast to it, except ``/`` whose result is double
    or decimal and ``div`` whose result is bigint). ANSI: overflow raises ``ARITHMETIC_OVERFLOW``,
    a zero divisor ``DIVIDE_BY_ZERO`` (``/``, ``div``) or ``REMAINDER_BY_ZERO`` (``%``, ``pmod``); with
    ``try_`` (``try_add``, ``try_divide``...) both give NULL instead. ``%`` takes the dividend's sign;
    ``div`` truncates. NULL in, NULL out (``NULL / 0`` is NULL, not an error)."""

    op: ArithOp
    left: Expr
    right: Expr
    type: SqlType
    nullable: bool
    try_: bool = False


@dataclass(frozen=True)
class Neg(RNode):
    """Unary minus: ``-(-2147483648)`` on ``int`` raises ``ARITHMETIC_OVERFLOW``."""

    operand: Expr
    type: SqlType
    nullable: bool


CmpOp = Literal["=", "!=", "<", "<=", ">", ">=", "<=>"]


@dataclass(frozen=True)
class Cmp(Predicate):
    """Comparison of two operands of one type (coerced). NULL operand: NULL, except ``<=>`` (null-safe
    equality, never NULL). Doubles use Spark's total order: NaN equals NaN and is above +inf; -0.0 = 0.0.
    Strings compare by UTF-8 bytes."""

    op: CmpOp
    left: Expr
    right: Expr
    nullable: bool


@dataclass(frozen=True)
class And(Predicate):
    """Three-valued AND, evaluated left to right and stopping at a FALSE left side (so an error on the
    right is not raised then: ``(b != 0) & (a/b > 1)``)."""

    left: Expr
    right: Expr
    nullable: bool


@dataclass(frozen=True)
class Or(Predicate):
    """Three-valued OR, left to right, stopping at a TRUE left side."""

    left: Expr
    right: Expr
    nullable: bool


@dataclass(frozen=True)
class Not(Predicate):
    operand: Expr
    nullable: bool


@dataclass(frozen=True)
class IsNull(Predicate):
    """``isNull`` (or ``isNotNull`` with ``negated``); never NULL. A NaN is not NULL."""

    operand: Expr
    negated: bool = False

    @property
    def nullable(self) -> bool:
        return False


@dataclass(frozen=True)
class Case(RNode):
    """``CASE WHEN c1 THEN v1 ... ELSE e END`` / ``when().otherwise()``: conditions in order, a NULL
    condition counts as false, and only the branch taken is evaluated. ``orelse`` None means NULL."""

    branches: tuple[tuple[Expr, Expr], ...]
    orelse: Expr | None
    type: SqlType
    nullable: bool


@dataclass(frozen=True)
class In(Predicate):
    """``x IN (v1, ...)`` / ``isin``: TRUE if some ``vi`` equals ``x``; else NULL if ``x`` or some ``vi``
    is NULL; else FALSE (so ``NOT (x IN (1, NULL))`` is never TRUE)."""

    operand: Expr
    values: tuple[Expr, ...]
    nullable: bool


@dataclass(frozen=True)
class Cast(RNode):
    """``CAST(x AS type)``, explicit or inserted by coercion. ANSI: out of range raises ``CAST_OVERFLOW``,
    an unparsable string ``CAST_INVALID_INPUT``; ``try_`` gives NULL instead. Double to integral
    truncates toward zero."""

    operand: Expr
    type: SqlType
    nullable: bool
    try_: bool = False


@dataclass(frozen=True)
class Func(RNode):
    """A scalar function of ``sparklite.relational.functions`` (``coalesce``, ``greatest``, ``abs``,
    ``upper``, ``length``, ``concat``...): the function table gives its evaluation (strict or lazy in its
    arguments), its errors and its NULL behaviour."""

    name: str
    args: tuple[Expr, ...]
    type: SqlType
    nullable: bool
    #: a Python UDF's body (``sparklite.relational.pyudf.PyUdf``), whose digest ``name`` carries
    udf: Any = field(default=None, compare=False, repr=False)


Expr = Col | Lit | Arith | Neg | Cmp | And | Or | Not | IsNull | Case | In | Cast | Func

AggName = Literal["sum", "count", "count_star", "min", "max", "avg", "count_distinct", "sum_distinct",
                  "try_sum", "stddev_samp", "stddev_pop", "var_samp", "var_pop", "collect_list",
                  "collect_set"]


@dataclass(frozen=True)
class AggCall(RNode):
    """An aggregate over a group: ``sum`` (of ``int``/``bigint`` a ``bigint``, overflow raises), ``count``
    of non-NULL values (``count_star`` counts rows), ``min``/``max``, ``avg`` (summed in doubles),
    ``count_distinct`` (rows with a NULL in any argument are skipped), ``sum_distinct``, the doubles
    ``stddev_samp``/``stddev_pop``/``var_samp``/``var_pop`` (``moments.py``). NULLs are
    ignored; an all-NULL (or empty) group gives NULL, except the counts, which give 0."""

    name: AggName
    args: tuple[Expr, ...]
    type: SqlType
    nullable: bool


# ---------------------------------------------------------------------------------------------------
# Relations (bags of rows with a schema)
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table(RNode):
    """An input DataFrame or SQL table: a program parameter."""

    name: str
    schema: Schema


@dataclass(frozen=True)
class Project(RNode):
    """``select``/``withColumn``/``drop``/``alias``: one output column per expression."""

    source: Rel
    exprs: tuple[Expr, ...]
    schema: Schema


@dataclass(frozen=True)
class Filter(RNode):
    """Keeps the rows where ``pred`` is TRUE (not NULL, not FALSE)."""

    source: Rel
    pred: Expr

    @property
    def schema(self) -> Schema:
        return self.source.schema


JoinKind = Literal["inner", "left", "right", "full", "semi", "anti", "cross"]


@dataclass(frozen=True)
class Join(RNode):
    """Join on ``cond`` (over the left columns then the right ones), kept when it is TRUE (so NULL keys
    never match under ``=``; they do under ``<=>``). Outer kinds pad the other side with NULLs; ``semi``
    and ``anti`` output the left columns only, each left row at most once. ``cross`` (or a None ``cond``)
    pairs every row. A ``USING``/column-list join is this node under a ``Project`` choosing Spark's key
    column (left, right or coalesced)."""

    kind: JoinKind
    left: Rel
    right: Rel
    cond: Expr | None
    schema: Schema


@dataclass(frozen=True)
class Aggregate(RNode):
    """``groupBy(keys).agg(aggs)``: output columns are the keys then the aggregates. NULL keys form one
    group, NaNs one group, -0.0 and 0.0 one group keyed 0.0. With no keys: exactly one row, also on
    an empty input."""

    source: Rel
    keys: tuple[Expr, ...]
    aggs: tuple[AggCall, ...]
    schema: Schema


@dataclass(frozen=True)
class Distinct(RNode):
    """``distinct()``: one row per group of equal rows (NULL equals NULL, NaN equals NaN)."""

    source: Rel

    @property
    def schema(self) -> Schema:
        return self.source.schema


@dataclass(frozen=True)
class DropDuplicates(RNode):
    """``dropDuplicates(cols)``: one row per group of equal values in ``columns``; *which* row is kept
    is not determined (a nondeterministic result)."""

    source: Rel
    columns: tuple[int, ...]

    @property
    def schema(self) -> Schema:
        return self.source.schema


SetKind = Literal["union", "intersect", "except"]


@dataclass(frozen=True)
class SetOp(RNode):
    """By position. ``union`` with ``all`` is the DataFrame ``union`` (SQL ``UNION ALL``); without,
    SQL ``UNION`` (distinct). ``intersect``/``except`` without ``all`` return distinct rows;
    ``intersectAll``/``exceptAll`` are bag minimum and monus. Both sides already have the result's
    column types (the builder inserts the casts)."""

    kind: SetKind
    all: bool
    left: Rel
    right: Rel
    schema: Schema


@dataclass(frozen=True)
class SortKey(RNode):
    expr: Expr
    ascending: bool = True
    nulls_first: bool = True  # Spark's default: NULLs first ascending, last descending


@dataclass(frozen=True)
class Sort(RNode):
    """``orderBy``: the result is a sequence of groups of rows with equal keys (any order inside)."""

    source: Rel
    keys: tuple[SortKey, ...]

    @property
    def schema(self) -> Schema:
        return self.source.schema


@dataclass(frozen=True)
class Limit(RNode):
    """``limit(n)``: which rows are kept is determined only after a ``Sort`` and only without ties at
    the cut."""

    source: Rel
    count: int

    @property
    def schema(self) -> Schema:
        return self.source.schema


@dataclass(frozen=True)
class Values(RNode):
    """A literal relation: SQL's inline table ``VALUES (1, 2), (3, 4) AS t(a, b)`` (``rows`` are the rows,
    each a tuple of one cell per column of ``schema``), and with one empty row and no columns Spark's
    ``OneRowRelation``, what a ``SELECT`` without ``FROM`` reads (``SELECT 1`` is a ``Project`` over it).

    Every cell reads no column and already has its column's type: Spark types an inline table's column
    as the widest type of its cells (``findWiderTypeWithoutStringPromotion``: ``(1), (2.5)`` is
    ``decimal(11,1)``; a string meeting a number is an error) and the builder inserts the casts. A
    column is nullable when one of its cells is. Spark evaluates the cells while it analyses the query,
    whatever later reads them: an error in a cell is the query's outcome, ``AnalysisException
    [INVALID_INLINE_TABLE.FAILED_SQL_EXPRESSION_EVALUATION]`` (raised as a ``ParseException`` when
    the parser already evaluates the cell), even where no row is demanded."""

    rows: tuple[tuple[Expr, ...], ...]
    schema: Schema


FrameKind = Literal["rows", "range"]


@dataclass(frozen=True)
class Frame(RNode):
    """A window frame: ``ROWS`` counts rows, ``RANGE`` counts peers (rows with equal order keys).
    ``start``/``end``: None is UNBOUNDED (PRECEDING for ``start``, FOLLOWING for ``end``), 0 is
    CURRENT ROW, -n is n PRECEDING and n is n FOLLOWING (a ``RANGE`` frame here only has UNBOUNDED
    and CURRENT ROW bounds: value offsets are refused by the frontends)."""

    kind: FrameKind
    start: int | None
    end: int | None


@dataclass(frozen=True)
class WindowCall(RNode):
    """One window function over its own window (``sparklite.relational.windows`` has the meaning):
    ranking (``row_number``, ``rank``, ``dense_rank``, ``percent_rank``, ``cume_dist``, ``ntile``
    with ``offset`` buckets), offsets (``lag``/``lead`` by ``offset`` rows, ``args`` = value and
    default), ``first``/``last`` (``ignore_nulls``) and the aggregates ``sum``/``avg``/``min``/``max``/
    ``count``/``count_star`` over ``frame``. The frame is always explicit: the builder writes Spark's
    default (and the fixed frames ranking and offset functions have)."""

    name: str
    args: tuple[Expr, ...]
    partition: tuple[Expr, ...]
    order: tuple[SortKey, ...]
    frame: Frame
    type: SqlType
    nullable: bool
    offset: int = 0
    ignore_nulls: bool = False


@dataclass(frozen=True)
class Window(RNode):
    """Spark's ``Window`` operator: every input row, with one column per call appended (the source's
    columns then the calls'); a ``Project`` above picks and names what the query shows."""

    source: Rel
    calls: tuple[WindowCall, ...]
    schema: Schema


@dataclass(frozen=True)
class Generate(RNode):
    """``explode``/``explode_outer``/``posexplode``/``posexplode_outer`` of the array ``generator``
    (``LATERAL VIEW [OUTER] explode`` in SQL): each input row is repeated once per element, with the
    element's position (from 0, when ``position``) and the element appended. A NULL or empty array
    gives no row, or with ``outer`` one row whose appended columns are NULL. The schema is the
    source's columns then ``pos`` (int) and ``col`` (or the names an alias gave)."""

    source: Rel
    generator: Expr
    outer: bool
    position: bool
    schema: Schema


@dataclass(frozen=True)
class Opaque(RNode):
    """An operation sparkeq does not model (an AWS Glue transform, a random column): ``op`` names it,
    ``args`` are its literal arguments (``(name, value)`` pairs, values hashable Python literals) and
    ``sources`` its input relations. The interpreter cannot run it (``sparklite.relational.opaque``:
    the search answers unknown); the prover treats it as an uninterpreted function of its inputs, so two
    programs are proved equal only when both make the same call on inputs proved equal. ``schema`` is
    the output's, declared by the user (``declared``) or unknown (no columns: nothing may read one).
    ``nondeterministic``: two runs of the same call may differ (then equal means the same set of
    possible results). ``layout``: its values depend on how its input is laid out in partitions
    (``F.rand(seed)``, ``approxQuantile``), which equal inputs do not fix."""

    op: str
    args: tuple[tuple[str, Any], ...]
    sources: tuple[Rel, ...]
    schema: Schema
    declared: bool = False
    nondeterministic: bool = False
    layout: bool = False


Rel = (Table | Project | Filter | Join | Aggregate | Distinct | DropDuplicates | SetOp | Sort | Limit | Values
       | Window | Generate | Opaque)

# ---------------------------------------------------------------------------------------------------
# Programs
# ---------------------------------------------------------------------------------------------------

ActionKind = Literal["count", "collect", "first", "take"]


@dataclass(frozen=True)
class Action(RNode):
    """An action ending the program: ``count()`` (an int), ``collect()`` (the rows), ``first()`` (a row,
    or None on an empty result), ``take(n)`` (up to ``n`` rows)."""

    kind: ActionKind
    source: Rel
    count: int | None = None


@dataclass(frozen=True)
class TableParam(RNode):
    name: str
    schema: Schema


@dataclass(frozen=True)
class RelProgram(RNode):
    """A DataFrame function or a SQL query: input tables (matched by position across the two programs,
    named as the first program names them) and a result relation or action. ``language`` is
    ``dataframe`` or ``sql``, for messages and replay."""

    name: str
    params: tuple[TableParam, ...]
    body: Rel | Action
    language: str = field(default="dataframe", compare=False)
    # what the frontend assumed (a declared scalar argument: frontend.dataframe.scalars), and the
    # scalar arguments themselves (name, value) for replay to call the function with
    assumed: tuple[str, ...] = field(default=(), compare=False)
    scalars: tuple[tuple[str, Any], ...] = field(default=(), compare=False)
