"""Spark 4's meaning of a relational program, on one concrete input: ``run(program, tables, partitions)``.

The interpreter is the reference the verifier's proofs and counterexamples are checked against, so it
follows what Spark *shows* (``dataframe-semantics.md``, and the observations in
``tests/test_relational_interpreter.py``), including where Spark's behaviour is an accident of its
optimiser. Where Spark may show something else than the interpreter's answer for the same input, the
answer carries a *caveat* saying why (``RelRun.caveats``); an answer without caveats is exactly Spark's.

**Errors are lazy.** Spark evaluates an expression only where its value is needed, after the optimiser
has pruned unused columns and pushed filters down: with ``a = 2147483647``,
``T.select((a+1).alias('b'), 'a').select('a')`` returns a row and ``T.select(a+1).count()`` is 1, while
``.filter(b > 0)`` raises. So evaluating an expression that fails does not raise here: it yields a
*poison* (a private value holding the ``RelError``) that flows through operators and raises only where
it is *demanded*: a Filter predicate or join condition, a grouping key, the columns distinct /
dropDuplicates / intersect / except / orderBy compare, and the values that reach the program's output
(every column of every row of a result, the row ``first()`` returns; nothing for ``count()``). A poison
in a row a later filter drops, or in a column a later projection drops, never raises; a poison that was
created but never demanded becomes the caveat ``latent error: ...`` because Spark's optimiser might
evaluate it after all.

Aggregates are lazy too: a failing aggregate argument or an overflowing ``sum`` makes that group's
aggregate value a poison, raised only if the value is demanded. This follows Spark's column pruning
(``groupBy(k).agg(sum(a+1)).count()`` does not evaluate ``a+1``) and its pushing of filters on grouping
keys below the aggregate; where Spark computes an aggregate that nobody reads (a filter on another
aggregate dropping the group), the caveat ``latent error`` covers the difference.

**Which operand is evaluated**, observed on Spark 4 (it decides which error a row raises):
- a binary operator evaluates its left operand first and stops at a NULL (``NULL + 1/0`` is NULL), except
  ``/``, ``div``, ``%`` and ``pmod``, which evaluate the divisor first: a NULL divisor stops, and a zero
  divisor raises before the dividend is evaluated when both operands are non-nullable (so
  ``(a+1)/b`` at ``(MAX, 0)`` raises ``DIVIDE_BY_ZERO`` for NOT NULL columns and ``ARITHMETIC_OVERFLOW``
  for nullable ones); ``<=>`` evaluates both;
- ``AND``/``OR`` go left to right and stop at FALSE/TRUE; ``CASE`` evaluates the branch taken;
  ``IN`` stops at a NULL operand and at the first match; ``coalesce`` at the first non-NULL;
- functions follow their table entry (``sparklite.relational.functions``: ``concat`` stops at a NULL,
  ``greatest`` and ``concat_ws`` evaluate everything).
Operands skipped because of a NULL (not because of AND/OR/CASE/IN/coalesce, whose laziness Spark
documents or always shows) are still evaluated on the side, so that an error hiding there is reported
as latent.

**Order and partitions.** An input table is a list of partitions (default: one). ``sum`` over integers
is exact unless a partial sum can overflow; then it is computed as Spark does (partial sums per input
partition, merged in partition order) and flagged partition-dependent; likewise a ``sum``/``avg`` of
doubles that is not exact in any order. ``orderBy`` results are tie groups (``sparklite.values.Sorted``);
``limit`` through a tie group keeps "any ``taken`` of these candidates"; ``limit`` and ``first`` without
an order, and ``dropDuplicates`` over rows that differ elsewhere, keep the first rows in partition
order with a ``nondeterministic`` caveat.

No state survives a run: everything a run accumulates lives in its ``_Interp`` object.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from sparklite.relational import case_conversion, mathfuncs, nested, pyudf, windows
from sparklite.relational.ast import (
    Action,
    AggCall,
    Aggregate,
    And,
    Arith,
    Case,
    Cast,
    Cmp,
    Col,
    Distinct,
    DropDuplicates,
    Expr,
    Filter,
    Func,
    Generate,
    In,
    IsNull,
    Join,
    Limit,
    Lit,
    Neg,
    Not,
    Opaque,
    Or,
    Project,
    Rel,
    RelProgram,
    SetOp,
    Sort,
    Table,
    Values,
    Window,
)
from sparklite.relational.functions import (
    FUNCTIONS,
    DateOutOfRange,
    SqlError,
    arith,
    cast_value,
    compare,
    decimal_fit,
    jvm_may_print_otherwise,
    negate,
    norm_key,
    norm_value,
    values_equal,
)
from sparklite.relational.moments import MOMENT_AGGREGATES, moment
from sparklite.relational.row_cap import RowCapExceeded, spend
from sparklite.relational.rows import may_keep_signed_zeros, under_aggregate
from sparklite.relational.types import BIGINT, DecimalType, DoubleType, IntegralType, Schema, StringType
from sparklite.relational.values import (
    ARITHMETIC_OVERFLOW,
    DIVIDE_BY_ZERO,
    REMAINDER_BY_ZERO,
    RelError,
    RelResult,
    RelRow,
    RelRun,
)
from sparklite.values import Bag, observe_sequence

Row = tuple[Any, ...]
Partitions = Mapping[str, Sequence[Sequence[Sequence[Any]]]]

CAVEAT_SUM_PARTITIONS = "partition-dependent: partial sums may overflow"
CAVEAT_DOUBLE_SUM = "partition-dependent: double sum"
CAVEAT_MOMENTS = "partition-dependent: stddev/variance of doubles (Spark's update and merge order)"
CAVEAT_SIGNED_ZERO = "partition-dependent: min/max of -0.0 and 0.0 (the first met is kept)"
CAVEAT_DROP_DUPLICATES = "nondeterministic: dropDuplicates keeps any row"
CAVEAT_LIMIT = "nondeterministic: limit without orderBy"
CAVEAT_LIMIT_TIES = "nondeterministic: limit through tied rows, then further processing"
CAVEAT_FIRST = "nondeterministic: first() without orderBy"
CAVEAT_FIRST_TIES = "nondeterministic: first() among tied rows"
CAVEAT_ZERO_KEY_FILTER = ("optimizer-dependent: a filter on a double grouping or partition key holding 0.0 "
                          "(Spark moves it below the aggregate or window, where -0.0 is not yet 0.0, "
                          "unless the plan is cached)")
CAVEAT_JVM_DOUBLE = "jvm-dependent: a double's decimal form (Double.toString differs between JDKs)"
CAVEAT_DATE_RANGE = "outside the model: a string Spark casts to a date outside years 1..9999"
CAVEAT_KEPT_MINUS_ZERO = "optimiser-dependent: Spark may drop this distinct/grouping and keep -0.0"

# A cell of an inline table (``VALUES``) that raises: Spark evaluates the cells while analysing the query,
# so this is the outcome whatever reads them; the parser already raises it, as a ``ParseException``,
# for a cell it can evaluate unresolved (``2147483647 + 1``, ``CAST('x' AS INT)``), the analyser as an
# ``AnalysisException`` for the others (``1/0``, which needs a cast inserted first).
INLINE_TABLE_ERROR = RelError("AnalysisException", "INVALID_INLINE_TABLE.FAILED_SQL_EXPRESSION_EVALUATION")
INLINE_TABLE_PARSE_ERROR = RelError("ParseException", "INVALID_INLINE_TABLE.FAILED_SQL_EXPRESSION_EVALUATION")


def latent_caveat(error: RelError) -> str:
    return f"latent error: {error}"


def other_error_caveat(error: RelError) -> str:
    return f"other error: Spark may raise {error} instead"


class _Poison:
    """A value whose computation raised ``error`` in Spark; raised only where demanded. Identity
    matters (each creation is recorded once), so no value equality."""

    __slots__ = ("error",)

    def __init__(self, error: RelError) -> None:
        self.error = error

    def __repr__(self) -> str:
        return f"<poison {self.error}>"


class _Demanded(Exception):
    """A poison reached a place where Spark needs its value: the run's outcome is its error."""

    def __init__(self, poison: _Poison) -> None:
        super().__init__(str(poison.error))
        self.poison = poison


class _Propagate(Exception):
    """A lazy function's argument thunk met a poison: the function's value is that poison."""

    def __init__(self, poison: _Poison) -> None:
        super().__init__(str(poison.error))
        self.poison = poison


@dataclass
class _Data:
    """An intermediate relation. ``parts`` are its rows by partition, in order. After an ``orderBy``
    (``ranks`` set) there is one partition in order and ``ranks[i]`` is row ``i``'s tie group; when a
    ``limit`` cut through the last tie group, ``candidates`` holds all that group's rows (``parts``
    the ones kept). ``narrow``: the partitions are still an input table's (only Project/Filter since),
    so a ``sum`` can be computed partition by partition as Spark does."""

    parts: list[list[Row]]
    ranks: list[int] | None = None
    candidates: list[Row] | None = None
    narrow: bool = False

    def rows(self) -> list[Row]:
        return [r for p in self.parts for r in p]


def run(program: RelProgram, tables: Mapping[str, Sequence[Sequence[Any]]],
        partitions: Partitions | None = None) -> RelRun:
    """Run ``program`` on ``tables`` (each parameter's rows, tuples in schema order, None for NULL).
    ``partitions`` optionally gives a table's explicit partitioning (a tuple of partitions, each a
    tuple of rows); by default a table is one partition in list order."""
    interp = _Interp(program, tables, partitions or {})
    try:
        outcome = interp.program()
    except _Demanded as demanded:
        outcome = demanded.poison.error
        others = {p.error for p in interp.created} | _errors_past_the_first(program, tables, partitions)
        for error in sorted(others - {outcome}, key=str):
            interp.caveats.add(other_error_caveat(error))
    else:
        for error in sorted({p.error for p in interp.created}, key=str):
            interp.caveats.add(latent_caveat(error))
    return RelRun(outcome, frozenset(interp.caveats))


def _errors_past_the_first(program: RelProgram, tables: Mapping[str, Sequence[Sequence[Any]]],
                           partitions: Partitions | None) -> set[RelError]:
    """The errors the run would meet after the first one it demanded. Spark runs the tasks of a stage
    (and independent stages) concurrently and reports whichever failure reaches the driver first: with
    two failing partitions, or a failing join side and another failing side, either error may be the
    outcome (``CAST_INVALID_INPUT`` on one side of a join, ``DIVIDE_BY_ZERO`` on the other, was seen
    both ways). A second run treats every demanded error as NULL and goes on, collecting them all;
    a best effort for the ``other error`` caveats only (an error in it is ignored)."""
    lenient = _Interp(program, tables, partitions or {})
    lenient.lenient = True
    try:
        lenient.program()
    except RowCapExceeded:
        raise  # the candidate is skipped whole (``row_cap``), not judged on part of its caveats
    except Exception:  # noqa: BLE001 - the caveats are best effort; the outcome is the strict run's
        pass
    return {p.error for p in lenient.created} | lenient.demanded_errors


_EXPR_METHODS: Mapping[type, str] = MappingProxyType({
    Col: "_col", Lit: "_lit", Arith: "_arith", Neg: "_neg", Cmp: "_cmp", And: "_and", Or: "_or",
    Not: "_not", IsNull: "_isnull", Case: "_case", In: "_in", Cast: "_cast", Func: "_func",
})

_REL_METHODS: Mapping[type, str] = MappingProxyType({
    Table: "_table", Project: "_project", Filter: "_filter", Join: "_join", Aggregate: "_aggregate",
    Distinct: "_distinct", DropDuplicates: "_drop_duplicates", SetOp: "_setop", Sort: "_sort",
    Limit: "_limit", Values: "_values", Window: "_window", Generate: "_generate",
    Opaque: "_opaque",
})

_DIV_LIKE = ("/", "div", "%", "pmod")


class _Interp:
    """One run: the inputs, the poisons created so far and the caveats."""

    def __init__(self, prog: RelProgram, tables: Mapping[str, Sequence[Sequence[Any]]],
                 partitions: Partitions) -> None:
        self.prog = prog
        self.tables = tables
        self.partitions = partitions
        self.created: list[_Poison] = []
        self.caveats: set[str] = set()
        self.redundant = under_aggregate(prog.body)  # distincts Spark may drop under an aggregate
        self.lenient = False  # demanded errors become NULL (``_errors_past_the_first``)
        self.demanded_errors: set[RelError] = set()

    # -- poisons ---------------------------------------------------------------------------------

    def fail(self, error: RelError) -> _Poison:
        poison = _Poison(error)
        self.created.append(poison)
        return poison

    def demand(self, v: Any) -> Any:
        if isinstance(v, _Poison):
            if self.lenient:
                self.demanded_errors.add(v.error)
                return None
            raise _Demanded(v)
        return v

    def demand_row(self, row: Row) -> Row:
        for v in row:
            self.demand(v)
        return row

    def compute(self, fn: Callable[[], Any], try_: bool = False) -> Any:
        try:
            return fn()
        except SqlError as exc:
            if isinstance(exc, DateOutOfRange):  # Spark has a value here; the interpreter has none
                self.caveats.add(getattr(exc, "caveat", CAVEAT_DATE_RANGE))
            return None if try_ else self.fail(exc.error)

    # -- expressions -----------------------------------------------------------------------------

    def ev(self, e: Expr, row: Row) -> Any:
        return getattr(self, _EXPR_METHODS[type(e)])(e, row)

    def speculate(self, exprs: Sequence[Expr], row: Row) -> None:
        """Evaluate operands Spark skipped only because of a NULL, for their latent errors."""
        for e in exprs:
            self.ev(e, row)

    def _col(self, e: Col, row: Row) -> Any:
        return row[e.index]

    def _lit(self, e: Lit, row: Row) -> Any:
        return e.value

    def _arith(self, e: Arith, row: Row) -> Any:
        if e.op in _DIV_LIKE:
            # DivModLike: the divisor first; a NULL divisor (or a zero one under try_) stops
            right = self.ev(e.right, row)
            if isinstance(right, _Poison) or right is None:
                self.speculate([e.left], row)
                return right
            if right == 0:
                if e.try_:
                    self.speculate([e.left], row)
                    return None
                if not e.left.nullable and not e.right.nullable:
                    self.speculate([e.left], row)
                    return self.fail(DIVIDE_BY_ZERO if e.op in ("/", "div") else REMAINDER_BY_ZERO)
            left = self.ev(e.left, row)
            if isinstance(left, _Poison) or left is None:
                return left
        else:
            left = self.ev(e.left, row)
            if isinstance(left, _Poison) or left is None:
                self.speculate([e.right], row)
                return left
            right = self.ev(e.right, row)
            if isinstance(right, _Poison) or right is None:
                return right
        return self.compute(lambda: arith(e.op, left, right, e.type), e.try_)

    def _neg(self, e: Neg, row: Row) -> Any:
        v = self.ev(e.operand, row)
        if isinstance(v, _Poison) or v is None:
            return v
        return self.compute(lambda: negate(v, e.type))

    def _cmp(self, e: Cmp, row: Row) -> Any:
        left = self.ev(e.left, row)
        if isinstance(left, _Poison):
            self.speculate([e.right], row)
            return left
        if left is None and e.op != "<=>":
            self.speculate([e.right], row)
            return None
        right = self.ev(e.right, row)
        if isinstance(right, _Poison):
            return right
        if e.op == "<=>":
            if left is None or right is None:
                return left is None and right is None
            return values_equal(left, right)
        if right is None:
            return None
        c = compare(left, right)
        return {"=": c == 0, "!=": c != 0, "<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0}[e.op]

    def _and(self, e: And, row: Row) -> Any:
        left = self.ev(e.left, row)
        if isinstance(left, _Poison) or left is False:
            return left
        right = self.ev(e.right, row)
        if isinstance(right, _Poison) or right is False:
            return right
        return None if left is None or right is None else True

    def _or(self, e: Or, row: Row) -> Any:
        left = self.ev(e.left, row)
        if isinstance(left, _Poison) or left is True:
            return left
        right = self.ev(e.right, row)
        if isinstance(right, _Poison) or right is True:
            return right
        return None if left is None or right is None else False

    def _not(self, e: Not, row: Row) -> Any:
        v = self.ev(e.operand, row)
        if isinstance(v, _Poison) or v is None:
            return v
        return not v

    def _isnull(self, e: IsNull, row: Row) -> Any:
        v = self.ev(e.operand, row)
        if isinstance(v, _Poison):
            return v
        return (v is None) != e.negated

    def _case(self, e: Case, row: Row) -> Any:
        for cond, value in e.branches:
            c = self.ev(cond, row)
            if isinstance(c, _Poison):
                return c
            if c is True:
                return self.ev(value, row)
        return None if e.orelse is None else self.ev(e.orelse, row)

    def _in(self, e: In, row: Row) -> Any:
        x = self.ev(e.operand, row)
        if isinstance(x, _Poison) or x is None:
            return x
        saw_null = False
        for item in e.values:
            y = self.ev(item, row)
            if isinstance(y, _Poison):
                return y
            if y is None:
                saw_null = True
            elif values_equal(x, y):
                return True
        return None if saw_null else False

    def _cast(self, e: Cast, row: Row) -> Any:
        v = self.ev(e.operand, row)
        if isinstance(v, _Poison) or v is None:
            return v
        src = e.operand.type
        if isinstance(src, DoubleType) and isinstance(e.type, StringType | DecimalType) \
                and jvm_may_print_otherwise(v):
            self.caveats.add(CAVEAT_JVM_DOUBLE)
        return self.compute(lambda: cast_value(v, src, e.type), e.try_)

    def _func(self, e: Func, row: Row) -> Any:
        if e.udf is not None:  # a Python UDF (sparklite.relational.pyudf): every argument, NULL as None
            values = []
            for i, arg in enumerate(e.args):
                v = self.ev(arg, row)
                if isinstance(v, _Poison):
                    self.speculate(e.args[i + 1:], row)
                    return v
                values.append(v)
            return self.compute(lambda: pyudf.evaluate(e.udf, values))
        spec = FUNCTIONS.get(e.name.lower())
        if spec is None:
            raise ValueError(f"unsupported function {e.name!r}")
        types = [a.type for a in e.args]
        if spec.mode == "lazy":
            def thunk(arg: Expr) -> Callable[[], Any]:
                def force() -> Any:
                    v = self.ev(arg, row)
                    if isinstance(v, _Poison):
                        raise _Propagate(v)
                    return v

                return force

            try:
                result = self.compute(lambda: spec.evaluate([thunk(a) for a in e.args], types, e.type))
            except _Propagate as p:
                return p.poison
            if mathfuncs.may_round_otherwise(e.name, (), result):
                self.caveats.add(mathfuncs.CAVEAT_LIBM)
            return result
        values = []
        for i, arg in enumerate(e.args):
            v = self.ev(arg, row)
            if isinstance(v, _Poison) or (v is None and spec.mode == "null_stop"):
                self.speculate(e.args[i + 1:], row)
                return v
            values.append(v)
        result = self.compute(lambda: spec.evaluate(values, types, e.type))
        if mathfuncs.may_round_otherwise(e.name, values, result):
            self.caveats.add(mathfuncs.CAVEAT_LIBM)
        short = case_conversion.collapsed(e)  # upper(lower(x)): Spark may run upper(x) (the module)
        if short is not None and isinstance(result, str) and self.ev(short, row) != result:
            self.caveats.add(case_conversion.CAVEAT_CASE_CONVERSION)
        return result

    # -- relations -------------------------------------------------------------------------------

    def rel(self, r: Rel) -> _Data:
        return getattr(self, _REL_METHODS[type(r)])(r)

    def settle(self, data: _Data) -> _Data:
        """A relation cut through a tie group (``orderBy().limit()``) feeding anything but a projection
        or the output: which tied rows were kept now matters. Keep the first ones, with a caveat."""
        if data.candidates is None:
            return data
        self.caveats.add(CAVEAT_LIMIT_TIES)
        return _Data(data.parts, data.ranks, None, data.narrow)

    def _table(self, t: Table) -> _Data:
        width = len(t.schema)
        if t.name in self.partitions:
            parts = [[tuple(r) for r in p] for p in self.partitions[t.name]]
            if t.name in self.tables and len(self.tables[t.name]) != sum(len(p) for p in parts):
                raise ValueError(f"table {t.name!r}: the partitions do not hold the table's rows")
        elif t.name in self.tables:
            parts = [[tuple(r) for r in self.tables[t.name]]]
        else:
            raise ValueError(f"no rows given for table {t.name!r}")
        for p in parts:
            for r in p:
                if len(r) != width:
                    raise ValueError(f"table {t.name!r}: row {r!r} does not have {width} columns")
        return _Data(parts, narrow=True)

    def _values(self, v: Values) -> _Data:
        """An inline table: its cells evaluated (their errors were raised up front, by ``program``),
        as one partition whose split Spark decides (so not ``narrow``)."""
        rows = []
        for row in v.rows:
            mark = len(self.created)
            values = tuple(self.ev(c, ()) for c in row)
            del self.created[mark:]  # reported up front (only a lenient run gets here with one)
            rows.append(tuple(None if isinstance(x, _Poison) else x for x in values))
        return _Data([rows])

    def check_inline_tables(self, node: Any) -> None:
        """Spark evaluates every inline table's cells while analysing the query: a cell that raises is
        the outcome, before anything runs and whatever reads it. Its own error (and any latent one
        evaluating it records) is replaced by ``INLINE_TABLE_ERROR``."""
        if isinstance(node, Values):
            for row in node.rows:
                for cell in row:
                    mark = len(self.created)
                    value = self.ev(cell, ())
                    del self.created[mark:]
                    if isinstance(value, _Poison):
                        self.caveats.add(other_error_caveat(INLINE_TABLE_PARSE_ERROR))
                        self.demand(self.fail(INLINE_TABLE_ERROR))
            return
        for name in ("source", "left", "right"):
            child = getattr(node, name, None)
            if child is not None:
                self.check_inline_tables(child)

    def _project(self, p: Project) -> _Data:
        data = self.rel(p.source)

        def project(row: Row) -> Row:
            return tuple(self.ev(x, row) for x in p.exprs)

        parts = [[project(r) for r in part] for part in data.parts]
        candidates = None if data.candidates is None else [project(r) for r in data.candidates]
        return _Data(parts, data.ranks, candidates, data.narrow)

    def _opaque(self, node: Opaque) -> _Data:
        """Not modelled (``sparklite.relational.opaque``): no outcome to give."""
        from sparklite.relational.opaque import NotModelled

        raise NotModelled(node)

    def _generate(self, g: Generate) -> _Data:
        """``explode`` and kin: the array is demanded (how many rows come out depends on it, so Spark
        evaluates it even under a ``count()``); rows stay in their partition, in order."""
        data = self.settle(self.rel(g.source))

        def rows(row: Row) -> list[Row]:
            arr = self.demand(self.ev(g.generator, row))
            if not arr:  # NULL or empty
                return [row + ((None, None) if g.position else (None,))] if g.outer else []
            return [row + ((i, x) if g.position else (x,)) for i, x in enumerate(arr)]

        return _Data([[out for r in part for out in rows(r)] for part in data.parts], narrow=data.narrow)

    def _filter(self, f: Filter) -> _Data:
        data = self.settle(self.rel(f.source))
        if isinstance(f.source, Join):
            self._speculate_pushdown(f.pred, f.source)
        self._speculate_substitution(f)
        if windows.zero_key_filter(f, data.parts):
            self.caveats.add(CAVEAT_ZERO_KEY_FILTER)
        parts: list[list[Row]] = []
        ranks: list[int] | None = None if data.ranks is None else []
        i = 0
        for part in data.parts:
            kept = []
            for row in part:
                if self.demand(self.ev(f.pred, row)) is True:
                    kept.append(row)
                    if ranks is not None and data.ranks is not None:
                        ranks.append(data.ranks[i])
                i += 1
            parts.append(kept)
        return _Data(parts, ranks, None, data.narrow)

    def _speculate_substitution(self, f: Filter) -> None:
        """Spark combines stacked filters and infers more conjuncts from ``col = e``: it substitutes
        ``e`` for ``col`` in the others and evaluates the inferred conjunct *first*, on every row, so
        ``filter((x = MIN) OR isnan(a)).filter(CAST(c AS BIGINT) = x)`` raised CAST_INVALID_INPUT on
        rows the first filter rejects (it evaluated ``(CAST(c AS BIGINT) = MIN) OR isnan(a)``).
        Evaluated here on the rows below the chain of filters, for latent errors only."""
        conjuncts: list[Expr] = []
        base: Rel = f
        while isinstance(base, Filter):
            conjuncts += _conjuncts(base.pred)
            base = base.source
        for c in conjuncts:
            if not (isinstance(c, Cmp) and c.op == "="):
                continue
            for col, other in ((c.left, c.right), (c.right, c.left)):
                if not isinstance(col, Col) or isinstance(other, Col) or not _columns_of(other):
                    continue
                if any(d is not c and col.index in _columns_of(d) for d in conjuncts):
                    for row in self.settle(self.rel(base)).rows():
                        self.ev(other, row)

    def _speculate_pushdown(self, pred: Expr, j: Join) -> None:
        """Spark pushes a filter's conjuncts that read one side of the join below it, onto that side
        (either side of an inner join, the preserved side of an outer one, the left of a semi or anti
        join), where they are evaluated on every row of the side, matched or not: ``T.join(U, ...)
        .filter(T.a + 1 > 0)`` raised ARITHMETIC_OVERFLOW on an unmatched row. Which rows the join's
        own pushed conditions drop first is the optimiser's choice, so these evaluations only record
        latent errors; the filter's outcome stays the one above the join."""
        nl, nr = len(j.left.schema), len(j.right.schema)
        to_left = j.kind in ("inner", "cross", "left", "semi", "anti")
        to_right = j.kind in ("inner", "cross", "right")
        for c in _conjuncts(pred):
            cols = _columns_of(c)
            if not cols:
                continue
            if to_left and max(cols) < nl:
                pad = () if j.kind in ("semi", "anti") else (None,) * nr
                for row in self.settle(self.rel(j.left)).rows():
                    self.ev(c, row + pad)
            elif to_right and min(cols) >= nl:
                for row in self.settle(self.rel(j.right)).rows():
                    self.ev(c, (None,) * nl + row)

    # joins

    def _join(self, j: Join) -> _Data:
        """Spark first pushes the condition's single-side conjuncts below the join as filters on that
        side (inner, cross and semi joins: both sides; a right join: the left side; left and anti
        joins: the right side; none for a full join), after the ``IS NOT NULL`` filters it infers
        from the ``=`` keys: so ``(1/(l.k - 2) > 0) AND l.k = r.k`` raises on a left row with
        ``k = 2`` even though it matches nothing. The rest of the condition is evaluated per pair:
        hash-join keys first, then the residual."""
        nl, nr = len(j.left.schema), len(j.right.schema)
        conjuncts = [] if j.cond is None else _conjuncts(j.cond)
        kind = j.kind
        push_left = kind in ("inner", "cross", "semi", "right")
        push_right = kind in ("inner", "cross", "semi", "left", "anti")
        on_left = [c for c in conjuncts if all(i < nl for i in _columns_of(c))]
        on_right = [c for c in conjuncts if _columns_of(c) and all(i >= nl for i in _columns_of(c))]
        pushed_left = on_left if push_left else []
        pushed_right = on_right if push_right else []
        rest = [c for c in conjuncts if not any(c is p for p in pushed_left + pushed_right)]
        keys = [c for c in rest if _is_equi(c, nl)]
        residual = [c for c in rest if not any(c is k for k in keys)]
        not_null: set[int] = set()
        for k in keys:
            if isinstance(k, Cmp) and k.op == "=":
                for side in (k.left, k.right):
                    not_null |= _null_intolerant_columns(side) or set()
        left = self.settle(self.rel(j.left)).rows()
        right = self.settle(self.rel(j.right)).rows()
        spend(len(left) * len(right))  # the search's cap on intermediate rows (``row_cap``)
        if push_left:
            left = self._side_filter(left, pushed_left, {i for i in not_null if i < nl}, ())
        if push_right:
            right_nn = {i - nl for i in not_null if i >= nl}
            right = self._side_filter(right, pushed_right, right_nn, (None,) * nl)
        # Spark computes the hash-join keys of every row of each side (to shuffle or build on them),
        # matched or not: a key failing on a row without partners (the other side empty) raised in
        # Spark 4.3, though not always (adaptive execution may skip a side when the other is empty).
        # Evaluated here for that latent error only: the outcome stays the pairs' one.
        for k in keys:
            assert isinstance(k, Cmp)
            for operand in (k.left, k.right):
                if max(_columns_of(operand)) < nl:
                    for lrow in left:
                        self.ev(operand, lrow + (None,) * nr)
                else:
                    for rrow in right:
                        self.ev(operand, (None,) * nl + rrow)

        def match(lrow: Row, rrow: Row) -> bool:
            row = lrow + rrow
            for k in keys:
                if self.demand(self.ev(k, row)) is not True:
                    return False
            return self._all_true(residual, row)

        out: list[Row] = []
        if kind in ("semi", "anti"):
            for lrow in left:
                found = any(match(lrow, rrow) for rrow in right)
                if found == (kind == "semi"):
                    out.append(lrow)
            return _Data([out])
        right_matched = [False] * len(right)
        for lrow in left:
            matched = False
            for i, rrow in enumerate(right):
                if match(lrow, rrow):
                    out.append(lrow + rrow)
                    matched = True
                    right_matched[i] = True
            if not matched and kind in ("left", "full"):
                out.append(lrow + (None,) * nr)
        if kind in ("right", "full"):
            out.extend((None,) * nl + rrow for i, rrow in enumerate(right) if not right_matched[i])
        return _Data([out])

    def _side_filter(self, rows: list[Row], pushed: list[Expr], not_null: set[int], before: Row) -> list[Row]:
        """A join side after the filters Spark pushes into it: rows with a NULL in a column an ``=``
        key needs are dropped unevaluated, then the pushed conjuncts must all be TRUE (``before``
        pads a right-side row to the join's row layout)."""
        kept = []
        for row in rows:
            if any(row[i] is None for i in not_null):
                continue
            if self._all_true(pushed, before + row):
                kept.append(row)
        return kept

    def _all_true(self, conjuncts: list[Expr], row: Row) -> bool:
        """A conjunction as ``AND`` evaluates it (left to right, stopping at FALSE, a poison raising),
        kept only when TRUE."""
        saw_null = False
        for c in conjuncts:
            v = self.demand(self.ev(c, row))
            if v is False:
                return False
            saw_null = saw_null or v is None
        return not saw_null

    # aggregation

    def _aggregate(self, a: Aggregate) -> _Data:
        data = self.settle(self.rel(a.source))
        count = len(data.rows())
        groups: dict[tuple, tuple[Row, list[tuple[int, Row]]]] = {}
        for pi, part in enumerate(data.parts):
            for row in part:
                key = tuple(self.demand(self.ev(k, row)) for k in a.keys)
                nk = tuple(norm_key(v) for v in key)
                self.note_normalised(a, key, count)
                if nk not in groups:
                    groups[nk] = (tuple(norm_value(v) for v in key), [])
                groups[nk][1].append((pi, row))
        if not a.keys and not groups:
            groups[()] = ((), [])
        out = [key + tuple(self._agg(call, members, data.narrow) for call in a.aggs)
               for key, members in groups.values()]
        return _Data([out])

    def _agg(self, call: AggCall, members: list[tuple[int, Row]], narrow: bool) -> Any:
        if call.name == "count_star":
            return len(members)
        evaluated: list[tuple[int, tuple]] = []
        poison = None
        for pi, row in members:
            vs = tuple(self.ev(x, row) for x in call.args)
            for v in vs:
                if isinstance(v, _Poison) and poison is None:
                    poison = v
            evaluated.append((pi, vs))
        if poison is not None:
            return poison
        complete = [(pi, vs) for pi, vs in evaluated if all(v is not None for v in vs)]
        if call.name == "count":
            return len(complete)
        if call.name == "count_distinct":
            return len({tuple(norm_key(v) for v in vs) for _, vs in complete})
        values = [(pi, vs[0]) for pi, vs in complete]
        if call.name in ("collect_list", "collect_set"):
            collected, ordered = nested.collect(call.name, [v for _, v in values], norm_key)
            if not ordered:
                self.caveats.add(nested.CAVEAT_COLLECT_ORDER)
            return collected
        if call.name in ("min", "max"):
            sign = 1 if call.name == "max" else -1
            best = None
            for _, v in values:
                if best is None or compare(v, best) * sign > 0:
                    best = v
            if isinstance(best, float) and best == 0.0 and any(
                    isinstance(v, float) and v == 0.0 and math.copysign(1.0, v) != math.copysign(1.0, best)
                    for _, v in values):
                self.caveats.add(CAVEAT_SIGNED_ZERO)  # the first zero met wins: Spark's order decides
            return best
        if call.name == "sum_distinct":
            seen: dict[Any, tuple[int, Any]] = {}
            for _, v in values:
                seen.setdefault(norm_key(v), (0, v))
            values = list(seen.values())
            narrow = False
        arg_type = call.args[0].type
        if call.name in MOMENT_AGGREGATES:
            value, order_dependent = moment(call.name, _by_partition(values, narrow))
            if order_dependent:
                self.caveats.add(CAVEAT_MOMENTS)
            return value
        if call.name in ("sum", "sum_distinct", "try_sum"):
            try_ = call.name == "try_sum"
            if isinstance(arg_type, IntegralType):
                return self._sum_integral(values, narrow, try_)
            if isinstance(arg_type, DoubleType):
                return self._sum_double(values, narrow)
            if isinstance(arg_type, DecimalType):
                if not values:
                    return None
                total = sum((Fraction(v) for _, v in values), Fraction(0))
                return self.compute(lambda: decimal_fit(total, _decimal(call.type)), try_)
            raise ValueError(f"sum of {arg_type}")
        if call.name == "avg":
            if not values:
                return None
            if isinstance(arg_type, DecimalType):
                mean = sum((Fraction(v) for _, v in values), Fraction(0)) / len(values)
                return self.compute(lambda: decimal_fit(mean, _decimal(call.type)))
            total = self._sum_double([(pi, float(v)) for pi, v in values], narrow)
            return total / len(values)
        raise ValueError(f"unsupported aggregate {call.name!r}")

    def _sum_integral(self, values: list[tuple[int, int]], narrow: bool, try_: bool) -> Any:
        """``sum`` of int/bigint values as a bigint. Exact when no partial sum can overflow (the
        positives' and the negatives' sums both fit); raising when the total itself does not fit;
        otherwise it depends on the order Spark adds in: partial sums per input partition, merged in
        partition order (``[MAX, 1, -1]`` raises in one partition, gives MAX as ``[MAX] [1, -1]``)."""
        if not values:
            return None
        overflow = (lambda: None) if try_ else (lambda: self.fail(ARITHMETIC_OVERFLOW))
        pos = sum(v for _, v in values if v > 0)
        neg = sum(v for _, v in values if v < 0)
        if not BIGINT.min <= pos + neg <= BIGINT.max:
            return overflow()
        if pos <= BIGINT.max and neg >= BIGINT.min:
            return pos + neg
        self.caveats.add(CAVEAT_SUM_PARTITIONS)
        total = None
        for part in _by_partition(values, narrow):
            partial = 0
            for v in part:
                partial += v
                if not BIGINT.min <= partial <= BIGINT.max:
                    return overflow()
            total = partial if total is None else total + partial
            if not BIGINT.min <= total <= BIGINT.max:
                return overflow()
        return total

    def _sum_double(self, values: list[tuple[int, float]], narrow: bool) -> float | None:
        """``sum`` of doubles (``avg`` divides it by the count). The order does not matter when a NaN
        is present, when infinities cannot meet an overflow of the other sign, when every partial sum
        is exact (all values are multiples of one power of two 2^e and their absolute sum is at most
        2^53 * 2^e: integers up to 2^53, halves...), or with at most two values (addition
        commutes); otherwise Spark's order is simulated (per partition, then merged) and the result
        is flagged partition-dependent (``[1e16, 1, 1]``)."""
        if not values:
            return None
        xs = [v for _, v in values]
        if any(math.isnan(v) for v in xs):
            return math.nan
        infinities = {v for v in xs if math.isinf(v)}
        if infinities:
            finite_abs = sum((Fraction(abs(v)) for v in xs if not math.isinf(v)), Fraction(0))
            if len(infinities) == 2:
                return math.nan
            if finite_abs <= Fraction(1.7976931348623157e308):
                return infinities.pop()
        elif _exact_in_any_order(xs):
            return float(sum((Fraction(v) for v in xs), Fraction(0)))
        elif len(xs) <= 2:
            return 0.0 + xs[0] + (xs[1] if len(xs) == 2 else 0.0)
        self.caveats.add(CAVEAT_DOUBLE_SUM)
        total = None
        for part in _by_partition(values, narrow):
            if not part:
                continue
            partial = 0.0
            for v in part:
                partial += v
            total = partial if total is None else total + partial
        return total

    # distinct, set operations

    def _distinct(self, d: Distinct) -> _Data:
        data = self.settle(self.rel(d.source))
        rows = [self.demand_row(r) for r in data.rows()]
        for r in rows:
            self.note_normalised(d, r, len(rows))
        return _Data([_dedupe(rows)])

    def note_normalised(self, node: Rel, values: Row, input_rows: int) -> None:
        """A distinct / grouping over ``input_rows`` rows is about to output ``values`` normalised
        (``-0.0`` as ``0.0``): where Spark may remove it and keep the ``-0.0`` (``may_keep_signed_zeros``:
        a small static bound on its input, or adaptive execution seeing one row), say so."""
        if any(_is_minus_zero(v) for v in values) and (
                may_keep_signed_zeros(node, input_rows) or id(node) in self.redundant):
            self.caveats.add(CAVEAT_KEPT_MINUS_ZERO)

    def _drop_duplicates(self, d: DropDuplicates) -> _Data:
        data = self.settle(self.rel(d.source))
        columns = d.columns or tuple(range(len(d.schema)))
        count = len(data.rows())
        first: dict[tuple, Row] = {}
        out: list[Row] = []
        for row in data.rows():
            key = tuple(norm_key(self.demand(row[c])) for c in columns)
            self.note_normalised(d, tuple(row[c] for c in columns), count)
            if key not in first:
                first[key] = row
                out.append(tuple(norm_value(v) if i in columns else v for i, v in enumerate(row)))
            elif any(norm_key(x) != norm_key(y) for x, y in zip(row, first[key], strict=True)):
                self.caveats.add(CAVEAT_DROP_DUPLICATES)
        return _Data([out])

    def _setop(self, s: SetOp) -> _Data:
        left = self.settle(self.rel(s.left))
        right = self.settle(self.rel(s.right))
        if s.kind == "union" and s.all:
            return _Data(left.parts + right.parts)
        lrows = [self.demand_row(r) for r in left.rows()]
        rrows = [self.demand_row(r) for r in right.rows()]
        if not s.all:
            counted = len(lrows) + len(rrows) if s.kind == "union" else len(lrows)
            for r in lrows + rrows:
                self.note_normalised(s, r, counted)
        if s.kind == "union":
            return _Data([_dedupe(lrows + rrows)])
        rcount = Counter(_row_key(r) for r in rrows)
        if not s.all:
            keep = [r for r in lrows if (rcount[_row_key(r)] > 0) == (s.kind == "intersect")]
            return _Data([_dedupe(keep)])
        out = []
        for r in lrows:
            k = _row_key(r)
            if rcount[k] > 0:
                rcount[k] -= 1
                if s.kind == "intersect":
                    out.append(_norm_row(r))
            elif s.kind == "except":
                out.append(_norm_row(r))
        return _Data([out])

    # order, limit

    def _sort(self, s: Sort) -> _Data:
        data = self.settle(self.rel(s.source))
        keyed = [(tuple(self.demand(self.ev(k.expr, r)) for k in s.keys), r) for r in data.rows()]

        def cmp(a: tuple, b: tuple) -> int:
            return windows.compare_keys(s.keys, a[0], b[0])

        keyed.sort(key=functools.cmp_to_key(cmp))
        ranks: list[int] = []
        for i, item in enumerate(keyed):
            ranks.append(0 if i == 0 else ranks[-1] + (cmp(keyed[i - 1], item) != 0))
        return _Data([[r for _, r in keyed]], ranks)

    def _window(self, w: Window) -> _Data:
        """Window functions (``sparklite.relational.windows``); the output is unordered."""
        rows = self.settle(self.rel(w.source)).rows()

        def same(a: Row, b: Row) -> bool:
            return all(x is y or not isinstance(x, _Poison) and not isinstance(y, _Poison)
                       and norm_key(x) == norm_key(y) and _is_minus_zero(x) == _is_minus_zero(y)
                       for x, y in zip(a, b, strict=True))

        return _Data([windows.evaluate(self, w, rows, same, lambda v: isinstance(v, _Poison))])

    def _limit(self, lim: Limit) -> _Data:
        return self.limit(self.rel(lim.source), lim.count)

    def limit(self, data: _Data, n: int) -> _Data:
        data = self.settle(data)
        rows = data.rows()
        if n >= len(rows):
            return _Data([rows], data.ranks)
        if data.ranks is not None:
            ranks = data.ranks
            candidates = None
            if n > 0 and ranks[n] == ranks[n - 1]:
                candidates = [r for r, k in zip(rows, ranks, strict=True) if k == ranks[n - 1]]
            return _Data([rows[:n]], ranks[:n], candidates)
        self.caveats.add(CAVEAT_LIMIT)
        return _Data([rows[:n]])

    # -- the program -----------------------------------------------------------------------------

    def program(self) -> Any:
        body = self.prog.body
        self.check_inline_tables(body)
        if isinstance(body, Action):
            return self.action(body)
        return self.observe(self.rel(body), body.schema)

    def action(self, act: Action) -> Any:
        data = self.rel(act.source)
        if act.kind == "count":
            return len(data.rows())
        if act.kind == "collect":
            return self.observe(data, act.source.schema)
        if act.kind == "take":
            if act.count is None:
                raise ValueError("take needs a count")
            return self.observe(self.limit(data, act.count), act.source.schema)
        if act.kind == "first":
            return self.first(data, act.source.schema)
        raise ValueError(f"unsupported action {act.kind!r}")

    def first(self, data: _Data, schema: Schema) -> RelRow | None:
        rows = data.rows()
        if not rows:
            return None
        if data.ranks is not None:
            group = [r for r, k in zip(rows, data.ranks, strict=True) if k == data.ranks[0]]
            if data.candidates is not None and data.ranks[-1] == data.ranks[0]:
                group = data.candidates
            if len({_row_key(r) for r in group}) > 1:
                self.caveats.add(CAVEAT_FIRST_TIES)
        elif len({_row_key(r) for r in rows}) > 1:
            self.caveats.add(CAVEAT_FIRST)
        return RelRow(self.demand_row(rows[0]), _columns(schema))

    def observe(self, data: _Data, schema: Schema) -> RelResult:
        """The result as the user sees it: every value of every output row is demanded."""
        if data.candidates is not None and any(isinstance(v, _Poison) for r in data.candidates for v in r):
            data = self.settle(data)
        rows = [self.demand_row(r) for r in data.rows()]
        if data.ranks is not None:
            observed = observe_sequence(rows, data.ranks, data.candidates)
        else:
            observed = Bag.of(rows)
        return RelResult(_columns(schema), observed, tuple(f.nullable for f in schema.fields))


# ---------------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------------


def _columns(schema: Schema) -> tuple[tuple[str, str], ...]:
    return tuple((f.name, f.type.simple) for f in schema.fields)


def _decimal(t: Any) -> DecimalType:
    if not isinstance(t, DecimalType):
        raise ValueError(f"expected a decimal result type, got {t}")
    return t


def _row_key(row: Row) -> tuple:
    return tuple(norm_key(v) for v in row)


def _norm_row(row: Row) -> Row:
    return tuple(norm_value(v) for v in row)


def _is_minus_zero(v: Any) -> bool:
    return isinstance(v, float) and v == 0.0 and math.copysign(1.0, v) < 0


def _dedupe(rows: Any) -> list[Row]:
    """One row per group of equal rows (NULL = NULL, NaN = NaN, -0.0 = 0.0, output as 0.0), in order
    of first appearance."""
    seen: set[tuple] = set()
    out = []
    for r in rows:
        k = _row_key(r)
        if k not in seen:
            seen.add(k)
            out.append(_norm_row(r))
    return out


def _exact_in_any_order(xs: list[float]) -> bool:
    """Every partial sum of these finite doubles, in any order, is exactly representable."""
    fractions = [Fraction(v) for v in xs]
    unit = max(f.denominator for f in fractions)  # a power of two
    return sum(abs(f.numerator) * (unit // f.denominator) for f in fractions) <= 2**53


def _by_partition(values: list[tuple[int, Any]], narrow: bool) -> list[list[Any]]:
    if not narrow:
        return [[v for _, v in values]]
    parts: dict[int, list[Any]] = {}
    for pi, v in values:
        parts.setdefault(pi, []).append(v)
    return [parts[k] for k in sorted(parts)]


def _conjuncts(e: Expr) -> list[Expr]:
    if isinstance(e, And):
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _columns_of(e: Any) -> set[int]:
    if isinstance(e, Col):
        return {e.index}
    out: set[int] = set()
    for name in getattr(e, "__dataclass_fields__", {}):
        if name == "loc":
            continue
        v = getattr(e, name)
        items = v if isinstance(v, tuple) else (v,)
        for item in items:
            if isinstance(item, tuple):
                for sub in item:
                    out |= _columns_of(sub)
            elif hasattr(item, "__dataclass_fields__"):
                out |= _columns_of(item)
    return out


def _null_intolerant_columns(e: Expr) -> set[int] | None:
    """The columns of an expression that is NULL whenever one of them is (a column under arithmetic,
    casts, comparisons), from which Spark infers ``IS NOT NULL`` filters; None for other shapes."""
    if isinstance(e, Col):
        return {e.index}
    if isinstance(e, Lit):
        return set()
    if isinstance(e, Arith) and not e.try_ or isinstance(e, Cmp) and e.op != "<=>":
        a, b = _null_intolerant_columns(e.left), _null_intolerant_columns(e.right)
        return None if a is None or b is None else a | b
    if isinstance(e, Neg | Not) or isinstance(e, Cast) and not e.try_:
        return _null_intolerant_columns(e.operand)
    return None


def _is_equi(c: Expr, nl: int) -> bool:
    """A hash-join key: ``l = r`` or ``l <=> r`` with one side reading only left columns and the other
    only right ones."""
    if not isinstance(c, Cmp) or c.op not in ("=", "<=>"):
        return False
    a, b = _columns_of(c.left), _columns_of(c.right)
    if not a or not b:
        return False
    return (max(a) < nl <= min(b)) or (max(b) < nl <= min(a))
