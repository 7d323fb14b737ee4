"""Terms as Z3 formulas: representative rows as symbols, tables as membership predicates.

A term's variables stand for arbitrary rows of their sources: each column a (NULL flag, value) pair,
NOT NULL columns never NULL, integral and decimal values within their type's range. Each source also
has a membership predicate ``in_S(row)``, asserted of the term's own variables, through which an
``Exists`` atom (semi, anti and outer joins, ``IN``/``EXISTS`` subqueries, ``INTERSECT``) is a
quantified formula over the same sources; declared keys become axioms on these predicates. Derived
sources the prover showed equal on both sides share one class, so one predicate (``classes``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from encoder.relational.normal import (
    AggSrc,
    Bind,
    Exists,
    Source,
    TableSrc,
    VCol,
    key_columns,
    kinds_of,
    source_columns,
)
from encoder.relational.smt import (
    Encoder,
    NotEncodable,
    Sym,
    default_of,
    in_range,
    make,
    same,
    sort_of,
    true_,
)
from sparklite.relational.types import Schema, SqlType

Row = tuple[Sym, ...]


@dataclass
class Classes:
    """Which class each source is in, and how its columns map onto the class's (derived sources
    unified across the two programs may order their aggregates differently)."""

    of: dict[int, tuple[Any, tuple[int, ...] | None]] = field(default_factory=dict)

    def key(self, src: Source) -> Any:
        if isinstance(src, TableSrc):
            return ("table", src.name.lower())
        return self.of.get(id(src), (("derived", id(src)), None))[0]

    def perm(self, src: Source) -> tuple[int, ...] | None:
        if isinstance(src, TableSrc):
            return None
        return self.of.get(id(src), (None, None))[1]

    def unify(self, right: Source, left: Source, perm: tuple[int, ...] | None) -> None:
        self.of[id(right)] = (self.key(left), perm)


@dataclass
class Context:
    """One Z3 query's world: shared uninterpreted functions, membership predicates, the background
    facts (column constraints, memberships, key axioms) and what they rely on."""

    classes: Classes
    ufs: dict[str, z3.FuncDeclRef] = field(default_factory=dict)
    members: dict[Any, z3.FuncDeclRef] = field(default_factory=dict)
    background: list[z3.BoolRef] = field(default_factory=list)
    tables: dict[str, TableSrc] = field(default_factory=dict)
    quantified: bool = False

    def member(self, src: Source, row: Sequence[Sym]) -> z3.BoolRef:
        k = self.classes.key(src)
        f = self.members.get(k)
        if f is None:
            sorts: list[z3.SortRef] = []
            for s in row:
                sorts += [z3.BoolSort(), s.val.sort()]
            f = z3.Function(f"in{len(self.members)}", *sorts, z3.BoolSort())
            self.members[k] = f
        if isinstance(src, TableSrc):
            self.tables[src.name.lower()] = src
        args: list[z3.ExprRef] = []
        for s in row:
            args += [s.null, s.val]
        return f(*args)

    def row(self, name: str, src: Source) -> tuple[list[z3.ExprRef], Row, list[z3.BoolRef]]:
        """Fresh symbols for a row of ``src`` in the class's column order: (the constants, the row as
        the source's columns, the facts every row of the source satisfies)."""
        cols = source_columns(src)
        perm = self.classes.perm(src)
        consts: list[z3.ExprRef] = []
        canon: list[Sym] = []
        facts: list[z3.BoolRef] = []
        canon_cols = list(cols) if perm is None else _permuted(cols, perm)
        for i, (t, nullable) in enumerate(canon_cols):
            n = z3.Const(f"{name}_{i}_n", z3.BoolSort())
            v = z3.Const(f"{name}_{i}_v", sort_of(t))
            consts += [n, v]
            facts.append(z3.Implies(n, v == default_of(t)))
            if not nullable:
                facts.append(z3.Not(n))
            rng = in_range(v, t) if v.sort() == z3.IntSort() else z3.BoolVal(True)
            if not z3.is_true(rng):
                facts.append(z3.Implies(z3.Not(n), rng))
            canon.append(Sym(n, v, t))
        facts.append(self.member(src, canon))
        if isinstance(src, AggSrc) and any(src.poison):
            canon = self.poisoned(src, canon, perm)
        return consts, self.view(canon, src), facts

    def poisoned(self, src: AggSrc, canon: list[Sym], perm: tuple[int, ...] | None) -> list[Sym]:
        """An aggregate whose arguments may raise: reading it raises on the groups where some row
        does, a function of the group (so of its keys) the same for every source of the class."""
        keys: list[z3.ExprRef] = []
        for s in canon[: len(src.keys)]:
            keys += [s.null, s.val]
        out = list(canon)
        for i, kinds in enumerate(src.poison):
            if not kinds:
                continue
            j = i if perm is None else perm[i]
            name = f"aggerr|{self.classes.key(src)}|{j}"
            f = self.ufs.get(name)
            if f is None:
                f = z3.Function(f"aggerr{len(self.ufs)}", *[k.sort() for k in keys], z3.BoolSort())
                self.ufs[name] = f
            s = canon[j]
            out[j] = Sym(s.null, s.val, s.type, f(*keys) if keys else f(), kinds)
        return out

    def view(self, canon: Sequence[Sym], src: Source) -> Row:
        """A row of the class (in its column order) as ``src`` orders its columns."""
        perm = self.classes.perm(src)
        return tuple(canon) if perm is None else tuple(canon[perm[i]] for i in range(len(canon)))

    def key_axioms(self) -> list[z3.BoolRef]:
        """Declared keys and references as quantified facts on the membership predicates (needed only
        where an ``Exists`` occurs)."""
        out: list[z3.BoolRef] = []
        for name, src in sorted(self.tables.items()):
            for key in key_columns(src, nullable_unique=True):
                xs, xr, xf = self.row(f"kx_{name}", src)
                ys, yr, yf = self.row(f"ky_{name}", src)
                same_key = z3.And(
                    *[z3.And(z3.Not(xr[i].null), z3.Not(yr[i].null), xr[i].val == yr[i].val) for i in key]
                )
                all_same = z3.And(*[same(a, b) for a, b in zip(xr, yr, strict=True)])
                out.append(z3.ForAll(xs + ys, z3.Implies(z3.And(*xf, *yf, same_key), all_same)))
            for c in src.schema.constraints:
                if c.kind != "references" or c.target is None or c.target[0].lower() not in self.tables:
                    continue
                target = self.tables[c.target[0].lower()]
                names = [f.name.lower() for f in src.schema.fields]
                tnames = [f.name.lower() for f in target.schema.fields]
                if c.columns[0].lower() not in names or c.target[1].lower() not in tnames:
                    continue
                i, j = names.index(c.columns[0].lower()), tnames.index(c.target[1].lower())
                xs, xr, xf = self.row(f"fx_{name}", src)
                ys, yr, yf = self.row(f"fy_{name}", target)
                if xr[i].type != yr[j].type:
                    continue
                there = z3.Exists(ys, z3.And(*yf, z3.Not(yr[j].null), yr[j].val == xr[i].val))
                out.append(z3.ForAll(xs, z3.Implies(z3.And(*xf, z3.Not(xr[i].null)), there)))
        return out


def _permuted(cols: Sequence[tuple[SqlType, bool]], perm: tuple[int, ...]) -> list[tuple[SqlType, bool]]:
    out: list[tuple[SqlType, bool] | None] = [None] * len(cols)
    for i, j in enumerate(perm):
        out[j] = cols[i]
    assert all(c is not None for c in out)
    return out  # type: ignore[return-value]


@dataclass
class Scope:
    """Encodes one term's expressions: ``rows`` maps each variable to its row of symbols."""

    ctx: Context
    rows: dict[int, Row]
    depth: int = 0

    def encoder(self) -> Encoder:
        return Encoder(self.leaf, self.ctx.ufs)

    def expr(self, e: Any) -> Sym:
        return self.encoder().expr(e)

    def leaf(self, e: Any) -> Sym:
        if isinstance(e, VCol):
            row = self.rows.get(e.var)
            if row is None:
                raise NotEncodable("a column of a variable out of scope")
            return row[e.index]
        if isinstance(e, Exists):
            return self.exists(e)
        raise NotEncodable(f"{type(e).__name__} expressions")

    def exists(self, e: Exists) -> Sym:
        self.ctx.quantified = True
        bound: list[z3.ExprRef] = []
        body: list[z3.BoolRef] = []
        rows = dict(self.rows)
        for k, b in enumerate(e.binds):
            consts, row, facts = self.ctx.row(f"x{self.depth}_{k}", b.source)
            bound += consts
            body += facts
            rows[b.var] = row
        inner = Scope(self.ctx, rows, self.depth + 1)
        for c in e.conds:
            if kinds_of(c):
                raise NotEncodable("a condition that may raise inside a semi, anti or outer join")
            body.append(true_(inner.expr(c)))
        return make(z3.BoolVal(False), z3.Exists(bound, z3.And(*body)) if bound else z3.And(*body), e.type)


def bind_rows(ctx: Context, binds: Sequence[Bind], prefix: str) -> tuple[dict[int, Row], list[z3.BoolRef]]:
    """Fresh rows for a term's variables (named ``prefix0``, ``prefix1``...) and their facts."""
    rows: dict[int, Row] = {}
    facts: list[z3.BoolRef] = []
    for k, b in enumerate(binds):
        _, row, f = ctx.row(f"{prefix}{k}", b.source)
        rows[b.var] = row
        facts += f
    return rows, facts


__all__ = ["Classes", "Context", "Scope", "Schema", "bind_rows"]
