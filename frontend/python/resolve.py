"""Resolution after inference: type terms back to SparkLite types, placeholders to plain SparkLite.

``infer_program`` (the typing pass's entry, used by the RDD dialect and by RDD scripts) runs
``inference.Inference`` and then ``resolve``; each placeholder of ``frontend.python.nodes`` becomes the
SparkLite chosen for its operands' types, and what may raise is decided with ``sparklite.effects``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from frontend.python.inference import Inference
from frontend.python.nodes import (
    TARGET,
    AsBool,
    AsInt,
    Beta,
    Force,
    Guard,
    ListLit,
    MaybeInt,
    Narrow,
    PairEach,
    PyArith,
    PyCompare,
    PyIndex,
    PyInt,
    PyPow,
    PySlice,
    Shaped,
    ShortCircuit,
    TruthFn,
    Undefined,
    first_effect,
    forced,
    free_vars,
    fresh,
    is_simple,
    subst,
    transform,
)
from frontend.python.nodes import may_raise as pre_may_raise
from frontend.python.types import (
    TBag,
    TDict,
    TList,
    TOpt,
    TTup,
    TVar,
    Undecided,
    _is_term,
    find,
    python_annotation,
)
from sparklite import ast as sl
from sparklite import effects
from sparklite.builtins import BUILTINS as BUILTIN_TABLE
from sparklite.errors import AnnotationNeededError, TypeCheckError, UnsupportedError
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
    NoneType_,
    NumType,
    OptionType,
    StrType,
    TupleType,
    Type,
)

# ---------------------------------------------------------------------------------------------------
# Resolution: from terms back to SparkLite types, placeholders to plain SparkLite
# ---------------------------------------------------------------------------------------------------


def _open(t: Any, defaults_count: bool = True) -> bool:
    """Whether the type still has an unknown part (a variable with a default counts as its default,
    unless ``defaults_count`` is false: then any variable is unknown)."""
    t = find(t)
    if isinstance(t, TVar):
        return t.default is None or not defaults_count
    if isinstance(t, TTup):
        return any(_open(e, defaults_count) for e in t.elems)
    if isinstance(t, TBag | TList | TOpt):
        return _open(t.elem, defaults_count)
    if isinstance(t, TDict):
        return _open(t.key, defaults_count) or _open(t.value, defaults_count)
    return False


def to_type(t: Any) -> Type:
    """A resolved term as a SparkLite type; leftover internal variables get their default (Int)."""
    t = find(t)
    if isinstance(t, TTup):
        return TupleType(tuple(to_type(e) for e in t.elems))
    if isinstance(t, TBag):
        return BagType(to_type(t.elem))
    if isinstance(t, TList):
        return ListType(to_type(t.elem))
    if isinstance(t, TOpt):
        return OptionType(to_type(t.elem))
    if isinstance(t, TDict):
        return DictType(to_type(t.key), to_type(t.value))
    if isinstance(t, (IntType, BoolType, StrType, FloatType, NumType, NoneType_)):
        return t
    if isinstance(t, TVar) and t.projs:
        n = max(t.projs) + 1
        return TupleType(tuple(to_type(t.projs[i]) if i in t.projs else INT for i in range(n)))
    if isinstance(t, TVar) and t.default is not None:
        return to_type(t.default)
    return INT


_BUILTIN_NAMES = frozenset(BUILTIN_TABLE) | frozenset(sl.BUILTINS)


class _Resolver:
    """The resolution pass (bottom-up: a placeholder's operands are already plain SparkLite)."""

    def __init__(self, reserved: frozenset[str], bags: dict[str, sl.Expr], maybe_int_lets: frozenset[str],
                 maybe_int_params: bool) -> None:
        self.reserved = reserved
        self.bags = bags
        self.maybe_int_lets = maybe_int_lets  # lets whose value may be a float sum's int 0
        self.maybe_int_params = maybe_int_params  # some function may receive such a value
        self.forcings: dict[int, tuple[tuple[sl.Expr, ...], sl.Expr]] = {}  # forced Ite -> (values, body)
        self.keep: list[sl.Node] = []  # keeps the ids above valid

    def raises(self, e: sl.Expr) -> bool:
        """``sparklite.effects.may_raise`` of a resolved expression (the let-bound bags it forces are
        not resolved yet: judged pessimistically)."""
        return pre_may_raise(e, self.bags)

    def name(self, base: str, *nodes: sl.Node) -> str:
        taken = set(self.reserved)
        for n in nodes:
            taken |= free_vars(n) | {x.name for x in sl.walk(n) if isinstance(x, (sl.Var, sl.Param))}
        return fresh(base, taken)

    def fix(self, n: sl.Node) -> sl.Node:  # noqa: C901 - one dispatch over the placeholders
        if isinstance(n, sl.Param) and n.type is not None and _is_term(n.type):
            return replace(n, type=to_type(n.type))
        if isinstance(n, sl.FunDef) and _is_term(n.ret):
            return replace(n, ret=to_type(n.ret))
        loc = n.loc
        if isinstance(n, MaybeInt):
            return n if isinstance(to_type(n.t), FloatType) else n.operand
        if isinstance(n, Undefined):  # py.undefined(w): w a constant of the type the context wants
            return sl.Call("py.undefined", (_witness(to_type(n.t), n.name, loc),), loc=loc)
        if isinstance(n, AsInt):
            return self.number(n.operand, to_type(n.t), None, loc)
        if isinstance(n, AsBool):
            return self.truth(n.operand, to_type(n.t), loc)
        if isinstance(n, ListLit):
            return sl.ListExpr(n.elems, loc=loc)
        if isinstance(n, TruthFn):
            t = to_type(n.t)
            if isinstance(t, BoolType):
                return n.fn
            x = fresh("x", free_vars(n.fn) | self.reserved)
            var = sl.Var(x, loc=loc)
            call: sl.Expr = sl.Call(n.fn.name, (var,), loc=loc) if isinstance(n.fn, sl.FnRef) \
                else sl.Apply(n.fn, (var,), loc=loc)
            return sl.Lambda((sl.Param(x, to_type(n.param_t), loc=loc),), self.truth(call, t, loc), loc=loc)
        if isinstance(n, PyArith):
            return self.arith(n)
        if isinstance(n, PyCompare):
            return self.compare(n)
        if isinstance(n, PyIndex):
            return self.index(n)
        if isinstance(n, PySlice):
            t = to_type(n.t)
            inner = t.elem if isinstance(t, OptionType) else t
            if isinstance(inner, TupleType):
                raise UnsupportedError("slicing a tuple is not supported (write the components)", loc,
                                       construct="slice of a tuple")
            return self.after_unwrap(n.base, t, (n.lo, n.hi),
                                     lambda b, rest: sl.Call("py.slice", (b, *rest), loc=loc), loc)
        if isinstance(n, PyInt):
            t = to_type(n.t)
            x = self.unwrap(n.operand, t, loc)
            inner = t.elem if isinstance(t, OptionType) else t
            if isinstance(inner, StrType | FloatType):
                return sl.Call("int", (x,), loc=loc)
            return self.number(x, inner, None, loc)
        if isinstance(n, PyPow):
            t = to_type(n.t)
            inner = t.elem if isinstance(t, OptionType) else t
            if isinstance(inner, FloatType):
                raise UnsupportedError("'**' on a float is Python's pow (one rounding, OverflowError on "
                                       "overflow), not repeated multiplication: write x * x", loc,
                                       construct="** on a float")
            base = self.number(n.base, t, None, loc)
            if n.exponent == 0:  # Python evaluates the base all the same (it may raise)
                return sl.Proj(sl.TupleExpr((base, sl.IntLit(1, loc=loc)), loc=loc), 1, loc=loc)
            result: sl.Expr = base
            for _ in range(n.exponent - 1):
                result = sl.BinOp("*", result, base, loc=loc)
            return result
        if isinstance(n, Narrow):
            return self.unwrap(n.operand, to_type(n.t), loc)
        if isinstance(n, PairEach):
            return self.pair_each(n)
        if isinstance(n, Shaped):
            t = to_type(n.t)
            x = self.unwrap(n.operand, t, loc)
            inner = t.elem if isinstance(t, OptionType) else t
            if isinstance(inner, ListType | StrType):
                return sl.Call("py.unpack", (x, sl.IntLit(n.arity, loc=loc)), loc=loc)
            return x
        if isinstance(n, ShortCircuit):
            if not self.raises(n.right):
                return sl.BinOp(n.op, n.left, n.right, loc=loc)  # type: ignore[arg-type]
            if n.op == "and":
                return sl.Ite(n.left, n.right, sl.BoolLit(False, loc=loc), loc=loc)
            return sl.Ite(n.left, sl.BoolLit(True, loc=loc), n.right, loc=loc)
        if isinstance(n, Force):
            if not self.raises(n.value) or first_effect(n.value, n.body) == TARGET:
                return n.body
            inner = self.forcings.get(id(n.body))
            if inner is not None:  # ``a = ...; b = ...`` both forced: one test of (a, b), not nested ones
                values, body = inner
                values = (n.value, *values)
                both = sl.TupleExpr(values, loc=loc)
                out = sl.Ite(sl.BinOp("==", both, both, loc=loc), body, body, loc=loc)
            else:
                values, body = (n.value,), n.body
                out = forced(n.value, n.body, loc)
            self.forcings[id(out)] = (values, body)
            self.keep.append(out)
            return out
        if isinstance(n, Guard):
            if self.raises(n.checked):
                raise UnsupportedError(n.message, loc, construct=n.construct)
            return n.body
        if isinstance(n, Beta):
            if all(is_simple(a) for a in n.args):
                return subst(n.fn.body, {p.name: a for p, a in zip(n.fn.params, n.args, strict=True)})
            return sl.Apply(n.fn, n.args, loc=loc)
        return n

    # --- helpers ---------------------------------------------------------------------------------

    def maybe_int(self, e: sl.Expr) -> bool:
        """Whether the Float-typed ``e`` may be an int at run time: it holds a float sum (``MaybeInt``),
        a let that may, or a function parameter when some function may receive such a value."""
        for x in sl.walk(e):
            if isinstance(x, MaybeInt):
                return True
            if isinstance(x, sl.Var) and (x.name in self.maybe_int_lets
                                          or (self.maybe_int_params and x.name not in self.reserved)):
                return True
            if self.maybe_int_params and (  # a named function whose body may return such a sum
                    (isinstance(x, sl.Call) and x.func not in _BUILTIN_NAMES)
                    or (isinstance(x, sl.Apply) and not isinstance(x.fn, sl.Lambda))):
                return True
        return False

    @staticmethod
    def exact_divisor_conversion(x: sl.Expr) -> bool:
        """``0 / n`` and ``n / 0`` give the same result (or ``ZeroDivisionError``) with ``float(n)``
        when ``float(n)`` cannot overflow: a literal or a count."""
        if isinstance(x, sl.IntLit):
            try:
                float(x.value)
            except OverflowError:
                return False
            return True
        return isinstance(x, sl.BoolLit) or (isinstance(x, sl.SimpleAgg) and x.kind == "count")

    def unwrap(self, x: sl.Expr, t: Type, loc: sl.Loc | None) -> sl.Expr:
        if isinstance(t, OptionType):
            return sl.Call("py.unwrap", (x,), loc=loc)
        return x

    def number(self, x: sl.Expr, t: Type, target: Type | None, loc: sl.Loc | None) -> sl.Expr:
        """``x`` (of type ``t``) as Python uses it as a number of type ``target`` (``None``: its own)."""
        x = self.unwrap(x, t, loc)
        t = t.elem if isinstance(t, OptionType) else t
        if isinstance(t, BoolType):
            if isinstance(target, FloatType):
                return sl.Ite(x, sl.FloatLit(1.0, loc=loc), sl.FloatLit(0.0, loc=loc), loc=loc)
            return sl.Ite(x, sl.IntLit(1, loc=loc), sl.IntLit(0, loc=loc), loc=loc)
        if isinstance(t, IntType) and isinstance(target, FloatType):
            if isinstance(x, sl.IntLit):
                try:
                    return sl.FloatLit(float(x.value), loc=x.loc)
                except OverflowError:
                    pass
            return sl.Call("float", (x,), loc=loc)
        return x

    def converts_raising(self, x: sl.Expr, t: Type, target: Type | None) -> bool:
        """Whether making ``x`` a number of type ``target`` may raise (``None`` unwrapped, a huge int
        converted to a float)."""
        if isinstance(t, OptionType):
            return True
        if not (isinstance(t, IntType) and isinstance(target, FloatType)):
            return False
        return not isinstance(self.number(x, t, target, None), sl.FloatLit)

    def in_order(self, left: sl.Expr, right: sl.Expr, left_raises: bool, lt: Type, rt: Type,
                 build: Callable[[sl.Expr, sl.Expr], sl.Expr], loc: sl.Loc | None) -> sl.Expr:
        """``build(left, right)``, where ``build`` may convert ``left`` in a way that raises: Python
        evaluates both operands before the operation (and its conversions), so if ``right`` may raise,
        both are passed to a lambda first (a call-by-value ``apply``), which keeps that order."""
        if not (left_raises and self.raises(right)):
            return build(left, right)
        a = self.name("a", left, right)
        b = fresh("b", {a} | set(self.reserved) | free_vars(left) | free_vars(right))
        lam = sl.Lambda((sl.Param(a, lt, loc=loc), sl.Param(b, rt, loc=loc)),
                        build(sl.Var(a, loc=loc), sl.Var(b, loc=loc)), loc=loc)
        return sl.Apply(lam, (left, right), loc=loc)

    def arith(self, n: PyArith) -> sl.Expr:
        loc = n.loc
        lt, rt = to_type(n.lt), to_type(n.rt)
        ul = lt.elem if isinstance(lt, OptionType) else lt
        ur = rt.elem if isinstance(rt, OptionType) else rt
        if isinstance(ul, StrType | ListType):
            return self.in_order(n.left, n.right, isinstance(lt, OptionType), lt, rt,
                                 lambda a, b: sl.BinOp("+", self.unwrap(a, lt, loc), self.unwrap(b, rt, loc),
                                                       loc=loc), loc)
        target: Type = FLOAT if FLOAT in (ul, ur) else INT  # int / int stays SparkLite's "/" on ints
        if target == FLOAT:
            for x, ux, y in ((n.left, ul, n.right), (n.right, ur, n.left)):
                if isinstance(ux, IntType | BoolType) and self.maybe_int(y) \
                        and not (n.op == "/" and self.exact_divisor_conversion(x)):
                    raise UnsupportedError(
                        "an int mixed with a float that may be the int 0 (sum() of an empty float RDD or "
                        "list is the int 0 in Python, so the result would be an int there, not a float): "
                        "convert explicitly, e.g. float(n), or compute the sum with 0.0 as the start "
                        "(fold(0.0, add))", loc, construct="int mixed with a float sum")

        def build(a: sl.Expr, b: sl.Expr) -> sl.Expr:
            x, y = self.number(a, lt, target, loc), self.number(b, rt, target, loc)
            return sl.BinOp(n.op, x, y, loc=loc)  # type: ignore[arg-type]

        return self.in_order(n.left, n.right, self.converts_raising(n.left, lt, target), lt, rt, build, loc)

    def compare(self, n: PyCompare) -> sl.Expr:
        loc = n.loc
        lt, rt = to_type(n.lt), to_type(n.rt)
        if n.op in ("==", "!="):
            return sl.BinOp(n.op, n.left, n.right, loc=loc)  # type: ignore[arg-type]
        ul = lt.elem if isinstance(lt, OptionType) else lt
        ur = rt.elem if isinstance(rt, OptionType) else rt
        numeric = (IntType, BoolType, FloatType)
        as_numbers = isinstance(ul, numeric) and isinstance(ur, numeric) and BOOL in (ul, ur)

        def build(a: sl.Expr, b: sl.Expr) -> sl.Expr:
            if as_numbers:
                x, y = self.number(a, lt, None, loc), self.number(b, rt, None, loc)
            else:
                x, y = self.unwrap(a, lt, loc), self.unwrap(b, rt, loc)
            return sl.BinOp(n.op, x, y, loc=loc)  # type: ignore[arg-type]

        return self.in_order(n.left, n.right, isinstance(lt, OptionType), lt, rt, build, loc)

    def after_unwrap(self, base: sl.Expr, t: Type, rest: tuple[sl.Expr, ...],
                     build: Callable[[sl.Expr, tuple[sl.Expr, ...]], sl.Expr], loc: sl.Loc | None) -> sl.Expr:
        """``build(base, rest)`` where an optional ``base`` is unwrapped: Python evaluates ``rest`` first."""
        if not isinstance(t, OptionType) or not any(self.raises(r) for r in rest):
            return build(self.unwrap(base, t, loc), rest)
        names = []
        for base_name in ("s", "i", "j")[:1 + len(rest)]:
            names.append(fresh(base_name, set(self.reserved) | set(names)
                               | set().union(*(free_vars(x) for x in (base, *rest)))))
        params = tuple(sl.Param(nm, loc=loc) for nm in names)
        vars_ = [sl.Var(nm, loc=loc) for nm in names]
        body = build(self.unwrap(vars_[0], t, loc), tuple(vars_[1:]))
        return sl.Apply(sl.Lambda(params, body, loc=loc), (base, *rest), loc=loc)

    def index(self, n: PyIndex) -> sl.Expr:
        loc = n.loc
        t = to_type(n.t)
        inner = t.elem if isinstance(t, OptionType) else t
        if isinstance(inner, TupleType):
            assert isinstance(n.index, sl.IntLit)
            i = n.index.value if n.index.value >= 0 else len(inner.elems) + n.index.value
            return sl.Proj(self.unwrap(n.base, t, loc), i, loc=loc)
        if isinstance(inner, DictType):
            raise UnsupportedError("indexing a dict is not supported", loc, construct="dict indexing")
        return self.after_unwrap(n.base, t, (n.index,),
                                 lambda b, rest: sl.Call("py.getitem", (b, *rest), loc=loc), loc)

    def truth(self, x: sl.Expr, t: Type, loc: sl.Loc | None) -> sl.Expr:
        if isinstance(t, BoolType):
            return x
        if isinstance(t, IntType):
            return sl.BinOp("!=", x, sl.IntLit(0, loc=loc), loc=loc)
        if isinstance(t, FloatType):
            return sl.BinOp("!=", x, sl.FloatLit(0.0, loc=loc), loc=loc)
        if isinstance(t, StrType):
            return sl.BinOp("!=", x, sl.StrLit("", loc=loc), loc=loc)
        if isinstance(t, ListType):
            return sl.BinOp("!=", sl.Call("len", (x,), loc=loc), sl.IntLit(0, loc=loc), loc=loc)
        if isinstance(t, NoneType_):  # always false (x is still evaluated)
            return sl.Not(sl.Call("py.is_none", (x,), loc=loc), loc=loc)
        if isinstance(t, OptionType):
            present = sl.Not(sl.Call("py.is_none", (x,), loc=loc), loc=loc)
            return sl.Ite(present, self.truth(sl.Call("py.unwrap", (x,), loc=loc), t.elem, loc),
                          sl.BoolLit(False, loc=loc), loc=loc)
        raise TypeCheckError(f"the truth value of a value of type {t} is not supported", loc)

    def pair_each(self, n: PairEach) -> sl.Expr:
        loc = n.loc
        t = to_type(n.t)
        if isinstance(t, TupleType):
            if isinstance(n.items, sl.TupleExpr):
                return sl.TupleExpr(tuple(sl.TupleExpr((n.key, e), loc=loc) for e in n.items.elems), loc=loc)
            v = self.name("vs", n.key, n.items)
            var = sl.Var(v, loc=loc)
            body = sl.TupleExpr(tuple(sl.TupleExpr((n.key, sl.Proj(var, i, loc=loc)), loc=loc)
                                      for i in range(len(t.elems))), loc=loc)
            return sl.Apply(sl.Lambda((sl.Param(v, t, loc=loc),), body, loc=loc), (n.items,), loc=loc)
        elem = t.elem if isinstance(t, ListType) else STR
        y = self.name("y", n.key, n.items)
        body = sl.TupleExpr((n.key, sl.Var(y, loc=loc)), loc=loc)
        return sl.ListComp(sl.Lambda((sl.Param(y, elem, loc=loc),), body, loc=loc), n.items, loc=loc)


def resolve(node: Any, reserved: frozenset[str] = frozenset(), bags: dict[str, sl.Expr] | None = None) -> Any:
    """Replace type terms by types and placeholders by SparkLite; invented names avoid ``reserved``."""
    lets, params = _maybe_int_flow(node)
    resolved = transform(node, _Resolver(reserved, bags or {}, lets, params).fix)
    return transform(resolved, lambda n: n.operand if isinstance(n, MaybeInt) else n)


def _float_sum(n: sl.Node) -> bool:
    return isinstance(n, MaybeInt) and isinstance(to_type(n.t), FloatType)


def _maybe_int_flow(node: Any) -> tuple[frozenset[str], bool]:
    """Which lets may hold a float sum's int 0, and whether a function body may see one (then every
    function parameter is suspect): a conservative flow over the typed, unresolved program."""
    if not isinstance(node, sl.Program):
        return frozenset(), any(_float_sum(n) for n in sl.walk(node))
    lets: set[str] = set()
    for b in node.lets:
        if any(_float_sum(n) or (isinstance(n, sl.Var) and n.name in lets) for n in sl.walk(b.value)):
            lets.add(b.name)
    bodies: list[sl.Node] = [d for d in node.defs]
    for part in (*[b.value for b in node.lets], node.body):
        bodies += [n for n in sl.walk(part) if isinstance(n, sl.Lambda)]
    params = any(_float_sum(n) or (isinstance(n, sl.Var) and n.name in lets)
                 for body in bodies for n in sl.walk(body))
    return frozenset(lets), params


def infer_program(p: sl.Program) -> sl.Program:
    """Type the translated program: fill every parameter type, resolve placeholders, or explain what
    annotation is missing."""
    inf = Inference()
    try:
        typed, param_terms = inf.program(p)
        inf.settle()  # what the code decides, before any default
        defaulted = [q for q in p.params
                     if q.type is None and _open(param_terms[q.name], defaults_count=False)]
        inf.solve()
    except Undecided as exc:
        _annotation_needed(p, inf.param_terms)
        raise TypeCheckError(str(exc), exc.loc) from None
    _annotation_needed(p, param_terms)
    reserved = frozenset({q.name for q in p.params} | {lt.name for lt in p.lets} | {d.name for d in p.defs})
    bags = effects.bag_lets(p)
    out = resolve(typed, reserved, bags)
    assumed = tuple(assumed_type(q.name, to_type(param_terms[q.name])) for q in defaulted)
    return replace(out, assumed=assumed) if assumed else out


def assumed_type(name: str, t: Any) -> str:
    """The assumption an unannotated parameter's defaulted type makes, and the annotation that lifts
    it, e.g. "R's elements are assumed to be int (no annotation; annotate R: RDD[float] to check
    floats)"."""
    if isinstance(t, BagType):
        elem = python_annotation(t.elem)
        alt = f"RDD[{elem.replace('int', 'float')}]" if "int" in elem else f"RDD[{elem}]"
        what, check = f"{name}'s elements are assumed to be {elem}", f"annotate {name}: {alt}"
    else:
        shown = python_annotation(t)
        alt = shown.replace("int", "float") if "int" in shown else shown
        what, check = f"{name} is assumed to be {shown}", f"annotate {name}: {alt}"
    tail = " to check floats" if "float" in alt and "float" not in what else " to state it"
    return f"{what} (no annotation; {check}{tail})"


def _annotation_needed(p: sl.Program, param_terms: dict[str, Any]) -> None:
    """An ``AnnotationNeededError`` for the first input whose type is still open, if any."""
    for prm in p.params:
        t = param_terms.get(prm.name)
        if t is not None and _open(t):
            raise AnnotationNeededError(
                f"parameter {prm.name} needs an annotation, e.g. {prm.name}: {python_annotation(t)}", prm.loc)


__all__ = ["infer_program", "resolve"]


def _witness(t: Any, name: str, loc: sl.Loc | None) -> sl.Expr:
    """A constant of type ``t``: only its type matters (``py.undefined`` raises before using it)."""
    if isinstance(t, IntType):
        return sl.IntLit(0, loc=loc)
    if isinstance(t, BoolType):
        return sl.BoolLit(False, loc=loc)
    if isinstance(t, StrType):
        return sl.StrLit("", loc=loc)
    if isinstance(t, FloatType):
        return sl.FloatLit(0.0, loc=loc)
    if isinstance(t, NoneType_):
        return sl.NoneLit(loc=loc)
    if isinstance(t, TupleType):
        return sl.TupleExpr(tuple(_witness(x, name, loc) for x in t.elems), loc=loc)
    if isinstance(t, ListType):
        return sl.ListExpr((_witness(t.elem, name, loc),), loc=loc)
    if isinstance(t, OptionType):
        return sl.Ite(sl.BoolLit(True, loc=loc), sl.NoneLit(loc=loc), _witness(t.elem, name, loc), loc=loc)
    raise UnsupportedError(f"name '{name}' is not defined, where a value of type {t} is expected "
                           "(not modelled)", loc, construct="undefined name")
