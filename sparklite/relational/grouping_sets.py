"""Grouping sets in the relational kernel: the union, over the sets, of one aggregation per set, laid out
as one aggregation by every key (a key the set leaves out NULL), and the ``grouping()``/``grouping_id()``
constants of each set. Shared by the SQL frontend (``frontend/sql/grouping.py``: ROLLUP, CUBE, GROUPING
SETS) and the differential test's generator (``generate.py``).

Why a union of aggregations: Spark's ``Expand`` copies each row once per grouping set with the keys the
set leaves out set to NULL and a grouping id, then aggregates by keys and id; so the rows of one set
are the aggregation of the input by that set's keys (aggregate arguments read the original,
un-NULLed columns), a NULL of the data and a rolled-up key stay apart (different ids), and the empty
set is an aggregation by the id alone, which gives **no row on an empty input**: here an aggregation
by a constant. ``grouping(k)`` and ``grouping_id(...)`` are constants of a set, so each is a literal
column of that set's branch (``grouping`` a ``tinyint``, ``grouping_id`` a ``bigint`` whose bit
``n-1-j`` says the ``j``-th of its keys is rolled up). No new node: the prover's congruence and every
pass already know unions, aggregations and literals. Checked on Spark 4 (``docs/semantics-notes.md``,
"GROUP BY ROLLUP, CUBE and GROUPING SETS").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sparklite.ast import Loc
from sparklite.relational import ast as R
from sparklite.relational import build
from sparklite.relational.build import AnalysisError
from sparklite.relational.types import BIGINT, TINYINT, SqlType

GroupingSet = tuple[int, ...]


@dataclass(frozen=True)
class GroupingCall:
    """``grouping(k)`` (``kind == "grouping"``, one key index) or ``grouping_id(...)`` (the indices of
    its keys, all of them for ``grouping_id()``): a constant per grouping set, kept among an aggregate
    query's aggregate calls so that it becomes one column of each branch of the union."""

    kind: str
    keys: tuple[int, ...]
    n_keys: int

    @property
    def type(self) -> SqlType:
        return TINYINT if self.kind == "grouping" else BIGINT

    @property
    def nullable(self) -> bool:
        return False

    def value(self, s: GroupingSet) -> int:
        """Spark's value: bit ``len(keys)-1-j`` of the result is 1 when the ``j``-th key is rolled up."""
        v = 0
        for k in self.keys:
            v = (v << 1) | (0 if k in s else 1)
        return v


def rollup_sets(parts: Sequence[Sequence[int]]) -> list[list[int]]:
    """``Rollup.groupingSets``: the prefixes of the (possibly composite) elements, longest first."""
    return [[i for p in parts[:k] for i in p] for k in range(len(parts), -1, -1)]


def cube_sets(parts: Sequence[Sequence[int]]) -> list[list[int]]:
    """``Cube.groupingSets`` (Spark's ``cubeExprs``): with the first element, then without it,
    recursively; ``cube(a, b)`` is ``(a, b), (a), (b), ()``."""
    if not parts:
        return [[]]
    rest = cube_sets(parts[1:])
    return [list(parts[0]) + r for r in rest] + rest


def lower(
    source: R.Rel,
    keys: Sequence[R.Expr],
    key_names: Sequence[str],
    calls: Sequence[R.AggCall | GroupingCall],
    call_names: Sequence[str],
    sets: Sequence[GroupingSet],
    loc: Loc | None,
) -> R.Rel:
    """The union, over ``sets``, of the aggregation of ``source`` by the set's keys, laid out as one
    aggregation by all ``keys`` (a rolled-up key NULL) followed by ``calls`` (a grouping call a literal)."""
    aggs = [c for c in calls if isinstance(c, R.AggCall)]
    agg_names = [n for c, n in zip(calls, call_names, strict=True) if isinstance(c, R.AggCall)]
    rel: R.Rel | None = None
    for s in sets:
        set_keys = [keys[i] for i in s] if s else [build.lit(0, loc)]
        set_names = [key_names[i] for i in s] if s else ["__grouping_set"]
        part = build.aggregate(source, set_keys, set_names, aggs, agg_names, loc=loc)
        fields = part.schema.fields
        exprs: list[R.Expr] = []
        for j, k in enumerate(keys):
            if j in s:
                f = fields[s.index(j)]
                exprs.append(R.Col(s.index(j), f.name, f.type, f.nullable, loc=loc))
            else:
                exprs.append(R.Lit(None, k.type, loc=loc))
        width = len(set_keys)
        m = 0
        for c in calls:
            if isinstance(c, GroupingCall):
                exprs.append(R.Lit(c.value(s), c.type, loc=loc))
            else:
                f = fields[width + m]
                exprs.append(R.Col(width + m, f.name, f.type, f.nullable, loc=loc))
                m += 1
        projected = build.project(part, exprs, [*key_names, *call_names], loc)
        rel = projected if rel is None else build.set_op("union", True, rel, projected, loc)
    if rel is None:
        raise AnalysisError("GROUPING SETS needs at least one grouping set", loc)
    return rel


__all__ = ["GroupingCall", "GroupingSet", "cube_sets", "lower", "rollup_sets"]
