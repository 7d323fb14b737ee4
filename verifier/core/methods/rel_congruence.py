"""Congruence of two terms inside a larger relational proof: the same term up to variable names.

A TPC query and its optimizer rewrite normalise to terms over the same tables with the same conditions
and outputs; only the variables' numbering, the order of the tables and the split of ``WHERE`` into
``ON`` conjuncts differ. The term prover (``rel_terms``) then asks Z3 whether the two encodings agree
on every assignment, and on a join of five or more tables that query can exhaust its resource budget
(TPC-DS q7, q13, q15, q19...) although the two sides are the same formula.

This module finds, without a solver, a renaming under which the two terms are *syntactically* equal:

- the variables are matched by colour refinement (a variable's colour: its source's class, then the
  conditions that read it with the other variables replaced by their colours), then by trying the
  few bijections within equal colours;
- outputs and sort keys must be equal expressions; conditions are compared as an ordered tuple where
  any of them may raise (their order decides which error Spark meets first: no reordering then), and
  as a set of top-level conjuncts where none may raise (``a AND b`` and ``b``, ``a`` are then the same
  Boolean; NULL and FALSE both reject a row), literal TRUE conjuncts dropped.

Why this is sound: under the renaming the two terms encode to the same formulas (or, where the
conjuncts were regrouped, to formulas equal in every assignment with no error part), so the solver's
query ``they differ`` is unsatisfiable; the caller skips only that query, and every restriction on
errors (``rel_terms.encode_term``) still runs on both terms. A renaming is a bijection of variables
over the same classes of sources, which the term semantics does not observe (``rel_terms``' module doc).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from encoder.relational.normal import Exists, Term, VCol, kinds_of, map_expr, rename, walk
from sparklite.relational import ast as R

MAX_TRIES = 64  # bijections within equal colours tried per pair of terms


def congruent_mapping(
    left: Term, right: Term, class_of: Callable[[Any], Hashable], ordered: bool,
    raises: Callable[[Term, Any], bool] = lambda t, c: bool(kinds_of(c)),
    in_time: Callable[[], None] = lambda: None,
) -> dict[int, int] | None:
    """A bijection of ``right``'s variables onto ``left``'s under which the two terms are the same
    (``key``), or None. ``raises(term, cond)``: whether a condition may raise (by default what it
    may raise syntactically; the prover passes what Z3 shows). ``in_time`` is called between steps
    (the prover's deadline: colouring TPC-DS q66's CASE-heavy terms is long Python work)."""
    if len(left.binds) != len(right.binds) or _has_exists(left) or _has_exists(right):
        return None
    lcol, rcol = _colours(left, class_of, in_time), _colours(right, class_of, in_time)
    if sorted(map(repr, lcol.values())) != sorted(map(repr, rcol.values())):
        return None
    target = key(left, {b.var: b.var for b in left.binds}, ordered, any(raises(left, c) for c in left.conds))
    by_colour: dict[str, list[int]] = {}
    for v, c in lcol.items():
        by_colour.setdefault(repr(c), []).append(v)
    choices = [by_colour[repr(rcol[b.var])] for b in right.binds]
    rvars = [b.var for b in right.binds]
    tries = 0
    for combo in itertools.product(*choices):
        if len(set(combo)) != len(combo):
            continue
        tries += 1
        in_time()
        if tries > MAX_TRIES:
            return None
        mapping = dict(zip(rvars, combo, strict=True))
        if key(right, mapping, ordered, any(raises(right, c) for c in right.conds)) == target:
            return mapping
    return None


def key(t: Term, mapping: dict[int, int], ordered: bool, raising: bool | None = None) -> tuple[Any, ...]:
    """``t`` with its variables renamed by ``mapping``, in the form compared (module doc); ``raising``:
    whether some condition may raise (by default: syntactically)."""
    conds = tuple(rename(c, mapping) for c in t.conds)
    if raising is None:
        raising = any(kinds_of(c) for c in conds)
    if raising:
        cond_key: Any = ("ordered", conds)
    else:
        cond_key = ("set", frozenset(x for c in conds for x in _conjuncts(c) if not _is_true(x)))
    out = tuple(rename(o, mapping) for o in t.out)
    keys = tuple(_rename_key(k, mapping) for k in t.keys) if ordered else ()
    return cond_key, out, keys, t.joined


def _rename_key(k: Any, mapping: dict[int, int]) -> Any:
    if isinstance(k, R.SortKey):
        return dataclasses.replace(k, expr=rename(k.expr, mapping))
    return rename(k, mapping)


def _conjuncts(e: Any) -> list[Any]:
    if isinstance(e, R.And):
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _is_true(e: Any) -> bool:
    """A literal TRUE conjunct (``WHERE TRUE AND ...``, left where predicates were pushed): the
    identity of AND."""
    return isinstance(e, R.Lit) and e.value is True


def _has_exists(t: Term) -> bool:
    found: list[bool] = []
    for c in (*t.conds, *t.out):
        walk(c, lambda x: found.append(True) if isinstance(x, Exists) else None)
    return bool(found)


def _colours(t: Term, class_of: Callable[[Any], Hashable], in_time: Callable[[], None],
             rounds: int = 3) -> dict[int, Any]:
    """Colour refinement of ``t``'s variables over the conditions (as conjuncts) that read them."""
    colour: dict[int, Any] = {b.var: repr(class_of(b.source)) for b in t.binds}
    atoms = [x for c in t.conds for x in _conjuncts(c)] + [("out", i, o) for i, o in enumerate(t.out)]
    reads = [_vars(a[2] if isinstance(a, tuple) else a) for a in atoms]
    for _ in range(rounds):
        new = {}
        for v in colour:
            in_time()
            seen = []
            for a, vs in zip(atoms, reads, strict=True):
                expr = a[2] if isinstance(a, tuple) else a
                if v not in vs:
                    continue
                shown = _recolour(expr, v, colour)
                seen.append(repr((a[:2], shown) if isinstance(a, tuple) else shown))
            new[v] = (colour[v], tuple(sorted(seen)))
        colour = {v: repr(c) for v, c in new.items()}
    return colour


def _vars(e: Any) -> set[int]:
    out: set[int] = set()
    walk(e, lambda x: out.add(x.var) if isinstance(x, VCol) else None)
    return out


def _recolour(e: Any, me: int, colour: dict[int, Any]) -> Any:
    """``e`` with ``me``'s columns marked as its own and every other variable replaced by its colour."""
    def fn(x: Any) -> Any:
        if isinstance(x, VCol):
            who = "self" if x.var == me else colour.get(x.var, "bound")
            return ("col", who, x.index)
        return None

    return map_expr(e, lambda x: _Marker(fn(x)) if isinstance(x, VCol) else None)


@dataclasses.dataclass(frozen=True)
class _Marker:
    """A variable's column shown by its colour (``_recolour``)."""

    what: Any


__all__: Sequence[str] = ["congruent_mapping", "key"]
