"""Bag terms: what one element of a bag expression is, over its input occurrences (``BagTerm``).

Why a module of its own: both the program terms (``encoder.terms``) and the aggregate terms
(``encoder.aggregates``, whose ``AggTerm`` folds a ``BagTerm``) are built on it; kept in ``terms`` it made
the two modules import each other. It holds the term, its occurrences, the alternatives a bag denotes
(``Alts``) and the substitutions that rename a term's representative variables.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import z3

from encoder.basic import Sym, fresh, leaves, rebuild
from sparklite.types import Type


@dataclass(frozen=True)
class Occurrence:
    """One read of input bag ``bag``; ``var`` is its representative element."""

    bag: str
    var: Sym


def canonical_var(prefix: str, bag: str, index: int, elem_type: Type) -> Sym:
    """The shared name of the ``index``-th occurrence of ``bag`` in a canonical term copy ``prefix``."""
    return fresh(f"{prefix}:{bag}#{index}", elem_type)


@dataclass(frozen=True)
class BagTerm:
    """phi(mu) boxed: ``value`` of one element, ``present`` unless filtered out.

    ``keyed`` lists the indices (in ``ProgramEncoding.keyed``) of by-key aggregations whose outputs the
    term is built from; such a term is about one *bucket*, not one input element.
    """

    value: Sym
    present: z3.BoolRef
    occurrences: tuple[Occurrence, ...]
    elem_types: Mapping[str, Type] = field(compare=False, hash=False, default_factory=dict)
    keyed: tuple[int, ...] = ()

    def rep_var_set(self) -> Counter[str]:
        """RepVarSet as a multiset of bag names (one per occurrence)."""
        return Counter(o.bag for o in self.occurrences)

    def has_self_product(self) -> bool:
        return any(n > 1 for n in self.rep_var_set().values())

    def canonical(self, prefix: str, perms: Mapping[str, Sequence[int]] | None = None) -> BagTerm:
        """This term over shared variables ``prefix:R#i``: the j-th occurrence of ``R`` becomes index
        ``perms[R][j]`` (identity by default). Terms of both programs canonicalised with the same prefix
        read the same input elements."""
        seen: Counter[str] = Counter()
        pairs: list[tuple[z3.ExprRef, z3.ExprRef]] = []
        occs: list[Occurrence] = []
        for o in self.occurrences:
            j = seen[o.bag]
            seen[o.bag] += 1
            idx = perms[o.bag][j] if perms and o.bag in perms else j
            new = canonical_var(prefix, o.bag, idx, self.elem_types[o.bag])
            pairs.extend(zip(leaves(o.var), leaves(new), strict=True))
            occs.append(Occurrence(o.bag, new))
        return BagTerm(substitute(self.value, pairs), _subst1(self.present, pairs), tuple(occs),
                       self.elem_types, self.keyed)


Alts = tuple[BagTerm, ...]
"""A bag as a list of alternatives: its multiset is the sum of what each alternative generates."""


def rep_var_sets(alts: Alts) -> list[Counter[str]]:
    return [t.rep_var_set() for t in alts]


def substitute(v: Sym, pairs: Sequence[tuple[z3.ExprRef, z3.ExprRef]]) -> Sym:
    """``v`` with the leaf variables in ``pairs`` replaced (Python tuples are mapped through)."""
    if isinstance(v, tuple):
        return rebuild(v, (substitute(x, pairs) for x in v))
    return _subst1(v, pairs)


def _subst1(e: z3.ExprRef, pairs: Sequence[tuple[z3.ExprRef, z3.ExprRef]]) -> z3.ExprRef:
    return z3.substitute(e, *pairs) if pairs else e


def sym_pairs(old: Sym, new: Sym) -> list[tuple[z3.ExprRef, z3.ExprRef]]:
    """Substitution pairs mapping the leaves of ``old`` (variables) to those of ``new``."""
    return list(zip(leaves(old), leaves(new), strict=True))
