"""Deciding DataFrame and SQL pairs: align their tables, then look for tables on which they differ.

Part 1 of the DataFrame/SQL work reads, interprets and replays relational programs; it proves nothing
yet (no Z3 encoding of the relational kernel), so the only verdicts are ``not_equivalent`` with a
concrete, interpreter-checked counterexample, and ``unknown``. The search is concrete: first empty
tables, then small tables drawn from per-type pools of values where Spark's semantics have edges
(NULL, 0, -1, INT/BIGINT bounds, NaN, -0.0, '', the programs' own literals), then larger random tables
(``sparklite.relational.generate``), under the check's deadline. A difference found is shrunk row by
row, so the user reads a small input.

Which differences count. The interpreter's run carries *caveats* where Spark may show something else
(an error Spark's optimiser may or may not raise, a partition-dependent double sum, a limit without an
order). A difference is *definite* when neither side has a caveat and neither side's outcome is an
error: it can be reported without Spark. Every other difference rests on something only Spark settles
(``dataframe-semantics.md``: errors are lazy and optimiser-dependent), so it is reported only once a
replay on Spark reproduces it; the search keeps looking for a definite one first.
"""

from __future__ import annotations

import contextlib
import math
import random
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal, localcontext
from typing import Any

from sparklite.errors import InputError
from sparklite.relational import ast as R
from sparklite.relational.build import rename_tables
from sparklite.relational.row_cap import RowCapExceeded
from sparklite.relational.types import (
    BIGINT,
    INT,
    ArrayType,
    BooleanType,
    DateType,
    DecimalType,
    DoubleType,
    IntegralType,
    Schema,
    SqlType,
    StringType,
    TimestampType,
)

Tables = dict[str, list[tuple]]
Layout = dict[str, tuple[tuple[tuple, ...], ...]]


# ---------------------------------------------------------------------------------------------------
# Alignment
# ---------------------------------------------------------------------------------------------------


def align(left: R.RelProgram, right: R.RelProgram) -> tuple[R.RelProgram, R.RelProgram, dict[str, str]]:
    """Both programs over one set of tables: LEFT with every table either reads (and the declarations
    of both merged), RIGHT with its tables renamed to LEFT's; and the renaming, RIGHT's name -> LEFT's.

    Tables match by name (case-insensitively) when one program's names are among the other's (SQL
    queries over one schema, a query that drops a join), else by position (DataFrame functions, whose
    parameter names are the author's choice). Matched tables must have the same columns. A column is
    NOT NULL, and a key declared, if either program says so: a counterexample must be an input both
    programs accept."""
    lnames = {p.name.lower() for p in left.params}
    rnames = {p.name.lower() for p in right.params}
    if lnames <= rnames or rnames <= lnames:
        by_name = {p.name.lower(): p for p in left.params}
        pairs = [(by_name.get(rp.name.lower()), rp) for rp in right.params]
    elif len(lnames) == len(rnames):
        pairs = list(zip(left.params, right.params, strict=True))
    else:
        raise InputError(f"LEFT reads {len(lnames)} table(s) ({', '.join(p.name for p in left.params)}) and "
                         f"RIGHT {len(rnames)} ({', '.join(p.name for p in right.params)}): they cannot be "
                         "compared on the same inputs", right.loc)
    merged = {p.name: p.schema for p in left.params}
    extra: list[R.TableParam] = []
    names: dict[str, str] = {}
    for lp, rp in pairs:
        if lp is None:  # a table only RIGHT reads
            extra.append(rp)
            names[rp.name] = rp.name
            continue
        lt = [(f.name.lower(), f.type) for f in lp.schema.fields]
        rt = [(f.name.lower(), f.type) for f in rp.schema.fields]
        if lt != rt:
            raise InputError(f"table {lp.name!r} has columns ({lp.schema}) in LEFT but {rp.name!r} has "
                             f"({rp.schema}) in RIGHT: declare the same schema for both", rp.loc or right.loc)
        merged[lp.name] = _merge(lp.schema, rp.schema)
        names[rp.name] = lp.name
    params = tuple(replace(p, schema=merged[p.name]) for p in left.params) + tuple(extra)
    new_left = replace(left, params=params)
    renamed = tuple(R.TableParam(names[rp.name], rp.schema, loc=rp.loc) for rp in right.params)
    body = rename_tables(right.body, names)
    return new_left, R.RelProgram(right.name, renamed, body, right.language, loc=right.loc), names


def _merge(a: Schema, b: Schema) -> Schema:
    fields = tuple(replace(fa, nullable=fa.nullable and fb.nullable)
                   for fa, fb in zip(a.fields, b.fields, strict=True))
    constraints = tuple(dict.fromkeys(a.constraints + b.constraints))
    return Schema(fields, constraints)


# ---------------------------------------------------------------------------------------------------
# Outcomes
# ---------------------------------------------------------------------------------------------------


def observe(outcome: Any, ignore_names: bool, unordered: bool = False) -> Any:
    """What the user sees of an outcome. ``--ignore-names`` blanks column names (types kept).

    Rows an action hands to Python (``collect()``, ``take(n)``: a ``RelResult`` built from a list;
    ``first()``: a ``RelRow``) carry no Spark types: a ``Row`` of a bigint and one of an int holding 1
    are the same, so only their names and values are compared. ``unordered``: one side's rows are
    ordered and the other's are not, so Spark may show the same sequence for both: compare bags."""
    from sparklite.relational.values import RelResult, RelRow
    from sparklite.values import Bag, Sorted

    if isinstance(outcome, RelRow):
        names = tuple(("" if ignore_names else n, "") for n, _ in outcome.columns)
        return RelRow(tuple(outcome), names)
    if isinstance(outcome, RelResult):
        cols = outcome.columns
        if ignore_names:
            cols = tuple(("", t) for _, t in cols)
        rows = outcome.rows
        if unordered and isinstance(rows, Sorted):
            rows = Bag.of(x for g in rows.groups for x in g.items) if rows.taken is None else rows
        return replace(outcome, columns=cols, rows=rows)
    return outcome


def differ(a: Any, b: Any, ignore_names: bool, python_rows: bool = False) -> bool:
    """Do two outcomes differ as the user sees them (``observe``)? ``python_rows``: the programs end in
    ``collect``/``take``, whose rows reach Python without their Spark types."""
    from sparklite.relational.values import RelResult, rel_outcomes_equal
    from sparklite.values import Sorted

    def sorted_rows(o: Any) -> bool:
        return isinstance(o, RelResult) and isinstance(o.rows, Sorted)

    unordered = sorted_rows(a) != sorted_rows(b)
    if python_rows:
        a, b = _untyped(a), _untyped(b)
    return not rel_outcomes_equal(observe(a, ignore_names, unordered), observe(b, ignore_names, unordered))


def python_rows(*programs: R.RelProgram) -> bool:
    """Does a program end in ``collect()``/``take(n)`` (rows handed to Python, without Spark types)?"""
    return any(isinstance(p.body, R.Action) and p.body.kind in ("collect", "take") for p in programs)


def _untyped(outcome: Any) -> Any:
    from sparklite.relational.values import RelResult

    if isinstance(outcome, RelResult):
        return replace(outcome, columns=tuple((n, "") for n, _ in outcome.columns))
    return outcome


def is_error(outcome: Any) -> bool:
    from sparklite.relational.values import RelError

    return isinstance(outcome, RelError)


@dataclass(frozen=True)
class Found:
    """Tables on which the interpreter shows the programs differ. ``definite``: no caveat and no error
    on either side, so Spark must show the same difference; otherwise ``why`` says what Spark must
    confirm."""

    tables: Tables
    layout: Layout | None
    left: Any
    right: Any
    definite: bool
    why: str
    origin: str
    left_caveats: frozenset[str] = frozenset()
    right_caveats: frozenset[str] = frozenset()


@dataclass
class Search:
    """What the search did, for the reason of an ``unknown`` verdict."""

    tried: int = 0
    found: Found | None = None
    pending: Found | None = None  # the first difference that needs Spark to confirm it
    notes: list[str] = field(default_factory=list)
    skipped: int = 0  # candidates past the interpreter's row cap (``sparklite.relational.row_cap``)


def failing_constants(program: R.RelProgram) -> list[str]:
    """The constant subexpressions (reading no column) of ``program`` that raise when evaluated.

    Spark's optimiser folds constant expressions while planning, so such an error is raised even on
    empty tables and whether or not a row demands it (``T.select(F.lit(1) / F.lit(0))`` raises on an
    empty T), except inside CASE branches; the interpreter evaluates them per row. A difference found
    on a program holding one therefore rests on what Spark's planner does: it waits for Spark."""
    from sparklite.relational import build

    out: list[str] = []

    def visit(node: Any) -> None:
        if isinstance(node, tuple):
            for x in node:
                visit(x)
            return
        if not isinstance(node, R.RNode):
            return
        if isinstance(node, R.Arith | R.Neg | R.Cast | R.Func) and build.reads_no_column(node):
            error = constant_error(node)
            if error is not None:
                out.append(error)
                return
        if isinstance(node, R.Case):
            return  # Spark does not fold the branches of a CASE eagerly
        for f in node.__dataclass_fields__:
            if f != "loc":
                visit(getattr(node, f))

    visit(program.body)
    return out


def constant_error(node: R.Expr) -> str | None:
    """The error a constant expression (reading no column) raises, shown, or None where it evaluates
    (a constant has one value: the reference interpreter evaluates it once, on a one-row table). An
    expression the interpreter cannot evaluate is taken to raise."""
    from sparklite.relational import build
    from sparklite.relational.interpreter import run
    from sparklite.relational.types import INT, Field
    from sparklite.relational.values import RelError

    one = R.Table("__one", Schema((Field("x", INT, False),)))
    probe = R.RelProgram("probe", (R.TableParam("__one", one.schema),), build.project(one, [node], ["v"]))
    try:
        outcome = run(probe, {"__one": [(0,)]}).outcome
    except Exception:  # noqa: BLE001 - an expression the probe cannot evaluate: assume it may raise
        return "Exception"
    return str(outcome) if isinstance(outcome, RelError) else None


def run_pair(left: R.RelProgram, right: R.RelProgram, tables: Tables, layout: Layout | None,
             ignore_names: bool, origin: str, planning: tuple[str, ...] = ()) -> Found | None:
    """Both programs on one input; ``planning`` lists errors Spark may raise while planning (see
    ``failing_constants``), which make any difference wait for Spark. Raises ``RowCapExceeded`` when
    the two runs' joins together compare more pairs of rows than ``row_cap`` allows (the caller skips
    the input)."""
    from sparklite.relational.interpreter import run
    from sparklite.relational.row_cap import row_cap

    with row_cap():
        lr = run(left, tables, layout)
        rr = run(right, tables, layout)
    if not differ(lr.outcome, rr.outcome, ignore_names, python_rows(left, right)):
        return None
    reasons = sorted(set(lr.caveats) | set(rr.caveats))
    reasons += [f"a constant expression raising {e}, which Spark evaluates while planning" for e in planning]
    if not ignore_names and not differ(lr.outcome, rr.outcome, True, python_rows(left, right)):
        # the same rows and types under other column names: a rename the user wrote, or a name Spark
        # generates (``round(b, 0)``, ``(CAST(k AS BIGINT) + 1)``) that sparkeq reproduces by rule
        reasons.append("the column names alone, which Spark's analyser generates where no alias is given")
    if is_error(lr.outcome) or is_error(rr.outcome):
        reasons.append("a runtime error, which Spark raises only where its optimiser evaluates the value")
    return Found(tables, layout, lr.outcome, rr.outcome, not reasons, "; ".join(reasons), origin,
                 frozenset(lr.caveats), frozenset(rr.caveats))


# ---------------------------------------------------------------------------------------------------
# Declared constraints (assumptions about the inputs)
# ---------------------------------------------------------------------------------------------------


def constraint_texts(params: Sequence[R.TableParam]) -> list[str]:
    """The declared keys every candidate respects, as the result's ``assumptions`` list them."""
    out = []
    for tp in params:
        for c in tp.schema.constraints:
            cols = ", ".join(c.columns)
            if c.kind == "primary":
                out.append(f"{tp.name}: PRIMARY KEY ({cols}) (unique, not null)")
            elif c.kind == "unique":
                out.append(f"{tp.name}: UNIQUE ({cols})")
            elif c.kind == "references" and c.target is not None and _param(params, c.target[0]):
                out.append(f"{tp.name}: {cols} REFERENCES {c.target[0]}({c.target[1]})")
    return out


def _param(params: Sequence[R.TableParam], name: str) -> R.TableParam | None:
    return next((p for p in params if p.name.lower() == name.lower()), None)


def _positions(schema: Schema, columns: Sequence[str]) -> list[int] | None:
    out = []
    for c in columns:
        found = schema.indices(c)
        if not found:
            return None
        out.append(found[0])
    return out


def repair(params: Sequence[R.TableParam], tables: Tables) -> Tables:
    """``tables`` with the rows that break a declared key dropped (a later duplicate of a primary or
    unique key, a NULL in a primary key, a reference to a missing row): the search only ever shows
    inputs the user's constraints allow."""
    out = {name: list(rows) for name, rows in tables.items()}
    for tp in params:
        for c in tp.schema.constraints:
            pos = _positions(tp.schema, c.columns)
            if pos is None or c.kind not in ("primary", "unique"):
                continue
            seen: set[Any] = set()
            kept = []
            for row in out.get(tp.name, []):
                key = tuple(_dedup_key(row[i]) for i in pos)
                if any(row[i] is None for i in pos):
                    if c.kind == "primary":
                        continue
                    kept.append(row)
                    continue
                if key in seen:
                    continue
                seen.add(key)
                kept.append(row)
            out[tp.name] = kept
    for tp in params:
        for c in tp.schema.constraints:
            target = _param(params, c.target[0]) if c.kind == "references" and c.target else None
            pos = _positions(tp.schema, c.columns)
            tpos = _positions(target.schema, (c.target[1],)) if target and c.target else None
            if target is None or pos is None or tpos is None:
                continue
            present = {_dedup_key(r[tpos[0]]) for r in out.get(target.name, [])}
            out[tp.name] = [r for r in out.get(tp.name, [])
                            if r[pos[0]] is None or _dedup_key(r[pos[0]]) in present]
    return out


def respects(params: Sequence[R.TableParam], tables: Tables) -> bool:
    """Do ``tables`` satisfy every declared key (``repair`` drops nothing)?"""
    repaired = repair(params, tables)
    return all(len(repaired[n]) == len(rows) for n, rows in tables.items())


def _relayout(layout: Layout | None, tables: Tables) -> Layout | None:
    """``layout`` restricted to the rows ``tables`` still holds (multiplicities kept)."""
    if not layout:
        return layout
    out: Layout = {}
    for name, parts in layout.items():
        budget: dict[Any, int] = {}
        for r in tables.get(name, []):
            k = tuple(_dedup_key(v) for v in r)
            budget[k] = budget.get(k, 0) + 1
        new_parts = []
        for part in parts:
            kept = []
            for r in part:
                k = tuple(_dedup_key(v) for v in r)
                if budget.get(k, 0) > 0:
                    budget[k] -= 1
                    kept.append(r)
            new_parts.append(tuple(kept))
        out[name] = tuple(new_parts)
    return out


# ---------------------------------------------------------------------------------------------------
# Candidate tables
# ---------------------------------------------------------------------------------------------------


def _literals(node: Any, out: list[Any]) -> None:
    if isinstance(node, R.Lit):
        if node.value is not None:
            out.append((node.type, node.value))
        return
    if isinstance(node, R.RNode):
        for f in node.__dataclass_fields__:
            if f != "loc":
                _literals(getattr(node, f), out)
    elif isinstance(node, tuple):
        for x in node:
            _literals(x, out)


def value_pool(t: SqlType, constants: Sequence[tuple[SqlType, Any]]) -> list[Any]:
    """Values of type ``t`` where Spark's semantics have edges, plus the programs' literals (and their
    neighbours, where a comparison with a literal flips)."""
    if isinstance(t, IntegralType):
        pool = [0, 1, -1, 2, t.max, t.min]
        if t == BIGINT:  # 2**53 + 1: the first integer a DOUBLE does not hold (Spark's / converts to one)
            pool += [INT.max, INT.max + 1, INT.min, 2 ** 53 + 1, -(2 ** 53 + 1)]
        for _, v in constants:
            if isinstance(v, int) and not isinstance(v, bool) or isinstance(v, Decimal) and v == int(v):
                for w in (int(v), int(v) + 1, int(v) - 1):
                    if t.min <= w <= t.max:
                        pool.append(w)
        return pool
    if isinstance(t, DoubleType):
        pool = [0.0, -0.0, 1.0, -1.0, 0.5, math.nan, math.inf, -math.inf, 1e308, 2.0 ** 53]
        pool += [float(v) for ct, v in constants if isinstance(v, int | float | Decimal) and
                 not isinstance(v, bool)]
        return pool
    if isinstance(t, DecimalType):
        with localcontext() as ctx:  # 38 digits and more: Python's default context has 28
            ctx.prec = 80
            return _decimal_pool(t, constants)
    if isinstance(t, StringType):
        pool = ["", "a", "b", "A", "é", "1", "10", " 1", "a b"]
        pool += [v for _, v in constants if isinstance(v, str)]
        pool += [str(v) for _, v in constants if isinstance(v, int) and not isinstance(v, bool)]
        return pool
    if isinstance(t, BooleanType):
        return [True, False]
    if isinstance(t, DateType):
        import datetime

        return [datetime.date(2024, 1, 1), datetime.date(1970, 1, 1), datetime.date(2024, 2, 29)]
    if isinstance(t, TimestampType):
        import datetime

        from sparklite.relational.sqlerror import SqlError
        from sparklite.relational.timestamps import parse_timestamp

        pool = [datetime.datetime(2024, 1, 1, 12, 30), datetime.datetime(1970, 1, 1),
                datetime.datetime(2024, 2, 29, 23, 59, 59, 999999),
                datetime.datetime(1969, 12, 31, 23, 59, 59, 500000)]
        for _, v in constants:  # the program's own instants, and the strings it casts to one
            if isinstance(v, datetime.datetime):
                pool.append(v)
            elif isinstance(v, str):
                with contextlib.suppress(SqlError):
                    pool.append(parse_timestamp(v))
        return pool
    if isinstance(t, ArrayType):  # empty, one element, a duplicate, a NULL element where allowed
        items = value_pool(t.element, constants)[:6]
        pool = [(), *((x,) for x in items), (items[0], items[0]), tuple(items[:3]),
                tuple(reversed(items[:3]))]
        return pool + ([(None,), (items[0], None)] if t.contains_null else [])
    return [None]


def _decimal_pool(t: DecimalType, constants: Sequence[tuple[SqlType, Any]]) -> list[Any]:
    q = Decimal(1).scaleb(-t.scale)
    top = Decimal(10) ** (t.precision - t.scale) - q
    pool = [Decimal(0).quantize(q), Decimal(1).quantize(q), Decimal(-1).quantize(q), top, -top]
    for _, v in constants:
        if isinstance(v, int | Decimal) and not isinstance(v, bool):
            d = Decimal(v).quantize(q)
            if abs(d) <= top:
                pool.append(d)
    return pool


@dataclass(frozen=True)
class Pools:
    """Per-table, per-column value pools (None included where the column is nullable)."""

    columns: Mapping[str, tuple[tuple[Any, ...], ...]]

    @staticmethod
    def of(params: Sequence[R.TableParam], programs: Sequence[R.RelProgram]) -> Pools:
        constants: list[Any] = []
        for p in programs:
            _literals(p.body, constants)
        cols = {}
        for tp in params:
            per = []
            for f in tp.schema.fields:
                pool = list(dict.fromkeys(_dedup_key(v) for v in value_pool(f.type, constants)))
                values = [_undedup(v) for v in pool]
                if f.nullable:
                    values.insert(0, None)
                per.append(tuple(values))
            cols[tp.name] = tuple(per)
        return Pools(cols)


def _dedup_key(v: Any) -> Any:
    if isinstance(v, float):
        return ("f", v.hex() if v == v else "nan")
    return (type(v).__name__, v)


def _undedup(k: Any) -> Any:
    kind, v = k
    if kind == "f":
        return math.nan if v == "nan" else float.fromhex(v)
    return v


def _small_tables(rng: random.Random, params: Sequence[R.TableParam], pools: Pools, max_rows: int) -> Tables:
    """Tables of up to ``max_rows`` rows drawn from the pools; rows of one table often repeat a value
    of another table's row, so joins and set operations meet matching keys."""
    tables: Tables = {}
    for tp in params:
        n = rng.randint(0, max_rows)
        cols = pools.columns[tp.name]
        rows = []
        for _ in range(n):
            if rows and rng.random() < 0.25:
                rows.append(rng.choice(rows))  # a duplicate row
                continue
            rows.append(tuple(_pick(rng, c) for c in cols))
        tables[tp.name] = rows
    return tables


def _pick(rng: random.Random, pool: tuple[Any, ...]) -> Any:
    # the first few values (None, 0, 1, -1...) are the interesting ones: draw them more often
    if rng.random() < 0.6:
        return pool[rng.randrange(min(len(pool), 4))]
    return rng.choice(pool)


def _layouts(rng: random.Random, tables: Tables) -> Layout:
    out: Layout = {}
    for name, rows in tables.items():
        k = rng.randint(1, 3)
        cuts = sorted(rng.randint(0, len(rows)) for _ in range(k - 1))
        bounds = [0, *cuts, len(rows)]
        out[name] = tuple(tuple(rows[a:b]) for a, b in zip(bounds, bounds[1:], strict=False))
    return out


Candidate = tuple[Tables, Layout | None, str]


def candidates(params: Sequence[R.TableParam], pools: Pools, seed: int) -> Iterator[Candidate]:
    """Empty tables; then small pool tables (one partition); then with random layouts; then larger
    random tables from the relational generator."""
    yield {tp.name: [] for tp in params}, None, "empty tables"
    rng = random.Random(seed)
    for i in range(400):
        yield _small_tables(rng, params, pools, 1 if i < 60 else 3), None, "bounded search over small tables"
    try:
        from sparklite.relational import generate
    except ImportError:  # pragma: no cover - the generator is part of the package
        generate = None  # type: ignore[assignment]
    while True:
        if generate is not None and rng.random() < 0.5:
            tables = generate.random_tables(rng, params, 6)
        else:
            tables = _small_tables(rng, params, pools, 5)
        yield tables, (_layouts(rng, tables) if rng.random() < 0.5 else None), "random tables"


def search(left: R.RelProgram, right: R.RelProgram, *, tries: int, until: float = float("inf"),
           seed: int = 0, ignore_names: bool = False) -> Search:
    """Look for a difference on up to ``tries`` candidates (seeded: the same ones on every machine);
    stop at the first definite one. ``until`` (monotonic time) is a hard cap only."""
    pools = Pools.of(left.params, (left, right))
    out = Search()
    constrained = any(tp.schema.constraints for tp in left.params)
    planning = tuple(sorted(set(failing_constants(left) + failing_constants(right))))
    for tables, layout, origin in candidates(left.params, pools, seed):
        if out.tried >= tries or (out.tried > 0 and time.monotonic() >= until):
            break
        if constrained:
            tables = repair(left.params, tables)
            layout = _relayout(layout, tables)
        out.tried += 1
        try:
            found = run_pair(left, right, tables, layout, ignore_names, origin, planning)
        except RowCapExceeded:
            out.skipped += 1  # too many intermediate rows to evaluate: not tried, never a verdict
            continue
        if found is None:
            continue
        if found.definite:
            out.found = shrink(left, right, found, ignore_names, until + 0.5, planning)
            return out
        if out.pending is None:
            out.pending = shrink(left, right, found, ignore_names, until + 0.5, planning)
    return out


def shrink(left: R.RelProgram, right: R.RelProgram, found: Found, ignore_names: bool, until: float,
           planning: tuple[str, ...] = ()) -> Found:
    """Remove rows, then simplify values (toward NULL, 0, 1, ''), while the difference stays (and stays
    as definite as it was): the user reads the smallest input that shows it."""
    best = _shrink_rows(left, right, found, ignore_names, until, planning)
    if best.layout:
        return best
    schemas = {tp.name: tp.schema for tp in left.params}
    for name in list(best.tables):
        for i in range(len(best.tables[name])):
            for j, fld in enumerate(schemas[name].fields):
                for simpler in _simpler_values(fld.type, fld.nullable):
                    if time.monotonic() >= until:
                        return best
                    row = best.tables[name][i]
                    if _same_value(row[j], simpler):
                        break
                    tables = dict(best.tables)
                    rows = tables[name]
                    tables[name] = [*rows[:i], row[:j] + (simpler,) + row[j + 1:], *rows[i + 1:]]
                    if not respects(left.params, tables):
                        continue  # the simpler value breaks a declared key
                    again = _shrunk_pair(left, right, tables, None, ignore_names, best.origin, planning)
                    if again is not None and (again.definite or not best.definite):
                        best = again
                        break
    return best


def _shrunk_pair(left: R.RelProgram, right: R.RelProgram, tables: Tables, layout: Layout | None,
                 ignore_names: bool, origin: str, planning: tuple[str, ...]) -> Found | None:
    """``run_pair`` on a shrinking step's input; one past the row cap is a step not taken."""
    try:
        return run_pair(left, right, tables, layout, ignore_names, origin, planning)
    except RowCapExceeded:
        return None


def _same_value(a: Any, b: Any) -> bool:
    return type(a) is type(b) and (a == b or a != a and b != b)


def _simpler_values(t: SqlType, nullable: bool) -> list[Any]:
    out: list[Any] = [None] if nullable else []
    if isinstance(t, IntegralType):
        out += [0, 1]
    elif isinstance(t, DoubleType):
        out += [0.0, 1.0]
    elif isinstance(t, DecimalType):
        with localcontext() as ctx:
            ctx.prec = 80
            out += [Decimal(0).scaleb(-t.scale), Decimal(1).quantize(Decimal(1).scaleb(-t.scale))]
    elif isinstance(t, StringType):
        out += ["", "a"]
    elif isinstance(t, BooleanType):
        out += [False, True]
    return out


def _shrink_rows(left: R.RelProgram, right: R.RelProgram, found: Found, ignore_names: bool,
                 until: float, planning: tuple[str, ...] = ()) -> Found:
    best = found
    changed = True
    while changed and time.monotonic() < until:
        changed = False
        for name, rows in best.tables.items():
            for i in range(len(rows)):
                smaller = dict(best.tables)
                smaller[name] = rows[:i] + rows[i + 1:]
                layout = _drop_row(best.layout, name, rows[i]) if best.layout else None
                if not respects(left.params, smaller):
                    continue  # removing this row breaks a declared reference
                again = _shrunk_pair(left, right, smaller, layout, ignore_names, best.origin, planning)
                if again is not None and (again.definite or not best.definite):
                    best = again
                    changed = True
                    break
            if changed:
                break
    return best


def _drop_row(layout: Layout, name: str, row: tuple) -> Layout:
    out = dict(layout)
    parts = [list(p) for p in layout[name]]
    for p in parts:
        for j, r in enumerate(p):
            if r is row or r == row:
                del p[j]
                out[name] = tuple(tuple(q) for q in parts)
                return out
    return out


# ---------------------------------------------------------------------------------------------------
# JSON forms of inputs (rows as objects, interfaces.md)
# ---------------------------------------------------------------------------------------------------


def value_json(v: Any) -> Any:
    import datetime

    from sparklite.values import float_json

    if isinstance(v, float):
        return float_json(v)
    if isinstance(v, Decimal):
        return {"decimal": str(v)}
    if isinstance(v, datetime.datetime):  # a timestamp, in the session time zone sparkeq runs Spark with
        return {"timestamp": v.isoformat(sep=" "), "time_zone": "UTC"}
    if isinstance(v, datetime.date):
        return {"date": v.isoformat()}
    if isinstance(v, tuple):  # an array: a JSON array of its elements (docs/json.md)
        return [value_json(x) for x in v]
    return v


def rows_json(schema: Schema, rows: Sequence[tuple]) -> list[dict[str, Any]]:
    return [{f.name: value_json(v) for f, v in zip(schema.fields, row, strict=True)} for row in rows]


def inputs_json(params: Sequence[R.TableParam], tables: Tables) -> dict[str, Any]:
    return {tp.name: rows_json(tp.schema, tables.get(tp.name, [])) for tp in params}


def layout_json(params: Sequence[R.TableParam], layout: Layout | None) -> dict[str, Any] | None:
    if not layout:
        return None
    return {tp.name: [rows_json(tp.schema, part) for part in layout[tp.name]]
            for tp in params if tp.name in layout}


def nullability_warnings(left: R.RelProgram, right: R.RelProgram) -> list[str]:
    """Spark compares no nullability, but a difference in it can matter to a downstream writer."""
    if isinstance(left.body, R.Action) or isinstance(right.body, R.Action):
        return []
    out = []
    for a, b in zip(left.body.schema.fields, right.body.schema.fields, strict=False):
        if a.nullable != b.nullable:
            out.append(f"column {a.name!r} is {'nullable' if a.nullable else 'not nullable'} in LEFT but "
                       f"{'nullable' if b.nullable else 'not nullable'} in RIGHT (nullability is not "
                       "compared)")
    return out
