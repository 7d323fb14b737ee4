"""Proof views of a pair: sound rewritings of both programs that the proof methods can read.

Why: the methods of the CAV 2017 paper read bags of primitive values through program terms. Real jobs
return dictionaries (``countByValue``, ``collectAsMap``) and start with steps no theory describes well
(``lines.flatMap(lambda l: l.split())``, a parsing ``map``). Two rewritings, each applied to *both*
programs, turn such pairs into pairs the methods handle (``verification-conditions.md``, section 6):

- **Dictionary results as bags** (exact). A dict whose keys are unique is determined by its items, so
  ``countByValue(S)`` is observed as ``reduceByKey(add)(map(x -> (x, 1))(S))`` and ``collectAsMap(B)``,
  for a ``B`` whose keys are unique (a by-key aggregation, then filters or ``mapValues``), as ``B``:
  two such results are equal dicts exactly when the bags are equal.
- **Shared subprograms become inputs** (an over-approximation). A bag-valued subexpression that both
  programs compute identically (same text up to the names of lambda parameters, reading only the
  inputs) is replaced in both by one fresh input bag, with an arbitrary partitioning: what holds for
  every bag and every partitioning holds for the one the subexpression computes. When the subexpression
  may raise, the rewriting is used only if nothing else in either program may raise and both programs
  force the whole subexpression (no ``take``/``first``/``takeOrdered``, no ``cartesian``, whose right
  side Spark may never open): then both raise exactly when it does, with its error.

A view is for proofs only: its counterexamples are not counterexamples of the original pair (the
fresh input stands for no concrete input), so ``verifier.api`` keeps only a view's ``Proved``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from sparklite import ast as A
from sparklite import effects
from sparklite.typecheck import type_of
from sparklite.types import BagType, Type, contains_bag

__all__ = ["abstract_shared", "lower_dict_results", "proof_views"]

_SHARED = "shared_"


def proof_views(left: A.Program, right: A.Program) -> Iterator[tuple[str, A.Program, A.Program]]:
    """The views to try, each as (what was done, left, right); none when no rewriting applies."""
    lowered = lower_dict_results(left, right)
    base_l, base_r = lowered if lowered is not None else (left, right)
    if lowered is not None:
        yield "dictionary results compared as the bags of their items", base_l, base_r
    shared = abstract_shared(base_l, base_r)
    if shared is not None:
        names, sl, sr = shared
        what = (f"the subprogram{'s' if len(names) > 1 else ''} both programs share "
                f"({'; '.join(names)}) taken as {'inputs' if len(names) > 1 else 'an input'}")
        if lowered is not None:
            what = "dictionary results compared as bags, and " + what
        yield what, sl, sr


# ---------------------------------------------------------------------------------------------------
# Dictionary results
# ---------------------------------------------------------------------------------------------------


def lower_dict_results(left: A.Program, right: A.Program) -> tuple[A.Program, A.Program] | None:
    """Both programs with their dictionary results as bags, when both return a dict at the same
    places and every dict can be lowered; None otherwise."""
    ls, rs = _dict_slots(left), _dict_slots(right)
    if not ls or ls.keys() != rs.keys():
        return None
    out = []
    for program, slots in ((left, ls), (right, rs)):
        lowered = {pos: _as_bag(node) for pos, node in slots.items()}
        if any(v is None for v in lowered.values()):
            return None
        out.append(_replace_slots(program, lowered))  # type: ignore[arg-type]
    return out[0], out[1]


def _resolve(program: A.Program, e: A.Expr) -> tuple[A.Expr, str | None]:
    """A result expression, looking through a variable bound by the program's *last* let (moving the
    last let into the result changes no evaluation order)."""
    if isinstance(e, A.Var) and program.lets and program.lets[-1].name == e.name:
        return program.lets[-1].value, e.name
    return e, None


def _dict_slots(program: A.Program) -> dict[int, A.Expr]:
    """Positions (-1: the whole result; i: component i of a result tuple) holding a dict action."""
    body, _ = _resolve(program, program.body)
    if isinstance(body, A.CountByValue | A.CollectAsMap):
        return {-1: body}
    if isinstance(body, A.TupleExpr):
        return {i: x for i, x in enumerate(body.elems) if isinstance(x, A.CountByValue | A.CollectAsMap)}
    return {}


def _replace_slots(program: A.Program, lowered: dict[int, A.Expr]) -> A.Program:
    body, let_name = _resolve(program, program.body)
    lets = program.lets
    if let_name is not None:
        if _mentions(let_name, program.body, *(b.value for b in lets[:-1])) > 1:
            return program
        lets = lets[:-1]
    if -1 in lowered:
        body = lowered[-1]
    else:
        assert isinstance(body, A.TupleExpr)
        body = dataclasses.replace(body, elems=tuple(lowered.get(i, x) for i, x in enumerate(body.elems)))
    return dataclasses.replace(program, lets=lets, body=body)


def _mentions(name: str, *roots: A.Node) -> int:
    return sum(1 for r in roots for n in A.walk(r) if isinstance(n, A.Var) and n.name == name)


def _as_bag(node: A.Expr) -> A.Expr | None:
    if isinstance(node, A.CountByValue):
        one = A.Lambda((A.Param("x_cbv"),), A.TupleExpr((A.Var("x_cbv"), A.IntLit(1))))
        add = A.Lambda((A.Param("a_cbv"), A.Param("b_cbv")), A.BinOp("+", A.Var("a_cbv"), A.Var("b_cbv")))
        ident = A.Lambda((A.Param("v_cbv"),), A.Var("v_cbv"))
        return A.CombineByKey(ident, add, add, A.Map(one, node.source), surface="reduceByKey")
    if isinstance(node, A.CollectAsMap) and _unique_keys(node.source):
        return node.source
    return None


def _unique_keys(e: A.Expr) -> bool:
    """Keys are unique in a by-key aggregation's output, and stay so through filters and ``mapValues``."""
    if isinstance(e, A.BY_KEY_OPS):
        return True
    if isinstance(e, A.Filter):
        return _unique_keys(e.source)
    if isinstance(e, A.Map) and _keeps_key(e.fn):
        return _unique_keys(e.source)  # mapValues
    return False


def _keeps_key(fn: A.Fn) -> bool:
    """``lambda kv: (kv[0], ...)``: the function visibly keeps the key (as ``mapValues`` does)."""
    if not (isinstance(fn, A.Lambda) and len(fn.params) == 1 and isinstance(fn.body, A.TupleExpr)):
        return False
    body = fn.body
    if len(body.elems) != 2:
        return False
    first = body.elems[0]
    return (isinstance(first, A.Proj) and first.index == 0 and isinstance(first.tuple, A.Var)
            and first.tuple.name == fn.params[0].name)


# ---------------------------------------------------------------------------------------------------
# Shared subprograms
# ---------------------------------------------------------------------------------------------------


def abstract_shared(left: A.Program, right: A.Program) -> tuple[list[str], A.Program, A.Program] | None:
    """Both programs with their maximal shared bag subprograms replaced by fresh inputs, or None."""
    params = {p.name: p.type for p in left.params}
    if {p.name: p.type for p in right.params} != params:
        return None
    right_keys = {_key(n) for n in _candidates(right, params)}
    shared: list[A.Expr] = []
    for node in _candidates(left, params):  # pre-order: the first match on a path is the maximal one
        if _key(node) in right_keys and not any(_inside(node, s) for s in shared):
            shared.append(node)
    shared = [s for s in shared if _worth_it(s)]
    if not shared:
        return None
    if any(effects.driver_may_raise(s) for s in shared):
        return None
    raising = any(effects.may_raise(s) for s in shared)
    if raising and not (_forces_all(left) and _forces_all(right)):
        return None
    env = {n: t for n, t in params.items() if t is not None}
    names: list[str] = []
    table: dict[tuple, str] = {}
    new_params = list(left.params)
    for i, s in enumerate(shared):
        try:
            t = type_of(s, env)
        except Exception:  # noqa: BLE001 - an ill-typed view is no view
            return None
        if not isinstance(t, BagType) or contains_bag(t.elem):
            return None
        name = f"{_SHARED}{i}"
        table[_key(s)] = name
        names.append(_describe(s))
        new_params.append(A.Param(name, t))
    out = []
    for program in (left, right):
        replaced = _replace(program, table)
        if raising and _may_raise_outside(replaced):
            return None
        out.append(dataclasses.replace(replaced, params=tuple(new_params)))
    return names, out[0], out[1]


def _candidates(program: A.Program, params: dict[str, Type | None]) -> Iterator[A.Expr]:
    """Bag subexpressions reading only the inputs, outermost first; never a sorted bag (an input is a
    bag in no order, and the order of a sorted bag is observed)."""
    for root in (*(b.value for b in program.lets), program.body):
        for n in A.walk(root):
            if isinstance(n, A.BAG_OPS) and not A.sorted_bag(n) and _free_vars(n) <= set(params):
                yield n



def _worth_it(node: A.Expr) -> bool:
    """Abstract only what the term encoder cannot read: variable-length ``flatMap`` and the operators
    outside the paper (outer joins, ``distinct``, set operations, sorting), or string/float work."""
    for n in A.walk(node):
        fixed = isinstance(n, A.FlatMap) and isinstance(n.fn, A.Lambda) and isinstance(n.fn.body, A.TupleExpr)
        if isinstance(n, A.FlatMap) and not fixed:
            return True
        if isinstance(n, A.OuterJoin | A.Distinct | A.Subtract | A.Intersection | A.SortBy | A.ListComp
                      | A.NoneLit):
            return True
        if isinstance(n, A.Call) and "." in n.func:
            return True
        if isinstance(n, A.StrLit | A.FloatLit) or (isinstance(n, A.BinOp) and n.op in ("/", "in")):
            return True
    return False


def _forces_all(program: A.Program) -> bool:
    """Every bag the program builds is computed whole by whatever reads it, and every action runs:
    no ``take``/``first``/``takeOrdered``/``cartesian`` (which may leave elements or a side unread),
    and no action under a conditional or the right operand of ``and``/``or`` (which may not run)."""
    lazy = (A.Take, A.First, A.TakeOrdered, A.Cartesian)
    roots = (*(b.value for b in program.lets), program.body)
    if any(isinstance(n, lazy) for r in roots for n in A.walk(r)):
        return False
    for r in roots:
        for n in A.walk(r):
            conditional: tuple[A.Node, ...] = ()
            if isinstance(n, A.Ite):
                conditional = (n.then, n.orelse)
            elif isinstance(n, A.BinOp) and n.op in A.BOOL_OPS:
                conditional = (n.right,)
            if any(isinstance(m, (*A.BAG_OPS, *A.ACTIONS)) for c in conditional for m in A.walk(c)):
                return False
    used = {n.name for r in roots for n in A.walk(r) if isinstance(n, A.Var)}
    return all(b.name in used for b in program.lets if isinstance(b.value, A.BAG_OPS))


def _may_raise_outside(program: A.Program) -> bool:
    defs = {d.name: d for d in program.defs}
    bags = effects.bag_lets(program)
    return any(effects.may_raise(r, defs, bags) for r in (*(b.value for b in program.lets), program.body))


def _replace(program: A.Program, table: dict[tuple, str]) -> A.Program:
    # top-down: replace the outermost match first, so inner matches are never rewritten separately
    def walk(node: A.Node) -> A.Node:
        if isinstance(node, A.BAG_OPS) and _key(node) in table:
            return A.Var(table[_key(node)], loc=node.loc)
        changes = {}
        for f in dataclasses.fields(node):
            if f.name == "loc":
                continue
            value = getattr(node, f.name)
            if isinstance(value, A.Node):
                new = walk(value)
                if new is not value:
                    changes[f.name] = new
            elif isinstance(value, tuple) and any(isinstance(v, A.Node) for v in value):
                new_t = tuple(walk(v) if isinstance(v, A.Node) else v for v in value)
                if any(a is not b for a, b in zip(new_t, value, strict=True)):
                    changes[f.name] = new_t
        return dataclasses.replace(node, **changes) if changes else node

    lets = tuple(dataclasses.replace(b, value=walk(b.value)) for b in program.lets)
    return dataclasses.replace(program, lets=lets, body=walk(program.body))


def _inside(node: A.Node, outer: A.Node) -> bool:
    return any(n is node for n in A.walk(outer))


def _free_vars(node: A.Node) -> set[str]:
    """Names read by ``node`` that it does not bind; builtin calls are not names (a def is, so a
    subexpression calling one is not shared: the two programs' defs may differ)."""
    from sparklite.builtins import BUILTINS

    return {n for n in A.free_names(node) if n not in BUILTINS}


_key = A.alpha_key


def _describe(node: A.Expr) -> str:
    try:
        from sparklite.printer import pretty_expr

        text = pretty_expr(node)
    except Exception:  # noqa: BLE001 - the printer may not know every node yet
        text = type(node).__name__
    return text if len(text) <= 80 else text[:77] + "..."

