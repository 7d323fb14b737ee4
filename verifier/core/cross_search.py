"""Search for a difference between an RDD program and a DataFrame/SQL program (cross-kind checks).

Why both interpreters: each kernel's reference interpreter is the model of its API that every
counterexample is validated on, so a cross pair is searched by running the RDD program on the
SparkLite interpreter and the relational program on the relational one, over the *same* tables
(``verifier.core.cross_inputs``: a row reaches the RDD side as ``df.rdd`` hands it over). The tables
come from the relational search's candidates (empty tables, boundary values of each column's type:
INT's and BIGINT's ends, ``-0.0``, NaN, ``""``, and both programs' literals; then random tables and
partitionings), so a sum that overflows BIGINT only on the DataFrame side, a ``//`` against ``div`` on
a negative value or a NaN under ``distinct`` are among the first inputs tried.

A difference is *definite* only when neither side raised and the relational run has no caveat (a
latent error, a partition-dependent double sum); otherwise it waits for Spark to confirm it, as DataFrame
pairs do (``verifier.core.kinds.relational``).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sparklite import ast as A
from sparklite.relational import ast as R
from verifier.core.cross_inputs import Correspondence, python_view, rdd_inputs, rdd_partitions, same
from verifier.core.relational_search import Pools, candidates, failing_constants, value_pool

Tables = Mapping[str, Sequence[tuple]]


@dataclass(frozen=True)
class CrossFound:
    """Tables on which the two programs look different to Python. ``definite``: Spark must show the same
    difference; otherwise ``why`` says what Spark must confirm."""

    tables: Tables
    layout: Mapping[str, Any] | None
    rdd_outcome: Any
    rel_outcome: Any
    definite: bool
    why: str
    origin: str


@dataclass
class CrossSearch:
    tried: int = 0
    found: CrossFound | None = None
    pending: CrossFound | None = None
    others: list[CrossFound] = field(default_factory=list)  # more pending differences, for Spark to try


MORE_PENDING = 4


def _cut_ties(found: CrossFound) -> bool:
    """Does the relational side's ordered result keep some rows of a tie group (a limit cut through it)?
    Spark's choice there is the likeliest to differ from the RDD's."""
    from sparklite.values import Sorted

    rows = getattr(found.rel_outcome, "rows", None)
    return isinstance(rows, Sorted) and rows.taken is not None


def _rdd_constants(program: A.Program) -> list[tuple[Any, Any]]:
    """The RDD program's literals, as (relational type, value) pairs for the value pools."""
    from sparklite.relational.types import BIGINT, DOUBLE, STRING

    out: list[tuple[Any, Any]] = []
    for n in A.walk(program):
        if isinstance(n, A.IntLit):
            out.append((BIGINT, n.value))
        elif isinstance(n, A.StrLit):
            out.append((STRING, n.value))
        elif isinstance(n, A.FloatLit):
            out.append((DOUBLE, n.value))
    return out


def pools(c: Correspondence, rdd: A.Program, rel: R.RelProgram) -> Pools:
    """Both programs' literals, spread over every column of matching type (``Pools.of`` reads only
    relational programs)."""
    base = Pools.of(c.params, (rel,))
    extra = _rdd_constants(rdd)
    if not extra:
        return base
    cols = {}
    for tp in c.params:
        per = []
        for f, known in zip(tp.schema.fields, base.columns[tp.name], strict=True):
            added = [v for v in value_pool(f.type, extra) if not any(_same_cell(v, k) for k in known)]
            per.append(tuple(known) + tuple(added))
        cols[tp.name] = tuple(per)
    return Pools(cols)


def _same_cell(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return a.hex() == b.hex() or (a != a and b != b)
    return a == b


def run_both(c: Correspondence, rdd: A.Program, rel: R.RelProgram, tables: Tables,
             layout: Mapping[str, Any] | None) -> tuple[Any, Any, frozenset[str]]:
    """Both interpreters on one input: (RDD outcome, relational outcome, the relational caveats)."""
    from sparklite.interpreter import run as run_rdd
    from sparklite.relational.interpreter import run as run_rel

    lo = run_rdd(rdd, rdd_inputs(c, tables), rdd_partitions(c, layout))
    rr = run_rel(rel, tables, layout)
    return lo, rr.outcome, rr.caveats


def search(c: Correspondence, rdd: A.Program, rel: R.RelProgram, *, until: float, seed: int = 0,
           limit: int | None = None) -> CrossSearch:
    """Look for a difference until the monotonic time ``until`` (or ``limit`` candidates); stop at the
    first definite one."""
    from verifier.core.relational_search import repair, respects

    out = CrossSearch()
    planning = failing_constants(rel)
    constrained = any(tp.schema.constraints for tp in c.params)
    for tables, layout, origin in candidates(c.params, pools(c, rdd, rel), seed):
        if out.tried > 0 and (time.monotonic() >= until or (limit is not None and out.tried >= limit)):
            break
        if constrained:
            tables = repair(c.params, tables)
            if not respects(c.params, tables):
                continue
            layout = None
        out.tried += 1
        found = _compare(c, rdd, rel, tables, layout, origin, planning)
        if found is None:
            continue
        if found.definite:
            out.found = _shrink(c, rdd, rel, found, until + 0.5, planning)
            return out
        if out.pending is None:
            out.pending = _shrink(c, rdd, rel, found, until + 0.5, planning)
        elif len(out.others) < MORE_PENDING:
            out.others.append(found)
        elif _cut_ties(found) and not all(_cut_ties(f) for f in out.others):
            cut = [f for f in out.others if _cut_ties(f)]
            out.others = [found, *cut, *[f for f in out.others if not _cut_ties(f)]][:MORE_PENDING]
    return out


def _compare(c: Correspondence, rdd: A.Program, rel: R.RelProgram, tables: Tables,
             layout: Mapping[str, Any] | None, origin: str, planning: Sequence[str]) -> CrossFound | None:
    from verifier.core.cross_inputs import Raised

    lo, ro, caveats = run_both(c, rdd, rel, tables, layout)
    verdict = same(lo, ro)
    if verdict is True:
        return None
    reasons = sorted(caveats)
    reasons += [f"a constant expression raising {e}, which Spark evaluates while planning" for e in planning]
    if verdict is None:
        if isinstance(python_view(lo), Raised):
            return None  # both raise: not told apart
        reasons.append("the rows an ordered result keeps among ties, which Spark chooses")
    if isinstance(python_view(ro), Raised):
        reasons.append("a runtime error of the DataFrame/SQL program, which Spark raises only where its "
                       "optimiser evaluates the value")
    if isinstance(python_view(lo), Raised) and layout is not None and len(layout) > 0:
        reasons.append("which task of the RDD job raises first")
    return CrossFound(tables, layout, lo, ro, not reasons, "; ".join(reasons), origin)


def _shrink(c: Correspondence, rdd: A.Program, rel: R.RelProgram, found: CrossFound, until: float,
            planning: Sequence[str]) -> CrossFound:
    """Drop rows while the difference stays (as definite as it was): the reader gets a small input."""
    best = found
    changed = True
    while changed and time.monotonic() < until:
        changed = False
        for name, rows in best.tables.items():
            for i in range(len(rows)):
                tables = {**best.tables, name: [*rows[:i], *rows[i + 1:]]}
                if any(tp.schema.constraints for tp in c.params):
                    from verifier.core.relational_search import respects

                    if not respects(c.params, tables):
                        continue
                smaller = _compare(c, rdd, rel, tables, None, best.origin, planning)
                if smaller is not None and smaller.definite == found.definite:
                    best = smaller
                    changed = True
                    break
            if changed:
                break
    return best
