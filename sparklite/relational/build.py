"""Spark's analysis rules, in one place: typed constructors of the relational kernel.

Both frontends (DataFrame code and SQL text) resolve names themselves (they differ there: lineage of
``df.col`` against SQL qualifiers) and then call these constructors, which type every expression as
Spark's analyser does (Spark 4, ANSI mode) and insert the implicit casts it inserts, so that the two
dialects produce the same kernel for the same query and no later pass re-derives a typing rule. What
Spark rejects at analysis (``AnalysisException``: ``sum`` of a boolean, a union of two widths, an
ambiguous column) is an ``AnalysisError`` here, located at the user's code.

References: ``shared/design/dataframe-semantics.md`` (observed types: ``sum(int)`` is ``bigint``, ``avg``
of integers ``double``, SQL ``'1' = 1`` casts the string to ``bigint``, ``CASE ... 1 ELSE 'x'`` is
``bigint``) and Spark's ``DecimalPrecision`` rules for decimals.
"""

from __future__ import annotations

import datetime
import decimal
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from sparklite.ast import Loc
from sparklite.errors import InputError, UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational import timestamps
from sparklite.relational.javaregex import NotModelled
from sparklite.relational.moments import MOMENT_AGGREGATES
from sparklite.relational.types import (
    BIGINT,
    BOOLEAN,
    DATE,
    DOUBLE,
    INT,
    NULL,
    STRING,
    TIMESTAMP,
    ArrayType,
    BooleanType,
    DateType,
    DecimalType,
    DoubleType,
    Field,
    IntegralType,
    NullType,
    Schema,
    SqlType,
    StringType,
    decimal_of_integral,
    is_numeric,
    string_promotion,
    wider,
)


class AnalysisError(InputError):
    """What Spark's analyser rejects (``AnalysisException``): the program has no result at all."""


MAX_PRECISION = 38


# ---------------------------------------------------------------------------------------------------
# Literals and casts
# ---------------------------------------------------------------------------------------------------


def lit(value: object, loc: Loc | None = None) -> R.Lit:
    """``F.lit(value)`` / a Python value in a DataFrame expression: an int is ``int`` when it fits 32
    bits, else ``bigint`` (beyond 64 bits an error); a float ``double``; None the untyped NULL."""
    if isinstance(value, bool):
        return R.Lit(value, BOOLEAN, loc=loc)
    if isinstance(value, int):
        if INT.min <= value <= INT.max:
            return R.Lit(value, INT, loc=loc)
        if BIGINT.min <= value <= BIGINT.max:
            return R.Lit(value, BIGINT, loc=loc)
        raise AnalysisError(f"integer literal {value} does not fit in a bigint", loc)
    if isinstance(value, float):
        return R.Lit(value, DOUBLE, loc=loc)
    if isinstance(value, str):
        return R.Lit(value, STRING, loc=loc)
    if value is None:
        return R.Lit(None, NULL, loc=loc)
    if isinstance(value, decimal.Decimal):
        return R.Lit(value, decimal_type_of(value), loc=loc)
    if isinstance(value, datetime.datetime):
        return R.Lit(value, TIMESTAMP, loc=loc)
    if isinstance(value, datetime.date):
        return R.Lit(value, DATE, loc=loc)
    raise UnsupportedError(f"literal of Python type {type(value).__name__} is not supported", loc)


def decimal_type_of(value: decimal.Decimal) -> DecimalType:
    """The type of an exact literal: SQL ``1.5`` is ``decimal(2,1)``, ``0.05`` is ``decimal(3,2)``."""
    sign, digits, exponent = value.as_tuple()
    assert isinstance(exponent, int)
    scale = max(0, -exponent)
    precision = max(len(digits), scale)
    if precision > MAX_PRECISION:
        raise AnalysisError(f"decimal literal {value} has more than {MAX_PRECISION} digits")
    return DecimalType(max(precision, 1), scale)


def _nested(t: SqlType) -> bool:
    from sparklite.relational.types import MapType, StructType

    return isinstance(t, ArrayType | MapType | StructType)


def can_cast(src: SqlType, dst: SqlType) -> bool:
    """Whether ``CAST(src AS dst)`` is allowed at all (ANSI); whether it raises is the interpreter's."""
    if src == dst or isinstance(src, NullType):
        return True
    stamped = timestamps.can_cast(src, dst)  # sparklite.relational.timestamps
    if stamped is not None:
        return stamped
    if _nested(src) or _nested(dst):  # arrays cast element by element (to a string: not modelled)
        return (isinstance(src, ArrayType) and isinstance(dst, ArrayType)
                and can_cast(src.element, dst.element))
    if isinstance(dst, StringType):
        return True
    if isinstance(src, StringType):
        return isinstance(dst, IntegralType | DoubleType | DecimalType | BooleanType | DateType)
    if is_numeric(src) and is_numeric(dst):
        return True
    if isinstance(src, BooleanType):
        return is_numeric(dst)
    return is_numeric(src) and isinstance(dst, BooleanType)


def cast(e: R.Expr, to: SqlType, try_: bool = False, loc: Loc | None = None) -> R.Expr:
    """An explicit ``cast``/``try_cast``. A cast to the same type is still written (a faithful
    translation keeps what the user wrote); only implicit coercions are skipped when not needed."""
    if _nested(e.type) and isinstance(to, StringType):
        raise UnsupportedError(f"a cast of {e.type.simple} to string is not modelled", loc or e.loc,
                               construct="cast")
    if not can_cast(e.type, to):
        raise AnalysisError(f"cannot cast {e.type.simple} to {to.simple}", loc or e.loc)
    if not timestamps.cast_supported(e.type, to) and timestamps.can_cast(e.type, to):
        raise UnsupportedError(f"CAST({e.type.simple} AS {to.simple}) is not modelled (Spark allows it)",
                               loc or e.loc, construct="cast")
    return R.Cast(e, to, e.nullable or try_, try_, loc=loc or e.loc)


def coerce(e: R.Expr, to: SqlType) -> R.Expr:
    """The implicit cast Spark's analyser inserts (none when the type already matches)."""
    if e.type == to:
        return e
    if isinstance(e, R.Lit) and e.value is None:
        return R.Lit(None, to, loc=e.loc)
    return R.Cast(e, to, e.nullable, loc=e.loc)


# ---------------------------------------------------------------------------------------------------
# Type rules
# ---------------------------------------------------------------------------------------------------


def _bounded(precision: int, scale: int) -> DecimalType:
    """Spark's ``adjustPrecisionScale`` (precision loss allowed, the default)."""
    if precision <= MAX_PRECISION:
        return DecimalType(precision, scale)
    int_digits = precision - scale
    min_scale = min(scale, 6)
    return DecimalType(MAX_PRECISION, max(MAX_PRECISION - int_digits, min_scale))


def _literal_decimal(e: R.Expr) -> DecimalType | None:
    """The decimal type Spark gives an integral literal meeting a decimal: as many digits as it has."""
    if isinstance(e, R.Lit) and isinstance(e.type, IntegralType) and isinstance(e.value, int) \
            and not isinstance(e.value, bool):
        return DecimalType(max(1, len(str(abs(e.value)))), 0)
    return None


def _as_decimal(t: SqlType) -> DecimalType:
    return decimal_of_integral(t) if isinstance(t, IntegralType) else t  # type: ignore[return-value]


def common_type(types: Sequence[SqlType], loc: Loc | None = None, what: str = "values") -> SqlType:
    """The common type of CASE branches, ``coalesce``/``greatest`` arguments, ``IN`` lists and set
    operation columns: numeric widening, and a string meeting another type as ``types.string_promotion``
    says (ANSI: with an integral it is ``bigint``)."""
    out: SqlType = NULL
    for t in types:
        w = wider(out, t)
        if w is None:
            w = string_promotion(out, t)
        if w is None:
            raise AnalysisError(f"{what} of types {out.simple} and {t.simple} have no common type", loc)
        out = w
    return out


def _numeric_operand(e: R.Expr, op: str, loc: Loc | None) -> None:
    if isinstance(e.type, NullType) or is_numeric(e.type):
        return
    raise AnalysisError(f"'{op}' needs numbers, not {e.type.simple} (cast it explicitly)", loc or e.loc)


def arith(op: R.ArithOp, left: R.Expr, right: R.Expr, try_: bool = False, loc: Loc | None = None) -> R.Expr:
    """``+ - * / div % pmod`` (and ``try_add``...): operands cast to the operation's type. A string
    operand is cast first, as Spark 4 does: to ``bigint`` against an integral (``'3' + 1`` is the
    bigint 4, ``'x' + 1`` raises CAST_INVALID_INPUT), to ``double`` otherwise and for ``/``."""
    if isinstance(left.type, StringType) != isinstance(right.type, StringType):
        s_side, other = (left, right) if isinstance(left.type, StringType) else (right, left)
        if is_numeric(other.type) or isinstance(other.type, NullType):
            to = BIGINT if isinstance(other.type, IntegralType) and op not in ("/",) else DOUBLE
            cast_s = coerce(s_side, to)
            left, right = (cast_s, right) if s_side is left else (left, cast_s)
    _numeric_operand(left, op, loc)
    _numeric_operand(right, op, loc)
    lt, rt = left.type, right.type
    if isinstance(lt, NullType) and isinstance(rt, NullType):
        lt = rt = DOUBLE if op == "/" else INT
    elif isinstance(lt, NullType):
        lt = rt
    elif isinstance(rt, NullType):
        rt = lt
    nullable = left.nullable or right.nullable or try_
    if op == "div":
        if not (isinstance(lt, IntegralType) and isinstance(rt, IntegralType)):
            raise UnsupportedError("'div' of non-integral values is not supported", loc)
        return R.Arith(op, coerce(left, BIGINT), coerce(right, BIGINT), BIGINT, nullable, try_, loc=loc)
    if isinstance(lt, DoubleType) or isinstance(rt, DoubleType):
        return R.Arith(op, coerce(left, DOUBLE), coerce(right, DOUBLE), DOUBLE, nullable, try_, loc=loc)
    if isinstance(lt, IntegralType) and isinstance(rt, IntegralType):
        if op == "/":
            return R.Arith(op, coerce(left, DOUBLE), coerce(right, DOUBLE), DOUBLE, nullable, try_, loc=loc)
        t = lt if lt.bits >= rt.bits else rt
        return R.Arith(op, coerce(left, t), coerce(right, t), t, nullable, try_, loc=loc)
    # decimals: an integral column meets a decimal as decimal(10,0) / decimal(20,0), an integral
    # *literal* as the decimal of its own digits (Spark's DecimalPrecision: c + 1 is decimal(p+1..))
    a = _literal_decimal(left) or _as_decimal(lt)
    b = _literal_decimal(right) or _as_decimal(rt)
    p1, s1, p2, s2 = a.precision, a.scale, b.precision, b.scale
    if op in ("+", "-"):
        scale = max(s1, s2)
        result = _bounded(max(p1 - s1, p2 - s2) + scale + 1, scale)
    elif op == "*":
        result = _bounded(p1 + p2 + 1, s1 + s2)
    elif op == "/":
        scale = max(6, s1 + p2 + 1)
        result = _bounded(p1 - s1 + s2 + scale, scale)
    else:  # % and pmod
        scale = max(s1, s2)
        result = _bounded(min(p1 - s1, p2 - s2) + scale, scale)
    operand = wider(a, b)
    assert isinstance(operand, DecimalType)
    return R.Arith(op, coerce(left, operand), coerce(right, operand), result, nullable, try_, loc=loc)


def neg(e: R.Expr, loc: Loc | None = None) -> R.Expr:
    """Unary minus (SQL ``-x``, ``negative(x)``, DataFrame ``-col``): a number keeps its type; NULL and a
    string are cast to ``double`` as Spark's implicit casts do (``-NULL`` and ``-'1'`` are doubles)."""
    t = DOUBLE if isinstance(e.type, NullType | StringType) else e.type
    _numeric_operand(coerce(e, t), "-", loc)
    return R.Neg(coerce(e, t), t, e.nullable, loc=loc)


def comparison_type(lt: SqlType, rt: SqlType, loc: Loc | None = None) -> SqlType:
    """The type both sides of a comparison are cast to: numeric widening; a string against an integral
    is cast to ``bigint`` (``'abc' = 1`` raises ``CAST_INVALID_INPUT``), against a double to ``double``."""
    w = wider(lt, rt) or string_promotion(lt, rt)
    if w is None:
        raise AnalysisError(f"cannot compare {lt.simple} with {rt.simple}", loc)
    if isinstance(w, StringType) and not (isinstance(lt, StringType | NullType)
                                          and isinstance(rt, StringType | NullType)):
        raise AnalysisError(f"cannot compare {lt.simple} with {rt.simple}", loc)
    if w == BIGINT and (isinstance(lt, StringType) or isinstance(rt, StringType)):
        return BIGINT
    return w


def compare(op: R.CmpOp, left: R.Expr, right: R.Expr, loc: Loc | None = None) -> R.Cmp:
    t = comparison_type(left.type, right.type, loc)
    if isinstance(t, NullType):
        t = INT
    nullable = op != "<=>" and (left.nullable or right.nullable)
    return R.Cmp(op, coerce(left, t), coerce(right, t), nullable, loc=loc)


def _boolean(e: R.Expr, what: str, loc: Loc | None) -> R.Expr:
    if isinstance(e.type, NullType):
        return coerce(e, BOOLEAN)
    if not isinstance(e.type, BooleanType):
        raise AnalysisError(f"{what} needs a boolean, not {e.type.simple}", loc or e.loc)
    return e


def and_(left: R.Expr, right: R.Expr, loc: Loc | None = None) -> R.And:
    l_, r_ = _boolean(left, "AND", loc), _boolean(right, "AND", loc)
    return R.And(l_, r_, l_.nullable or r_.nullable, loc=loc)


def or_(left: R.Expr, right: R.Expr, loc: Loc | None = None) -> R.Or:
    l_, r_ = _boolean(left, "OR", loc), _boolean(right, "OR", loc)
    return R.Or(l_, r_, l_.nullable or r_.nullable, loc=loc)


def not_(e: R.Expr, loc: Loc | None = None) -> R.Not:
    b = _boolean(e, "NOT", loc)
    return R.Not(b, b.nullable, loc=loc)


def is_null(e: R.Expr, negated: bool = False, loc: Loc | None = None) -> R.IsNull:
    return R.IsNull(e, negated, loc=loc)


def case(branches: Sequence[tuple[R.Expr, R.Expr]], orelse: R.Expr | None, loc: Loc | None = None) -> R.Case:
    """``when(c, v)...otherwise(e)`` / ``CASE WHEN``: values cast to their common type."""
    values = [v for _, v in branches] + ([orelse] if orelse is not None else [])
    t = common_type([v.type for v in values], loc, "CASE branches")
    if isinstance(t, NullType):
        t = NULL
    conds = [_boolean(c, "WHEN", loc) for c, _ in branches]
    nullable = orelse is None or any(v.nullable for v in values)
    new_branches = tuple((c, coerce(v, t)) for c, (_, v) in zip(conds, branches, strict=True))
    return R.Case(new_branches, coerce(orelse, t) if orelse is not None else None, t, nullable, loc=loc)


def in_(e: R.Expr, values: Sequence[R.Expr], loc: Loc | None = None) -> R.In:
    t = e.type
    for v in values:
        t = comparison_type(t, v.type, loc)
    if isinstance(t, NullType):
        t = INT
    nullable = e.nullable or any(v.nullable for v in values)
    return R.In(coerce(e, t), tuple(coerce(v, t) for v in values), nullable, loc=loc)


def func(name: str, args: Sequence[R.Expr], loc: Loc | None = None) -> R.Expr:
    """A scalar function of ``sparklite.relational.functions`` (its table knows the type rule)."""
    from sparklite.relational import functions

    try:
        consts = [a.value if isinstance(a, R.Lit) else None for a in args]  # round(d, 2): the scale
        t, nullable, arg_types = functions.func_type(name, [a.type for a in args], [a.nullable for a in args],
                                                     consts)
    except ValueError as exc:
        raise AnalysisError(str(exc), loc) from None
    except KeyError:
        raise UnsupportedError(f"function {name!r} is not supported", loc, construct=name) from None
    except NotModelled as exc:  # a pattern or argument sparkeq does not model (Spark accepts it)
        raise UnsupportedError(str(exc), loc, construct=name) from None
    cast_args = tuple(a if at is None else coerce(a, at) for a, at in zip(args, arg_types, strict=True))
    return R.Func(name, cast_args, t, nullable, loc=loc)


# ---------------------------------------------------------------------------------------------------
# Aggregates
# ---------------------------------------------------------------------------------------------------


def agg(name: R.AggName, args: Sequence[R.Expr], loc: Loc | None = None) -> R.AggCall:
    """An aggregate call typed as Spark types it (``sum(int)`` is ``bigint``, ``avg`` of integers and
    of doubles ``double``, of ``decimal(p,s)`` ``decimal(p+4,s+4)``; ``sum(boolean)`` is rejected)."""
    if name == "count_star":
        return R.AggCall(name, (), BIGINT, False, loc=loc)
    if name in ("count", "count_distinct"):
        if not args:
            raise AnalysisError(f"{name} needs an argument", loc)
        return R.AggCall(name, tuple(args), BIGINT, False, loc=loc)
    if len(args) != 1:
        raise AnalysisError(f"{name} takes one argument", loc)
    (a,) = args
    t = a.type
    if name in ("min", "max"):
        return R.AggCall(name, (a,), t if not isinstance(t, NullType) else NULL, True, loc=loc)
    if name in ("collect_list", "collect_set"):  # never NULL: an empty group gives [] (nested.collect)
        return R.AggCall(name, (a,), ArrayType(t, False), False, loc=loc)
    if isinstance(t, NullType | StringType):  # Spark casts a string argument to double (may raise)
        a, t = coerce(a, DOUBLE), DOUBLE
    if not is_numeric(t):
        raise AnalysisError(f"{name} needs a numeric column, not {t.simple}", loc or a.loc)
    if name in ("sum", "sum_distinct", "try_sum"):
        if isinstance(t, IntegralType):
            return R.AggCall(name, (coerce(a, BIGINT),), BIGINT, True, loc=loc)
        if isinstance(t, DecimalType):  # DecimalType.bounded, no precision loss: (38,18) stays (38,18)
            return R.AggCall(name, (a,), DecimalType(min(MAX_PRECISION, t.precision + 10), t.scale), True,
                             loc=loc)
        return R.AggCall(name, (a,), DOUBLE, True, loc=loc)
    if name in MOMENT_AGGREGATES:  # Spark casts the argument to double (ImplicitCastInputTypes)
        return R.AggCall(name, (coerce(a, DOUBLE),), DOUBLE, True, loc=loc)
    if name == "avg":
        if isinstance(t, DecimalType):  # bounded: avg of decimal(38,18) is decimal(38,22)
            return R.AggCall(name, (a,), DecimalType(min(MAX_PRECISION, t.precision + 4),
                                                     min(MAX_PRECISION, t.scale + 4)), True, loc=loc)
        return R.AggCall(name, (coerce(a, DOUBLE),), DOUBLE, True, loc=loc)
    raise UnsupportedError(f"aggregate {name!r} is not supported", loc, construct=name)


# ---------------------------------------------------------------------------------------------------
# Relations
# ---------------------------------------------------------------------------------------------------


def table(name: str, schema: Schema, loc: Loc | None = None) -> R.Table:
    return R.Table(name, schema, loc=loc)


def values(rows: Sequence[Sequence[R.Expr]], names: Sequence[str], loc: Loc | None = None) -> R.Values:
    """An inline table (SQL ``VALUES``): each column typed as the widest type of its cells (Spark's
    ``findWiderTypeWithoutStringPromotion``: no string promotion, so ``(1), ('a')`` is an error), each
    cell cast to it, nullable when a cell is. ``values([()], [])`` is the one-row relation without
    columns a ``SELECT`` without ``FROM`` reads."""
    if not rows:
        raise AnalysisError("an inline table needs at least one row", loc)
    width = len(names)
    for i, row in enumerate(rows):
        if len(row) != width:
            raise AnalysisError(
                f"inline table expected {width} columns but found {len(row)} columns in row {i} "
                "(INVALID_INLINE_TABLE.NUM_COLUMNS_MISMATCH)",
                loc,
            )
        for cell in row:
            if not reads_no_column(cell):
                raise AnalysisError(
                    "an inline table's cell cannot read a column "
                    "(INVALID_INLINE_TABLE.CANNOT_EVALUATE_EXPRESSION_IN_INLINE_TABLE)",
                    cell.loc or loc,
                )
    types: list[SqlType] = []
    for c, name in enumerate(names):
        t: SqlType = NULL
        for row in rows:
            w = wider(t, row[c].type)
            if w is None:
                raise AnalysisError(
                    f"incompatible types in the column {name} of the inline table: {t.simple} and "
                    f"{row[c].type.simple} (INVALID_INLINE_TABLE.INCOMPATIBLE_TYPES_IN_INLINE_TABLE)",
                    row[c].loc or loc,
                )
            t = w
        types.append(t)
    cells = tuple(tuple(coerce(e, t) for e, t in zip(row, types, strict=True)) for row in rows)
    fields = tuple(Field(n, t, any(row[c].nullable for row in cells))
                   for c, (n, t) in enumerate(zip(names, types, strict=True)))
    return R.Values(cells, Schema(fields), loc=loc)


def one_row(loc: Loc | None = None) -> R.Values:
    """Spark's ``OneRowRelation``: one row, no columns (what ``SELECT 1`` projects)."""
    return R.Values(((),), Schema(()), loc=loc)


def reads_no_column(node: object) -> bool:
    """Does this expression (or tuple of them) read no column and no aggregate: a constant?"""
    if isinstance(node, R.Col | R.AggCall):
        return False
    if isinstance(node, tuple):
        return all(reads_no_column(x) for x in node)
    if isinstance(node, R.RNode):
        return all(reads_no_column(getattr(node, f)) for f in node.__dataclass_fields__ if f != "loc")
    return True


def project(source: R.Rel, exprs: Sequence[R.Expr], names: Sequence[str], loc: Loc | None = None
            ) -> R.Project:
    fields = tuple(Field(n, e.type, e.nullable) for e, n in zip(exprs, names, strict=True))
    return R.Project(source, tuple(exprs), Schema(fields), loc=loc)


def generate(source: R.Rel, generator: R.Expr, outer: bool, position: bool, names: Sequence[str] = (),
             loc: Loc | None = None) -> R.Generate:
    """``explode``-like generators (``R.Generate``): Spark names the new columns ``pos`` and ``col``;
    ``col`` may be NULL when the array holds NULLs or with ``outer``, ``pos`` only with ``outer``."""
    from sparklite.relational.types import ArrayType

    t = generator.type
    if not isinstance(t, ArrayType):
        fn = ("posexplode" if position else "explode") + ("_outer" if outer else "")
        raise AnalysisError(f"[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] {fn} needs an array, not {t.simple} "
                            "(a map is not modelled)", loc)
    names = tuple(names) or (("pos", "col") if position else ("col",))
    new = ((Field(names[0], INT, outer),) if position else ()) + (Field(names[-1], t.element,
                                                                        outer or t.contains_null),)
    return R.Generate(source, generator, outer, position, Schema(source.schema.fields + new), loc=loc)


def filter_(source: R.Rel, pred: R.Expr, loc: Loc | None = None) -> R.Filter:
    return R.Filter(source, _boolean(pred, "filter", loc), loc=loc)


def join(kind: R.JoinKind, left: R.Rel, right: R.Rel, cond: R.Expr | None, loc: Loc | None = None) -> R.Join:
    """The condition reads the left columns then the right ones. Output: both sides' columns (the
    side(s) an outer join pads made nullable), or the left ones for semi and anti joins."""
    if cond is not None:
        cond = _boolean(cond, "join condition", loc)
    lf, rf = left.schema.fields, right.schema.fields
    if kind in ("semi", "anti"):
        fields = lf
    else:
        pad_left = kind in ("right", "full")
        pad_right = kind in ("left", "full")
        fields = tuple(Field(f.name, f.type, f.nullable or pad_left) for f in lf) + \
            tuple(Field(f.name, f.type, f.nullable or pad_right) for f in rf)
    return R.Join(kind, left, right, cond, Schema(fields), loc=loc)


def aggregate(source: R.Rel, keys: Sequence[R.Expr], key_names: Sequence[str], aggs: Sequence[R.AggCall],
              agg_names: Sequence[str], loc: Loc | None = None) -> R.Aggregate:
    fields = [Field(n, k.type, k.nullable) for k, n in zip(keys, key_names, strict=True)]
    fields += [Field(n, a.type, a.nullable) for a, n in zip(aggs, agg_names, strict=True)]
    return R.Aggregate(source, tuple(keys), tuple(aggs), Schema(tuple(fields)), loc=loc)


def distinct(source: R.Rel, loc: Loc | None = None) -> R.Distinct:
    return R.Distinct(source, loc=loc)


def drop_duplicates(source: R.Rel, columns: Sequence[int], loc: Loc | None = None) -> R.DropDuplicates:
    return R.DropDuplicates(source, tuple(columns), loc=loc)


def columns_of(source: R.Rel) -> tuple[R.Col, ...]:
    """References to every column of ``source``, in order."""
    return tuple(R.Col(i, f.name, f.type, f.nullable) for i, f in enumerate(source.schema.fields))


def set_op(kind: R.SetKind, all_: bool, left: R.Rel, right: R.Rel, loc: Loc | None = None) -> R.SetOp:
    """By position (``union``, SQL ``UNION [ALL]``, ``INTERSECT``, ``EXCEPT``): same number of columns,
    each widened to the common type (a ``Project`` of casts on the side that needs it); names are
    the left side's."""
    lf, rf = left.schema.fields, right.schema.fields
    if len(lf) != len(rf):
        raise AnalysisError(f"{kind} of {len(lf)} columns with {len(rf)} columns "
                            "(set operations match columns by position)", loc)
    types = [common_type([a.type, b.type], loc, f"column {i + 1} of the {kind}")
             for i, (a, b) in enumerate(zip(lf, rf, strict=True))]
    left = _cast_columns(left, types)
    right = _cast_columns(right, types)
    fields = []
    for a, b, t in zip(lf, rf, types, strict=True):
        if kind == "union":
            nullable = a.nullable or b.nullable
        elif kind == "intersect":
            nullable = a.nullable and b.nullable
        else:
            nullable = a.nullable
        fields.append(Field(a.name, t, nullable))
    return R.SetOp(kind, all_, left, right, Schema(tuple(fields)), loc=loc)


def _cast_columns(rel: R.Rel, types: Sequence[SqlType]) -> R.Rel:
    cols = columns_of(rel)
    if all(c.type == t for c, t in zip(cols, types, strict=True)):
        return rel
    exprs = [coerce(c, t) for c, t in zip(cols, types, strict=True)]
    return project(rel, exprs, [c.name for c in cols], loc=rel.loc)


def sort(source: R.Rel, keys: Sequence[R.SortKey], loc: Loc | None = None) -> R.Sort:
    return R.Sort(source, tuple(keys), loc=loc)


def sort_key(e: R.Expr, ascending: bool = True, nulls_first: bool | None = None) -> R.SortKey:
    """Spark's default: NULLs first ascending, last descending."""
    return R.SortKey(e, ascending, ascending if nulls_first is None else nulls_first, loc=e.loc)


def limit(source: R.Rel, count: int, loc: Loc | None = None) -> R.Limit:
    if count < 0:
        raise AnalysisError(f"limit must be non-negative, not {count}", loc)
    return R.Limit(source, count, loc=loc)


def compare_decimal_literal(op: R.CmpOp, left: R.Expr, right: R.Expr,
                            loc: Loc | None = None) -> R.Expr | None:
    """Spark's analyser rewrites an integral expression ordered against a decimal *literal*
    (``DecimalPrecision.integralAndDecimalLiteral``): ``b < 2.5`` is ``b < 3`` (a bigint literal, the
    ceiling or floor that keeps the meaning on integers: Spark names the column ``(b < 3)``), and a
    literal beyond the bigint range makes the whole comparison the literal TRUE or FALSE, the integral
    side not evaluated at all (so TRUE even where it is NULL). Only ``<``, ``<=``, ``>``, ``>=``; None
    when the rule does not apply (then ``compare``). Added by the SQL frontend, where SQL's exact
    literals (``2.5`` is a decimal) meet it; ``F.lit(Decimal('2.5'))`` would too."""
    if op not in ("<", "<=", ">", ">="):
        return None
    flipped = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
    def decimal_lit(e: R.Expr) -> bool:
        return isinstance(e, R.Lit) and isinstance(e.type, DecimalType)

    if decimal_lit(right) and isinstance(left.type, IntegralType):
        assert isinstance(right, R.Lit)
        integral, value, rel_op = left, right.value, op
    elif decimal_lit(left) and isinstance(right.type, IntegralType):
        assert isinstance(left, R.Lit)
        integral, value, rel_op = right, left.value, flipped[op]  # as "integral rel_op value"
    else:
        return None
    if value is None:
        return None
    # integral rel_op value, for an integral value: < and >= round the literal up, > and <= down
    if value < BIGINT.min:
        return R.Lit(rel_op in (">", ">="), BOOLEAN, loc=loc)
    if value > BIGINT.max:
        return R.Lit(rel_op in ("<", "<="), BOOLEAN, loc=loc)
    rounding = decimal.ROUND_CEILING if rel_op in ("<", ">=") else decimal.ROUND_FLOOR
    bound = R.Lit(int(decimal.Decimal(value).to_integral_value(rounding=rounding)), BIGINT, loc=loc)
    if integral is left:
        return compare(op, left, bound, loc)
    return compare(op, bound, right, loc)


def rename_tables(node: Any, names: Mapping[str, str]) -> Any:
    """``node`` with every ``Table`` named ``n`` renamed to ``names[n]`` (the right program's tables to the
    left's names when two programs are compared; shared by the check and DataFrame script alignment)."""
    if isinstance(node, R.Table):
        return replace(node, name=names.get(node.name, node.name))
    if isinstance(node, R.RNode):
        changes = {}
        for f in node.__dataclass_fields__:
            if f == "loc":
                continue
            v = getattr(node, f)
            if isinstance(v, R.RNode):
                changes[f] = rename_tables(v, names)
            elif isinstance(node, R.Opaque) and f == "sources":  # a tuple of relations
                changes[f] = tuple(rename_tables(x, names) for x in v)
        return replace(node, **changes) if changes else node
    return node
