"""Random well-typed SparkLite programs, inputs and partitionings (for differential and soundness tests).

``random_program`` builds a program top-down from types, so every program it returns type-checks
(``sparklite.typecheck``), and over many draws it uses every operator and expression form: lets (bag
lets and aggregate lets whose values later lambdas close over), named defs, parametric defs, closures
over scalar inputs, tuples, nested tuples, projections, every keyed operator, every aggregation, tuple
results mixing bags and values, and the driver shapes Python code has (actions whose results are
projected away, ``len`` of tuples of actions, lets nobody reads). Divisors are mostly nonzero constants
but sometimes expressions that can be zero, so ``ZeroDivisionError`` outcomes occur; reductions of
possibly empty bags give ``ValueError``.

Everything the generator emits is deterministic under Spark for a fixed input partitioning, including
non-associative or non-commutative ``fold``/``aggregate`` functions (the driver combines partition
results in partition order) and non-commutative ``mergeCombiners`` (in local mode Spark fetches map
outputs in map-partition order; the differential test against real Spark keeps checking that).

``random_variant`` makes a small type-preserving change (a constant, an operator, the order of a union,
``fold`` written as ``aggregate`` ...) for soundness fuzzing of program *pairs*; some of its changes keep
the meaning (possibly only for some partitionings), most do not.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sparklite import ast as A
from sparklite.partitions import random_partitioning
from sparklite.types import BOOL, INT, BagType, BoolType, IntType, TupleType, Type, is_ordered
from sparklite.values import Partitioning

__all__ = ["GenConfig", "random_program", "random_inputs", "random_partitionings", "random_value",
           "random_variant"]

P_II = TupleType((INT, INT))
P_IP = TupleType((INT, P_II))          # (Int, (Int, Int)): join results, nested tuples
P_PI = TupleType((P_II, INT))          # ((Int, Int), Int): tuple keys
P_BI = TupleType((BOOL, INT))          # (Bool, Int): bool keys
P_IB = TupleType((INT, BOOL))

INPUT_ELEM_TYPES: tuple[Type, ...] = (INT, INT, P_II, P_II, P_IP, P_PI, P_BI)
BAG_ELEM_TYPES: tuple[Type, ...] = (INT, INT, INT, P_II, P_II, P_II, P_IP, P_PI, P_BI, P_IB, BOOL)


@dataclass(frozen=True)
class GenConfig:
    """Knobs of the generator (the defaults suit fast differential tests on tiny inputs)."""

    max_depth: int = 3           # nesting of bag operators below a let or the body
    expr_depth: int = 2          # nesting of basic expressions inside UDFs
    max_bag_params: int = 2
    max_scalar_params: int = 2
    max_defs: int = 3
    max_lets: int = 3
    const_range: tuple[int, int] = (-5, 5)
    p_var_divisor: float = 0.25  # chance a divisor is an expression (maybe zero), not a nonzero constant
    p_tuple_body: float = 0.25
    p_driver_shape: float = 0.2  # a driver value inside a projected tuple or a len() (strict evaluation)
    p_unused_action: float = 0.25  # an extra let nobody reads: an action that runs for its effect


class _Gen:
    def __init__(self, rng: random.Random, cfg: GenConfig) -> None:
        self.rng = rng
        self.cfg = cfg
        self.counter = 0
        self.bags: list[tuple[str, Type]] = []      # bag variables in scope: (name, element type)
        self.scalars: list[tuple[str, Type]] = []   # program-level basic variables (params, lets)
        self.fundefs: list[tuple[str, tuple[Type, ...], Type]] = []
        self.pfundefs: list[tuple[str, tuple[Type, ...], tuple[Type, ...], Type]] = []
        self.defs: list[A.Def] = []

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    # -- basic expressions --------------------------------------------------------------------------

    def const(self, t: Type) -> A.Expr:
        if isinstance(t, IntType):
            return A.IntLit(self.rng.randint(*self.cfg.const_range))
        if isinstance(t, BoolType):
            return A.BoolLit(self.chance(0.5))
        assert isinstance(t, TupleType)
        return A.TupleExpr(tuple(self.const(x) for x in t.elems))

    def leaves(self, t: Type, scope: list[tuple[str, Type]]) -> list[A.Expr]:
        """Variables of type ``t`` and projections of tuple variables down to ``t``."""
        out: list[A.Expr] = []

        def paths(e: A.Expr, et: Type) -> None:
            if et == t:
                out.append(e)
            if isinstance(et, TupleType):
                for i, x in enumerate(et.elems):
                    paths(A.Proj(e, i), x)

        for name, vt in scope:
            paths(A.Var(name), vt)
        return out

    def basic(self, t: Type, scope: list[tuple[str, Type]], depth: int) -> A.Expr:  # noqa: C901
        rng = self.rng
        leaves = self.leaves(t, scope)
        if depth <= 0 or self.chance(0.25):
            if leaves and self.chance(0.8):
                return rng.choice(leaves)
            return self.const(t)
        if isinstance(t, TupleType):
            if self.chance(0.15):
                return A.Ite(self.basic(BOOL, scope, depth - 1), self.basic(t, scope, depth - 1),
                             self.basic(t, scope, depth - 1))
            if is_ordered(t) and self.chance(0.1):  # Python orders tuples lexicographically
                return A.Call(rng.choice(["min", "max"]), (self.basic(t, scope, depth - 1),
                                                           self.basic(t, scope, depth - 1)))
            return A.TupleExpr(tuple(self.basic(x, scope, depth - 1) for x in t.elems))
        sub = depth - 1
        if isinstance(t, IntType):
            choices: list[Callable[[], A.Expr]] = [
                lambda: A.BinOp(rng.choice(["+", "-", "*"]), self.basic(INT, scope, sub),
                                self.basic(INT, scope, sub)),
                lambda: A.BinOp(rng.choice(["+", "-"]), self.basic(INT, scope, sub), self.const(INT)),
                lambda: A.BinOp(rng.choice(["//", "%"]), self.basic(INT, scope, sub),
                                self.divisor(scope, sub)),
                lambda: A.Neg(self.basic(INT, scope, sub)),
                lambda: A.Ite(self.basic(BOOL, scope, sub), self.basic(INT, scope, sub),
                              self.basic(INT, scope, sub)),
                lambda: A.Call(rng.choice(["min", "max"]), (self.basic(INT, scope, sub),
                                                            self.basic(INT, scope, sub))),
                lambda: A.Call("abs", (self.basic(INT, scope, sub),)),
            ]
            if leaves:
                choices += [lambda: rng.choice(leaves)] * 2
        else:
            choices = [
                lambda: A.BinOp(rng.choice(["<", "<=", ">", ">=", "==", "!="]), self.basic(INT, scope, sub),
                                self.basic(INT, scope, sub)),
                lambda: A.BinOp(rng.choice(["and", "or"]), self.basic(BOOL, scope, sub),
                                self.basic(BOOL, scope, sub)),
                lambda: A.Not(self.basic(BOOL, scope, sub)),
                lambda: A.BinOp(rng.choice(["==", "!="]), self.basic(P_II, scope, sub),
                                self.basic(P_II, scope, sub)),
                lambda: A.Call(rng.choice(["min", "max"]), (self.basic(BOOL, scope, sub),
                                                            self.basic(BOOL, scope, sub))),
            ]
            if leaves:
                choices += [lambda: rng.choice(leaves)] * 2
        calls = [d for d in self.fundefs if d[2] == t]
        if calls:
            choices.append(lambda: self.call_def(rng.choice(calls), scope, sub))
        papps = [d for d in self.pfundefs if d[3] == t]
        if papps:
            choices.append(lambda: self.apply_pdef(rng.choice(papps), scope, sub))
        return rng.choice(choices)()

    def divisor(self, scope: list[tuple[str, Type]], depth: int) -> A.Expr:
        if self.chance(self.cfg.p_var_divisor):
            return self.basic(INT, scope, depth)
        return A.IntLit(self.rng.choice([1, 2, 3, -2, -3, 4]))

    def call_def(self, d: tuple[str, tuple[Type, ...], Type], scope: list[tuple[str, Type]],
                 depth: int) -> A.Expr:
        name, params, _ = d
        return A.Call(name, tuple(self.basic(p, scope, depth) for p in params))

    def apply_pdef(self, d: tuple[str, tuple[Type, ...], tuple[Type, ...], Type],
                   scope: list[tuple[str, Type]], depth: int) -> A.Expr:
        name, outer, inner, _ = d
        fn = A.PApp(name, tuple(self.basic(p, scope, depth) for p in outer))
        return A.Apply(fn, tuple(self.basic(p, scope, depth) for p in inner))

    # -- functions ----------------------------------------------------------------------------------

    def fn(self, params: tuple[Type, ...], ret: Type, scope: list[tuple[str, Type]]) -> A.Fn:
        """A function value: mostly an inline lambda (closing over ``scope``), sometimes a def."""
        refs = [d for d in self.fundefs if d[1] == params and d[2] == ret]
        if refs and self.chance(0.3):
            return A.FnRef(self.rng.choice(refs)[0])
        prefs = [d for d in self.pfundefs if d[2] == params and d[3] == ret]
        if prefs and self.chance(0.3):
            name, outer, _, _ = self.rng.choice(prefs)
            return A.PApp(name, tuple(self.basic(p, scope, 1) for p in outer))
        names = [self.fresh("x") for _ in params]
        inner = scope + list(zip(names, params, strict=True))
        body = self.basic(ret, inner, self.cfg.expr_depth)
        return A.Lambda(tuple(A.Param(n, t) for n, t in zip(names, params, strict=True)), body)

    def make_defs(self) -> None:
        for _ in range(self.rng.randint(0, self.cfg.max_defs)):
            kind = self.rng.random()
            if kind < 0.5:
                params = self.rng.choice([(INT,), (INT, INT), (P_II,), (INT, INT)])
                ret = self.rng.choice([INT, INT, BOOL])
                names = [self.fresh("a") for _ in params]
                body = self.basic(ret, list(zip(names, params, strict=True)), self.cfg.expr_depth)
                name = self.fresh("f")
                fparams = tuple(A.Param(n, t) for n, t in zip(names, params, strict=True))
                self.defs.append(A.FunDef(name, fparams, ret, body))
                self.fundefs.append((name, params, ret))
            else:
                outer = (INT,)
                inner = self.rng.choice([(INT,), (INT, INT), (INT,)])
                ret = self.rng.choice([INT, BOOL])
                onames = [self.fresh("k") for _ in outer]
                inames = [self.fresh("y") for _ in inner]
                scope = list(zip(onames, outer, strict=True)) + list(zip(inames, inner, strict=True))
                body = self.basic(ret, scope, self.cfg.expr_depth)
                name = self.fresh("p")
                lam = A.Lambda(tuple(A.Param(n, t) for n, t in zip(inames, inner, strict=True)), body)
                oparams = tuple(A.Param(n, t) for n, t in zip(onames, outer, strict=True))
                self.defs.append(A.ParamFunDef(name, oparams, lam))
                self.pfundefs.append((name, outer, inner, ret))

    # -- bags ---------------------------------------------------------------------------------------

    def bag_var(self, t: Type) -> A.Expr | None:
        cands = [n for n, et in self.bags if et == t]
        if not cands:
            return None
        # favour lets (later in the list) so they get used
        return A.Var(cands[-1] if self.chance(0.5) else self.rng.choice(cands))

    def bag(self, t: Type, depth: int) -> A.Expr:  # noqa: C901
        rng = self.rng
        scope = self.scalars
        var = self.bag_var(t)
        if depth <= 0 or (var is not None and self.chance(0.3)):
            if var is not None:
                return var
            name, st = rng.choice(self.bags)
            return A.Map(self.fn((st,), t, scope), A.Var(name))
        sub = depth - 1
        choices: list[Callable[[], A.Expr]] = [
            lambda: self.map_from_any(t, sub),
            lambda: A.Filter(self.fn((t,), BOOL, scope), self.bag(t, sub)),
            lambda: A.FlatMap(self.fn((t,), TupleType((t,) * rng.randint(1, 3)), scope), self.bag(t, sub)),
            lambda: A.Union(self.bag(t, sub), self.bag(t, sub)),
            lambda: A.Distinct(self.bag(t, sub)),
        ]
        if isinstance(t, TupleType) and len(t.elems) == 2:
            k, v = t.elems
            choices.append(lambda: A.Cartesian(self.bag(k, sub), self.bag(v, sub)))
            if isinstance(v, TupleType) and len(v.elems) == 2:
                choices += [lambda: A.Join(self.bag(TupleType((k, v.elems[0])), sub),
                                           self.bag(TupleType((k, v.elems[1])), sub))] * 3
            choices += [lambda: self.by_key(k, v, sub)] * 3
        if var is not None:
            choices.append(lambda: var)
        return rng.choice(choices)()

    def map_from_any(self, t: Type, depth: int) -> A.Expr:
        s = self.rng.choice(BAG_ELEM_TYPES)
        return A.Map(self.fn((s,), t, self.scalars), self.bag(s, depth))

    def by_key(self, k: Type, v: Type, depth: int) -> A.Expr:
        rng = self.rng
        scope = self.scalars
        kinds = ["fold", "reduce", "aggregate", "combine"]
        if v == INT or (isinstance(v, TupleType) and all(x == INT for x in v.elems) and len(v.elems) <= 3):
            kinds.append("group")
        kind = rng.choice(kinds)
        if kind == "fold":
            return A.FoldByKey(self.basic(v, scope, 1), self.fn((v, v), v, scope),
                               self.bag(TupleType((k, v)), depth))
        if kind == "reduce":
            return A.ReduceByKey(self.fn((v, v), v, scope), self.bag(TupleType((k, v)), depth))
        if kind == "group":
            n = 1 if v == INT else len(v.elems)  # type: ignore[union-attr]
            group_kinds = tuple(rng.choice(["sum", "len", "min", "max"]) for _ in range(n))
            return A.GroupByKeyAgg(group_kinds, self.bag(TupleType((k, INT)), depth))
        w = rng.choice([INT, INT, v, P_II])
        if kind == "aggregate":
            return A.AggregateByKey(self.basic(v, scope, 1), self.fn((v, w), v, scope),
                                    self.fn((v, v), v, scope), self.bag(TupleType((k, w)), depth))
        return A.CombineByKey(self.fn((w,), v, scope), self.fn((v, w), v, scope), self.fn((v, v), v, scope),
                              self.bag(TupleType((k, w)), depth))

    # -- aggregations -------------------------------------------------------------------------------

    def aggregation(self, t: Type, depth: int) -> A.Expr:
        rng = self.rng
        scope = self.scalars
        choices: list[Callable[[], A.Expr]] = [
            lambda: A.Fold(self.basic(t, scope, 1), self.fn((t, t), t, scope), self.bag(t, depth)),
            lambda: A.Reduce(self.fn((t, t), t, scope), self.bag(t, depth)),
            lambda: self.aggregate(t, depth),
        ]
        if t == INT:
            choices += [
                lambda: A.SimpleAgg("count", self.bag(rng.choice(BAG_ELEM_TYPES), depth)),
                lambda: A.SimpleAgg(rng.choice(["sum", "min", "max"]), self.bag(INT, depth)),
                lambda: A.SimpleAgg("sum", self.bag(BOOL, depth)),  # Python sums bools as 0/1
            ]
        if t in (BOOL, P_II, P_IB):  # Python orders bools and tuples too
            choices.append(lambda: A.SimpleAgg(rng.choice(["min", "max"]), self.bag(t, depth)))
        return rng.choice(choices)()

    def aggregate(self, t: Type, depth: int) -> A.Expr:
        s = self.rng.choice([INT, INT, P_II, t])
        scope = self.scalars
        return A.Aggregate(self.basic(t, scope, 1), self.fn((t, s), t, scope), self.fn((t, t), t, scope),
                           self.bag(s, depth))

    def top_value(self, t: Type, depth: int) -> A.Expr:
        """A program-level basic value: an aggregation, maybe inside a basic expression."""
        agg = self.aggregation(t, depth)
        if t == INT and self.chance(0.3):
            leaves = self.leaves(INT, self.scalars)
            other = self.rng.choice(leaves) if leaves and self.chance(0.5) else self.const(INT)
            agg = A.BinOp(self.rng.choice(["+", "-", "*", "//"]), agg, other)
        if self.chance(self.cfg.p_driver_shape):
            return self.driver_shape(agg, t, depth)
        return agg

    def driver_shape(self, value: A.Expr, t: Type, depth: int) -> A.Expr:
        """``value`` next to another action whose result is thrown away, as Python driver code does it:
        ``(other, value)[1]``, ``(value, other)[0]``, or ``value + len((other,))``. Python evaluates
        ``other`` all the same, so its error (an empty ``reduce``/``min``/``max``) is the outcome."""
        other = self.aggregation(self.rng.choice([INT, INT, P_II, BOOL]), max(depth, 1))
        r = self.rng.random()
        if r < 0.4:
            return A.Proj(A.TupleExpr((other, value)), 1)
        if r < 0.75 or t != INT:
            return A.Proj(A.TupleExpr((value, other)), 0)
        return A.BinOp("+", value, A.Proj(A.TupleExpr((other, A.IntLit(1))), 1))

    # -- programs -----------------------------------------------------------------------------------

    def program(self) -> A.Program:
        rng, cfg = self.rng, self.cfg
        params: list[A.Param] = []
        for i in range(rng.randint(1, cfg.max_bag_params)):
            et = rng.choice(INPUT_ELEM_TYPES)
            name = "R" if i == 0 else f"R{i}"
            params.append(A.Param(name, BagType(et)))
            self.bags.append((name, et))
        for i in range(rng.randint(0, cfg.max_scalar_params)):
            t = INT if self.chance(0.8) else BOOL
            name = f"t{i}"
            params.append(A.Param(name, t))
            self.scalars.append((name, t))
        self.make_defs()
        lets: list[A.LetBinding] = []
        for _ in range(rng.randint(0, cfg.max_lets)):
            if self.chance(0.5):
                t = rng.choice(BAG_ELEM_TYPES)
                name = self.fresh("B")
                lets.append(A.LetBinding(name, self.bag(t, rng.randint(1, cfg.max_depth))))
                self.bags.append((name, t))
            else:
                t = rng.choice([INT, INT, INT, P_II, BOOL])
                name = self.fresh("v")
                lets.append(A.LetBinding(name, self.top_value(t, rng.randint(0, cfg.max_depth - 1))))
                self.scalars.append((name, t))
        if self.chance(cfg.p_unused_action):  # runs for its effect: strict driver code
            t = rng.choice([INT, INT, P_II, BOOL])
            lets.append(A.LetBinding(self.fresh("u"), self.aggregation(t, rng.randint(1, cfg.max_depth))))
        body = self.body_part() if not self.chance(cfg.p_tuple_body) else \
            A.TupleExpr(tuple(self.body_part() for _ in range(rng.randint(2, 3))))
        return A.Program(self.fresh("P"), tuple(params), tuple(self.defs), tuple(lets), body)

    def body_part(self) -> A.Expr:
        depth = self.rng.randint(1, self.cfg.max_depth)
        if self.chance(0.5):
            return self.bag(self.rng.choice(BAG_ELEM_TYPES), depth)
        return self.top_value(self.rng.choice([INT, INT, P_II, BOOL]), depth - 1)


def random_program(rng: random.Random, *, max_depth: int = 3, config: GenConfig | None = None) -> A.Program:
    """A random well-typed program (see the module doc). ``config`` overrides every knob; ``max_depth``
    is a shortcut for ``GenConfig(max_depth=...)``."""
    cfg = config or GenConfig(max_depth=max_depth)
    return _Gen(rng, cfg).program()


def random_value(rng: random.Random, t: Type, lo: int = -5, hi: int = 5) -> Any:
    """A random value of basic type ``t``. Keys (first components of pairs) come from a narrower range,
    so keyed operators see repeated keys."""
    if isinstance(t, IntType):
        return rng.randint(lo, hi)
    if isinstance(t, BoolType):
        return rng.random() < 0.5
    assert isinstance(t, TupleType)
    if len(t.elems) == 2:
        key = random_value(rng, t.elems[0], max(lo, -2), min(hi, 3))
        return (key, random_value(rng, t.elems[1], lo, hi))
    return tuple(random_value(rng, x, lo, hi) for x in t.elems)


def random_inputs(rng: random.Random, program: A.Program, max_len: int = 4, lo: int = -5, hi: int = 5
                  ) -> dict[str, Any]:
    """Random inputs for ``program``: a list of ``0..max_len`` elements per bag, a value per scalar."""
    out: dict[str, Any] = {}
    for p in program.params:
        assert p.type is not None
        if isinstance(p.type, BagType):
            out[p.name] = [random_value(rng, p.type.elem, lo, hi) for _ in range(rng.randint(0, max_len))]
        else:
            out[p.name] = random_value(rng, p.type, lo, hi)
    return out


def random_partitionings(rng: random.Random, inputs: Mapping[str, Any], max_parts: int = 3
                         ) -> dict[str, Partitioning]:
    """A random partitioning (order, count, cut points) of every bag input. Bag inputs are the
    list-valued entries (as ``random_inputs`` makes them); tuples are basic values and left alone."""
    return {name: random_partitioning(value, rng, max_parts)
            for name, value in inputs.items() if isinstance(value, list)}


# ---------------------------------------------------------------------------------------------------
# Variants
# ---------------------------------------------------------------------------------------------------


def _rebuild(node: Any, f: Callable[[A.Node], A.Node | None]) -> Any:
    """Bottom-up rewrite: children first, then ``f`` (None keeps the node)."""
    if isinstance(node, tuple):
        return tuple(_rebuild(x, f) for x in node)
    if not isinstance(node, A.Node):
        return node
    changes = {}
    for fld in dataclasses.fields(node):
        if fld.name == "loc":
            continue
        old = getattr(node, fld.name)
        new = _rebuild(old, f)
        if new is not old:
            changes[fld.name] = new
    if changes:
        node = dataclasses.replace(node, **changes)
    out = f(node)
    return node if out is None else out


_ARITH_SWAP = {"+": ["-", "*"], "-": ["+", "*"], "*": ["+", "-"], "//": ["%"], "%": ["//"]}
_CMP_SWAP = {"<": ["<=", ">"], "<=": ["<", ">="], ">": [">=", "<"], ">=": [">", "<="], "==": ["!="],
             "!=": ["=="], "and": ["or"], "or": ["and"]}


def _mutation(rng: random.Random, node: A.Node) -> A.Node | None:
    if isinstance(node, A.IntLit):
        return A.IntLit(node.value + rng.choice([-2, -1, 1, 2]), loc=node.loc)
    if isinstance(node, A.BinOp) and node.op in _ARITH_SWAP:
        op = rng.choice(_ARITH_SWAP[node.op])
        if op in ("//", "%") and not isinstance(node.right, A.IntLit):
            return None
        return dataclasses.replace(node, op=op)
    if isinstance(node, A.BinOp) and node.op in _CMP_SWAP:
        return dataclasses.replace(node, op=rng.choice(_CMP_SWAP[node.op]))
    if isinstance(node, A.Union):
        return dataclasses.replace(node, left=node.right, right=node.left)
    if isinstance(node, A.SimpleAgg) and node.kind in ("min", "max"):
        return dataclasses.replace(node, kind="max" if node.kind == "min" else "min")
    if isinstance(node, A.Fold):
        return A.Aggregate(node.zero, node.op, node.op, node.source, loc=node.loc)
    if isinstance(node, A.FoldByKey):
        return A.AggregateByKey(node.zero, node.op, node.op, node.source, loc=node.loc)
    if isinstance(node, A.Ite):
        return dataclasses.replace(node, cond=A.Not(node.cond), then=node.orelse, orelse=node.then)
    return None


def _mutable_count(program: A.Program) -> int:
    count = 0

    def visit(n: A.Node) -> None:
        nonlocal count
        if _mutation(random.Random(0), n) is not None:
            count += 1

    _rebuild(program, lambda n: visit(n))
    return count


class _Editor:
    """Applies ``_mutation`` to the ``target``-th mutable node of a bottom-up traversal."""

    def __init__(self, rng: random.Random, target: int) -> None:
        self.rng = rng
        self.target = target
        self.seen = -1

    def __call__(self, node: A.Node) -> A.Node | None:
        if _mutation(random.Random(0), node) is None:
            return None
        self.seen += 1
        return _mutation(self.rng, node) if self.seen == self.target else None


def random_variant(rng: random.Random, program: A.Program, changes: int = 1) -> A.Program:
    """``program`` with ``changes`` random type-preserving edits (constants +-1/2, an arithmetic or
    comparison operator swapped, union operands swapped, min<->max, ``fold`` as ``aggregate`` with the
    same function, a negated ``if``). Union swaps, ``fold``->``aggregate`` and negated ``if`` keep the
    meaning (the union swap only as a bag; partition order changes); the others usually do not. The
    result may equal the input when the program has nothing to change."""
    for _ in range(changes):
        n = _mutable_count(program)
        if n == 0:
            return program
        target = rng.randrange(n)
        program = _rebuild(program, _Editor(rng, target))
    return program
