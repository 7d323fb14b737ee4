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

``random_program(rng, flavor="rich")`` draws programs over the values beyond ints instead (strings,
floats, ``None`` from outer joins, lists, sorts and the collecting actions; "Rich programs" below), and
``random_inputs`` fills inputs of those types from pools of awkward values (spaces, empty strings,
unicode up to astral characters, numbers to parse, NaN, +-0.0, infinities, 1e308, 5e-324). A rich program
stays deterministic under Spark: no NaN reaches a key of a shuffle, ``distinct`` or a sort, and its tasks
raise at most one kind of exception.

``sparklite.variants.random_variant`` makes a small type-preserving change (a constant, an operator,
the order of a union, ``fold`` written as ``aggregate`` ...) for soundness fuzzing of program *pairs*;
some of its changes keep the meaning (possibly only for some partitionings), most do not.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sparklite import ast as A
from sparklite.partitions import random_partitioning
from sparklite.types import (
    BOOL,
    FLOAT,
    INT,
    STR,
    BagType,
    BoolType,
    DictType,
    FloatType,
    IntType,
    ListType,
    OptionType,
    StrType,
    TupleType,
    Type,
    is_hashable,
    is_ordered,
)
from sparklite.values import Partitioning

__all__ = ["GenConfig", "RichConfig", "random_program", "random_inputs", "random_partitionings",
           "random_value"]

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


def random_program(rng: random.Random, *, max_depth: int = 3, config: GenConfig | RichConfig | None = None,
                   flavor: str = "classic") -> A.Program:
    """A random well-typed program (see the module doc). ``config`` overrides every knob; ``max_depth``
    is a shortcut for ``GenConfig(max_depth=...)``. ``flavor="rich"`` draws programs over strings,
    floats, None, lists and ordered results instead (``RichConfig``; see "Rich programs" below)."""
    if flavor == "rich":
        rcfg = config if isinstance(config, RichConfig) else RichConfig(max_depth=max_depth)
        return _RichGen(rng, rcfg).program()
    if flavor != "classic":
        raise ValueError(f"unknown flavor {flavor!r} (classic or rich)")
    cfg = config if isinstance(config, GenConfig) else GenConfig(max_depth=max_depth)
    return _Gen(rng, cfg).program()


def random_value(rng: random.Random, t: Type, lo: int = -5, hi: int = 5, *, key: bool = False) -> Any:
    """A random value of basic type ``t``. Keys (first components of pairs) come from a narrower range
    (ints) or pool (``STR_KEYS``; never NaN), so keyed operators see repeated keys. Strings and floats
    come from pools of the awkward cases (``STR_VALUES``, ``FLOAT_VALUES``)."""
    if isinstance(t, IntType):
        return rng.randint(lo, hi)
    if isinstance(t, BoolType):
        return rng.random() < 0.5
    if isinstance(t, StrType):
        return rng.choice(STR_KEYS if key else STR_VALUES)
    if isinstance(t, FloatType):
        return rng.choice([v for v in FLOAT_VALUES if v == v] if key else FLOAT_VALUES)
    if isinstance(t, OptionType):
        return None if rng.random() < 0.3 else random_value(rng, t.elem, lo, hi, key=key)
    if isinstance(t, ListType):
        return [random_value(rng, t.elem, lo, hi) for _ in range(rng.randint(0, 3))]
    assert isinstance(t, TupleType)
    if len(t.elems) == 2:
        first = random_value(rng, t.elems[0], max(lo, -2), min(hi, 3), key=True)
        return (first, random_value(rng, t.elems[1], lo, hi))
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
# Rich programs: strings, floats, None, lists, ordered results
# ---------------------------------------------------------------------------------------------------

R_SI = TupleType((STR, INT))
R_SF = TupleType((STR, FLOAT))
R_IS = TupleType((INT, STR))
R_SS = TupleType((STR, STR))
R_IF = TupleType((INT, FLOAT))
L_S = ListType(STR)
L_I = ListType(INT)
L_F = ListType(FLOAT)

RICH_INPUT_TYPES: tuple[Type, ...] = (STR, STR, STR, FLOAT, FLOAT, INT, R_SI, R_SI, R_SF, R_IS, R_IF)
RICH_BAG_TYPES: tuple[Type, ...] = (STR, STR, FLOAT, FLOAT, INT, INT, BOOL, R_SI, R_SI, R_SF, R_IS, R_SS,
                                    R_IF)
#: element types that only feed a ``map`` (built by joins, outer joins and ``groupByKey`` to lists)
RICH_SOURCE_TYPES: tuple[Type, ...] = (
    TupleType((STR, L_I)), TupleType((INT, L_S)), TupleType((STR, TupleType((INT, FLOAT)))),
    TupleType((STR, TupleType((INT, OptionType(FLOAT))))),
    TupleType((INT, TupleType((OptionType(STR), STR)))),
    TupleType((STR, TupleType((OptionType(INT), OptionType(FLOAT))))),
)
RICH_KEY_TYPES: tuple[Type, ...] = (STR, INT)
RICH_SCALAR_TYPES: tuple[Type, ...] = (INT, STR, FLOAT)

#: The exceptions a UDF (a Spark task) may raise. A rich program draws at most one of them (``risk``):
#: when two tasks of one Spark job raise different exceptions, which one the job reports depends on
#: which task fails first, which nothing models. Driver-side errors (``first()`` or ``reduce`` of an
#: empty bag: ``ValueError``) come after every task succeeded, so they are always allowed.
TASK_RISKS = ("ZeroDivisionError", "ValueError", "IndexError", "TypeError", "OverflowError")

STR_VALUES = ("", " ", "a", "b", "ab", "a b", " a ", "A b,c", "x,y", ",", "a,,b", "1", "12", "-3", " 7 ",
              "1_000", "\u0663", "\uff11\uff12", "3.5", "nan", "-inf", "1e308", "1e999", "\u00e9", "\u00df",
              "\u0130", "\u65e5\u672c", "\U0001d11e", "\U0001f600 x", "\u01c4", "\t", "a\nb")
STR_KEYS = ("", "a", "b", "a b", "\u00e9", "\U0001d11e")
FLOAT_VALUES = (0.0, -0.0, 1.0, -1.5, 2.5, 0.1, 3.0, 0.5, 1e16, 1e308, -1e308, 5e-324, 1e-300,
                float("nan"), float("inf"), float("-inf"))
#: strings ``int()``/``float()`` accept (guards test membership in these lists)
INT_STRS = ("1", "12", "-3", " 7 ", "1_000", "\u0663", "\uff11\uff12", "0")
FLOAT_STRS = INT_STRS + ("3.5", "nan", "-inf", "1e308", "1e999", " 2.5 ")
SPLIT_SEPS = (",", " ", "a", ",,")


def _has_float(t: Type) -> bool:
    if isinstance(t, FloatType):
        return True
    if isinstance(t, TupleType):
        return any(_has_float(x) for x in t.elems)
    if isinstance(t, OptionType | ListType):
        return _has_float(t.elem)
    return False


def _sortable(t: Type) -> bool:
    """Ordered, and never NaN (sorting by NaN keys is not modelled)."""
    return is_ordered(t) and not _has_float(t) and not isinstance(t, ListType)


def _keyable(t: Type) -> bool:
    """Hashable and float-free: may be hashed by a shuffle (a NaN's hash is its identity)."""
    return is_hashable(t) and not _has_float(t) and not _has_list(t)


def _has_list(t: Type) -> bool:
    if isinstance(t, ListType | DictType):
        return True
    if isinstance(t, TupleType):
        return any(_has_list(x) for x in t.elems)
    if isinstance(t, OptionType):
        return _has_list(t.elem)
    return False


@dataclass(frozen=True)
class RichConfig:
    """Knobs of the rich generator."""

    max_depth: int = 3
    expr_depth: int = 2
    max_bag_params: int = 2
    max_scalar_params: int = 2
    max_lets: int = 3
    p_risk: float = 0.7          # chance the program may raise in tasks at all (one kind, see TASK_RISKS)
    p_unguarded: float = 0.5     # chance a risky construct of the program's kind is left unguarded
    p_tuple_body: float = 0.25
    p_sort: float = 0.2          # chance a bag is sorted


class _RichGen:
    """Random well-typed programs over strings, floats, None, lists and ordered results."""

    def __init__(self, rng: random.Random, cfg: RichConfig) -> None:
        self.rng = rng
        self.cfg = cfg
        self.counter = 0
        self.bags: list[tuple[str, Type]] = []
        self.scalars: list[tuple[str, Type]] = []
        self.fundefs: list[tuple[str, tuple[Type, ...], Type]] = []
        self.defs: list[A.Def] = []
        self.risk: str | None = None
        self.force = False  # while set, every construct of the program's risk is left unguarded

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def may(self, kind: str) -> bool:
        """Whether a construct raising ``kind`` may be left unguarded here."""
        return self.risk == kind and (self.force or self.chance(self.cfg.p_unguarded))

    def risky_filter(self, t: Type, src: A.Expr) -> A.Expr:
        """``filter`` by a predicate that raises the program's risk on some elements (most risky
        constructs sit in branches or on values that never raise)."""
        name = self.fresh("x")
        scope = self.scalars + [(name, t)]
        self.force = True
        try:
            if self.risk == "ZeroDivisionError":
                pred = A.BinOp(">=", A.BinOp("//", self.basic(INT, scope, 1), self.divisor(INT, scope, 1)),
                               A.IntLit(-1))
            elif self.risk == "ValueError":
                pred = A.BinOp(">", A.Call("int", (self.basic(STR, scope, 1),)), A.IntLit(0))
            elif self.risk == "IndexError":
                pred = A.BinOp("!=", self.index(self.basic(STR, scope, 1), A.StrLit(""), scope, 1),
                               A.StrLit("a"))
            elif self.risk == "OverflowError":
                pred = A.BinOp(">", self.guard_float(self.basic(FLOAT, scope, 1),
                                                     lambda f: A.Call("int", (f,)), A.IntLit(0)), A.IntLit(0))
            else:
                opts = [e for ot in (OptionType(INT), OptionType(STR), OptionType(FLOAT))
                        for e in self.leaves(ot, scope)]
                if not opts:
                    return src
                o = self.rng.choice(opts)
                pred = A.BinOp("!=", A.Call("py.unwrap", (o,)), A.NoneLit())
        finally:
            self.force = False
        return A.Filter(A.Lambda((A.Param(name, t),), pred), src)

    # -- basic expressions --------------------------------------------------------------------------

    def const(self, t: Type) -> A.Expr:
        rng = self.rng
        if isinstance(t, IntType):
            return A.IntLit(rng.randint(-5, 5))
        if isinstance(t, BoolType):
            return A.BoolLit(self.chance(0.5))
        if isinstance(t, StrType):
            return A.StrLit(rng.choice(STR_VALUES))
        if isinstance(t, FloatType):
            v = rng.choice(FLOAT_VALUES)
            if v != v or v in (float("inf"), float("-inf")):
                return A.Call("float", (A.StrLit(repr(v)),))
            return A.FloatLit(v)
        if isinstance(t, ListType):
            items = A.ListExpr(tuple(self.const(t.elem) for _ in range(rng.randint(1, 2))))
            return items if self.chance(0.8) else self.empty(items)
        if isinstance(t, OptionType):  # typed Option[elem] (a bare None or element would not be)
            return A.Ite(A.BoolLit(self.chance(0.5)), A.NoneLit(), self.const(t.elem))
        assert isinstance(t, TupleType), t
        return A.TupleExpr(tuple(self.const(x) for x in t.elems))

    @staticmethod
    def empty(items: A.ListExpr) -> A.Expr:
        """An empty list of the type of ``items`` (``[]`` alone is typed ``List[None]``)."""
        return A.Call("py.slice", (items, A.IntLit(0), A.IntLit(0)))

    def leaves(self, t: Type, scope: list[tuple[str, Type]]) -> list[A.Expr]:
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

    def finite(self, f: A.Expr) -> A.Expr:
        return A.BinOp("==", A.BinOp("-", f, f), A.FloatLit(0.0))

    def nan_free(self, f: A.Expr) -> A.Expr:
        return A.Ite(A.BinOp("==", f, f), f, A.FloatLit(0.0))

    def guard_float(self, f: A.Expr, use: Callable[[A.Expr], A.Expr], default: A.Expr) -> A.Expr:
        """``use(f)`` raises ValueError for NaN and OverflowError for infinities (``int``, ``math.floor``,
        ``round``): guarded by what the program may not raise."""
        if self.may("ValueError"):
            cond = A.BinOp("or", A.BinOp("!=", f, f), self.finite(f))  # NaN passes
        elif self.may("OverflowError"):
            cond = A.BinOp("==", f, f)  # infinities pass
        else:
            cond = self.finite(f)
        return A.Ite(cond, use(f), default)

    def unwrap(self, t: Type, scope: list[tuple[str, Type]]) -> A.Expr | None:
        opts = self.leaves(OptionType(t), scope)
        if not opts:
            return None
        o = self.rng.choice(opts)
        if self.may("TypeError"):
            return A.Call("py.unwrap", (o,))
        return A.Ite(A.Call("py.is_none", (o,)), self.const(t), A.Call("py.unwrap", (o,)))

    def basic(self, t: Type, scope: list[tuple[str, Type]], depth: int) -> A.Expr:  # noqa: C901
        rng = self.rng
        leaves = self.leaves(t, scope)
        if depth <= 0 or self.chance(0.2):
            if leaves and self.chance(0.8):
                return rng.choice(leaves)
            return self.const(t)
        sub = depth - 1

        def b(tt: Type) -> A.Expr:
            return self.basic(tt, scope, sub)

        choices: list[Callable[[], A.Expr]] = []
        if leaves:
            choices += [lambda: rng.choice(leaves)] * 2
        if self.leaves(OptionType(t), scope):
            choices += [lambda: self.unwrap(t, scope)] * 5  # type: ignore[list-item,return-value]
        if isinstance(t, TupleType):
            choices += [lambda: A.TupleExpr(tuple(b(x) for x in t.elems))] * 3
            choices.append(lambda: A.Ite(b(BOOL), b(t), b(t)))
            if all(x == STR for x in t.elems):
                n = len(t.elems)

                def unpack() -> A.Expr:
                    xs = b(L_S)
                    got = A.Call("py.unpack", (xs, A.IntLit(n)))
                    if self.may("ValueError"):
                        return got
                    return A.Ite(A.BinOp("==", A.Call("len", (xs,)), A.IntLit(n)), got, self.const(t))
                choices.append(unpack)
        elif isinstance(t, IntType):
            choices += self.int_choices(scope, sub)
        elif isinstance(t, BoolType):
            choices += self.bool_choices(scope, sub)
        elif isinstance(t, StrType):
            choices += self.str_choices(scope, sub)
        elif isinstance(t, FloatType):
            choices += self.float_choices(scope, sub)
        elif isinstance(t, ListType):
            choices += self.list_choices(t, scope, sub)
        elif isinstance(t, OptionType):
            choices += [lambda: A.Ite(b(BOOL), A.NoneLit(), b(t.elem)),
                        lambda: A.Ite(b(BOOL), b(t.elem), A.NoneLit())]
        calls = [d for d in self.fundefs if d[2] == t]
        if calls:
            name, params, _ = rng.choice(calls)
            choices.append(lambda: A.Call(name, tuple(b(p) for p in params)))
        if not choices:
            return self.const(t)
        return rng.choice(choices)()

    def divisor(self, t: Type, scope: list[tuple[str, Type]], depth: int) -> A.Expr:
        if self.may("ZeroDivisionError"):  # often zero
            r = self.rng.random()
            if r < 0.4:
                return self.basic(t, scope, depth)
            parity = A.BinOp("%", self.basic(INT, scope, depth), A.IntLit(2))
            if r < 0.7:
                return A.Call("float", (parity,)) if t == FLOAT else parity
            length = A.BinOp("-", A.Call("len", (self.basic(STR, scope, depth),)), A.IntLit(1))
            return A.Call("float", (length,)) if t == FLOAT else length
        if t == FLOAT:
            return A.FloatLit(self.rng.choice([2.0, -0.5, 3.0, 1e-300, 1e308]))
        return A.IntLit(self.rng.choice([1, 2, 3, -2, -3]))

    def bound(self, n: int) -> A.Expr:
        """A slice bound: None or a small int."""
        return A.NoneLit() if self.chance(0.3) else A.IntLit(self.rng.randint(-n, n))

    def index(self, seq: A.Expr, elem_default: A.Expr, scope: list[tuple[str, Type]], depth: int) -> A.Expr:
        """``seq[i]`` (a Str or a list), guarded unless the program may raise IndexError."""
        if self.may("IndexError"):
            i = self.basic(INT, scope, depth) if self.chance(0.5) else A.IntLit(self.rng.randint(-3, 3))
            return A.Call("py.getitem", (seq, i))
        k = self.rng.randint(-2, 2)
        bound = A.IntLit(k) if k >= 0 else A.IntLit(-k - 1)
        return A.Ite(A.BinOp(">", A.Call("len", (seq,)), bound), A.Call("py.getitem", (seq, A.IntLit(k))),
                     elem_default)

    def int_choices(self, scope: list[tuple[str, Type]], sub: int) -> list[Callable[[], A.Expr]]:
        rng = self.rng

        def b(tt: Type) -> A.Expr:
            return self.basic(tt, scope, sub)

        def parse() -> A.Expr:
            s = b(STR)
            if self.may("ValueError"):
                return A.Call("int", (s,))
            return A.Ite(A.BinOp("in", s, A.ListExpr(tuple(A.StrLit(x) for x in INT_STRS))),
                         A.Call("int", (s,)), A.IntLit(0))

        def of_float() -> A.Expr:
            fn = rng.choice(["int", "math.floor", "math.ceil", "round"])
            return self.guard_float(b(FLOAT), lambda f: A.Call(fn, (f,)), A.IntLit(-1))

        def list_minmax() -> A.Expr:
            xs = b(L_I)
            got = A.Call(rng.choice(["min", "max"]), (xs,))
            if self.may("ValueError"):
                return got
            return A.Ite(A.BinOp(">", A.Call("len", (xs,)), A.IntLit(0)), got, A.IntLit(0))

        extra = [of_float] * 3 if self.risk in ("ValueError", "OverflowError") else []
        return extra + [
            lambda: A.BinOp(rng.choice(["+", "-", "*"]), b(INT), b(INT)),
            lambda: A.BinOp(rng.choice(["//", "%"]), b(INT), self.divisor(INT, scope, sub)),
            lambda: A.Neg(b(INT)),
            lambda: A.Call(rng.choice(["min", "max"]), (b(INT), b(INT))),
            lambda: A.Call("abs", (b(INT),)),
            lambda: A.Ite(b(BOOL), b(INT), b(INT)),
            lambda: A.Call("len", (b(STR),)),
            lambda: A.Call("len", (b(rng.choice([L_S, L_I])),)),
            parse, parse, of_float,
            lambda: A.Call("sum", (b(L_I),)),
            list_minmax,
            lambda: self.index(b(L_I), A.IntLit(0), scope, sub),
            lambda: A.Call("round", (b(INT),)),
        ]

    def bool_choices(self, scope: list[tuple[str, Type]], sub: int) -> list[Callable[[], A.Expr]]:
        rng = self.rng

        def b(tt: Type) -> A.Expr:
            return self.basic(tt, scope, sub)

        out: list[Callable[[], A.Expr]] = [
            lambda: A.BinOp(rng.choice(["<", "<=", ">", ">=", "==", "!="]), b(INT), b(INT)),
            lambda: A.BinOp(rng.choice(["<", "<=", ">", ">=", "==", "!="]), b(FLOAT), b(FLOAT)),
            lambda: A.BinOp(rng.choice(["<", ">=", "==", "!="]), b(FLOAT), b(INT)),
            lambda: A.BinOp(rng.choice(["<", "<=", ">", ">=", "==", "!="]), b(STR), b(STR)),
            lambda: A.BinOp(rng.choice(["and", "or"]), b(BOOL), b(BOOL)),
            lambda: A.Not(b(BOOL)),
            lambda: A.Call(rng.choice(["str.startswith", "str.endswith"]), (b(STR), b(STR))),
            lambda: A.BinOp("in", b(STR), b(STR)),
            lambda: A.BinOp("in", b(STR), b(L_S)),
            lambda: A.BinOp("in", b(INT), b(L_I)),
            lambda: A.BinOp("==", b(L_S), b(L_S)),
        ]
        for ot in (OptionType(INT), OptionType(STR), OptionType(FLOAT)):
            opts = self.leaves(ot, scope)
            if opts:
                out += [lambda opts=opts: A.Call("py.is_none", (rng.choice(opts),))] * 3
                out.append(lambda opts=opts, ot=ot: A.BinOp(rng.choice(["==", "!="]), rng.choice(opts),
                                                           self.const(ot.elem)))
        return out

    def str_choices(self, scope: list[tuple[str, Type]], sub: int) -> list[Callable[[], A.Expr]]:
        rng = self.rng

        def b(tt: Type) -> A.Expr:
            return self.basic(tt, scope, sub)

        return [
            lambda: A.BinOp("+", b(STR), b(STR)),
            lambda: A.Call(rng.choice(["str.strip", "str.lower", "str.upper"]), (b(STR),)),
            lambda: A.Call("str.replace", (b(STR), A.StrLit(rng.choice(["a", " ", ",", ""])),
                                           A.StrLit(rng.choice(["", "-", "AB", "\u00e9"])))),
            lambda: A.Call("py.slice", (b(STR), self.bound(3), self.bound(3))),
            lambda: self.index(b(STR), A.StrLit(""), scope, sub),
            lambda: A.Call("str", (b(rng.choice([INT, FLOAT, BOOL])),)),
            lambda: A.Ite(b(BOOL), b(STR), b(STR)),
            lambda: A.Call(rng.choice(["min", "max"]), (b(STR), b(STR))),
            lambda: self.index(b(L_S), A.StrLit("?"), scope, sub),
        ]

    def float_choices(self, scope: list[tuple[str, Type]], sub: int) -> list[Callable[[], A.Expr]]:
        rng = self.rng

        def b(tt: Type) -> A.Expr:
            return self.basic(tt, scope, sub)

        def parse() -> A.Expr:
            s = b(STR)
            if self.may("ValueError"):
                return A.Call("float", (s,))
            return A.Ite(A.BinOp("in", s, A.ListExpr(tuple(A.StrLit(x) for x in FLOAT_STRS))),
                         A.Call("float", (s,)), A.FloatLit(0.0))

        def sqrt() -> A.Expr:
            f = b(FLOAT)
            return A.Call("math.sqrt", (f if self.may("ValueError") else A.Call("abs", (f,)),))

        return [
            lambda: A.BinOp(rng.choice(["+", "-", "*"]), b(FLOAT), b(FLOAT)),
            lambda: A.BinOp(rng.choice(["/", "//", "%"]), b(FLOAT), self.divisor(FLOAT, scope, sub)),
            lambda: A.BinOp("/", b(INT), self.divisor(INT, scope, sub)),
            lambda: A.Call("float", (b(INT),)),
            parse,
            lambda: A.Call("abs", (b(FLOAT),)),
            lambda: A.Neg(b(FLOAT)),
            lambda: A.Call("round", (b(FLOAT), A.IntLit(rng.randint(0, 2)))),
            sqrt,
            lambda: A.Call(rng.choice(["min", "max"]), (b(FLOAT), b(FLOAT))),
            lambda: A.Ite(b(BOOL), b(FLOAT), b(FLOAT)),
            lambda: A.Call("sum", (b(L_F),)),
        ]

    def list_choices(self, t: ListType, scope: list[tuple[str, Type]], sub: int
                     ) -> list[Callable[[], A.Expr]]:
        rng = self.rng
        elem = t.elem

        def b(tt: Type) -> A.Expr:
            return self.basic(tt, scope, sub)

        def comp(over: Type) -> A.Expr:
            src = b(over)
            item = over.elem if isinstance(over, ListType) else STR
            name = self.fresh("w")
            inner = scope + [(name, item)]
            fn = A.Lambda((A.Param(name, item),), self.basic(elem, inner, sub))
            cond = None
            if self.chance(0.4):
                cname = self.fresh("w")
                cond = A.Lambda((A.Param(cname, item),), self.basic(BOOL, scope + [(cname, item)], sub))
            return A.ListComp(fn, src, cond)

        def display() -> A.Expr:
            items = A.ListExpr(tuple(b(elem) for _ in range(rng.randint(1, 3))))
            return items if self.chance(0.85) else self.empty(items)

        out: list[Callable[[], A.Expr]] = [
            display,
            lambda: comp(rng.choice([L_S, STR, L_I])),
            lambda: A.Call("py.slice", (b(t), self.bound(2), self.bound(2))),
            lambda: A.BinOp("+", b(t), b(t)),
        ]
        if elem != FLOAT:
            out.append(lambda: A.Call("sorted", (b(t),)))
        if elem == STR:
            out += [lambda: A.Call("str.split", (b(STR),)),
                    lambda: A.Call("str.split", (b(STR), A.StrLit(rng.choice(SPLIT_SEPS)))),
                    lambda: A.Call("str.split", (b(STR), A.StrLit(rng.choice(SPLIT_SEPS))))]
        return out

    # -- functions ----------------------------------------------------------------------------------

    def fn(self, params: tuple[Type, ...], ret: Type, scope: list[tuple[str, Type]] | None = None) -> A.Fn:
        scope = self.scalars if scope is None else scope
        refs = [d for d in self.fundefs if d[1] == params and d[2] == ret]
        if refs and self.chance(0.3):
            return A.FnRef(self.rng.choice(refs)[0])
        names = [self.fresh("x") for _ in params]
        inner = scope + list(zip(names, params, strict=True))
        body = self.basic(ret, inner, self.cfg.expr_depth)
        return A.Lambda(tuple(A.Param(n, t) for n, t in zip(names, params, strict=True)), body)

    def sort_key(self, t: Type) -> A.Lambda:
        """A key function with an ordered, NaN-free result."""
        name = self.fresh("x")
        inner = self.scalars + [(name, t)]
        kt = self.rng.choice([INT, STR, STR, FLOAT, TupleType((STR, INT)), BOOL])
        body = self.basic(kt, inner, self.cfg.expr_depth)
        if _has_float(kt):
            body = self.nan_free(body)
        return A.Lambda((A.Param(name, t),), body)

    def make_defs(self) -> None:
        for _ in range(self.rng.randint(0, 2)):
            params = self.rng.choice([(STR,), (STR, INT), (FLOAT,), (INT,)])
            ret = self.rng.choice([STR, INT, FLOAT, BOOL])
            names = [self.fresh("a") for _ in params]
            body = self.basic(ret, list(zip(names, params, strict=True)), self.cfg.expr_depth)
            name = self.fresh("f")
            self.defs.append(A.FunDef(name, tuple(A.Param(n, t) for n, t in zip(names, params, strict=True)),
                                      ret, body))
            self.fundefs.append((name, params, ret))

    # -- bags ---------------------------------------------------------------------------------------

    def bag_var(self, t: Type) -> A.Expr | None:
        cands = [n for n, et in self.bags if et == t]
        if not cands:
            return None
        return A.Var(cands[-1] if self.chance(0.5) else self.rng.choice(cands))

    def bag(self, t: Type, depth: int) -> A.Expr:
        out = self.bag_unsorted(t, depth)
        if depth > 0 and self.chance(self.cfg.p_sort):
            return A.SortBy(self.sort_key(t), self.chance(0.6), out)
        return out

    def bag_unsorted(self, t: Type, depth: int) -> A.Expr:  # noqa: C901
        rng = self.rng
        var = self.bag_var(t)
        if depth <= 0 or (var is not None and self.chance(0.3)):
            if var is not None:
                return var
            name, st = rng.choice(self.bags)
            return A.Map(self.fn((st,), t), A.Var(name))
        sub = depth - 1
        choices: list[Callable[[], A.Expr]] = [
            lambda: self.map_from_any(t, sub),
            lambda: self.map_from_any(t, sub),
            lambda: A.Filter(self.fn((t,), BOOL), self.bag(t, sub)),
            lambda: self.flat_map(t, sub),
            lambda: A.Union(self.bag(t, sub), self.bag(t, sub)),
        ]
        if _keyable(t):
            choices += [lambda: A.Distinct(self.bag(t, sub)),
                        lambda: A.Subtract(self.bag(t, sub), self.bag(t, sub)),
                        lambda: A.Intersection(self.bag(t, sub), self.bag(t, sub))]
        if isinstance(t, TupleType) and len(t.elems) == 2:
            k, v = t.elems
            if k in RICH_KEY_TYPES:
                choices += [lambda: self.by_key(k, v, sub)] * 3
                if isinstance(v, TupleType) and len(v.elems) == 2:
                    choices += [lambda: self.join(k, v, sub)] * 8
            if rng.random() < 0.3:
                choices.append(lambda: A.Cartesian(self.bag(k, sub), self.bag(v, sub)))
        choices += [lambda: self.via_join(t, sub)] * (5 if self.risk == "TypeError" else 2)
        if var is not None:
            choices.append(lambda: var)
        if self.risk is not None and self.risk != "TypeError":
            choices.append(lambda: self.risky_filter(t, self.bag(t, sub)))
        return rng.choice(choices)()

    def map_from_any(self, t: Type, depth: int) -> A.Expr:
        p_source = 0.6 if self.risk == "TypeError" else 0.3  # None comes from outer joins
        s = self.rng.choice(RICH_SOURCE_TYPES if self.chance(p_source) else RICH_BAG_TYPES)
        return A.Map(self.fn((s,), t), self.bag(s, depth))

    def flat_map(self, t: Type, depth: int) -> A.Expr:
        rng = self.rng
        r = rng.random()
        if t == STR and r < 0.4:  # words, or characters
            src = self.bag(STR, depth)
            name = self.fresh("x")
            s = A.Var(name)
            body: A.Expr = rng.choice([
                A.Call("str.split", (s,)), A.Call("str.split", (s, A.StrLit(rng.choice(SPLIT_SEPS)))),
                s, A.Call("str.strip", (s,)), A.Call("py.slice", (s, A.IntLit(0), A.IntLit(2)))])
            return A.FlatMap(A.Lambda((A.Param(name, STR),), body), src)
        s_t = rng.choice((t,) + RICH_BAG_TYPES[:8])
        if r < 0.7:
            ret: Type = TupleType((t,) * rng.randint(1, 3))
        else:
            ret = ListType(t)
        return A.FlatMap(self.fn((s_t,), ret), self.bag(s_t, depth))

    def by_key(self, k: Type, v: Type, depth: int) -> A.Expr:
        rng = self.rng
        kinds = ["fold", "reduce", "aggregate", "combine"]
        if v in (INT, FLOAT):
            kinds.append("group")
        if isinstance(v, ListType):
            kinds += ["list", "list", "list"]
        kind = rng.choice(kinds)
        if kind == "list":
            return A.GroupByKeyAgg(("list",), self.bag(TupleType((k, v.elem)), depth))  # type: ignore[union-attr]
        if kind == "fold":
            return A.FoldByKey(self.basic(v, self.scalars, 1), self.fn((v, v), v),
                               self.bag(TupleType((k, v)), depth))
        if kind == "reduce":
            return A.ReduceByKey(self.fn((v, v), v), self.bag(TupleType((k, v)), depth))
        if kind == "group":
            gk = tuple(rng.choice(["sum", "len", "min", "max", "list"]) for _ in range(1))
            if gk == ("list",):
                return A.Map(self.fn((TupleType((k, ListType(v))),), TupleType((k, v))),
                             A.GroupByKeyAgg(gk, self.bag(TupleType((k, v)), depth)))
            if gk == ("len",):
                return A.Map(self.fn((TupleType((k, INT)),), TupleType((k, v))),
                             A.GroupByKeyAgg(gk, self.bag(TupleType((k, v)), depth)))
            return A.GroupByKeyAgg(gk, self.bag(TupleType((k, v)), depth))
        w = rng.choice([INT, STR, FLOAT, v])
        if kind == "aggregate":
            return A.AggregateByKey(self.basic(v, self.scalars, 1), self.fn((v, w), v), self.fn((v, v), v),
                                    self.bag(TupleType((k, w)), depth))
        return A.CombineByKey(self.fn((w,), v), self.fn((v, w), v), self.fn((v, v), v),
                              self.bag(TupleType((k, w)), depth))

    def via_join(self, t: Type, depth: int) -> A.Expr:
        """``map(f, R.leftOuterJoin(S))`` (or right, full, inner): ``f`` reads the optional sides."""
        rng = self.rng
        k = rng.choice(RICH_KEY_TYPES)
        kind = rng.choice(["left", "right", "full", "inner"])
        a, b = rng.choice([INT, STR, FLOAT]), rng.choice([INT, STR, FLOAT])
        av = OptionType(a) if kind in ("right", "full") else a
        bv = OptionType(b) if kind in ("left", "full") else b
        left, right = self.bag(TupleType((k, a)), depth), self.bag(TupleType((k, b)), depth)
        joined: A.Expr = A.Join(left, right) if kind == "inner" else A.OuterJoin(kind, left, right)  # type: ignore[arg-type]
        if self.risk == "TypeError" and kind != "inner" and self.chance(0.5):
            joined = self.risky_filter(TupleType((k, TupleType((av, bv)))), joined)
        return A.Map(self.fn((TupleType((k, TupleType((av, bv)))),), t), joined)

    def join(self, k: Type, v: TupleType, depth: int) -> A.Expr:
        a, b = v.elems
        kinds = []
        if not isinstance(a, OptionType) and not isinstance(b, OptionType):
            kinds.append("inner")
        if not isinstance(a, OptionType) and isinstance(b, OptionType):
            kinds.append("left")
        if isinstance(a, OptionType) and not isinstance(b, OptionType):
            kinds.append("right")
        if isinstance(a, OptionType) and isinstance(b, OptionType):
            kinds.append("full")
        if not kinds or any(isinstance(x, OptionType) and isinstance(x.elem, OptionType) for x in (a, b)):
            return self.map_from_any(TupleType((k, v)), depth)
        kind = kinds[0]
        av = a.elem if isinstance(a, OptionType) else a
        bv = b.elem if isinstance(b, OptionType) else b
        left = self.bag(TupleType((k, av)), depth)
        right = self.bag(TupleType((k, bv)), depth)
        if kind == "inner":
            return A.Join(left, right)
        return A.OuterJoin(kind, left, right)  # type: ignore[arg-type]

    # -- actions ------------------------------------------------------------------------------------

    def count_expr(self) -> A.Expr:
        if self.chance(0.2):
            return self.basic(INT, self.scalars, 1)
        return A.IntLit(self.rng.randint(0, 4))

    def value(self, t: Type, depth: int) -> A.Expr:
        """A program-level value of type ``t``: an aggregation or an action."""
        rng = self.rng
        choices: list[Callable[[], A.Expr]] = [
            lambda: A.Fold(self.basic(t, self.scalars, 1), self.fn((t, t), t), self.bag(t, depth)),
            lambda: A.Reduce(self.fn((t, t), t), self.bag(t, depth)),
            lambda: self.aggregate(t, depth),
            lambda: A.First(self.bag(t, depth)),
        ]
        if t == INT:
            choices += [
                lambda: A.SimpleAgg("count", self.bag(rng.choice(RICH_BAG_TYPES), depth)),
                lambda: A.SimpleAgg("sum", self.bag(rng.choice([INT, BOOL]), depth)),
            ]
        if t == FLOAT:
            choices.append(lambda: A.SimpleAgg("sum", self.bag(FLOAT, depth)))
        if is_ordered(t):
            choices.append(lambda: A.SimpleAgg(rng.choice(["min", "max"]), self.bag(t, depth)))
        if isinstance(t, ListType):
            return self.list_action(t.elem, depth)
        return rng.choice(choices)()

    def aggregate(self, t: Type, depth: int) -> A.Expr:
        s = self.rng.choice([INT, STR, FLOAT, t])
        return A.Aggregate(self.basic(t, self.scalars, 1), self.fn((t, s), t), self.fn((t, t), t),
                           self.bag(s, depth))

    def list_action(self, elem: Type, depth: int) -> A.Expr:
        rng = self.rng
        choices: list[Callable[[], A.Expr]] = [
            lambda: A.Take(self.count_expr(), self.bag(elem, depth)),
            lambda: A.Take(self.count_expr(), self.bag(elem, depth)),
            lambda: A.Collect(self.bag(elem, depth)),
            lambda: A.TakeOrdered(self.count_expr(), self.sort_key(elem), self.bag(elem, depth),
                                  self.chance(0.5)),
        ]
        if _sortable(elem):
            choices.append(lambda: A.TakeOrdered(self.count_expr(), None, self.bag(elem, depth),
                                                 self.chance(0.5)))
        return rng.choice(choices)()

    def dict_action(self, depth: int) -> A.Expr:
        rng = self.rng
        if self.chance(0.5):
            t = rng.choice([STR, INT, R_SI, R_IS, BOOL])
            return A.CountByValue(self.bag(t, depth))
        t = rng.choice([R_SI, R_SF, R_IS, R_SS])
        return A.CollectAsMap(self.bag(t, depth))

    # -- programs -----------------------------------------------------------------------------------

    def program(self) -> A.Program:
        rng, cfg = self.rng, self.cfg
        if self.chance(cfg.p_risk):
            self.risk = rng.choice(TASK_RISKS)
        params: list[A.Param] = []
        for i in range(rng.randint(1, cfg.max_bag_params)):
            et = rng.choice(RICH_INPUT_TYPES)
            name = "R" if i == 0 else f"R{i}"
            params.append(A.Param(name, BagType(et)))
            self.bags.append((name, et))
        for i in range(rng.randint(0, cfg.max_scalar_params)):
            t = rng.choice(RICH_SCALAR_TYPES)
            params.append(A.Param(f"t{i}", t))
            self.scalars.append((f"t{i}", t))
        self.make_defs()
        lets: list[A.LetBinding] = []
        for _ in range(rng.randint(0, cfg.max_lets)):
            if self.chance(0.5):
                t = rng.choice(RICH_BAG_TYPES)
                name = self.fresh("B")
                lets.append(A.LetBinding(name, self.bag(t, rng.randint(1, cfg.max_depth))))
                self.bags.append((name, t))
            else:
                t = rng.choice([INT, STR, FLOAT, L_S, L_I, R_SI])
                name = self.fresh("v")
                lets.append(A.LetBinding(name, self.value(t, rng.randint(0, cfg.max_depth - 1))))
                self.scalars.append((name, t))
        body = self.body_part() if not self.chance(cfg.p_tuple_body) else \
            A.TupleExpr(tuple(self.body_part() for _ in range(rng.randint(2, 3))))
        return A.Program(self.fresh("P"), tuple(params), tuple(self.defs), tuple(lets), body)

    def body_part(self) -> A.Expr:
        rng = self.rng
        depth = rng.randint(1, self.cfg.max_depth)
        r = rng.random()
        if r < 0.4:
            t = rng.choice(RICH_BAG_TYPES)
            if self.chance(0.3):
                return A.SortBy(self.sort_key(t), self.chance(0.6), self.bag_unsorted(t, depth))
            return self.bag(t, depth)
        if r < 0.65:
            return self.list_action(rng.choice(RICH_BAG_TYPES), depth)
        if r < 0.75:
            return self.dict_action(depth)
        return self.value(rng.choice([INT, STR, FLOAT, R_SI, BOOL]), depth - 1)
