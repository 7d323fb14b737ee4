"""Types: Python annotations, and inference by unification over the translated program.

Annotations give types directly (``RDD[tuple[int, int]]``, ``typing.Tuple[int, int]``, string
annotations). Everything else is inferred from use: arithmetic makes a value an ``Int`` (a ``bool``
used as a number is also accepted, see ``AsInt``), ``x[0]`` makes ``x`` a tuple, keyed operations make
elements pairs. Each occurrence of a lambda gets fresh type variables (so the same local lambda can be
used at two types); a named ``FunDef`` has one monomorphic signature. When an input parameter's type is
still open at the end, the user gets an ``AnnotationNeededError`` naming it, rather than a guess.
"""

from __future__ import annotations

import ast as pyast
import itertools
from dataclasses import dataclass, field, replace
from typing import Any

from frontend.nodes import AsBool, AsInt, ListLit, Shaped, TruthFn, free_vars, fresh, loc_of, transform
from sparklite import ast as sl
from sparklite.errors import AnnotationNeededError, NameResolutionError, TypeCheckError, UnsupportedError
from sparklite.types import BOOL, INT, BagType, BoolType, IntType, TupleType, Type, is_basic

# ---------------------------------------------------------------------------------------------------
# Annotations
# ---------------------------------------------------------------------------------------------------

_RDD_NAMES = {"RDD"}
_TUPLE_NAMES = {"tuple", "Tuple"}


def annotation_type(node: pyast.expr, filename: str) -> Type:
    """The SparkLite type of a Python annotation (``RDD[int]``, ``tuple[int, bool]``, ``"RDD[int]"``)."""
    loc = loc_of(node, filename)
    if isinstance(node, pyast.Constant) and isinstance(node.value, str):
        try:
            inner = pyast.parse(node.value, mode="eval").body
        except SyntaxError:
            raise UnsupportedError(f"cannot read the annotation {node.value!r}", loc,
                                   construct="annotation") from None
        pyast.copy_location(inner, node)
        for sub in pyast.walk(inner):
            pyast.copy_location(sub, node)
        return annotation_type(inner, filename)
    name = _dotted_tail(node)
    if name == "int":
        return INT
    if name == "bool":
        return BOOL
    if isinstance(node, pyast.Subscript):
        base = _dotted_tail(node.value)
        args = node.slice.elts if isinstance(node.slice, pyast.Tuple) else [node.slice]
        if base in _RDD_NAMES and len(args) == 1:
            elem = annotation_type(args[0], filename)
            if not is_basic(elem):
                raise UnsupportedError("RDD elements must be ints, bools or tuples of them", loc,
                                       construct="annotation")
            return BagType(elem)
        if base in _TUPLE_NAMES and args and not any(isinstance(a, pyast.Constant) and a.value is Ellipsis
                                                     for a in args):
            elems = tuple(annotation_type(a, filename) for a in args)
            if not all(is_basic(e) for e in elems):
                raise UnsupportedError("tuples may hold only ints, bools and tuples", loc,
                                       construct="annotation")
            return TupleType(elems)
    text = pyast.unparse(node) if hasattr(pyast, "unparse") else "?"
    raise UnsupportedError(f"unsupported annotation '{text}' (use int, bool, tuple[...] or RDD[...])", loc,
                           construct="annotation")


def _dotted_tail(node: pyast.expr) -> str | None:
    if isinstance(node, pyast.Name):
        return node.id
    if isinstance(node, pyast.Attribute):
        return node.attr
    return None


def python_annotation(t: Any) -> str:
    """How a (partially known) type is written as a Python annotation; unknown parts shown as int."""
    t = find(t)
    if isinstance(t, (TBag, BagType)):
        return f"RDD[{python_annotation(t.elem)}]"
    if isinstance(t, (TTup, TupleType)):
        return "tuple[" + ", ".join(python_annotation(e) for e in t.elems) + "]"
    if isinstance(t, BoolType):
        return "bool"
    if isinstance(t, TVar) and t.projs:
        n = max(max(t.projs) + 1, 2)
        return "tuple[" + ", ".join(python_annotation(t.projs.get(i)) if i in t.projs else "int"
                                    for i in range(n)) + "]"
    return "int"


# ---------------------------------------------------------------------------------------------------
# Type terms and unification
# ---------------------------------------------------------------------------------------------------

_ids = itertools.count()


@dataclass(eq=False)
class TVar:
    """A type variable; ``numeric``/``truthy`` restrict it to Int or Bool, ``projs`` to a tuple with
    (at least) the given components."""

    ref: Any = None
    numeric: bool = False
    truthy: bool = False
    projs: dict[int, Any] = field(default_factory=dict)
    id: int = field(default_factory=lambda: next(_ids))


@dataclass(eq=False)
class TTup:
    elems: list[Any]


@dataclass(eq=False)
class TBag:
    elem: Any


def find(t: Any) -> Any:
    while isinstance(t, TVar) and t.ref is not None:
        t = t.ref
    return t


def show(t: Any) -> str:
    t = find(t)
    if isinstance(t, TVar):
        return "tuple" if t.projs else "?"
    if isinstance(t, TTup):
        return "(" + ", ".join(show(e) for e in t.elems) + ")"
    if isinstance(t, TBag):
        return f"Bag[{show(t.elem)}]"
    return str(t)


def to_term(t: Type) -> Any:
    if isinstance(t, TupleType):
        return TTup([to_term(e) for e in t.elems])
    if isinstance(t, BagType):
        return TBag(to_term(t.elem))
    return t


class Unifier:
    def __init__(self) -> None:
        self.vars: list[TVar] = []

    def var(self) -> TVar:
        v = TVar()
        self.vars.append(v)
        return v

    def fail(self, why: str, a: Any, b: Any, loc: sl.Loc | None) -> TypeCheckError:
        return TypeCheckError(f"{why}: {show(a)} vs {show(b)}", loc)

    def unify(self, a: Any, b: Any, loc: sl.Loc | None, why: str = "type mismatch") -> None:
        a, b = find(a), find(b)
        if a is b:
            return
        if isinstance(a, TVar):
            self.bind(a, b, loc, why)
        elif isinstance(b, TVar):
            self.bind(b, a, loc, why)
        elif type(a) is type(b) and isinstance(a, (IntType, BoolType)):
            return
        elif isinstance(a, TTup) and isinstance(b, TTup):
            if len(a.elems) != len(b.elems):
                raise self.fail(why, a, b, loc)
            for x, y in zip(a.elems, b.elems, strict=True):
                self.unify(x, y, loc, why)
        elif isinstance(a, TBag) and isinstance(b, TBag):
            self.unify(a.elem, b.elem, loc, why)
        else:
            raise self.fail(why, a, b, loc)

    def occurs(self, v: TVar, t: Any) -> bool:
        t = find(t)
        if t is v:
            return True
        if isinstance(t, TTup):
            return any(self.occurs(v, e) for e in t.elems)
        if isinstance(t, TBag):
            return self.occurs(v, t.elem)
        if isinstance(t, TVar):
            return any(self.occurs(v, p) for p in t.projs.values())
        return False

    def bind(self, v: TVar, t: Any, loc: sl.Loc | None, why: str) -> None:
        if self.occurs(v, t):
            raise TypeCheckError(f"{why}: a value would have to contain itself", loc)
        v.ref = t
        if isinstance(t, TVar):
            t.numeric |= v.numeric
            t.truthy |= v.truthy
            for i, p in v.projs.items():
                self.project(t, i, p, loc)
            return
        if (v.numeric or v.truthy) and not isinstance(t, (IntType, BoolType)):
            use = "a number" if v.numeric else "a condition"
            raise TypeCheckError(f"a value of type {show(t)} is used as {use}", loc)
        for i, p in v.projs.items():
            self.project(t, i, p, loc)

    def project(self, t: Any, index: int, comp: Any, loc: sl.Loc | None) -> None:
        """``t[index]`` has type ``comp``."""
        t = find(t)
        if isinstance(t, TVar):
            if t.numeric or t.truthy:
                raise TypeCheckError(f"indexing a value that is used as a number: [{index}]", loc)
            if index in t.projs:
                self.unify(t.projs[index], comp, loc)
            else:
                t.projs[index] = comp
            return
        if not isinstance(t, TTup):
            raise TypeCheckError(f"cannot index a value of type {show(t)} with [{index}]", loc)
        if index >= len(t.elems):
            raise TypeCheckError(f"tuple index {index} out of range for {show(t)}", loc)
        self.unify(t.elems[index], comp, loc)

    def numeric(self, t: Any, loc: sl.Loc | None) -> None:
        t = find(t)
        if isinstance(t, TVar):
            if t.projs:
                raise TypeCheckError("a tuple is used as a number", loc)
            t.numeric = True
        elif not isinstance(t, (IntType, BoolType)):
            raise TypeCheckError(f"a value of type {show(t)} is used as a number", loc)

    def truthy(self, t: Any, loc: sl.Loc | None) -> None:
        t = find(t)
        if isinstance(t, TVar):
            if t.projs:
                raise TypeCheckError("a tuple is used as a condition (its truth value is not supported)", loc)
            t.truthy = True
        elif not isinstance(t, (IntType, BoolType)):
            raise TypeCheckError(f"a value of type {show(t)} is used as a condition", loc)


# ---------------------------------------------------------------------------------------------------
# Inference: rebuilds the tree with type terms in Param.type / FunDef.ret / placeholder fields
# ---------------------------------------------------------------------------------------------------


@dataclass
class Sig:
    params: list[Any]
    ret: Any


class Inference:
    def __init__(self) -> None:
        self.u = Unifier()
        self.defs: dict[str, Sig] = {}
        self.param_defs: dict[str, tuple[list[Any], sl.Lambda]] = {}

    def expr(self, e: sl.Expr, env: dict[str, Any]) -> tuple[sl.Expr, Any]:
        u = self.u
        loc = e.loc
        if isinstance(e, sl.IntLit):
            return e, INT
        if isinstance(e, sl.BoolLit):
            return e, BOOL
        if isinstance(e, sl.Var):
            if e.name not in env:
                raise NameResolutionError(f"name '{e.name}' is not defined", loc)
            return e, env[e.name]
        if isinstance(e, sl.BinOp):
            left, lt = self.expr(e.left, env)
            right, rt = self.expr(e.right, env)
            if e.op in sl.ARITH_OPS or e.op in ("<", "<=", ">", ">="):
                u.unify(lt, INT, left.loc, f"operand of '{e.op}' must be an int")
                u.unify(rt, INT, right.loc, f"operand of '{e.op}' must be an int")
                result: Any = INT if e.op in sl.ARITH_OPS else BOOL
            elif e.op in ("==", "!="):
                u.unify(lt, rt, loc, f"'{e.op}' compares values of different types")
                result = BOOL
            else:
                why = (f"'{e.op}' on non-bool values is not supported (Python's {e.op} returns one of its "
                       "operands); compare explicitly, e.g. x != 0")
                u.unify(lt, BOOL, left.loc, why)
                u.unify(rt, BOOL, right.loc, why)
                result = BOOL
            return replace(e, left=left, right=right), result
        if isinstance(e, sl.Not):
            operand, t = self.expr(e.operand, env)
            u.unify(t, BOOL, loc, "'not' needs a bool")
            return replace(e, operand=operand), BOOL
        if isinstance(e, sl.Neg):
            operand, t = self.expr(e.operand, env)
            u.unify(t, INT, loc, "'-' needs an int")
            return replace(e, operand=operand), INT
        if isinstance(e, sl.Ite):
            cond, ct = self.expr(e.cond, env)
            u.unify(ct, BOOL, cond.loc, "condition must be a bool")
            then, tt = self.expr(e.then, env)
            orelse, et = self.expr(e.orelse, env)
            u.unify(tt, et, loc, "the two branches have different types")
            return replace(e, cond=cond, then=then, orelse=orelse), tt
        if isinstance(e, (sl.TupleExpr, ListLit)):
            pairs = [self.expr(x, env) for x in e.elems]
            return replace(e, elems=tuple(p[0] for p in pairs)), TTup([p[1] for p in pairs])
        if isinstance(e, sl.Proj):
            inner, t = self.expr(e.tuple, env)
            comp = u.var()
            u.project(t, e.index, comp, loc)
            return replace(e, tuple=inner), comp
        if isinstance(e, Shaped):
            inner, t = self.expr(e.operand, env)
            u.unify(t, TTup([u.var() for _ in range(e.arity)]), loc,
                    f"expected a tuple of {e.arity} components")
            return inner, t  # resolved: the shape constraint has been recorded
        if isinstance(e, sl.Call):
            pairs = [self.expr(a, env) for a in e.args]
            args = tuple(p[0] for p in pairs)
            if e.func == "abs":
                u.unify(pairs[0][1], INT, args[0].loc, "abs() needs an int")
                return replace(e, args=args), INT
            if e.func in sl.BUILTINS:  # min/max: one ordered type (SparkLite's checker insists)
                first = pairs[0][1]
                for a, (_, t) in zip(args[1:], pairs[1:], strict=True):
                    u.unify(t, first, a.loc, f"{e.func}() of values of different types")
                return replace(e, args=args), first
            sig = self.defs.get(e.func)
            if sig is None:
                raise NameResolutionError(f"function '{e.func}' is not defined", loc)
            self._apply_sig(sig, [p[1] for p in pairs], loc, e.func)
            return replace(e, args=args), sig.ret
        if isinstance(e, sl.Apply):
            fn, sig = self.fn(e.fn, env)
            pairs = [self.expr(a, env) for a in e.args]
            self._apply_sig(sig, [p[1] for p in pairs], loc, "function")
            return replace(e, fn=fn, args=tuple(p[0] for p in pairs)), sig.ret
        if isinstance(e, AsInt):
            operand, t = self.expr(e.operand, env)
            u.numeric(t, loc)
            return replace(e, operand=operand, t=t), INT
        if isinstance(e, AsBool):
            operand, t = self.expr(e.operand, env)
            u.truthy(t, loc)
            return replace(e, operand=operand, t=t), BOOL
        return self.bag_expr(e, env)

    def _apply_sig(self, sig: Sig, args: list[Any], loc: sl.Loc | None, name: str) -> None:
        if len(sig.params) != len(args):
            raise TypeCheckError(f"'{name}' takes {len(sig.params)} argument(s), {len(args)} given", loc)
        for p, a in zip(sig.params, args, strict=True):
            self.u.unify(p, a, loc, f"argument of '{name}' has the wrong type")

    def fn(self, f: Any, env: dict[str, Any]) -> tuple[Any, Sig]:
        u = self.u
        if isinstance(f, sl.Lambda):
            params = []
            inner = dict(env)
            terms = []
            for p in f.params:
                t: Any = u.var()
                if p.type is not None:
                    u.unify(t, to_term(p.type), p.loc)
                inner[p.name] = t
                terms.append(t)
                params.append(replace(p, type=t))
            body, bt = self.expr(f.body, inner)
            return replace(f, params=tuple(params), body=body), Sig(terms, bt)
        if isinstance(f, sl.FnRef):
            if f.name not in self.defs:
                raise NameResolutionError(f"function '{f.name}' is not defined", f.loc)
            return f, self.defs[f.name]
        if isinstance(f, sl.PApp):
            if f.name not in self.param_defs:
                raise NameResolutionError(f"function '{f.name}' is not defined", f.loc)
            p_terms, lam = self.param_defs[f.name]
            pairs = [self.expr(a, env) for a in f.args]
            self._apply_sig(Sig(p_terms, None), [p[1] for p in pairs], f.loc, f.name)
            # the returned lambda's signature is shared by all instantiations (monomorphic helper)
            return replace(f, args=tuple(p[0] for p in pairs)), self.param_lambda_sig[f.name]
        if isinstance(f, TruthFn):
            inner, sig = self.fn(f.fn, env)
            u.truthy(sig.ret, f.loc)
            return replace(f, fn=inner, t=sig.ret, param_t=sig.params[0]), Sig(sig.params, BOOL)
        raise TypeCheckError("not a function", getattr(f, "loc", None))

    def fn_checked(self, f: Any, env: dict[str, Any], arity: int, what: str) -> tuple[Any, Sig]:
        new, sig = self.fn(f, env)
        if len(sig.params) != arity:
            raise TypeCheckError(f"the function passed to {what} must take {arity} argument(s)", f.loc)
        return new, sig

    def bag_of(self, e: sl.Expr, env: dict[str, Any], what: str) -> tuple[sl.Expr, Any]:
        """Infer a bag-valued source; return it and its element type."""
        new, t = self.expr(e, env)
        elem = self.u.var()
        self.u.unify(t, TBag(elem), e.loc, f"{what} needs an RDD")
        return new, elem

    def pair(self, elem: Any, loc: sl.Loc | None, what: str) -> tuple[Any, Any]:
        k, v = self.u.var(), self.u.var()
        self.u.unify(elem, TTup([k, v]), loc, f"{what} needs an RDD of (key, value) pairs")
        return k, v

    def bag_expr(self, e: sl.Expr, env: dict[str, Any]) -> tuple[sl.Expr, Any]:
        u = self.u
        loc = e.loc
        name = type(e).__name__
        if isinstance(e, (sl.Map, sl.Filter, sl.FlatMap)):
            src, elem = self.bag_of(e.source, env, name)
            fn, sig = self.fn_checked(e.fn, env, 1, name)
            u.unify(sig.params[0], elem, loc, f"the function passed to {name} does not accept the elements")
            if isinstance(e, sl.Map):
                out: Any = sig.ret
            elif isinstance(e, sl.Filter):
                u.unify(sig.ret, BOOL, loc, "filter's function must return a bool")
                out = elem
            else:
                ret = find(sig.ret)
                if not isinstance(ret, TTup) or not ret.elems:
                    raise TypeCheckError("flatMap's function must return a non-empty tuple", loc)
                for comp in ret.elems[1:]:
                    u.unify(ret.elems[0], comp, loc, "flatMap's results must all have the same type")
                out = ret.elems[0]
            return replace(e, fn=fn, source=src), TBag(out)
        if isinstance(e, (sl.Cartesian, sl.Join, sl.Union)):
            left, lt = self.bag_of(e.left, env, name)
            right, rt = self.bag_of(e.right, env, name)
            if isinstance(e, sl.Cartesian):
                out = TTup([lt, rt])
            elif isinstance(e, sl.Union):
                u.unify(lt, rt, loc, "union of RDDs with different element types")
                out = lt
            else:
                k1, v = self.pair(lt, e.left.loc, "join")
                k2, w = self.pair(rt, e.right.loc, "join")
                u.unify(k1, k2, loc, "join keys have different types")
                out = TTup([k1, TTup([v, w])])
            return replace(e, left=left, right=right), TBag(out)
        if isinstance(e, sl.Distinct):
            src, elem = self.bag_of(e.source, env, name)
            return replace(e, source=src), TBag(elem)
        if isinstance(e, sl.SimpleAgg):
            src, elem = self.bag_of(e.source, env, e.kind)
            if e.kind == "sum":
                u.numeric(elem, loc)  # ints, or bools summed as 0/1 as Python does
            if e.kind in ("min", "max"):
                return replace(e, source=src), elem  # any ordered type: SparkLite's checker insists
            return replace(e, source=src), INT
        if isinstance(e, (sl.Fold, sl.Reduce, sl.Aggregate)):
            src, elem = self.bag_of(e.source, env, name)
            if isinstance(e, sl.Aggregate):
                zero, zt = self.expr(e.zero, env)
                seq, s = self.fn_checked(e.seq, env, 2, "aggregate")
                comb, c = self.fn_checked(e.comb, env, 2, "aggregate")
                for t in (*s.params[:1], s.ret, *c.params, c.ret):
                    u.unify(zt, t, loc, "aggregate's zero and functions disagree on the accumulator type")
                u.unify(s.params[1], elem, loc, "aggregate's seqOp does not accept the elements")
                return replace(e, zero=zero, seq=seq, comb=comb, source=src), zt
            op, sig = self.fn_checked(e.op, env, 2, name.lower())
            if isinstance(find(elem), BoolType) and isinstance(find(sig.ret), IntType):
                # Python: reduce(add) over [True] is True, over [True, True] is 2 -- a bool or an int
                raise UnsupportedError(f"{name.lower()} with a numeric function over booleans returns a bool "
                                       "for one element and an int otherwise; map the booleans to ints first "
                                       "(e.g. .map(int)) or use sum()", loc,
                                       construct="numeric reduce over booleans")
            for t in (*sig.params, sig.ret):
                u.unify(elem, t, loc, f"{name.lower()}'s function must take and return the element type")
            if isinstance(e, sl.Fold):
                zero, zt = self.expr(e.zero, env)
                u.unify(zt, elem, loc, "fold's zero must have the element type")
                return replace(e, zero=zero, op=op, source=src), elem
            return replace(e, op=op, source=src), elem
        if isinstance(e, (sl.FoldByKey, sl.ReduceByKey, sl.AggregateByKey, sl.CombineByKey)):
            src, elem = self.bag_of(e.source, env, name)
            k, v = self.pair(elem, loc, name)
            if isinstance(e, (sl.FoldByKey, sl.ReduceByKey)):
                op, sig = self.fn_checked(e.op, env, 2, name)
                for t in (*sig.params, sig.ret):
                    u.unify(v, t, loc, f"{name}'s function must take and return the value type")
                if isinstance(e, sl.FoldByKey):
                    zero, zt = self.expr(e.zero, env)
                    u.unify(zt, v, loc, "foldByKey's zero must have the value type")
                    return replace(e, zero=zero, op=op, source=src), TBag(TTup([k, v]))
                return replace(e, op=op, source=src), TBag(TTup([k, v]))
            if isinstance(e, sl.AggregateByKey):
                zero, zt = self.expr(e.zero, env)
                seq, s = self.fn_checked(e.seq, env, 2, name)
                comb, c = self.fn_checked(e.comb, env, 2, name)
                for t in (s.params[0], s.ret, *c.params, c.ret):
                    u.unify(zt, t, loc, "aggregateByKey's zero and functions disagree on the accumulator")
                u.unify(s.params[1], v, loc, "aggregateByKey's seqOp does not accept the values")
                return replace(e, zero=zero, seq=seq, comb=comb, source=src), TBag(TTup([k, zt]))
            create, cs = self.fn_checked(e.create, env, 1, name)
            mv, ms = self.fn_checked(e.merge_value, env, 2, name)
            mc, ns = self.fn_checked(e.merge_combiners, env, 2, name)
            u.unify(cs.params[0], v, loc, "combineByKey's createCombiner does not accept the values")
            acc = cs.ret
            for t in (ms.params[0], ms.ret, *ns.params, ns.ret):
                u.unify(acc, t, loc, "combineByKey's functions disagree on the combiner type")
            u.unify(ms.params[1], v, loc, "combineByKey's mergeValue does not accept the values")
            out = TBag(TTup([k, acc]))
            return replace(e, create=create, merge_value=mv, merge_combiners=mc, source=src), out
        if isinstance(e, sl.GroupByKeyAgg):
            src, elem = self.bag_of(e.source, env, "groupByKey")
            k, v = self.pair(elem, loc, "groupByKey")
            if any(kind != "len" for kind in e.kinds):
                u.unify(v, INT, loc, "sum/min/max of a group need int values")
            results = [INT for _ in e.kinds]
            out = TTup([k, results[0] if len(results) == 1 else TTup(results)])
            return replace(e, source=src), TBag(out)
        raise TypeCheckError(f"unexpected {name}", loc)

    # --- programs ------------------------------------------------------------------------------

    param_lambda_sig: dict[str, Sig]

    def program(self, p: sl.Program) -> tuple[sl.Program, dict[str, Any]]:
        self.param_lambda_sig = {}
        defs = []
        for d in p.defs:
            if isinstance(d, sl.FunDef):
                terms = []
                params = []
                env: dict[str, Any] = {}
                for prm in d.params:
                    t: Any = self.u.var()
                    if prm.type is not None:
                        self.u.unify(t, to_term(prm.type), prm.loc)
                    env[prm.name] = t
                    terms.append(t)
                    params.append(replace(prm, type=t))
                ret: Any = self.u.var()
                if d.ret is not None:
                    self.u.unify(ret, to_term(d.ret), d.loc)
                self.defs[d.name] = Sig(terms, ret)
                body, bt = self.expr(d.body, env)
                self.u.unify(ret, bt, d.loc, f"'{d.name}' returns values of different types")
                defs.append(replace(d, params=tuple(params), ret=ret, body=body))
            else:
                terms = []
                params = []
                env = {}
                for prm in d.params:
                    t = self.u.var()
                    if prm.type is not None:
                        self.u.unify(t, to_term(prm.type), prm.loc)
                    env[prm.name] = t
                    terms.append(t)
                    params.append(replace(prm, type=t))
                fn, sig = self.fn(d.fn, env)
                self.param_defs[d.name] = (terms, fn)
                self.param_lambda_sig[d.name] = sig
                defs.append(replace(d, params=tuple(params), fn=fn))
        env = {}
        params = []
        types: dict[str, Any] = {}
        for prm in p.params:
            t = self.u.var()
            if prm.type is not None:
                self.u.unify(t, to_term(prm.type), prm.loc)
            env[prm.name] = t
            types[prm.name] = t
            params.append(replace(prm, type=t))
        lets = []
        for let in p.lets:
            value, t = self.expr(let.value, env)
            env[let.name] = t
            lets.append(replace(let, value=value))
        body, _ = self.expr(p.body, env)
        return replace(p, params=tuple(params), defs=tuple(defs), lets=tuple(lets), body=body), types


# ---------------------------------------------------------------------------------------------------
# Resolution: from terms back to SparkLite types, placeholders to plain SparkLite
# ---------------------------------------------------------------------------------------------------


def _open(t: Any) -> bool:
    """Whether the type still has an unknown part (a numeric-only variable counts as Int)."""
    t = find(t)
    if isinstance(t, TVar):
        return not t.numeric
    if isinstance(t, TTup):
        return any(_open(e) for e in t.elems)
    if isinstance(t, TBag):
        return _open(t.elem)
    return False


def to_type(t: Any) -> Type:
    """A resolved term as a SparkLite type; leftover internal variables default to Int."""
    t = find(t)
    if isinstance(t, TTup):
        return TupleType(tuple(to_type(e) for e in t.elems))
    if isinstance(t, TBag):
        return BagType(to_type(t.elem))
    if isinstance(t, (IntType, BoolType)):
        return t
    if isinstance(t, TVar) and t.projs:
        n = max(t.projs) + 1
        return TupleType(tuple(to_type(t.projs[i]) if i in t.projs else INT for i in range(n)))
    return INT


def _is_term(x: Any) -> bool:
    return isinstance(x, (TVar, TTup, TBag))


def resolve(node: Any, reserved: frozenset[str] = frozenset()) -> Any:
    """Replace type terms by types and placeholders by SparkLite; invented names avoid ``reserved``."""

    def fix(n: sl.Node) -> sl.Node:
        if isinstance(n, sl.Param) and n.type is not None and _is_term(n.type):
            return replace(n, type=to_type(n.type))
        if isinstance(n, sl.FunDef) and _is_term(n.ret):
            return replace(n, ret=to_type(n.ret))
        if isinstance(n, AsInt):
            if isinstance(to_type(n.t), BoolType):
                return sl.Ite(n.operand, sl.IntLit(1, loc=n.loc), sl.IntLit(0, loc=n.loc), loc=n.loc)
            return n.operand
        if isinstance(n, AsBool):
            if isinstance(to_type(n.t), IntType):
                return sl.BinOp("!=", n.operand, sl.IntLit(0, loc=n.loc), loc=n.loc)
            return n.operand
        if isinstance(n, ListLit):
            return sl.TupleExpr(n.elems, loc=n.loc)
        if isinstance(n, TruthFn):
            if isinstance(to_type(n.t), BoolType):
                return n.fn
            x = fresh("x", free_vars(n.fn) | reserved)
            var = sl.Var(x, loc=n.loc)
            call: sl.Expr = sl.Call(n.fn.name, (var,), loc=n.loc) if isinstance(n.fn, sl.FnRef) \
                else sl.Apply(n.fn, (var,), loc=n.loc)
            body = sl.BinOp("!=", call, sl.IntLit(0, loc=n.loc), loc=n.loc)
            return sl.Lambda((sl.Param(x, to_type(n.param_t), loc=n.loc),), body, loc=n.loc)
        return n

    return transform(node, fix)


def infer_program(p: sl.Program) -> sl.Program:
    """Type the translated program: fill every parameter type, resolve placeholders, or explain what
    annotation is missing."""
    inf = Inference()
    typed, param_terms = inf.program(p)
    for prm in p.params:
        t = param_terms[prm.name]
        if _open(t):
            raise AnnotationNeededError(
                f"parameter {prm.name} needs an annotation, e.g. {prm.name}: {python_annotation(t)}", prm.loc)
    reserved = frozenset({q.name for q in p.params} | {lt.name for lt in p.lets} | {d.name for d in p.defs})
    return resolve(typed, reserved)
