"""Pairs for the soundness fuzzers around congruence (issue 22): renamings, and mutations of them.

Why a flavor of its own: congruence (``verifier.core.congruence``) proves a pair without any reasoning
about what it computes, so the one way it can be wrong is a key that merges two programs differing in
something observed. The pairs here are a random program against

- a **renaming** of itself (every lambda and ``def`` parameter, ``let`` and ``def`` name fresh; for
  DataFrame/SQL plans, every inner column name and every reference's name fresh): meant to be proved,
  by congruence;
- a **mutation** of itself, then renamed (``fuzzutil.make_variant``/``relfuzzutil.make_variant`` with a
  mutation; the label is never trusted): the judge of each fuzzer runs both programs on random inputs,
  so a congruence proof of a real difference is a violation like any other.

Plain AST surgery; nothing here imports the verifier.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Any

from sparklite import ast as A
from sparklite.relational import ast as R
from sparklite.relational.types import Schema

# ---------------------------------------------------------------------------------------------------
# RDD programs (SparkLite)
# ---------------------------------------------------------------------------------------------------


def rename_program(program: A.Program, rng: random.Random) -> A.Program:
    """``program`` with every bound name but its parameters (matched by position) fresh."""
    fresh = _Fresh(rng, {n.name for n in A.walk(program) if isinstance(n, A.Var | A.Param)}
                   | {d.name for d in program.defs} | {b.name for b in program.lets})
    defs = {d.name: fresh.name("h") for d in program.defs}
    env: dict[str, str] = {p.name: p.name for p in program.params}
    new_defs = []
    for d in program.defs:
        inner, params = _bind(d.params, env, fresh)
        if isinstance(d, A.FunDef):
            new_defs.append(dataclasses.replace(d, name=defs[d.name], params=params,
                                                body=_rename(d.body, inner, defs, fresh)))
        else:
            new_defs.append(dataclasses.replace(d, name=defs[d.name], params=params,
                                                fn=_rename(d.fn, inner, defs, fresh)))
    lets = []
    for b in program.lets:
        value = _rename(b.value, env, defs, fresh)
        env = {**env, b.name: fresh.name("v")}
        lets.append(dataclasses.replace(b, name=env[b.name], value=value))
    body = _rename(program.body, env, defs, fresh)
    return dataclasses.replace(program, defs=tuple(new_defs), lets=tuple(lets), body=body)


class _Fresh:
    def __init__(self, rng: random.Random, taken: set[str]) -> None:
        self.rng, self.taken = rng, set(taken)

    def name(self, prefix: str) -> str:
        while True:
            n = f"{prefix}{self.rng.randrange(10_000)}"
            if n not in self.taken:
                self.taken.add(n)
                return n


def _bind(params: tuple[A.Param, ...], env: Mapping[str, str], fresh: _Fresh
          ) -> tuple[dict[str, str], tuple[A.Param, ...]]:
    inner = dict(env)
    out = []
    for p in params:
        inner[p.name] = fresh.name("p")
        out.append(dataclasses.replace(p, name=inner[p.name]))
    return inner, tuple(out)


def _rename(node: Any, env: Mapping[str, str], defs: Mapping[str, str], fresh: _Fresh) -> Any:
    if isinstance(node, tuple):
        return tuple(_rename(x, env, defs, fresh) for x in node)
    if not isinstance(node, A.Node):
        return node
    if isinstance(node, A.Lambda):
        inner, params = _bind(node.params, env, fresh)
        return dataclasses.replace(node, params=params, body=_rename(node.body, inner, defs, fresh))
    if isinstance(node, A.Var):
        return dataclasses.replace(node, name=env.get(node.name, node.name))
    changes: dict[str, Any] = {}
    if isinstance(node, A.Call):
        changes["func"] = env.get(node.func) or defs.get(node.func) or node.func
    if isinstance(node, A.FnRef | A.PApp):
        changes["name"] = defs.get(node.name, node.name)
    for f in dataclasses.fields(node):
        if f.name != "loc" and f.name not in changes:
            value = getattr(node, f.name)
            if isinstance(value, A.Node | tuple):
                changes[f.name] = _rename(value, env, defs, fresh)
    return dataclasses.replace(node, **changes)


def generate_congruence_pair(seed: int, index: int
                             ) -> tuple[A.Program, A.Program, tuple[str, ...], str] | None:
    """A classic fuzzer program against a renaming of itself (half of the pairs) or against a renamed
    mutation of itself."""
    from fuzzutil import make_variant
    from test_soundness_fuzz import generate_pair

    pair = generate_pair(seed, index)
    if pair is None:
        return None
    program = pair[0]
    rng = random.Random(f"congruence:{seed}:{index}")
    if rng.random() < 0.5:
        return program, rename_program(program, rng), ("rename",), "equivalent"
    from sparklite.typecheck import typecheck

    for _ in range(6):
        variant = make_variant(program, rng, mutate=True, steps=1)
        if variant is None or variant.program == program:
            continue
        try:
            checked = typecheck(variant.program)
        except Exception:  # noqa: BLE001 - an ill-typed mutation: draw again
            continue
        if checked.result != typecheck(program).result:  # results of another type are an input error
            continue
        candidate = checked.program
        return program, rename_program(candidate, rng), (*variant.steps, "rename"), variant.intended
    return None


# ---------------------------------------------------------------------------------------------------
# DataFrame / SQL plans (the relational kernel)
# ---------------------------------------------------------------------------------------------------


def rename_plan(program: R.RelProgram, rng: random.Random) -> R.RelProgram:
    """``program`` with every inner column name and every reference's name fresh; the result's column
    names (observed: the schema of the relation that names the result's columns) and the tables are
    kept."""
    naming: Any = program.body.source if isinstance(program.body, R.Action) else program.body
    while isinstance(naming, R.Filter | R.Distinct | R.DropDuplicates | R.Sort | R.Limit):
        naming = naming.source

    def go(node: Any) -> Any:
        if isinstance(node, tuple):
            return tuple(go(x) for x in node)
        if isinstance(node, Schema):
            names = [f"c{rng.randrange(1000)}" for _ in node.fields]
            return dataclasses.replace(node, fields=tuple(dataclasses.replace(f, name=n)
                                                          for f, n in zip(node.fields, names, strict=True)))
        if isinstance(node, R.Table) or not isinstance(node, R.RNode):
            return node
        if isinstance(node, R.Col):
            return dataclasses.replace(node, name=f"r{rng.randrange(1000)}")
        changes = {f.name: go(getattr(node, f.name)) for f in dataclasses.fields(node)
                   if f.name != "loc" and not (node is naming and f.name == "schema")}
        return dataclasses.replace(node, **changes)

    return dataclasses.replace(program, body=go(program.body))


def generate_rel_congruence_pair(seed: int, index: int, max_depth: int
                                 ) -> tuple[R.RelProgram, R.RelProgram, tuple[str, ...], str] | None:
    """A relational fuzzer program against a renaming of itself, or against a renamed variant of it
    (the relational fuzzer's own variants: rewrites and, for about half, a mutation)."""
    from test_rel_soundness_fuzz import generate_pair

    pair = generate_pair(seed, index, max_depth)
    if pair is None:
        return None
    program, variant, steps, intended = pair
    rng = random.Random(f"rel-congruence:{seed}:{index}")
    if rng.random() < 0.5:
        return program, rename_plan(program, rng), ("rename",), "equivalent"
    return program, rename_plan(variant, rng), (*steps, "rename"), intended
