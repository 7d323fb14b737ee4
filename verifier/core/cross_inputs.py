"""How an RDD program's inputs and outputs correspond to a DataFrame/SQL program's (cross-kind checks).

Why a convention: an RDD parameter holds Python values, a DataFrame parameter typed rows; to compare
an RDD job with its DataFrame rewrite the two must read *the same data*. The convention
(``docs/migration.md``): parameters correspond **by position**, and an RDD parameter
``RDD[tuple[T1, ..., Tn]]`` corresponds to a table of ``n`` columns, element ``i`` to column ``i``
(``RDD[T]`` to a table of one column). A row reaches the RDD side as Spark's ``df.rdd`` hands it over:
a tuple of Python values (``int`` for every integral type, ``float`` for DOUBLE, ``str``, ``bool``,
``None`` for NULL). The inputs are the tables, so a value outside the column's type (an ``int`` past
INT) is no input; a NULL reaches the RDD side only where its element type allows ``None``
(``Optional[int]``): where it does not, the column is read as NOT NULL and a warning says so.

Outputs are compared as Python sees them: the RDD's elements against the DataFrame's rows as tuples
(a one-column row against a bare element), as bags unless ordered, counts as ints; floats as
``outcomes_equal`` compares them (``-0.0`` is not ``0.0``, NaN is NaN). Two runs that both raise are
not told apart (the exception classes of the two APIs differ by construction).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sparklite import types as T
from sparklite.errors import InputError
from sparklite.relational import ast as R
from sparklite.relational.types import BooleanType, DoubleType, IntegralType, Schema, StringType
from sparklite.values import Bag, ErrorOutcome, Sorted, outcomes_equal


@dataclass(frozen=True)
class Link:
    """One RDD parameter and the table parameter it reads (``columns`` its element's field types,
    None for a bare element; ``optional[i]``: column ``i`` may hold None on the RDD side)."""

    rdd: str
    table: str
    tuple_elem: bool
    optional: tuple[bool, ...]


@dataclass(frozen=True)
class Correspondence:
    """The RDD program's parameters linked to the relational program's, by position; ``params`` are the
    tables the search fills (nullability narrowed to what the RDD side accepts); ``warnings`` name the
    columns read as NOT NULL."""

    links: tuple[Link, ...]
    params: tuple[R.TableParam, ...]
    warnings: tuple[str, ...]


def _field_ok(t: T.Type, sql: Any) -> tuple[bool, bool]:
    """(does the Python type ``t`` read values of Spark type ``sql``, may it hold None)."""
    optional = isinstance(t, T.OptionType)
    base = t.elem if isinstance(t, T.OptionType) else t
    if isinstance(base, T.IntType):
        return isinstance(sql, IntegralType), optional
    if isinstance(base, T.FloatType):
        return isinstance(sql, DoubleType), optional
    if isinstance(base, T.StrType):
        return isinstance(sql, StringType), optional
    if isinstance(base, T.BoolType):
        return isinstance(sql, BooleanType), optional
    return False, optional


def correspond(rdd_params: Sequence[Any], rel: R.RelProgram, rdd_side: str) -> Correspondence:
    """Link the RDD program's bag parameters with ``rel``'s tables by position, or raise ``InputError``
    saying which parameter does not fit. ``rdd_side`` is LEFT or RIGHT (for messages)."""
    bags = [p for p in rdd_params if isinstance(p.type, T.BagType)]
    if len(bags) != len(rdd_params):
        scalars = [p.name for p in rdd_params if not isinstance(p.type, T.BagType)]
        raise InputError(f"{rdd_side} has scalar parameter(s) {', '.join(scalars)}: an RDD program is "
                         "compared with a DataFrame/SQL program only when every parameter is an RDD "
                         "(each reads one table)", None)
    if len(bags) != len(rel.params):
        raise InputError(f"the RDD program has {len(bags)} RDD parameter(s) and the DataFrame/SQL program "
                         f"{len(rel.params)} table(s): inputs correspond by position", None)
    links, params, warnings = [], [], []
    for p, tp in zip(bags, rel.params, strict=True):
        elem = p.type.elem
        tuple_elem = isinstance(elem, T.TupleType)
        fields = elem.elems if isinstance(elem, T.TupleType) else (elem,)
        if len(fields) != len(tp.schema.fields):
            raise InputError(f"RDD parameter {p.name} ({p.type}) has {len(fields)} field(s) and table "
                             f"{tp.name} ({tp.schema}) {len(tp.schema.fields)} column(s): they correspond "
                             "by position", None)
        optional, new_fields = [], []
        for i, (ft, f) in enumerate(zip(fields, tp.schema.fields, strict=True)):
            ok, may_none = _field_ok(ft, f.type)
            if not ok:
                raise InputError(f"field {i} of RDD parameter {p.name} is {ft} but column {f.name} of "
                                 f"{tp.name} is {f.type.simple}: sparkeq pairs int with an integral "
                                 "column, float with double, str with string, bool with boolean", None)
            if f.nullable and not may_none:
                warnings.append(f"column {f.name} of {tp.name} is nullable but field {i} of {p.name} "
                                f"({ft}) holds no None: the inputs compared have no NULL there")
            optional.append(may_none and f.nullable)
            new_fields.append(replace(f, nullable=may_none and f.nullable))
        links.append(Link(p.name, tp.name, tuple_elem, tuple(optional)))
        params.append(R.TableParam(tp.name, Schema(tuple(new_fields), tp.schema.constraints)))
    return Correspondence(tuple(links), tuple(params), tuple(warnings))


def element(link: Link, row: Sequence[Any]) -> Any:
    """A table row as the RDD side reads it (``df.rdd``'s values, a tuple or a bare value)."""
    return tuple(row) if link.tuple_elem else row[0]


def rdd_inputs(c: Correspondence, tables: Mapping[str, Sequence[tuple]]) -> dict[str, list[Any]]:
    return {lk.rdd: [element(lk, r) for r in tables.get(lk.table, ())] for lk in c.links}


def rdd_partitions(c: Correspondence, layout: Mapping[str, Sequence[Sequence[tuple]]] | None
                   ) -> dict[str, tuple[tuple[Any, ...], ...]] | None:
    if layout is None:
        return None
    out = {}
    for lk in c.links:
        if lk.table in layout:
            out[lk.rdd] = tuple(tuple(element(lk, r) for r in part) for part in layout[lk.table])
    return out or None


# ---------------------------------------------------------------------------------------------------
# Outputs as Python sees them
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Raised:
    """The program raised (either API): ``what`` names the error, for the reader only."""

    what: str


def python_view(outcome: Any) -> Any:
    """A relational outcome as Python code reading it sees it: a result's rows as tuples (a one-column
    row as its value is kept as a 1-tuple here; ``same`` pairs it with a bare element), a count as an
    int, errors as ``Raised``."""
    from sparklite.relational.values import RelError, RelResult, RelRow

    if isinstance(outcome, RelError):
        return Raised(str(outcome))
    if isinstance(outcome, ErrorOutcome):
        return Raised(outcome.kind)
    if isinstance(outcome, RelResult):
        return outcome.rows
    if isinstance(outcome, RelRow):
        return tuple(outcome)
    return outcome


def _bare(rows: Any) -> Any:
    """One-column rows as bare values (``df.rdd.map(lambda r: r[0])``)."""
    if isinstance(rows, Bag):
        return Bag.of(r[0] if isinstance(r, tuple) and len(r) == 1 else r for r in rows.items)
    if isinstance(rows, Sorted):
        return Sorted(tuple(_bare(g) for g in rows.groups), rows.taken)
    return rows


def same(rdd_outcome: Any, rel_outcome: Any) -> bool | None:
    """Do the RDD program's outcome and the relational program's look the same to Python? True, False,
    or None when both raise (not told apart) or an order cut through ties (Spark decides)."""
    left, right = python_view(rdd_outcome), python_view(rel_outcome)
    if isinstance(left, Raised) or isinstance(right, Raised):
        return None if isinstance(left, Raised) and isinstance(right, Raised) else False
    if isinstance(right, Bag | Sorted) and _is_bare(left):
        right = _bare(right)
    if isinstance(left, Sorted) or isinstance(right, Sorted):
        return _ordered_same(left, right)
    return outcomes_equal(left, right)


def _is_bare(outcome: Any) -> bool:
    items = outcome.items if isinstance(outcome, Bag) else \
        [x for g in outcome.groups for x in g.items] if isinstance(outcome, Sorted) else None
    return items is not None and any(not isinstance(x, tuple) for x in items)


def _flat(outcome: Any) -> Bag | None:
    if isinstance(outcome, Bag):
        return outcome
    if isinstance(outcome, Sorted):
        return Bag.of(x for g in outcome.groups for x in g.items)
    return None


def _ordered_same(left: Any, right: Any) -> bool | None:
    """Ordered results: equal as sequences where both are exact; None where a tie group leaves the
    order (or, after a limit, the rows kept) to Spark and the two may still agree."""
    lf, rf = _flat(left), _flat(right)
    if lf is None or rf is None:
        return False
    partial = any(isinstance(x, Sorted) and x.taken is not None for x in (left, right))
    if not partial and not outcomes_equal(lf, rf):
        return False
    if outcomes_equal(left, right) and not partial:
        return True
    if partial and len(lf.items) == len(rf.items) == 0:
        return True
    return None
