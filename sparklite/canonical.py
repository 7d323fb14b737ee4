"""The canonical form of a SparkLite program up to renaming of its bound names: what congruence compares.

Why: two programs that are the same kernel term except for the names their author chose for lambda
parameters, helper functions and intermediate variables compute the same thing with every outcome,
errors included (whatever Spark's choice among them); sparkeq proves such a pair at once, before any
solver query (``verifier.core.congruence``). ``program_key`` gives a value equal for two programs exactly
when one is the other with its bound names renamed consistently:

- the program's parameters are keyed by position (the checker already renamed RIGHT's to LEFT's: they
  are matched by position) and with their types;
- ``def`` s and ``let`` s are keyed by their position in the program (their order is kept: lets run in
  order, and which one raises first is observable), lambda and ``def`` parameters by their binding
  occurrence, so ``lambda x: x + 1`` and ``lambda y: y + 1`` have one key, ``lambda x, y: x`` and
  ``lambda y, x: x`` two;
- every other field (literals -- floats by their bits --, operators, builtin names, flags) is kept as
  it is, and source locations are ignored.

A call keys as everything its name could refer to (the parameter in scope, the ``def``, the builtin of
that spelling), so that a key never depends on how a call resolves between them: two programs whose
names shadow differently get different keys. The key is conservative:
equal keys mean equal programs up to renaming; different keys mean nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from sparklite import ast as A
from sparklite import builtins as B

Key = tuple[Any, ...]


def program_key(program: A.Program) -> Key:
    """``program`` up to renaming of its bound names (the module doc); its name is not part of it."""
    defs = {d.name: i for i, d in enumerate(program.defs)}
    if len(defs) != len(program.defs):
        return ("unkeyable", object())  # a name defined twice: equal to no other key
    keyer = _Keyer(defs)
    scope: dict[str, Any] = {}
    params = []
    for i, p in enumerate(program.params):
        scope[p.name] = ("param", i)
        params.append(str(p.type))
    out_defs = tuple(keyer.definition(i, d, scope) for i, d in enumerate(program.defs))
    lets = []
    for i, b in enumerate(program.lets):
        lets.append(keyer.key(b.value, scope))
        scope = {**scope, b.name: ("let", i)}
    return ("Program", tuple(params), out_defs, tuple(lets), keyer.key(program.body, scope))


class _Keyer:
    """One program's keying: its ``def`` s by position, a counter for binding occurrences."""

    def __init__(self, defs: Mapping[str, int]) -> None:
        self.defs = defs
        self.bound = 0

    def bind(self, params: tuple[A.Param, ...], scope: Mapping[str, Any]) -> tuple[dict[str, Any], Key]:
        inner = dict(scope)
        keys = []
        for p in params:
            self.bound += 1
            inner[p.name] = ("bound", self.bound)
            keys.append((inner[p.name], str(p.type) if p.type is not None else None))
        return inner, tuple(keys)

    def definition(self, i: int, d: A.Def, scope: Mapping[str, Any]) -> Key:
        inner, params = self.bind(d.params, scope)
        if isinstance(d, A.FunDef):
            return ("FunDef", i, params, str(d.ret) if d.ret is not None else None, self.key(d.body, inner))
        return ("ParamFunDef", i, params, self.key(d.fn, inner))

    def use(self, name: str, scope: Mapping[str, Any], call: bool) -> Any:
        """Everything a use of ``name`` could refer to: the binding in scope, the ``def`` and the builtin
        of that spelling (each None when there is none). Whatever rule picks among them, two uses with
        equal keys pick alike; a name bound nowhere keys as its spelling."""
        where = scope.get(name)
        if not call:
            return where if where is not None else ("named", name)
        fn = ("def", self.defs[name]) if name in self.defs else None
        builtin = name if name in A.BUILTINS or name in B.BUILTINS else None
        if where is None and fn is None:
            return ("named", name)
        return ("use", where, fn, builtin)
    def key(self, node: Any, scope: Mapping[str, Any]) -> Any:
        if isinstance(node, A.Lambda):
            inner, params = self.bind(node.params, scope)
            return ("Lambda", params, self.key(node.body, inner))
        if isinstance(node, A.Var):
            return ("Var", self.use(node.name, scope, call=False))
        if isinstance(node, A.Call):
            return ("Call", self.use(node.func, scope, call=True), self.key(node.args, scope))
        if isinstance(node, A.FnRef):
            return ("FnRef", self.use(node.name, scope, call=True))
        if isinstance(node, A.PApp):
            return ("PApp", self.use(node.name, scope, call=True), self.key(node.args, scope))
        if isinstance(node, A.Node):
            return (type(node).__name__, *(self.key(getattr(node, f.name), scope) for f in fields(node)
                                           if f.compare and f.name != "loc"))
        if isinstance(node, tuple):
            return tuple(self.key(x, scope) for x in node)
        if isinstance(node, float):
            return ("float", node.hex())
        return (type(node).__name__, node if isinstance(node, int | str | bool | None) else repr(node))


def nondeterminism(program: A.Program) -> tuple[str, ...]:
    """Where Spark's outcome of ``program`` (on given inputs and partitions) is one of several, so that
    congruence compares sets of outcomes: when it may raise, which failing task's error Spark reports."""
    from sparklite.effects import bag_lets, may_raise

    defs = {d.name: d for d in program.defs}
    bags = bag_lets(program)
    if any(may_raise(e, defs, bags) for e in (*(b.value for b in program.lets), program.body)):
        return ("which error Spark raises when several elements or tasks may fail (the first task to fail "
                "decides)",)
    return ()


def renamed(left: A.Program, right: A.Program) -> list[tuple[str, str]]:
    """The bound names ``right`` spells differently from ``left`` (LEFT's, RIGHT's), in order, for
    two programs with equal keys: what a user reads in the reason of a congruence proof."""
    out: list[tuple[str, str]] = []
    for a, b in zip(A.walk(left), A.walk(right), strict=False):
        if isinstance(a, A.Program) or type(a) is not type(b):
            continue
        attr = "func" if isinstance(a, A.Call) else "name"
        x, y = getattr(a, attr, None), getattr(b, attr, None)
        if isinstance(x, str) and isinstance(y, str) and x != y and (x, y) not in out:
            out.append((x, y))
    return out
