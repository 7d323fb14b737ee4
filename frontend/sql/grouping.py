"""SQL grouping analytics: ``GROUP BY ROLLUP(...)``, ``CUBE(...)``, ``GROUPING SETS (...)``, ``WITH
ROLLUP``/``WITH CUBE`` and their cross products with plain keys (``GROUP BY a, ROLLUP(b, c)``), read
into grouping sets; the kernel's lowering (a union of aggregations, ``grouping()``/``grouping_id()``
as constants of each set) is ``sparklite/relational/grouping_sets.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlglot import exp

from sparklite.ast import Loc
from sparklite.relational.build import AnalysisError
from sparklite.relational.grouping_sets import GroupingSet, cube_sets, rollup_sets


def _elements(node: exp.Expression) -> list[exp.Expression]:
    """The members of one element of ROLLUP/CUBE/GROUPING SETS: ``(a, b)`` is two, ``()`` none."""
    if isinstance(node, exp.Tuple):
        return list(node.expressions)
    if isinstance(node, exp.Paren):
        return [node.this]
    return [node]


def grouping_analytics(
    group: exp.Group,
    key_of: Callable[[exp.Expression], Any],
    same: Callable[[Any, Any], bool],
    unsupported: Callable[[str, exp.Expression], Exception],
    loc_of: Callable[[exp.Expression], Loc],
) -> tuple[list[Any], list[GroupingSet] | None]:
    """The keys of a GROUP BY (``key_of`` translates one, ``same`` says two are one expression, as
    Spark de-duplicates them) and, when it has grouping analytics, its grouping sets as indices into
    the keys, in Spark's order (``GroupingAnalytics.unapply``: the cross product of each item's sets,
    earlier items varying slowest); ``None`` for a plain GROUP BY, ``[]`` for ``GROUPING SETS (())``,
    which Spark 4 computes as a global aggregation (checked: one row, NULL sums, on an empty table)."""
    keys: list[Any] = []

    def index(node: exp.Expression, inside: bool = True) -> int:
        if inside and isinstance(node, exp.Literal) and not node.is_string:
            # whether Spark reads ROLLUP(1) as an ordinal or as the constant 1 is not checked yet
            raise unsupported("an integer inside ROLLUP/CUBE/GROUPING SETS", node)
        k = key_of(node)
        for i, other in enumerate(keys):
            if same(other, k):
                return i
        keys.append(k)
        return len(keys) - 1

    per_item: list[list[list[int]]] = []
    analytics = False
    for g in group.expressions:
        if isinstance(g, exp.Rollup | exp.Cube):
            if not g.expressions:  # Spark parses ROLLUP() as a call of an unknown function
                name = "rollup" if isinstance(g, exp.Rollup) else "cube"
                raise AnalysisError(f"cannot resolve routine {name}() (UNRESOLVED_ROUTINE)", loc_of(g))
            analytics = True
            parts = [[index(m) for m in _elements(e)] for e in g.expressions]
            per_item.append(rollup_sets(parts) if isinstance(g, exp.Rollup) else cube_sets(parts))
        elif isinstance(g, exp.GroupingSets):
            analytics = True
            per_item.append([[index(m) for m in _elements(e)] for e in g.expressions])
        else:
            per_item.append([[index(g, inside=False)]])
    for kind in ("rollup", "cube"):
        with_ = group.args.get(kind)
        if with_:  # GROUP BY a, b WITH ROLLUP: the whole list is one ROLLUP (CUBE)
            for g in group.expressions:
                if isinstance(g, exp.Literal) and not g.is_string:
                    raise unsupported(f"an integer in GROUP BY ... WITH {kind.upper()}", g)
            if any(w.expressions for w in with_):
                raise unsupported(f"GROUP BY ... with {kind.upper()} (...) after other keys", group)
            analytics = True
            parts = [[i] for s in per_item for i in s[0]]
            per_item = [rollup_sets(parts) if kind == "rollup" else cube_sets(parts)]
    hive = group.args.get("grouping_sets")
    if hive:  # Hive's GROUP BY a, b GROUPING SETS ((a, b), (a)): the keys are the GROUP BY list, in order
        if analytics or len(hive) != 1:
            raise unsupported("GROUPING SETS after ROLLUP/CUBE/GROUPING SETS", group)
        for g in group.expressions:
            if isinstance(g, exp.Literal) and not g.is_string:
                raise unsupported("an integer in GROUP BY ... GROUPING SETS", g)
        listed = len(keys)
        sets_h = [[index(m) for m in _elements(e)] for e in hive[0].expressions]
        if len(keys) != listed:
            raise unsupported("a GROUPING SETS expression that is not in the GROUP BY list", group)
        per_item = [sets_h]
        analytics = True
    if not analytics:
        return keys, None
    if not keys and all(len(item) == 1 for item in per_item):
        # GROUPING SETS (()) alone: Spark 4 answers as a global aggregation (one row on an empty input);
        # ((), ()) is two aggregations by the grouping id (no row on an empty input), as in the general case
        return keys, []
    sets: list[list[int]] = [[]]
    for item in per_item:
        sets = [a + b for a in sets for b in item]
    out: list[GroupingSet] = []
    for s in sets:
        seen: list[int] = []
        for i in s:
            if i not in seen:
                seen.append(i)
        out.append(tuple(seen))
    return keys, out


__all__ = ["grouping_analytics"]
