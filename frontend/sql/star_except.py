"""``SELECT * EXCEPT (a, t.b)`` and ``t.* EXCEPT (...)``: the star's columns minus the listed ones.

Spark 4 accepts it (checked on local[2], docs/semantics-notes.md "* EXCEPT"): each listed name is
resolved among the columns the star expands to, case-insensitively and qualified or not (``t.* EXCEPT
(s)`` over a join with another ``s`` is not ambiguous; ``* EXCEPT (s)`` there is ``AMBIGUOUS_REFERENCE``;
``* EXCEPT (u.s)`` keeps ``t.s``); an unknown name is ``UNRESOLVED_COLUMN``, a name listed twice
``EXCEPT_OVERLAPPING_COLUMNS``; removing every column leaves zero columns. Here, so that a construct is
never silently dropped: a qualified name that resolves to nothing (Spark might read a struct field) and
any item other than a column name are located refusals.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sqlglot import exp

from frontend.sql.scopes import _Col
from sparklite.ast import Loc
from sparklite.errors import UnsupportedError
from sparklite.relational.build import AnalysisError


def remaining(
    items: Sequence[exp.Expression], cols: Sequence[_Col], loc_of: Callable[[exp.Expression], Loc]
) -> tuple[_Col, ...]:
    """``cols`` (the star's expansion) without the columns ``items`` name."""
    removed: set[int] = set()
    for item in items:
        loc = loc_of(item)
        if not isinstance(item, exp.Column) or item.args.get("db") is not None:
            raise UnsupportedError(
                "* EXCEPT of something other than a column name", loc, construct="* EXCEPT"
            )
        name, qual = item.name.lower(), item.table.lower()
        hits = {c.index for c in cols if c.name.lower() == name and (not qual or c.qualifier == qual)}
        shown = f"{item.table}.{item.name}" if qual else item.name
        if not hits:
            if qual:
                raise UnsupportedError(
                    f"* EXCEPT ({shown}): a qualified name outside the star's columns",
                    loc,
                    construct="* EXCEPT",
                )
            raise AnalysisError(f"column {shown!r} of * EXCEPT cannot be resolved (UNRESOLVED_COLUMN)", loc)
        if len(hits) > 1:
            raise AnalysisError(f"reference {shown!r} in * EXCEPT is ambiguous (AMBIGUOUS_REFERENCE)", loc)
        if hits & removed:
            raise AnalysisError(f"* EXCEPT lists {shown!r} twice (EXCEPT_OVERLAPPING_COLUMNS)", loc)
        removed |= hits
    return tuple(c for c in cols if c.index not in removed)


__all__ = ["remaining"]
