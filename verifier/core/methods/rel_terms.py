"""Proof of DataFrame/SQL pairs by matching program terms: NoAgg for select-project-join queries (outer,
semi and anti joins included), byKey where aggregations, distinct and set operations are derived
sources compared as wholes.

Shape of every method: *applicable?* (both programs normalise to terms, ``encoder.relational.normal``;
same output column types, and names unless ignored) -> *conditions* -> *proof*, or ``Inconclusive``
with the reason (this method never refutes: counterexamples come from the interpreter's search).

Conditions. Both results are bags of terms. Terms are grouped by the sources their variables range
over; for each group, with the variables of every term renamed onto one list (a term's bag does not
depend on its variables' names, so any renaming is sound), Z3 must show that for every assignment
of rows the two sides contribute the same multiset of output rows (``count_L(w) = count_R(w)`` for
every row ``w``; for one term a side, the conditions agree and the outputs are equal), and that the
assignment raises an error on one side exactly when it does on the other. Then the bags are equal on
every input, and the programs raise on the same inputs. Where that error condition is not exactly
Spark's (a condition that may raise inside a join, a filter above one, an aggregate's argument),
nothing is proved.

Derived sources (an aggregation, a distinct, ``limit``...) of the two programs are unified when their
inputs are shown equal: two aggregations by the same keys are equal when their inputs projected on
keys and arguments are equal bags (each group then holds the same multiset of arguments), with
``count(*)``, ``count`` of a NOT NULL column and a grouped ``sum(1)`` all one count; two distincts when
their inputs are equal bags or equal sets.

What a proof assumes is listed: the declared keys it used, and, for aggregates Spark may compute
otherwise than exactly (an integral or decimal ``sum`` that could overflow, a ``sum``/``avg`` of
doubles whose rounding depends on the order of summation), that they are compared as exact values.
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from encoder.relational.context import Classes, Context, Scope, bind_rows
from encoder.relational.normal import (
    AggSrc,
    Bind,
    DistinctSrc,
    Exists,
    Normal,
    NotNormalisable,
    OpaqueSrc,
    Source,
    TableSrc,
    Term,
    VCol,
    deadline,
    distinct_keys,
    kinds_of,
    normalise,
    project,
    subst,
    vars_of,
    walk,
)
from encoder.relational.smt import NotEncodable, Sym, make, same, true_
from sparklite.relational import ast as R
from sparklite.relational import build, effects
from sparklite.relational.rows import may_keep_signed_zeros, relations, under_aggregate
from sparklite.relational.types import BIGINT, DoubleType, IntegralType
from verifier.core import budget
from verifier.core.base import Inconclusive, NotApplicable, Proved
from verifier.core.methods.rel_congruence import congruent_mapping


def _keys_may_raise(src: Source) -> bool:
    """Whether computing the aggregation ``src`` may raise in a grouping key."""
    if not isinstance(src, AggSrc):
        return False
    return any(kinds_of(subst(k, t.out)) for k in src.keys for t in src.source.terms)


NAME = "NoAgg"
JOINED_ERRORS_AS_SETS = (
    "an aggregate that may raise, read after a join: Spark computes it for every group, so both "
    "programs raise on the same groups (errors compared as sets of possible errors)"
)
LIMIT_ERRORS_AS_SETS = (
    "a limit over rows that may raise: Spark may or may not compute the rows it drops, so each program "
    "may raise on any raising row of its input; both have the same possible errors (compared as sets)"
)
PLACED_AS_SETS = (
    "conditions that may raise in a join, congruent on both sides and evaluated by Spark on the same "
    "rows whichever side of the join or clause they were written in: both programs have the same "
    "possible errors (compared as sets)"
)
KINDS_AS_SETS = (
    "several kinds of error, each raised by expressions the two programs share over the same rows: "
    "which one Spark reports depends on the order rows are met; both have the same possible errors "
    "(compared as sets)"
)
LATENT_AS_SETS = (
    "where Spark may raise on rows the interpreter skips (an operand after a NULL, a condition it "
    "evaluates early), both programs may raise alike: their outcomes are the same sets of possible "
    "outcomes, errors compared as sets, and two runs may still differ"
)
NAME_AGG = "byKey"
MAX_RENAMINGS = 256
RIGHT_VARS = 1_000_000  # RIGHT's variables are numbered from here, LEFT's from 1


class Unproved(Exception):
    """A condition failed or could not be decided: the reason says which."""


#: what a proof rests on when a condition that may raise sits in a join (``spark_alike``): the reference
#: interpreter evaluates it where it is written, Spark where its optimizer places it
SPARK_PLACES_RAISING_CONDITIONS = (
    "a join condition that may raise (a cast, a division) is evaluated on the rows Spark's optimizer gives "
    "it: the same conjunct written in WHERE, in ON or in a derived table is planned alike (checked on Spark "
    "4), so both programs raise on the same inputs there, whatever the reference interpreter does"
)

@dataclass(frozen=True)
class RelProof(Proved):
    assumptions: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()


def run(
    left: R.RelProgram, right: R.RelProgram, *, timeout_s: float, until: float, ignore_names: bool = False
) -> RelProof | Inconclusive | NotApplicable:
    """Try to prove two aligned programs (one set of tables) equivalent."""
    with deadline(until):
        return _run(left, right, timeout_s=timeout_s, until=until, ignore_names=ignore_names)


def _run(
    left: R.RelProgram, right: R.RelProgram, *, timeout_s: float, until: float, ignore_names: bool
) -> RelProof | Inconclusive | NotApplicable:
    for program in (left, right):
        folded = _raising_constant(program)
        if folded is not None:
            return NotApplicable(
                NAME,
                f"a constant expression that raises ({folded}): Spark's optimiser folds it and may raise "
                "whatever the data, wherever it stands",
            )
        kept = _may_keep_minus_zero(program)
        if kept is not None:
            return NotApplicable(
                NAME,
                f"a distinct or grouping over a double column ({kept}) that Spark may remove, keeping -0.0 "
                "where the prover's terms normalise it to 0.0: its input has few rows by construction, or "
                "comes from a shuffle that adaptive execution may find holds one row",
            )
    try:
        lb, rb = _bodies(left, right, ignore_names)
        nl, nr = normalise(lb, until=until), normalise(rb, first_var=RIGHT_VARS, until=until)
    except (NotNormalisable, NotEncodable) as exc:
        return NotApplicable(NAME, f"the prover does not cover {exc}")
    except Unproved as exc:
        return NotApplicable(NAME, str(exc))
    demanded = not (isinstance(left.body, R.Action) and left.body.kind == "count")
    if not demanded:
        nl, nr = project(nl, ()), project(nr, ())  # count(): only how many rows
    prover = Prover(timeout_s=timeout_s, until=until, left_derived=_derived(nl))
    try:
        prover.bag_equal(nl, nr, demanded=demanded)
        prover.one_error_kind()
    except Unproved as exc:
        return Inconclusive(prover.method, str(exc))
    except (NotNormalisable, NotEncodable) as exc:
        return Inconclusive(prover.method, f"the prover does not cover {exc}")
    warnings = sorted(nl.warnings | nr.warnings | prover.warnings)
    uses = sorted(nl.uses | nr.uses)
    what = (
        "aggregations compared group by group" if prover.method == NAME_AGG else "select-project-join terms"
    )
    explanation = (
        f"both programs normalise to the same bag of rows ({what}), NULLs in three-valued "
        "logic, and raise on the same inputs"
    )
    return RelProof(
        prover.method, explanation, tuple(uses) + tuple(sorted(prover.assumptions)), tuple(warnings)
    )


def _bodies(left: R.RelProgram, right: R.RelProgram, ignore_names: bool) -> tuple[R.Rel, R.Rel]:
    lb, rb = left.body, right.body
    la = lb.kind if isinstance(lb, R.Action) else "dataframe"
    ra = rb.kind if isinstance(rb, R.Action) else "dataframe"
    if la in ("first", "take") or ra in ("first", "take"):
        if la != ra or (isinstance(lb, R.Action) and isinstance(rb, R.Action) and lb.count != rb.count):
            raise Unproved("the programs end in different actions")
        assert isinstance(lb, R.Action) and isinstance(rb, R.Action)
        n = 1 if la == "first" else int(lb.count or 0)
        return R.Limit(lb.source, n), R.Limit(rb.source, n)
    lr = lb.source if isinstance(lb, R.Action) else lb
    rr = rb.source if isinstance(rb, R.Action) else rb
    if "count" in (la, ra) and la != ra:
        raise Unproved("one program counts rows and the other does not")
    if la != "count":
        lt = [f.type for f in lr.schema.fields]
        rt = [f.type for f in rr.schema.fields]
        if lt != rt:
            raise Unproved("the results' column types differ")
        rows_only = la == "collect" or ra == "collect"
        if not ignore_names and not rows_only and lr.schema.names != rr.schema.names:
            raise Unproved("the results' column names differ (use --ignore-names to compare by position)")
    return lr, rr


def _derived(n: Normal) -> list[Source]:
    """Every derived source of a program, innermost first."""
    out: list[Source] = []
    seen: set[int] = set()

    def visit_normal(x: Normal) -> None:
        for t in x.terms:
            for b in t.binds:
                visit_source(b.source)
            for e in (*t.conds, *t.out):
                visit_expr(e)

    def visit_expr(e: Any) -> None:
        def f(x: Any) -> None:
            if isinstance(x, Exists):
                for b in x.binds:
                    visit_source(b.source)

        walk(e, f)

    def visit_source(s: Source) -> None:
        if isinstance(s, TableSrc) or id(s) in seen:
            return
        seen.add(id(s))
        for part in _parts(s):
            visit_normal(part)
        out.append(s)

    visit_normal(n)
    return out


def _parts(s: Source) -> tuple[Normal, ...]:
    if isinstance(s, AggSrc | DistinctSrc):
        return (s.source,)
    if isinstance(s, OpaqueSrc):
        return s.parts
    return ()


@dataclass
class Prover:
    timeout_s: float
    until: float
    left_derived: list[Source]
    classes: Classes = field(default_factory=Classes)
    ufs: dict[str, z3.FuncDeclRef] = field(default_factory=dict)
    assumptions: set[str] = field(default_factory=set)
    warnings: set[str] = field(default_factory=set)
    kinds: set[str] = field(default_factory=set)
    method: str = NAME
    failed: set[tuple[int, int]] = field(default_factory=set)
    why_apart: list[str] = field(default_factory=list)  # why derived sources were not unified
    alike: dict[int, tuple[Term, bool]] = field(default_factory=dict)  # ``spark_alike`` per term
    solved_kinds: list[frozenset[str]] = field(default_factory=list)  # per group the solver proved

    # ---- Z3

    def in_time(self) -> None:
        """The check's hard cap (``--timeout``), checked before each query and between the encoding
        steps around them: encoding the terms of a large query under many renamings is Python work the
        Z3 watchdog cannot interrupt (TPC-DS q50's rewrite spent twice its timeout there)."""
        if time.monotonic() >= self.until:
            raise Unproved("ran out of time while proving")

    def unsat(self, ctx: Context, facts: Sequence[z3.BoolRef], query: z3.BoolRef) -> bool:
        self.in_time()  # each query also has a resource budget
        axioms = ctx.key_axioms() if ctx.quantified else []
        for extra in ([], axioms) if axioms else ([],):
            s = budget.solver(self.timeout_s)
            s.add(*facts, *extra, query)
            r = budget.check(s)
            if r == z3.unsat:
                if extra:  # the declared keys and references were needed: the proof assumes them
                    self.assumptions.update(constraint_texts(ctx.tables.values()))
                return True
            if r == z3.unknown and not (axioms and not extra):
                raise Unproved(f"Z3 could not decide a condition ({s.reason_unknown()})")
        return False

    # ---- bags

    def bag_equal(self, nl: Normal, nr: Normal, *, demanded: bool, errors_ok: bool = True) -> None:
        ordered = nl.order is not None and nr.order is not None
        if ordered and nl.order != nr.order:
            raise Unproved("the results are sorted in different directions or NULL orders")
        lterms, rterms = list(nl.terms), list(nr.terms)
        groups = self.grouped(lterms, rterms)
        if groups is None:
            lterms = [t for t in lterms if self.satisfiable(t)]
            rterms = [t for t in rterms if self.satisfiable(t)]
            groups = self.grouped(lterms, rterms)
        if groups is None and not ordered and self.distinct_vs_duplicate_free(nl, nr):
            return
        if groups is None:
            apart = f"; {self.why_apart[-1]}" if self.why_apart else ""
            raise Unproved(
                f"the programs read their inputs differently (LEFT: {self.signatures(lterms)}; "
                f"RIGHT: {self.signatures(rterms)}){apart}"
            )
        for ls, rs in groups:
            self.group_equal(ls, rs, demanded=demanded, errors_ok=errors_ok, ordered=ordered)

    def distinct_vs_duplicate_free(self, nl: Normal, nr: Normal) -> bool:
        """``distinct`` of D on one side, a relation without duplicate rows on the other: equal bags
        when D and the other are equal sets."""
        for a, b, flip in ((nl, nr, False), (nr, nl, True)):
            inner = _distinct_view(a)
            if inner is None or len(b.terms) != 1:
                continue
            if any(isinstance(t, DoubleType) for t in a.terms[0].binds[0].source.types):
                continue  # distinct outputs -0.0 as 0.0, the other side as it is: equal sets, other rows
            used = distinct_keys(b.terms[0])
            if used is None:
                continue
            try:
                self.set_equal(b, inner) if flip else self.set_equal(inner, b)
            except Unproved:
                continue
            self.assumptions.update(used)
            return True
        return False

    def signature(self, t: Term) -> tuple[Any, ...]:
        return tuple(sorted((self.class_of(b.source) for b in t.binds), key=repr))

    def signatures(self, terms: Sequence[Term]) -> str:
        names = []
        for t in terms:
            names.append(" x ".join(_describe(b.source) for b in t.binds) or "one row")
        return ", ".join(names) or "no rows"

    def grouped(
        self, lterms: Sequence[Term], rterms: Sequence[Term]
    ) -> list[tuple[list[Term], list[Term]]] | None:
        by: dict[Any, tuple[list[Term], list[Term]]] = defaultdict(lambda: ([], []))
        for t in lterms:
            by[self.signature(t)][0].append(t)
        for t in rterms:
            by[self.signature(t)][1].append(t)
        if any(not a or not b for a, b in by.values()):
            return None
        return list(by.values())

    def satisfiable(self, t: Term) -> bool:
        """Can some assignment make every condition TRUE? (A term whose conditions may raise is kept:
        it can raise even where it contributes no row; so is a term over an aggregation whose grouping
        key may raise: Spark computes every group's key whatever the conditions above keep, so dropping
        the term would hide that error. Fuzzer pair 145 of seed 20170724: a left and a right join under
        ``Filter(count(*) IS NULL)`` with a key dividing by a zero column were proved equivalent.)"""
        if any(kinds_of(c) for c in t.conds) or any(_keys_may_raise(b.source) for b in t.binds):
            return True
        ctx = Context(self.classes, self.ufs)
        rows, facts = bind_rows(ctx, t.binds, "s")
        scope = Scope(ctx, rows)
        conds = [true_(scope.expr(c)) for c in t.conds]
        try:
            return not self.unsat(ctx, facts, z3.And(*conds))
        except Unproved:
            return True

    def group_equal(
        self, ls: list[Term], rs: list[Term], *, demanded: bool, errors_ok: bool, ordered: bool
    ) -> None:
        canon = ls[0].binds
        reason = "no renaming of the variables makes the terms agree"
        congruent = self.congruent(ls, rs, ordered)
        placed = congruent is not None and all(self.spark_alike(t) for t in (*ls, *rs))
        for mapping in ([congruent] if congruent else []) + list(self.renamings(canon, ls[1:] + rs)):
            self.in_time()
            ctx = Context(self.classes, self.ufs)
            facts: list[z3.BoolRef] = []
            canon_rows = []
            for k, b in enumerate(canon):
                _, row, f = ctx.row(f"v{k}", b.source)
                canon_rows.append(row)
                facts += f

            def scope_for(
                t: Term, m: dict[int, int], ctx: Context = ctx, canon_rows: list = canon_rows
            ) -> Scope:
                return Scope(ctx, {b.var: ctx.view(canon_rows[m[b.var]], b.source) for b in t.binds})

            first = {b.var: k for k, b in enumerate(canon)}
            sides: list[list[tuple[z3.BoolRef, list[Sym], z3.BoolRef]]] = [[], []]
            slack: tuple[list[z3.BoolRef], list[z3.BoolRef]] = ([], [])
            by_vars: tuple[dict[frozenset[int], list[z3.BoolRef]], ...] = (
                defaultdict(list), defaultdict(list))
            outer_kinds, self.kinds = self.kinds, set()
            for side, terms in ((0, ls), (1, rs)):
                for t in terms:
                    self.in_time()
                    m = first if t is ls[0] else mapping[id(t)]
                    sides[side].append(
                        self.encode_term(scope_for(t, m), t, demanded, errors_ok, ordered, slack[side],
                                         (m, by_vars[side]), placed=placed and mapping is congruent)
                    )
            group_kinds, self.kinds = self.kinds, outer_kinds | self.kinds
            query = z3.Or(self.differ(sides[0], sides[1]), self.latent_differ(sides, slack),
                          *joined_errors_differ(by_vars))
            if mapping is congruent:
                return  # congruent terms: the query is unsatisfiable (``rel_congruence``), not asked
            if self.unsat(ctx, facts, query):
                self.solved_kinds.append(frozenset(group_kinds))
                return
            reason = (
                "the terms over "
                + (" x ".join(_describe(b.source) for b in canon) or "one row")
                + " give different rows or errors on some assignment"
            )
        raise Unproved(reason)

    def congruent(self, ls: list[Term], rs: list[Term], ordered: bool) -> dict[int, dict[int, int]] | None:
        """The renaming under which one term a side are the same term (``rel_congruence``), or None."""
        if len(ls) != 1 or len(rs) != 1:
            return None
        found = congruent_mapping(ls[0], rs[0], self.class_of, ordered,
                                  lambda t, c: not self.spark_alike(t) and self.cond_may_raise(t, c),
                                  self.in_time)
        if found is None:
            return None
        position = {b.var: k for k, b in enumerate(ls[0].binds)}
        return {id(rs[0]): {rv: position[lv] for rv, lv in found.items()}}

    def renamings(self, canon: Sequence[Bind], terms: Sequence[Term]) -> Iterator[dict[int, dict[int, int]]]:
        """Bijections from each term's variables onto ``canon`` (same class), at most MAX_RENAMINGS."""
        options = [self.bijections(t, canon) for t in terms]
        for n, combo in enumerate(itertools.product(*options)):
            if n >= MAX_RENAMINGS:
                return
            yield {id(t): m for t, m in zip(terms, combo, strict=True)}

    def bijections(self, t: Term, canon: Sequence[Bind], limit: int = 24) -> list[dict[int, int]]:
        """The first ``limit`` class-respecting bijections of ``t``'s variables onto ``canon``, in the
        lexicographic order of the positions they pick. Built position by position rather than by
        filtering every permutation: with equal class multisets each partial choice extends, so this
        costs ``limit * n**2`` where filtering ``n!`` permutations never ended on an 18-table TPC-DS
        join (q64 against its rewrite ran out of memory)."""
        n = len(canon)
        mine = [self.class_of(t.binds[i].source) for i in range(n)]
        theirs = [self.class_of(c.source) for c in canon]
        rest = list(theirs)
        for c in mine:  # the same classes as many times on both sides, or no bijection at all
            k = next((k for k, d in enumerate(rest) if d == c), None)
            if k is None:
                return []
            del rest[k]
        out: list[dict[int, int]] = []
        used = [False] * n
        perm = [0] * n

        def extend(i: int) -> None:
            if i == n:
                out.append({t.binds[k].var: perm[k] for k in range(n)})
                return
            for j in range(n):
                if len(out) >= limit:
                    return
                if not used[j] and mine[i] == theirs[j]:
                    used[j], perm[i] = True, j
                    extend(i + 1)
                    used[j] = False

        self.in_time()
        extend(0)
        return out

    def encode_term(
        self, scope: Scope, t: Term, demanded: bool, errors_ok: bool, ordered: bool, slack: list[z3.BoolRef],
        joined: tuple[dict[int, int], dict[frozenset[int], list[z3.BoolRef]]] | None = None,
        placed: bool = False,
    ) -> tuple[z3.BoolRef, list[Sym], z3.BoolRef]:
        """(the assignment counts, its output row, it raises). The error condition follows the
        interpreter's order; Spark may evaluate a condition on rows an earlier one rejects (or a
        conjunct it infers from it), and an operand the interpreter skips at a NULL: the term's
        ``slack`` (appended to ``slack``) says where that would raise although the modelled error
        does not, and the proof must show it never does.

        An aggregate whose arguments may raise, read by a ``joined`` term (``joined``: the term's
        variables -> canonical positions, and where to record each error by the positions it reads):
        Spark computes it for every group, so its error is one per row of the aggregation, compared
        as such (``joined_errors_differ``).

        ``placed``: the term is congruent to the other side's and Spark evaluates its conditions alike
        in both plans (``spark_alike``): a condition that may raise in a joined term is then not
        refused; its possible errors are the other side's (compared as sets)."""
        holds: z3.BoolRef = z3.BoolVal(True)
        err: z3.BoolRef = z3.BoolVal(False)
        loose: list[z3.BoolRef] = []
        for c in t.conds:
            s = self.unless_safe(scope.expr(c))
            if s.kinds and not (t.joined and joined is not None and only_reads_raise(c)):
                # not in a joined term: where the other conditions keep a row decides whether Spark
                # evaluates it (a FALSE filter above a join prunes it; the same conjunct pushed below
                # the join raises on its table's rows), and the two programs' plans may differ there
                # (rel fuzzer seed 20170724, pair 305)
                if not errors_ok or t.joined and not placed:
                    raise Unproved(
                        "an expression that may raise ("
                        + ", ".join(sorted(s.kinds))
                        + ") is evaluated where Spark's optimiser decides on which rows"
                    )
                self.kinds |= s.kinds
                if t.joined:
                    self.warnings.add(PLACED_AS_SETS)
                err = z3.Or(err, z3.And(holds, s.err))
                loose.append(z3.Or(s.err, s.latent))
            holds = z3.And(holds, true_(s))
        outs = [self.unless_safe(scope.expr(o)) for o in t.out] + (
            [self.unless_safe(scope.expr(k)) for k in t.keys] if ordered else [])
        if demanded:
            for s in outs:
                if s.kinds:
                    if not errors_ok:
                        raise Unproved(
                            "an output expression may raise ("
                            + ", ".join(sorted(s.kinds))
                            + ") under a limit"
                        )
                    self.kinds |= s.kinds
                    err = z3.Or(err, z3.And(holds, s.err))
                    loose.append(z3.And(holds, s.latent))
        read = _poison_reads([*t.conds, *((*t.out, *(t.keys if ordered else ())) if demanded else ())])
        if read and t.joined and joined is None:
            raise Unproved(
                "an aggregate whose arguments may raise is read after a join: Spark computes it "
                "for groups the join does not keep"
            )
        if read and t.joined and joined is not None:
            # Spark computes it for every group, kept by the join or not: an error per row of the
            # aggregation, compared as such (``joined_errors_differ``)
            mapping, possible = joined
            for v in read:
                possible[frozenset({mapping[v.var]})].append(scope.expr(v).err)
            self.warnings.add(JOINED_ERRORS_AS_SETS)
        else:
            # Spark computes an aggregate it reads for every group, whatever the conditions keep (the
            # interpreter raises only for the groups kept, with a latent-error caveat for the others)
            err = z3.Or(err, *[scope.expr(v).err for v in read])
        if loose:
            slack.append(z3.Or(*loose))
        return holds, outs, err

    def spark_alike(self, t: Term) -> bool:
        """Whether Spark evaluates ``t``'s conditions that may raise on the same rows in any plan that
        keeps its conditions (a query and its rewrite with conjuncts moved between ``WHERE`` and
        ``ON``): every conjunct reads a column (a constant one Spark folds, and may prune a whole
        side with: rel fuzzer pair 305), none is a subquery, and each that may raise is

        - a conjunct of one variable: Spark pushes it onto that source, evaluated on every row, and
          wherever it raises every other conjunct of that variable is TRUE or raises too (Z3), so
          the order in which Spark meets them (where they were written) does not decide whether the
          row raises; or
        - an ``=`` of two operands each reading one variable (a hash-join key, computed on every row
          its side keeps), itself raising only in an operand.

        Conjuncts of several variables that may raise otherwise (a residual join condition, met on
        the pairs the keys match, in the order the plan joins) keep the term refused."""
        cached = self.alike.get(id(t))
        if cached is not None:
            return cached[1]
        answer = self._spark_alike(t)
        self.alike[id(t)] = (t, answer)
        if answer and any(kinds_of(c) for c in t.conds):
            self.assumptions.add(SPARK_PLACES_RAISING_CONDITIONS)
        return answer

    def _spark_alike(self, t: Term) -> bool:
        conj = [x for c in t.conds for x in _conjuncts(c) if not (isinstance(x, R.Lit) and x.value is True)]
        found: list[bool] = []
        for x in conj:
            walk(x, lambda y: found.append(True) if isinstance(y, Exists) else None)
        if found or any(not vars_of(x) for x in conj):
            return False
        try:
            ctx = Context(self.classes, self.ufs)
            rows, facts = bind_rows(ctx, t.binds, "p")
            scope = Scope(ctx, rows)
            syms = [self.unless_safe(scope.expr(x)) for x in conj]
            for x, sx in zip(conj, syms, strict=True):
                if not sx.kinds:
                    continue
                vs = vars_of(x)
                if len(vs) != 1:
                    if not _key_per_source(x):
                        return False
                    continue
                raises = z3.Or(sx.err, sx.latent)
                for y, sy in zip(conj, syms, strict=True):
                    if y is x or vars_of(y) != vs:
                        continue
                    if not self.unsat(ctx, facts, z3.And(raises, z3.Not(z3.Or(sy.err, sy.latent)),
                                                         z3.Not(true_(sy)))):
                        return False
        except (Unproved, NotEncodable, NotNormalisable):
            return False
        return True

    def cond_may_raise(self, t: Term, c: Any) -> bool:
        """Whether the condition ``c`` of ``t`` may raise on some assignment (``unless_safe``)."""
        if not kinds_of(c):
            return False
        try:
            ctx = Context(self.classes, self.ufs)
            rows, _ = bind_rows(ctx, t.binds, "c")
            return bool(self.unless_safe(Scope(ctx, rows).expr(c)).kinds)
        except (NotEncodable, NotNormalisable):
            return True

    def unless_safe(self, s: Sym) -> Sym:
        """``s`` without its error kinds where no assignment at all makes it raise, now or latently: a
        division under ``CASE WHEN d > 0``, a decimal cast of a constant (TPC-DS q34, q11). The
        syntactic kinds say what an expression *may* raise; Z3 shows the ones it never does."""
        if not s.kinds or z3.is_false(s.err) and z3.is_false(s.latent):
            return s
        self.in_time()
        solver = budget.solver(self.timeout_s)
        solver.add(z3.Or(s.err, s.latent))
        if budget.check(solver) == z3.unsat:
            return dataclasses.replace(s, kinds=frozenset())
        return s

    def latent_differ(
        self,
        sides: list[list[tuple[z3.BoolRef, list[Sym], z3.BoolRef]]],
        slack: tuple[list[z3.BoolRef], list[z3.BoolRef]],
    ) -> z3.BoolRef:
        """Where one side may raise beyond its modelled error (Spark evaluating an operand or a
        condition the interpreter skips) and the other may not. Outcomes are compared as *sets of
        possible outcomes* (``docs/soundness.md``, "Errors as sets"): on an assignment where both sides
        may raise alike -- the same expression over the same rows, as in a program and its rewrite --
        Spark may pick an error on either, and the sets agree; a proof fails only where one side's set
        holds a latent error the other's lacks."""
        may = []
        for side, loose in zip(sides, slack, strict=True):
            err = z3.Or(*[e for _, _, e in side]) if side else z3.BoolVal(False)
            may.append(z3.And(z3.Or(*loose), z3.Not(err)) if loose else z3.BoolVal(False))
        if all(slack):
            self.warnings.add(LATENT_AS_SETS)
        return may[0] != may[1]

    def differ(
        self,
        ls: list[tuple[z3.BoolRef, list[Sym], z3.BoolRef]],
        rs: list[tuple[z3.BoolRef, list[Sym], z3.BoolRef]],
    ) -> z3.BoolRef:
        errs = z3.Or(*[e for _, _, e in ls]) != z3.Or(*[e for _, _, e in rs])
        if len(ls) == 1 and len(rs) == 1:
            (cl, ol, _), (cr, orr, _) = ls[0], rs[0]
            if len(ol) != len(orr):
                raise Unproved("the results have different widths")
            rows_same = z3.And(*[same(a, b) for a, b in zip(ol, orr, strict=True)])
            return z3.Or(cl != cr, z3.And(cl, z3.Not(rows_same)), errs)
        width = len(ls[0][1])
        w = [
            make(
                z3.Const(f"w{i}_n", z3.BoolSort()),
                z3.Const(f"w{i}_v", ls[0][1][i].val.sort()),
                ls[0][1][i].type,
            )
            for i in range(width)
        ]

        def count(side: list[tuple[z3.BoolRef, list[Sym], z3.BoolRef]]) -> z3.ArithRef:
            return z3.Sum(
                *[
                    z3.If(z3.And(c, *[same(a, b) for a, b in zip(o, w, strict=True)]), 1, 0)
                    for c, o, _ in side
                ]
            )

        return z3.Or(count(ls) != count(rs), errs)

    def one_error_kind(self) -> None:
        """The solver compares a group's errors as one Boolean, so a group it proved must hold one
        kind of error at most: with two, one side could raise one kind where the other raises the
        other. Groups proved congruent (the same expressions over the same rows on both sides) raise
        the same kinds on the same inputs; several kinds across groups are then the same *sets* of
        possible errors on both sides (``docs/soundness.md``, errors as sets)."""
        for kinds in self.solved_kinds:
            if len(kinds) > 1:
                raise Unproved(
                    "the programs may raise several kinds of error ("
                    + ", ".join(sorted(kinds))
                    + "): which one Spark raises depends on the order rows are met"
                )
        if len(self.kinds) > 1:
            self.warnings.add(KINDS_AS_SETS)

    # ---- derived sources

    def class_of(self, src: Source) -> Any:
        if isinstance(src, TableSrc) or any(src is d for d in self.left_derived):
            return self.classes.key(src)
        if id(src) not in self.classes.of:
            self.resolve(src)
        return self.classes.key(src)

    def resolve(self, src: Source) -> None:
        for cand in self.left_derived:
            if type(cand) is not type(src) or (id(cand), id(src)) in self.failed:
                continue
            try:
                perm = self.derived_equal(cand, src)
            except Unproved as exc:
                perm = False
                self.why_apart.append(f"{_describe(cand)} against {_describe(src)}: {exc}")
            if perm is not False:
                self.classes.unify(src, cand, perm)
                return
            self.failed.add((id(cand), id(src)))
        self.classes.of[id(src)] = (("derived", id(src)), None)

    def derived_equal(self, a: Source, b: Source) -> tuple[int, ...] | None | bool:
        """``b`` (RIGHT's) equals ``a`` (LEFT's) on every input: the column permutation from ``b`` to
        ``a`` (None: the same order), or False."""
        if isinstance(a, DistinctSrc) and isinstance(b, DistinctSrc):
            if a.types != b.types:
                return False
            try:
                self.bag_equal(a.source, b.source, demanded=True)
            except Unproved:
                self.set_equal(a.source, b.source)
            return None
        if isinstance(a, AggSrc) and isinstance(b, AggSrc):
            return self.aggregations_equal(a, b)
        if isinstance(a, OpaqueSrc) and isinstance(b, OpaqueSrc):
            if a.kind != b.kind or a.params != b.params or len(a.parts) != len(b.parts) or a.types != b.types:
                return False
            # a limit's input compared row by row *with* each row's error: Spark may compute the
            # outputs of rows the limit drops, or not, so each side may raise on any raising row of
            # its input; equal inputs with equal errors give equal sets of possible outcomes
            errors_ok = a.kind == "limit"
            for pa, pb in zip(a.parts, b.parts, strict=True):
                if (pa.order is None) != (pb.order is None):
                    return False
                self.bag_equal(pa, pb, demanded=True, errors_ok=errors_ok)
            if errors_ok and self.kinds:
                self.warnings.add(LIMIT_ERRORS_AS_SETS)
            if a.assumption:
                self.assumptions.add(a.assumption)
            if a.nondeterministic and not a.assumption:
                self.warnings.add(
                    f"{a.kind} is nondeterministic: both programs have the same possible results"
                )
            return None
        return False

    def aggregations_equal(self, a: AggSrc, b: AggSrc) -> tuple[int, ...] | None | bool:
        if len(a.keys) != len(b.keys) or len(a.aggs) != len(b.aggs):
            return False
        if [k.type for k in a.keys] != [k.type for k in b.keys]:
            return False
        self.method = NAME_AGG
        na = [_agg_form(c, bool(a.keys)) for c in a.aggs]
        nb = [_agg_form(c, bool(b.keys)) for c in b.aggs]
        for src in (a, b):
            if any(kinds_of(subst(k, t.out)) for k in src.keys for t in src.source.terms):
                raise Unproved("a grouping key may raise")
        raising = any(src.poison[len(src.keys) :] != tuple(frozenset() for _ in src.aggs) for src in (a, b))
        last: Unproved | None = None
        for order in itertools.permutations(range(len(nb))):
            if any(na[p][:2] != nb[order[p]][:2] for p in range(len(na))):
                continue
            pa = project(a.source, [*a.keys, *[x for f in na for x in f[2]]])
            pb = project(b.source, [*b.keys, *[x for p in range(len(nb)) for x in nb[order[p]][2]]])
            try:  # where an argument may raise, each row's error is compared too
                self.bag_equal(pa, pb, demanded=raising)
            except Unproved as exc:
                last = exc
                continue
            for call in a.aggs:
                self.note_aggregate(call)
            nk = len(a.keys)
            perm = list(range(nk + len(nb)))
            for p in range(len(nb)):
                perm[nk + order[p]] = nk + p
            return (
                None if perm == sorted(perm) and all(perm[i] == i for i in range(len(perm))) else tuple(perm)
            )
        if last is not None:
            raise last
        return False

    def note_aggregate(self, call: R.AggCall) -> None:
        arg = call.args[0] if call.args else None
        if call.name in ("min", "max") and arg is not None and isinstance(_uncast(arg).type, DoubleType):
            self.assumptions.add(
                "min/max of doubles are compared as if -0.0 and 0.0 were one value (Spark keeps the one "
                "it meets first)"
            )
        if effects.agg_raise_kinds(call):  # also the decimal sum inside avg
            self.assumptions.add(
                "an integral or decimal sum does not overflow (not compared: ARITHMETIC_OVERFLOW of sum)"
            )
        if (
            call.name in ("sum", "avg", "sum_distinct")
            and (isinstance(call.type, DoubleType))
            and not (arg is not None and isinstance(_uncast(arg).type, IntegralType) and call.name == "avg")
        ):
            self.assumptions.add(
                "sums of doubles are compared as exact (Spark rounds them in the order rows are met)"
            )
        if call.name in ("stddev_samp", "stddev_pop", "var_samp", "var_pop"):
            self.assumptions.add(
                "stddev/variance of doubles are compared as exact (Spark rounds them in the order rows "
                "are met)"
            )
        if call.name == "avg" and arg is not None and isinstance(_uncast(arg).type, IntegralType):
            self.assumptions.add("avg of integers: the sum stays below 2^53, where doubles are exact")

    def set_equal(self, a: Normal, b: Normal) -> None:
        """Every row of each side occurs in the other (NULL equal to NULL): equal as sets."""
        for xs, ys in ((a, b), (b, a)):
            for t in xs.terms:
                ctx = Context(self.classes, self.ufs)
                rows, facts = bind_rows(ctx, t.binds, "t")
                scope = Scope(ctx, rows)
                for c in (*t.conds, *t.out):
                    if kinds_of(c):
                        raise Unproved("an expression under distinct may raise")
                holds = z3.And(*[true_(scope.expr(c)) for c in t.conds])
                outs = list(t.out)
                found = [
                    scope.expr(
                        Exists(
                            u.binds,
                            (
                                *u.conds,
                                *[R.Cmp("<=>", o, p, False) for o, p in zip(u.out, outs, strict=True)],
                            ),
                        )
                    )
                    for u in ys.terms
                ]
                query = z3.And(
                    holds, z3.Not(z3.Or(*[true_(s) for s in found]) if found else z3.BoolVal(True))
                )
                if not self.unsat(ctx, facts, query):
                    raise Unproved("the rows under distinct differ")


def only_reads_raise(e: Any) -> bool:
    """Whether what ``e`` may raise comes only from aggregate columns it reads (``VCol.kinds``): their
    errors are the aggregation's, counted per group (``encode_term``), not this expression's."""
    own: set[str] = set()

    def visit(x: Any) -> None:
        if isinstance(x, Exists):
            own.add("subquery")
        elif isinstance(x, R.RNode) and not isinstance(x, R.SortKey):
            own.update(effects.own_kinds(x))

    walk(e, visit)
    return not own


def _conjuncts(e: Any) -> list[Any]:
    if isinstance(e, R.And):
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _key_per_source(x: Any) -> bool:
    """``a = b`` with each operand reading one variable, two different ones, and nothing raised by the
    comparison itself: Spark computes each operand as a hash-join key on every row its side keeps."""
    if not (isinstance(x, R.Cmp) and x.op == "=") or effects.own_kinds(x):
        return False
    lv, rv = vars_of(x.left), vars_of(x.right)
    return len(lv) == 1 and len(rv) == 1 and lv != rv


def joined_errors_differ(by_vars: tuple[dict[frozenset[int], list[z3.BoolRef]], ...]) -> list[z3.BoolRef]:
    """For each source whose rows carry an error of their own in joined terms (an aggregation Spark
    computes for every group): where one side raises on a row and the other does not. Each formula
    reads only that source's row, so equal formulas mean equal errors even where another source is
    empty."""
    left, right = by_vars
    false = z3.BoolVal(False)
    return [z3.Or(*left.get(k, [false])) != z3.Or(*right.get(k, [false])) for k in set(left) | set(right)]


def constraint_texts(tables: Any) -> list[str]:
    """The declared keys and references of ``tables`` (``TableSrc``), as ``assumptions`` list them."""
    from verifier.core.relational_search import constraint_texts as texts

    return texts([R.TableParam(t.name, t.schema) for t in tables])


def _distinct_view(n: Normal) -> Normal | None:
    """D, when ``n`` is exactly the rows of a ``distinct`` of D (one variable, no condition, its columns
    as they are)."""
    if len(n.terms) != 1 or len(n.terms[0].binds) != 1:
        return None
    t = n.terms[0]
    b = t.binds[0]
    if not isinstance(b.source, DistinctSrc) or t.conds:
        return None
    if tuple((x.var, x.index) if isinstance(x, VCol) else None for x in t.out) != tuple(
        (b.var, i) for i in range(len(b.source.types))
    ):
        return None
    return b.source.source


def _raising_constant(program: R.RelProgram) -> str | None:
    """A sub-expression that reads no column and raises (``1/0``, ``2147483647 + 1``),
    shown, if the program has one. Spark's optimiser folds such constants and raises their error on every
    input (observed even where an ``AND`` before it is false), unless the column holding it is pruned
    first; the interpreter raises them per row, so no proof relies on either."""
    from sparklite.relational.printer import show_expr

    def exprs(node: Any) -> Iterator[Any]:
        for f in dataclasses.fields(node):
            v = getattr(node, f.name)
            for x in v if isinstance(v, tuple) else (v,):
                for y in x if isinstance(x, tuple) else (x,):
                    if isinstance(y, R.SortKey):
                        yield y.expr
                    elif isinstance(y, R.RNode) and not _is_rel(y):
                        yield y
                    elif _is_rel(y):
                        yield from exprs(y)

    def visit(e: Any) -> str | None:
        if isinstance(e, R.AggCall):
            return next((f for f in map(visit, e.args) if f is not None), None)
        if build.reads_no_column(e) and effects.may_raise(e) and not _subquery_check(e):
            try:
                sym = Scope(Context(Classes()), {}).expr(e)
            except NotEncodable:
                return show_expr(e)
            if not z3.is_false(z3.simplify(z3.Or(sym.err, sym.latent))) and _evaluation_raises(e):
                return show_expr(e)
        for c in effects.children(e):  # folded one by one: a raising part behind a false AND counts
            found = visit(c)
            if found is not None:
                return found
        return None

    body = program.body
    for e in exprs(body):
        found = visit(e)
        if found is not None:
            return found
    return None


def _evaluation_raises(e: R.Expr) -> bool:
    """Whether the constant ``e``, which the encoding cannot show safe (Z3's ``simplify`` does not
    decide the overflow of a decimal quotient such as ``CAST(50 AS DECIMAL(4,1)) / 100.0``), raises
    when evaluated: a constant has one value, so evaluating it once decides (TPC-DS q23a, q21)."""
    from verifier.core.relational_search import constant_error

    return constant_error(e) is not None


def _subquery_check(e: Any) -> bool:
    """Whether ``e`` holds the error value of a scalar subquery's row-count check (the SQL frontend's
    ``scalar_subquery_too_many_rows()``, under the ``CASE`` that tests the count): not a constant Spark
    folds, but its runtime check of the subquery, raised only where the ``CASE`` reaches it."""
    if isinstance(e, R.Func) and e.name == "scalar_subquery_too_many_rows":
        return True
    return any(_subquery_check(c) for c in effects.children(e))


def _may_keep_minus_zero(program: R.RelProgram) -> str | None:
    """The first distinct / grouping node of ``program`` that Spark may drop without normalising -0.0
    (``sparklite.relational.rows``), shown by its kind; the normal forms always normalise, so no proof
    may rest on one."""
    redundant = under_aggregate(program.body)
    for node in relations(program.body):
        if may_keep_signed_zeros(node) or id(node) in redundant:
            return type(node).__name__ if not isinstance(node, R.SetOp) else node.kind
    return None


def _is_rel(x: Any) -> bool:
    return isinstance(x, R.Rel | R.Action)


def _poison_reads(exprs: Sequence[Any]) -> list[VCol]:
    """The aggregate columns that may raise among those ``exprs`` read."""
    found: dict[tuple[int, int], VCol] = {}
    for e in exprs:
        walk(e, lambda x: found.setdefault((x.var, x.index), x) if isinstance(x, VCol) and x.kinds else None)
    return list(found.values())


def _uncast(e: R.Expr) -> R.Expr:
    while isinstance(e, R.Cast):
        e = e.operand
    return e


def _agg_form(call: R.AggCall, grouped: bool) -> tuple[str, str, tuple[R.Expr, ...]]:
    """(kind, result type, the arguments it reads): ``count(*)``, ``count`` of NOT NULL values and a
    grouped ``sum(1)`` (groups are never empty) are one count of rows; ``count(x, ...)`` reads only
    whether some argument is NULL."""
    if call.name == "count_star":
        return ("count", BIGINT.simple, ())
    if call.name == "count":
        if not any(a.nullable or effects.may_raise(a) for a in call.args):
            return ("count", BIGINT.simple, ())
        has_null: R.Expr = R.IsNull(call.args[0])
        for a in call.args[1:]:
            has_null = R.Or(has_null, R.IsNull(a), False)
        return ("count", BIGINT.simple, (has_null,))
    if call.name == "sum" and grouped and call.args:
        inner = _uncast(call.args[0])
        if (
            isinstance(inner, R.Lit)
            and inner.value == 1
            and isinstance(inner.type, IntegralType)
            and call.type == BIGINT
        ):
            return ("count", BIGINT.simple, ())
    return (call.name, call.type.simple, tuple(call.args))


def _describe(src: Source) -> str:
    if isinstance(src, TableSrc):
        return src.name
    if isinstance(src, AggSrc):
        return "an aggregation"
    if isinstance(src, DistinctSrc):
        return "a distinct"
    return src.kind


__all__ = ["NAME", "NAME_AGG", "RelProof", "run"]
