"""Renaming a program's parameters: how two programs are matched by position.

A renamed parameter is a routine refactor, not a difference (``interfaces.md``: parameters are matched by
position and the counterexample names them as LEFT does). The checker renames RIGHT's parameters to
LEFT's names before anything compares the two. Renaming is a plain substitution only when the new name
is not already used inside the program (no capture); ``rename_params`` says so by returning None and the
caller reports the clash instead of guessing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from sparklite import ast as A


def rename_params(program: A.Program, names: Sequence[str]) -> A.Program | None:
    """``program`` with its i-th parameter called ``names[i]``, or None when a new name would clash."""
    old = [p.name for p in program.params]
    mapping = {o: n for o, n in zip(old, names, strict=True) if o != n}
    if not mapping:
        return program
    used = _bound_names(program) - set(old)
    if used & set(mapping.values()):
        return None
    params = tuple(dataclasses.replace(p, name=mapping.get(p.name, p.name)) for p in program.params)
    return dataclasses.replace(
        program, params=params,
        defs=tuple(_subst(d, mapping) for d in program.defs),
        lets=tuple(_subst(b, mapping) for b in program.lets),
        body=_subst(program.body, mapping))


def _bound_names(program: A.Program) -> set[str]:
    """Every name the program binds or mentions (parameters, lets, defs, lambda parameters, variables)."""
    out = {d.name for d in program.defs} | {b.name for b in program.lets}
    for n in A.walk(program):
        if isinstance(n, A.Var | A.Param):
            out.add(n.name)
    return out


def _subst(node: Any, mapping: Mapping[str, str]) -> Any:
    def rename(n: A.Node) -> A.Node:
        if isinstance(n, A.Var) and n.name in mapping:
            return dataclasses.replace(n, name=mapping[n.name])
        return n

    return A.transform(node, rename)
