"""A DataFrame function that branches on a count: ``if df.filter(...).count() > 0: return A``, then
``return B``.

Why: helpers check the data before choosing what to return, and Python runs one branch per input, so the
branch cannot be decided statically. It is modelled as both outcomes, in relational algebra: with
``c = count(F)`` (a one-row aggregate, as Spark's ``count()`` runs it), the result is

    A semi-joined with (c filtered on the condition)
    UNION ALL B semi-joined with (c filtered on its negation)

(a semi join with no condition keeps every row of its left side when the right is not empty, none
otherwise): exactly A's rows when the condition holds, B's when not. Only this shape is read:

* the condition is ``count()`` of a DataFrame compared with an int constant (``> 0``, ``== 0``...), or its
  truth (``if df.count():``); anything else computed from data is refused located;
* the branch is at the top of the function's body (an ``elif`` chain included): the rest of the body runs
  once on each path, and each path must return a DataFrame (or a Glue frame over one,
  ``frontend.dataframe.dynamic_frames``) with the same column names and types;
* neither returned DataFrame may raise (``sparklite.relational.effects``, the one shared notion of "may
  raise"): Python evaluates only the branch taken, the union evaluates both, so a branch that may raise
  would be an error Python never sees. The count itself is evaluated on both paths, as Python evaluates it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from sparklite.ast import Loc
from sparklite.errors import UnsupportedError
from sparklite.relational import ast as R
from sparklite.relational import build
from sparklite.relational.effects import agg_raise_kinds, may_raise

_FLIP = {">": "<=", ">=": "<", "<": ">=", "<=": ">", "==": "!=", "!=": "=="}


@dataclass(frozen=True)
class CountCondV:
    """``count(source) <op> n``: a condition on the data, decided per input."""

    source: R.Rel
    op: str
    n: int
    text: str
    DESCRIPTION = "a condition on an action's result"

    def holds(self, negated: bool, loc: Loc | None) -> R.Rel:
        """One row when the condition (or its negation) holds, none otherwise."""
        counted = build.aggregate(self.source, (), (), (build.agg("count_star", (), loc),), ("n",), loc)
        col = R.Col(0, "n", counted.schema.fields[0].type, False)
        op = _FLIP[self.op] if negated else self.op
        kernel_op = "=" if op == "==" else op
        return build.filter_(counted, build.compare(kernel_op, col, build.lit(self.n), loc), loc)  # type: ignore[arg-type]


def count_condition(op: str | None, left: Any, right: Any) -> CountCondV | None:
    """``ActionV(count) <op> int`` (either side), or None for any other comparison."""
    from frontend.dataframe.values import ActionV, PyV

    if op not in _FLIP:
        return None
    flipped = {">": "<", "<": ">", ">=": "<=", "<=": ">="}
    if isinstance(right, ActionV) and isinstance(left, PyV):
        left, right, op = right, left, flipped.get(op, op)
    if not (isinstance(left, ActionV) and left.action.kind == "count" and isinstance(right, PyV)
            and isinstance(right.value, int) and not isinstance(right.value, bool)):
        return None
    return CountCondV(left.action.source, op, right.value, f"count() {op} {right.value}")


def truth_condition(v: Any) -> CountCondV | None:
    """``if df.count():`` is ``count() != 0``."""
    from frontend.dataframe.values import ActionV

    if isinstance(v, ActionV) and v.action.kind == "count":
        return CountCondV(v.action.source, "!=", 0, "count() != 0")
    return None


def negate(c: CountCondV) -> CountCondV:
    return CountCondV(c.source, _FLIP[c.op], c.n, f"not ({c.text})")


def merge(cond: CountCondV, taken: R.Rel, other: R.Rel, loc: Loc) -> R.Rel:
    """The relation that is ``taken`` when ``cond`` holds and ``other`` when not (see the module text)."""
    for what, rel in (("the branch taken when it holds", taken), ("the other branch", other)):
        if rel_may_raise(rel):
            raise UnsupportedError(
                f"a branch on {cond.text}: {what} returns a DataFrame that may raise, which Python evaluates "
                "only on its path (both outcomes are modelled only when neither may raise)", loc,
                construct="data-dependent-branch")
    lt = [(f.name, f.type.simple) for f in taken.schema.fields]
    rt = [(f.name, f.type.simple) for f in other.schema.fields]
    if lt != rt:
        raise UnsupportedError(
            f"a branch on {cond.text} returns DataFrames of different columns on its two paths ({lt} and "
            f"{rt}): not modelled", loc, construct="data-dependent-branch")
    yes = build.join("semi", taken, cond.holds(False, loc), build.lit(True), loc)
    no = build.join("semi", other, cond.holds(True, loc), build.lit(True), loc)
    return build.set_op("union", True, yes, no, loc)


def rel_may_raise(rel: Any) -> bool:
    """May evaluating ``rel`` raise on some input? Conservative: any expression that may raise, an
    aggregate that may overflow, and operations whose errors this module does not follow (opaque calls)."""
    if isinstance(rel, R.Opaque):
        return True
    if isinstance(rel, R.AggCall):
        return bool(agg_raise_kinds(rel)) or any(may_raise(a) for a in rel.args)
    if isinstance(rel, R.Expr):
        return may_raise(rel)
    if isinstance(rel, tuple):  # a node's list of children, or Values' rows of expressions
        return any(rel_may_raise(x) for x in rel)
    return isinstance(rel, R.RNode) and any(rel_may_raise(getattr(rel, f.name)) for f in fields(rel))
