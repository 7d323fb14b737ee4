"""Variants of SparkLite programs for the soundness fuzzer: rewrites meant to preserve meaning, and
mutations meant to change it.

The fuzzer's oracle is the reference interpreter, never these labels: a "preserving" rewrite that turns
out not to preserve Spark's meaning (say, a filter reorder that now evaluates ``x // 0`` on an element
the other filter would have dropped) cannot make the fuzzer pass a wrong verdict, it only makes the pair
a not-equivalent one. The labels exist so the fuzzer can report how many pairs of each kind it drew and
spot a verifier that never proves anything.

Everything here is plain AST surgery on ``sparklite.ast``; it does not import the verifier, so a bug in
the verifier cannot leak into the oracle's inputs.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from sparklite import ast as A
from sparklite import effects
from sparklite.types import INT, BagType, TupleType

# ---------------------------------------------------------------------------------------------------
# Locating and replacing sub-expressions
# ---------------------------------------------------------------------------------------------------

Path = tuple[tuple[str, int | None], ...]  # (field name, index in a tuple field or None) from the root


def subterms(node: A.Node, path: Path = ()) -> Iterator[tuple[Path, A.Node]]:
    """Every node under ``node`` with the path that reaches it (pre-order)."""
    yield path, node
    for f in dataclasses.fields(node):
        if f.name == "loc":
            continue
        value = getattr(node, f.name)
        if isinstance(value, A.Node):
            yield from subterms(value, (*path, (f.name, None)))
        elif isinstance(value, tuple):
            for i, item in enumerate(value):
                if isinstance(item, A.Node):
                    yield from subterms(item, (*path, (f.name, i)))


def replace_at(node: A.Node, path: Path, new: A.Node) -> A.Node:
    """A copy of ``node`` with the sub-node at ``path`` replaced by ``new``."""
    if not path:
        return new
    (name, index), rest = path[0], path[1:]
    child = getattr(node, name)
    if index is None:
        return dataclasses.replace(node, **{name: replace_at(child, rest, new)})
    items = list(child)
    items[index] = replace_at(items[index], rest, new)
    return dataclasses.replace(node, **{name: tuple(items)})


# ---------------------------------------------------------------------------------------------------
# Function helpers
# ---------------------------------------------------------------------------------------------------

_fresh = {"next": 0}


def fresh_name(prefix: str = "fz") -> str:
    """A name no generated program uses (generators pick short lowercase names)."""
    _fresh["next"] += 1
    return f"_{prefix}{_fresh['next']}"


def _reset_fresh_names(program: A.Program) -> None:
    """Restart numbering just past the fresh names ``program`` already has, so that the same program and
    seed always give the same variant, names included."""
    used = [int(n.name[3:]) for n in A.walk(program)
            if isinstance(n, A.Var | A.Param) and n.name.startswith("_fz") and n.name[3:].isdigit()]
    _fresh["next"] = max(used, default=0)


def substitute(node: A.Node, env: dict[str, A.Expr]) -> A.Node:
    """``node`` with free occurrences of the names in ``env`` replaced (inner lambdas shadow)."""
    if isinstance(node, A.Var):
        return env.get(node.name, node)
    if isinstance(node, A.Lambda):
        inner = {k: v for k, v in env.items() if k not in {p.name for p in node.params}}
        return dataclasses.replace(node, body=substitute(node.body, inner)) if inner else node
    changes = {}
    for f in dataclasses.fields(node):
        if f.name == "loc":
            continue
        value = getattr(node, f.name)
        if isinstance(value, A.Node):
            changes[f.name] = substitute(value, env)
        elif isinstance(value, tuple) and any(isinstance(v, A.Node) for v in value):
            changes[f.name] = tuple(substitute(v, env) if isinstance(v, A.Node) else v for v in value)
    return dataclasses.replace(node, **changes) if changes else node


def apply(fn: A.Fn, *args: A.Expr) -> A.Expr:
    """``fn(args)`` as an expression: an inline lambda is beta-reduced (its parameters are replaced by
    the argument expressions, which are pure, so duplicating them cannot change the meaning); named and
    parametric functions are applied with ``Apply``."""
    if isinstance(fn, A.Lambda) and len(fn.params) == len(args):
        body = substitute(fn.body, {p.name: a for p, a in zip(fn.params, args, strict=True)})
        assert not isinstance(body, A.Lambda | A.FnRef | A.PApp)
        return body  # type: ignore[return-value]
    return A.Apply(fn, tuple(args))


def lam(n: int, body: Callable[..., A.Expr]) -> A.Lambda:
    names = [fresh_name() for _ in range(n)]
    return A.Lambda(tuple(A.Param(x) for x in names), body(*(A.Var(x) for x in names)))


def add_fn() -> A.Lambda:
    return lam(2, lambda a, b: A.BinOp("+", a, b))


def _defs(program: A.Program) -> dict[str, A.Def]:
    return {d.name: d for d in program.defs}


def may_raise(node: A.Node, program: A.Program) -> bool:
    """The interpreter's notion (``sparklite.effects``): rewrites never drop what may raise."""
    return effects.may_raise(node, _defs(program), effects.bag_lets(program))


# ---------------------------------------------------------------------------------------------------
# Rewrites (intended to preserve meaning) and mutations (intended to change it)
# ---------------------------------------------------------------------------------------------------

Rule = Callable[[A.Node, A.Program, random.Random], A.Node | None]


def _map_fusion(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    if isinstance(n, A.Map) and isinstance(n.source, A.Map):
        f, g = n.source.fn, n.fn
        if may_raise(f, p):  # g(f(x)) is beta-reduced: a g that ignores x would drop f's error
            return None
        return A.Map(lam(1, lambda x: apply(g, apply(f, x))), n.source.source)
    return None


def _map_fission(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    if isinstance(n, A.Map):
        return A.Map(lam(1, lambda x: apply(n.fn, x)), A.Map(lam(1, lambda x: x), n.source))
    return None


def _filter_reorder(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    if isinstance(n, A.Filter) and isinstance(n.source, A.Filter):
        if may_raise(n.fn, p) or may_raise(n.source.fn, p):
            return None
        return A.Filter(n.source.fn, A.Filter(n.fn, n.source.source))
    return None


def _filter_merge(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    if isinstance(n, A.Filter) and isinstance(n.source, A.Filter):
        outer, inner = n.fn, n.source.fn
        body = lambda x: A.Ite(apply(inner, x), apply(outer, x), A.BoolLit(False))  # noqa: E731
        return A.Filter(lam(1, body), n.source.source)
    return None


def _filter_pushdown(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    if isinstance(n, A.Filter) and isinstance(n.source, A.Map):
        f, pred = n.source.fn, n.fn
        if may_raise(f, p):  # a predicate that ignores its argument would drop f's error on dropped x
            return None
        return A.Map(f, A.Filter(lam(1, lambda x: apply(pred, apply(f, x))), n.source.source))
    return None


def _arith_identity(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    if isinstance(n, A.BinOp) and n.op in A.ARITH_OPS:
        choice = rng.randrange(5)
        if choice == 0:
            return A.BinOp("+", n, A.IntLit(0))
        if choice == 1:
            return A.BinOp("*", A.IntLit(1), n)
        if choice == 2:
            return A.Neg(A.Neg(n))
        if choice == 3 and n.op in ("+", "*") and not (may_raise(n.left, p) and may_raise(n.right, p)):
            return A.BinOp(n.op, n.right, n.left)  # swapping two raising operands swaps their errors
        if n.op == "-":
            return A.BinOp("+", n.left, A.Neg(n.right))
        return A.BinOp("-", n, A.IntLit(0))
    if isinstance(n, A.BinOp) and (may_raise(n.left, p) and may_raise(n.right, p)):
        return None  # the rewrites below swap the operands, and so which error comes first
    if isinstance(n, A.BinOp) and n.op in ("<", "<=", ">", ">="):
        flipped = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[n.op]
        return A.BinOp(flipped, n.right, n.left)
    if isinstance(n, A.BinOp) and n.op in ("==", "!="):
        return A.BinOp(n.op, n.right, n.left)
    return None


def _not_not(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    if isinstance(n, A.BinOp) and n.op in A.COMPARE_OPS:
        negated = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}[n.op]
        return A.Not(A.BinOp(negated, n.left, n.right))
    return None


def _count_to_aggregate(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    if isinstance(n, A.SimpleAgg) and n.kind == "count":
        return A.Aggregate(A.IntLit(0), lam(2, lambda a, x: A.BinOp("+", a, A.IntLit(1))), add_fn(), n.source)
    return None


def _sum_to_fold(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    if isinstance(n, A.SimpleAgg) and n.kind == "sum" and _elem_type(n.source, p) == INT:
        return A.Fold(A.IntLit(0), add_fn(), n.source)  # (a sum of bools is not a fold of bools)
    return None


def _elem_type(bag: A.Expr, p: A.Program) -> object:
    """The element type of a program-level bag expression of ``p``."""
    from sparklite.typecheck import type_of, typecheck

    pt = typecheck(p)
    t = type_of(bag, {**pt.params, **pt.lets}, p.defs)
    return getattr(t, "elem", None)


def _reduce_by_key_to_group(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    if isinstance(n, A.GroupByKeyAgg) and n.kinds in (("sum",), ("min",), ("max",)):
        kind = n.kinds[0]
        if kind == "sum":
            return A.ReduceByKey(add_fn(), n.source)
        return A.ReduceByKey(lam(2, lambda a, b: A.Call(kind, (a, b))), n.source)
    return None


def _first_bag(p: A.Program) -> A.Var | None:
    bags = [q.name for q in p.params if isinstance(q.type, BagType)]
    return A.Var(bags[0]) if bags else None


def _project_away_total(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    """``agg`` -> ``(R.count(), agg)[1]``: Python runs the count too, which never raises."""
    bag = _first_bag(p)
    if not isinstance(n, A.AGGREGATIONS) or bag is None:
        return None
    return A.Proj(A.TupleExpr((A.SimpleAgg("count", bag), n)), 1)


def _len_of_tuple(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    """``agg`` -> ``(agg, len((agg, R.count())))[0]``-style: a tuple of the value and a ``len``."""
    bag = _first_bag(p)
    if not isinstance(n, A.AGGREGATIONS) or bag is None:
        return None
    length = A.Proj(A.TupleExpr((A.SimpleAgg("count", bag), A.IntLit(1))), 1)
    return A.Proj(A.TupleExpr((n, length)), 0)


PRESERVING: dict[str, Rule] = {
    "project_away_total": _project_away_total,
    "len_of_tuple": _len_of_tuple,
    "map_fusion": _map_fusion,
    "map_fission": _map_fission,
    "filter_reorder": _filter_reorder,
    "filter_merge": _filter_merge,
    "filter_pushdown": _filter_pushdown,
    "arith_identity": _arith_identity,
    "not_not": _not_not,
    "count_to_aggregate": _count_to_aggregate,
    "sum_to_fold": _sum_to_fold,
    "group_to_reduce_by_key": _reduce_by_key_to_group,
}


def _const_shift(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    if isinstance(n, A.IntLit):
        return A.IntLit(n.value + rng.choice((-1, 1)))
    return None


_OP_SWAPS = {"+": "-", "-": "+", "*": "+", "<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=",
             "!=": "==", "and": "or", "or": "and", "//": "%", "%": "//"}


def _op_swap(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    if isinstance(n, A.BinOp) and n.op in _OP_SWAPS:
        return A.BinOp(_OP_SWAPS[n.op], n.left, n.right)  # type: ignore[arg-type]
    if isinstance(n, A.Call) and n.func in ("min", "max") and len(n.args) == 2:
        return A.Call("max" if n.func == "min" else "min", n.args)
    return None


def _drop_filter(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    return n.source if isinstance(n, A.Filter) else None


def _drop_map(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    return n.source if isinstance(n, A.Map) else None  # the type checker discards type-changing drops


def _fold_zero(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    if isinstance(n, A.Fold | A.Aggregate | A.FoldByKey | A.AggregateByKey) and isinstance(n.zero, A.IntLit):
        return dataclasses.replace(n, zero=A.IntLit(n.zero.value + rng.choice((-1, 1, 2))))
    return None


def _swap_sides(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    if isinstance(n, A.Join | A.Cartesian | A.Union):
        return dataclasses.replace(n, left=n.right, right=n.left)
    return None


def _agg_kind(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    if isinstance(n, A.SimpleAgg):
        others = [k for k in ("count", "sum", "min", "max") if k != n.kind]
        return A.SimpleAgg(rng.choice(others), n.source)  # type: ignore[arg-type]
    return None


def _count_trap(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    """The classic wrong count: fold(0, lambda a, x: a + 1) counts partitions at the driver."""
    if isinstance(n, A.SimpleAgg) and n.kind == "count":
        return A.Fold(A.IntLit(0), lam(2, lambda a, x: A.BinOp("+", a, A.IntLit(1))), n.source)
    return None


def _reduce_for_fold(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    """reduce instead of fold: raises on an empty bag."""
    if isinstance(n, A.Fold):
        return A.Reduce(n.op, n.source)
    if isinstance(n, A.SimpleAgg) and n.kind == "sum":
        return A.Reduce(add_fn(), n.source)
    return None


def _distinct(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    if isinstance(n, A.Distinct):
        return n.source
    if isinstance(n, A.Map | A.Filter):
        return A.Distinct(n)
    return None


def _project_away_partial(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    """``agg`` -> ``(R.reduce(lambda a, b: a), agg)[1]``: Python raises on an empty R."""
    bag = _first_bag(p)
    if not isinstance(n, A.AGGREGATIONS) or bag is None:
        return None
    return A.Proj(A.TupleExpr((A.Reduce(lam(2, lambda a, b: a), bag), n)), 1)


def _drop_projected(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    """``(e0, ..., en)[i]`` -> ``ei`` even when another component may raise (the old frontend's bug)."""
    if isinstance(n, A.Proj) and isinstance(n.tuple, A.TupleExpr):
        return n.tuple.elems[n.index]
    return None


# -- rewrites over strings and floats (the "rich" flavor) ----------------------------------------------


def _float_double(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    """``x * 2.0`` <-> ``x + x`` (exact in IEEE doubles, NaN and infinities included)."""
    if isinstance(n, A.BinOp) and n.op == "*" and isinstance(n.right, A.FloatLit) and n.right.value == 2.0 \
            and not may_raise(n.left, p):
        return A.BinOp("+", n.left, n.left)
    if isinstance(n, A.BinOp) and n.op == "+" and n.left == n.right and _is_float_expr(n.left) \
            and not may_raise(n.left, p):
        return A.BinOp("*", n.left, A.FloatLit(2.0))
    return None


def _is_float_expr(e: A.Node) -> bool:
    return isinstance(e, A.FloatLit) or (isinstance(e, A.BinOp) and e.op == "/") or (
        isinstance(e, A.Call) and e.func in ("float", "math.sqrt"))


def _startswith_slice(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    """``s.startswith(lit)`` -> ``s[:len(lit)] == lit``."""
    if isinstance(n, A.Call) and n.func == "str.startswith" and isinstance(n.args[1], A.StrLit):
        lit = n.args[1]
        head = A.Call("py.slice", (n.args[0], A.NoneLit(), A.IntLit(len(lit.value))))
        return A.BinOp("==", head, lit)
    return None


def _len_nonempty(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    """``s != ""`` -> ``len(s) > 0`` for a string ``s``."""
    if isinstance(n, A.BinOp) and n.op == "!=" and n.right == A.StrLit(""):
        return A.BinOp(">", A.Call("len", (n.left,)), A.IntLit(0))
    return None


def _float_assoc(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    """``(a + b) + c`` -> ``a + (b + c)``: the same over the reals, not over doubles."""
    if isinstance(n, A.BinOp) and n.op == "+" and isinstance(n.left, A.BinOp) and n.left.op == "+" \
            and (_is_float_expr(n.right) or _is_float_expr(n.left.left)):
        return A.BinOp("+", n.left.left, A.BinOp("+", n.left.right, n.right))
    return None


def _split_separator(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    """``s.split()`` <-> ``s.split(" ")``: runs of spaces and empty strings differ."""
    if isinstance(n, A.Call) and n.func == "str.split" and len(n.args) == 1:
        return A.Call("str.split", (n.args[0], A.StrLit(" ")))
    if isinstance(n, A.Call) and n.func == "str.split" and len(n.args) == 2:
        return A.Call("str.split", (n.args[0],))
    return None


def _case_fold(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    """``s.strip()``/``s.upper()`` -> ``s.lower()``."""
    if isinstance(n, A.Call) and n.func in ("str.strip", "str.upper"):
        return A.Call("str.lower", n.args)
    return None


def _count_by_value_as_reduce(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    """``countByValue()`` -> ``map(x -> (x, 1)).reduceByKey(add).collectAsMap()``: the same dict on every
    RDD with partitions, but only ``countByValue`` raises on one with none (an empty text file)."""
    if not isinstance(n, A.CountByValue):
        return None
    x, a, b = fresh_name("x"), fresh_name("a"), fresh_name("b")
    one = A.Lambda((A.Param(x),), A.TupleExpr((A.Var(x), A.IntLit(1))))
    add = A.Lambda((A.Param(a), A.Param(b)), A.BinOp("+", A.Var(a), A.Var(b)))
    v = fresh_name("v")
    ident = A.Lambda((A.Param(v),), A.Var(v))
    return A.CollectAsMap(A.CombineByKey(ident, add, add, A.Map(one, n.source), surface="reduceByKey"))


def _top_as_sorted_take(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    """``top(k, key)`` -> ``sortBy(key, ascending=False).take(k)``: the same list (modulo ties) on every
    RDD with partitions, but only ``top`` raises on one with none."""
    if not (isinstance(n, A.TakeOrdered) and n.top):
        return None
    x = fresh_name("x")
    key = n.key if n.key is not None else A.Lambda((A.Param(x),), A.Var(x))
    return A.Take(n.count, A.SortBy(key, False, n.source))


# -- signed zeros (issue 26): -0.0 and 0.0 are equal under == but different outputs ------------------

_float_cache: dict[int, tuple[A.Program, frozenset[int]]] = {}


def _float_ids(p: A.Program) -> frozenset[int]:
    """The ids of ``p``'s expression nodes of type Float. The checker types the nodes of its elaborated
    copy of ``p``, which has the same shape: walking both in step maps them back."""
    from sparklite.typecheck import typecheck
    from sparklite.types import FLOAT

    cached = _float_cache.get(id(p))
    if cached is not None and cached[0] is p:
        return cached[1]
    pt = typecheck(p)
    mine, theirs = list(subterms(p)), list(subterms(pt.program))
    found: set[int] = set()
    if len(mine) == len(theirs):
        for (_, a), (_, b) in zip(mine, theirs, strict=True):
            try:
                if type(a) is type(b) and isinstance(b, A.Expr) and pt.type_of_node(b) == FLOAT:
                    found.add(id(a))
            except KeyError:
                continue
    _float_cache.clear()
    _float_cache[id(p)] = (p, frozenset(found))
    return frozenset(found)


def _is_float_node(n: A.Node, p: A.Program) -> bool:
    return isinstance(n, A.Expr) and id(n) in _float_ids(p)


def _minus_minus(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    """A float ``e`` -> ``-(-e)`` (negation is exact, signs and NaN included)."""
    if _is_float_node(n, p) and not isinstance(n, A.Neg):
        return A.Neg(A.Neg(n))
    return None


def _zero_operand(op: str) -> Rule:
    """A float ``e`` -> ``e - 0.0`` (exact: ``-0.0 - 0.0`` is ``-0.0``) or ``e + 0.0`` (equal under
    ``==``, but ``-0.0 + 0.0`` is ``0.0``: a mutation)."""
    def rule(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
        if _is_float_node(n, p) and not may_raise(n, p):
            return A.BinOp(op, n, A.FloatLit(0.0))
        return None

    return rule


def _abs_of_negation(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    """``abs(e)`` -> ``abs(-e)`` for a float ``e``."""
    if isinstance(n, A.Call) and n.func == "abs" and len(n.args) == 1 and _is_float_node(n.args[0], p):
        return A.Call("abs", (A.Neg(n.args[0]),))
    return None


def _negation_as_subtraction(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    """``-e`` -> ``0.0 - e`` for a float ``e`` (``0.0 - 0.0`` is ``0.0``, ``-(0.0)`` is ``-0.0``), or a
    float ``e`` -> ``0.0 - (-e)``."""
    if isinstance(n, A.Neg) and _is_float_node(n, p):
        return A.BinOp("-", A.FloatLit(0.0), n.operand)
    if _is_float_node(n, p) and not may_raise(n, p) and rng.random() < 0.5:
        return A.BinOp("-", A.FloatLit(0.0), A.Neg(n))
    return None


def _abs_as_conditional(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    """``abs(e)`` -> ``e if e >= 0.0 else -e`` (``abs(-0.0)`` is ``0.0``, the conditional keeps ``-0.0``)."""
    if isinstance(n, A.Call) and n.func == "abs" and len(n.args) == 1 and _is_float_node(n.args[0], p) \
            and not may_raise(n.args[0], p):
        e = n.args[0]
        return A.Ite(A.BinOp(">=", e, A.FloatLit(0.0)), e, A.Neg(e))
    return None


def _flip_zero_sign(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    """A literal ``0.0`` <-> ``-0.0``."""
    if isinstance(n, A.FloatLit) and n.value == 0.0:
        return A.FloatLit(-n.value)
    return None


RICH_PRESERVING: dict[str, Rule] = {
    "float_double": _float_double,
    "startswith_slice": _startswith_slice,
    "len_nonempty": _len_nonempty,
    "minus_minus": _minus_minus,
    "minus_zero": _zero_operand("-"),
    "abs_of_negation": _abs_of_negation,
}

RICH_MUTATING: dict[str, Rule] = {
    "float_assoc": _float_assoc,
    "split_separator": _split_separator,
    "case_fold": _case_fold,
    "count_by_value_as_reduce": _count_by_value_as_reduce,
    "top_as_sorted_take": _top_as_sorted_take,
    "plus_zero": _zero_operand("+"),
    "negation_as_subtraction": _negation_as_subtraction,
    "abs_as_conditional": _abs_as_conditional,
    "flip_zero_sign": _flip_zero_sign,
}


MUTATING: dict[str, Rule] = {
    "project_away_partial": _project_away_partial,
    "drop_projected": _drop_projected,
    "const_shift": _const_shift,
    "op_swap": _op_swap,
    "drop_filter": _drop_filter,
    "drop_map": _drop_map,
    "fold_zero": _fold_zero,
    "swap_sides": _swap_sides,
    "agg_kind": _agg_kind,
    "count_trap": _count_trap,
    "reduce_for_fold": _reduce_for_fold,
    "distinct": _distinct,
}


def _take_ordered_as_sort(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    """``takeOrdered(n, k)`` = ``sortBy(k).take(n)`` and ``top(n, k)`` = ``sortBy(k, False).take(n)``:
    both a prefix of a stable sort of the input sequence (only with a literal count: ``takeOrdered(0)``
    runs no job, ``take(0)`` of a sort runs its sampling job)."""
    if isinstance(n, A.TakeOrdered) and n.key is not None and isinstance(n.count, A.IntLit) \
            and n.count.value > 0:
        return A.Take(n.count, A.SortBy(n.key, not n.top, n.source))
    if isinstance(n, A.Take) and isinstance(n.source, A.SortBy) and isinstance(n.count, A.IntLit) \
            and n.count.value > 0:
        return A.TakeOrdered(n.count, n.source.key, n.source.source, top=not n.source.ascending)
    return None


def _flip_sort(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    if isinstance(n, A.SortBy):
        return dataclasses.replace(n, ascending=not n.ascending)
    if isinstance(n, A.TakeOrdered):
        return dataclasses.replace(n, top=not n.top)
    return None


def _coarser_key(n: A.Node, p: A.Program, rng: random.Random) -> A.Node | None:
    """A key that orders alike but ties more (``kv`` -> ``kv[0]``): only the order of ties changes."""
    if isinstance(n, A.SortBy | A.TakeOrdered) and isinstance(n.key, A.Lambda) and len(n.key.params) == 1 \
            and isinstance(n.key.body, A.Var) and n.key.body.name == n.key.params[0].name:
        return dataclasses.replace(n, key=lam(1, lambda x: A.Proj(x, 0)))
    return None


TIES_PRESERVING: dict[str, Rule] = {"take_ordered_as_sort": _take_ordered_as_sort}
TIES_MUTATING: dict[str, Rule] = {"swap_sides": _swap_sides, "flip_sort": _flip_sort,
                                  "coarser_key": _coarser_key}


def ties_program(rng: random.Random) -> A.Program:
    """A random ordered result over pairs of ints whose keys tie often (the fuzzer's first components
    are drawn from 0..2): ``sortBy(k).collect()``, ``sortBy(k).take(n)``, ``takeOrdered(n, k)`` or
    ``top(n, k)`` of a union, a filtered or mapped union, a ``reduceByKey`` (a shuffle) or a union of
    two of those (Spark zips their partitions), with an injective key or one that ties."""
    pair = A.Param("r", BagType(TupleType((INT, INT)))), A.Param("s", BagType(TupleType((INT, INT))))
    r, s = A.Var("r"), A.Var("s")
    bags: list[Callable[[], A.Expr]] = [
        lambda: A.Union(r, s),
        lambda: A.Union(A.Filter(lam(1, lambda x: A.BinOp(">", A.Proj(x, 1), A.IntLit(0))), r), s),
        lambda: A.Union(r, A.Map(lam(1, lambda x: A.TupleExpr((A.Proj(x, 0), A.Neg(A.Proj(x, 1))))), s)),
        lambda: A.ReduceByKey(add_fn(), A.Union(r, s)),
        lambda: A.Union(A.ReduceByKey(add_fn(), r), A.ReduceByKey(add_fn(), s)),
        lambda: r,
    ]
    keys: list[Callable[[], A.Lambda]] = [
        lambda: lam(1, lambda x: A.Proj(x, 0)),
        lambda: lam(1, lambda x: A.Proj(x, 1)),
        lambda: lam(1, lambda x: x),
        lambda: lam(1, lambda x: A.BinOp("+", A.Proj(x, 0), A.Proj(x, 1))),
        lambda: lam(1, lambda x: A.TupleExpr((A.Proj(x, 1), A.Proj(x, 0)))),
    ]
    bag, key = rng.choice(bags)(), rng.choice(keys)()
    count = A.IntLit(rng.randint(1, 4))
    body = rng.choice([
        lambda: A.Collect(A.SortBy(key, rng.random() < 0.6, bag)),
        lambda: A.Take(count, A.SortBy(key, rng.random() < 0.6, bag)),
        lambda: A.TakeOrdered(count, key, bag, top=rng.random() < 0.4),
    ])()
    return A.Program("T", pair, (), (), body)


def ties_variant(program: A.Program, rng: random.Random) -> Variant | None:
    """A variant of a ``ties_program``: the generic and the sort rewrites, then (half the time) a swap of
    a union's sides, a flipped direction or a coarser key."""
    return make_variant(program, rng, mutate=rng.random() < 0.5, steps=rng.choice((1, 2)),
                        rules=({**PRESERVING, **TIES_PRESERVING}, TIES_MUTATING))


# ---------------------------------------------------------------------------------------------------
# Variants of whole programs
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    program: A.Program
    steps: tuple[str, ...]  # rule names applied, in order
    intended: str  # "equivalent" when only preserving rewrites were applied, else "not_equivalent"


def _roots(program: A.Program) -> list[tuple[str, int | None]]:
    """Where rewrites may happen: the lets' values and the body (defs are left alone: shared helpers)."""
    return [("lets", i) for i in range(len(program.lets))] + [("body", None)]


def apply_rule(program: A.Program, name: str, rule: Rule, rng: random.Random) -> A.Program | None:
    """Apply ``rule`` at a random place where it applies, or None when it applies nowhere."""
    spots: list[tuple[Path, A.Node]] = []
    for field_name, index in _roots(program):
        root = program.lets[index] if index is not None else program.body
        base: Path = ((field_name, index),)
        for path, node in subterms(root):
            if isinstance(node, A.LetBinding):
                continue
            spots.append(((*base, *path), node))
    rng.shuffle(spots)
    for path, node in spots:
        new = rule(node, program, rng)
        if new is not None and new != node:
            result = replace_at(program, path, new)
            assert isinstance(result, A.Program)
            return result
    return None


def make_variant(program: A.Program, rng: random.Random, mutate: bool, steps: int = 2,
                 rich: bool = False, rules: tuple[dict[str, Rule], dict[str, Rule]] | None = None
                 ) -> Variant | None:
    """A variant of ``program``: ``steps`` preserving rewrites, plus one mutation when ``mutate``; with
    ``rich``, the rewrites over strings and floats join the generic ones."""
    _reset_fresh_names(program)
    applied: list[str] = []
    current = program
    preserving = {**PRESERVING, **RICH_PRESERVING} if rich else PRESERVING
    mutating = {**MUTATING, **RICH_MUTATING} if rich else MUTATING
    if rules is not None:  # (preserving, mutating) of a family of its own
        preserving, mutating = rules
    for _ in range(steps):
        names = list(preserving)
        rng.shuffle(names)
        for name in names:
            nxt = apply_rule(current, name, preserving[name], rng)
            if nxt is not None:
                current, applied = nxt, [*applied, name]
                break
    if mutate:
        names = list(mutating)
        rng.shuffle(names)
        for name in names:
            nxt = apply_rule(current, name, mutating[name], rng)
            if nxt is not None:
                current, applied = nxt, [*applied, name]
                break
        else:
            return None
    if current == program:
        return None
    return Variant(current, tuple(applied), "not_equivalent" if mutate else "equivalent")


# ---------------------------------------------------------------------------------------------------
# JSON values (as in a Result's counterexample) back into interpreter values
# ---------------------------------------------------------------------------------------------------


def from_json(value: object, t: object) -> object:
    """A JSON value of SparkLite type ``t`` as a runtime value (``sparklite.json_values``)."""
    from sparklite.json_values import from_json as convert

    return convert(value, t)  # type: ignore[arg-type]


def counterexample_args(
    program: A.Program, inputs: dict, partitions: dict | None
) -> tuple[dict, dict | None]:
    """Interpreter arguments for a counterexample's JSON ``inputs`` and ``partitions``."""

    types = {p.name: p.type for p in program.params}
    values = {name: from_json(v, types[name]) for name, v in inputs.items()}
    if partitions is None:
        return values, None
    parts = {}
    for name, ps in partitions.items():
        if ps is None:
            continue
        t = types[name]
        assert isinstance(t, BagType)
        parts[name] = tuple(tuple(from_json(x, t.elem) for x in p) for p in ps)
    return values, parts
