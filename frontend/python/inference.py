"""Type inference over a translated program: unification plus deferred constraints (``types``).

``Inference`` rebuilds the tree with type terms in ``Param.type``, ``FunDef.ret`` and the placeholders'
fields; ``resolve`` then turns the terms back into SparkLite types. See ``types`` for the design.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from frontend.python.nodes import (
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
)
from frontend.python.types import (
    ADDABLE,
    NUMERIC,
    ORDERED,
    Constraint,
    Sig,
    TBag,
    TDict,
    TList,
    TOpt,
    TTup,
    TVar,
    Undecided,
    Unifier,
    _is_term,
    default_of,
    find,
    kind,
    show,
    strip,
    to_term,
)
from sparklite import ast as sl
from sparklite.errors import NameResolutionError, TypeCheckError, UnsupportedError
from sparklite.pystats import FUNCTIONS as PYSTATS
from sparklite.types import (
    BOOL,
    FLOAT,
    INT,
    NONE,
    STR,
    BoolType,
    FloatType,
    IntType,
    NoneType_,
    StrType,
)

# ---------------------------------------------------------------------------------------------------
# Inference: rebuilds the tree with type terms in Param.type / FunDef.ret / placeholder fields
# ---------------------------------------------------------------------------------------------------


class Inference:
    def __init__(self) -> None:
        self.u = Unifier()
        self.pending: list[Constraint] = []
        self.def_nodes: dict[str, sl.Def] = {}
        self.sigs: dict[str, Sig] = {}
        self.param_sigs: dict[str, tuple[list[Any], Sig | None]] = {}
        self.typed_defs: dict[str, sl.Def] = {}
        self.param_terms: dict[str, Any] = {}

    # --- constraints -----------------------------------------------------------------------------

    def defer(self, step: Callable[[bool], bool], loc: sl.Loc | None) -> None:
        if not step(False):
            self.pending.append(Constraint(step, loc))

    def settle(self) -> None:
        """Decide every pending constraint whose operands are known now (no defaults)."""
        progress = True
        while progress:
            progress = False
            for c in list(self.pending):
                if c in self.pending and c.step(False):
                    self.pending.remove(c)
                    progress = True

    def solve(self) -> None:
        """Decide everything: what is known first, then defaults, one constraint at a time."""
        while True:
            self.settle()
            if not self.pending:
                return
            c = self.pending.pop(0)
            c.step(True)

    # --- expressions -----------------------------------------------------------------------------

    def expr(self, e: sl.Expr, env: dict[str, Any]) -> tuple[sl.Expr, Any]:  # noqa: C901 - one dispatch
        u = self.u
        loc = e.loc
        if isinstance(e, sl.IntLit):
            return e, INT
        if isinstance(e, sl.BoolLit):
            return e, BOOL
        if isinstance(e, sl.StrLit):
            return e, STR
        if isinstance(e, sl.FloatLit):
            return e, FLOAT
        if isinstance(e, sl.NoneLit):
            return e, NONE
        if isinstance(e, sl.Var):
            if e.name not in env:
                raise NameResolutionError(f"name '{e.name}' is not defined", loc)
            return e, env[e.name]
        if isinstance(e, (sl.ListExpr, ListLit)):
            elem: Any = u.var()
            elems = []
            for x in e.elems:
                y, t = self.expr(x, env)
                elems.append(y)
                elem = self.join(elem, t, x.loc, first=not elems[:-1])
            return sl.ListExpr(tuple(elems), loc=loc), TList(elem)
        if isinstance(e, sl.ListComp):
            src, st = self.expr(e.source, env)
            elem = self.elem_of(st, loc, "a comprehension iterates over")
            fn, sig = self.fn(e.fn, env, [elem])
            cond = None
            if e.cond is not None:
                cond, csig = self.fn(e.cond, env, [elem])
                u.unify(csig.ret, BOOL, loc, "a comprehension's condition must be a bool")
            return replace(e, fn=fn, source=src, cond=cond), TList(sig.ret)
        if isinstance(e, sl.BinOp):
            return self.binop(e, env)
        if isinstance(e, sl.Not):
            operand, t = self.expr(e.operand, env)
            u.unify(t, BOOL, loc, "'not' needs a bool")
            return replace(e, operand=operand), BOOL
        if isinstance(e, sl.Neg):
            operand, t = self.expr(e.operand, env)
            u.numeric(t, loc, option=False)
            return replace(e, operand=operand), t
        if isinstance(e, sl.Ite):
            cond, ct = self.expr(e.cond, env)
            u.unify(ct, BOOL, cond.loc, "condition must be a bool")
            then, tt = self.expr(e.then, env)
            orelse, et = self.expr(e.orelse, env)
            return replace(e, cond=cond, then=then, orelse=orelse), self.join(tt, et, loc)
        if isinstance(e, sl.TupleExpr):
            pairs = [self.expr(x, env) for x in e.elems]
            return replace(e, elems=tuple(p[0] for p in pairs)), TTup([p[1] for p in pairs])
        if isinstance(e, sl.Proj):
            inner, t = self.expr(e.tuple, env)
            comp = u.var()
            u.project(t, e.index, comp, loc)
            return replace(e, tuple=inner), comp
        if isinstance(e, sl.Call):
            return self.call(e, env)
        if isinstance(e, (sl.Apply, Beta)):
            pairs = [self.expr(a, env) for a in e.args]
            fn, sig = self.fn(e.fn, env, [p[1] for p in pairs])
            self._apply_sig(sig, [p[1] for p in pairs], loc, "function")
            return replace(e, fn=fn, args=tuple(p[0] for p in pairs)), sig.ret
        return self.placeholder(e, env)

    def binop(self, e: sl.BinOp, env: dict[str, Any]) -> tuple[sl.Expr, Any]:
        u = self.u
        loc = e.loc
        left, lt = self.expr(e.left, env)
        right, rt = self.expr(e.right, env)
        out = replace(e, left=left, right=right)
        if e.op in ("and", "or"):
            why = (f"'{e.op}' on non-bool values is not supported (Python's {e.op} returns one of its "
                   "operands); compare explicitly, e.g. x != 0")
            u.unify(lt, BOOL, left.loc, why)
            u.unify(rt, BOOL, right.loc, why)
            return out, BOOL
        if e.op == "in":
            self.member(lt, rt, loc)
            return out, BOOL
        if e.op in sl.ARITH_OPS:  # only from the frontend's own rewrites: ints
            u.unify(lt, INT, left.loc, f"operand of '{e.op}' must be an int")
            u.unify(rt, INT, right.loc, f"operand of '{e.op}' must be an int")
            return out, INT
        u.unify(lt, rt, loc, f"'{e.op}' compares values of different types")
        return out, BOOL

    def placeholder(self, e: sl.Expr, env: dict[str, Any]) -> tuple[sl.Expr, Any]:  # noqa: C901
        u = self.u
        loc = e.loc
        if isinstance(e, Shaped):
            inner, t = self.expr(e.operand, env)
            return replace(e, operand=inner, t=t), self.shaped(t, e.arity, loc)
        if isinstance(e, AsInt):
            operand, t = self.expr(e.operand, env)
            u.numeric(t, loc)
            return replace(e, operand=operand, t=t), self.number_result(t, loc)
        if isinstance(e, PyPow):
            base, t = self.expr(e.base, env)
            u.numeric(t, loc)
            return replace(e, base=base, t=t), self.number_result(t, loc)
        if isinstance(e, AsBool):
            operand, t = self.expr(e.operand, env)
            u.truthy(t, loc)
            return replace(e, operand=operand, t=t), BOOL
        if isinstance(e, PyInt):
            operand, t = self.expr(e.operand, env)
            u.restrict(t, NUMERIC | {"str", "option"}, "the argument of int()", loc, INT)
            return replace(e, operand=operand, t=t), INT
        if isinstance(e, PyArith):
            left, lt = self.expr(e.left, env)
            right, rt = self.expr(e.right, env)
            return replace(e, left=left, right=right, lt=lt, rt=rt), self.arith(e.op, lt, rt, loc)
        if isinstance(e, PyCompare):
            left, lt = self.expr(e.left, env)
            right, rt = self.expr(e.right, env)
            self.compare(e.op, lt, rt, loc)
            return replace(e, left=left, right=right, lt=lt, rt=rt), BOOL
        if isinstance(e, PyIndex):
            base, t = self.expr(e.base, env)
            index, it = self.expr(e.index, env)
            return replace(e, base=base, index=index, t=t), self.index(t, index, it, loc)
        if isinstance(e, PySlice):
            base, t = self.expr(e.base, env)
            bounds = []
            for b in (e.lo, e.hi):
                bb, bt = self.expr(b, env)
                if not isinstance(bb, sl.NoneLit):
                    u.restrict(bt, frozenset({"int", "bool"}), "a slice bound", bb.loc, INT)
                bounds.append(bb)
            return replace(e, base=base, lo=bounds[0], hi=bounds[1], t=t), self.sliced(t, loc)
        if isinstance(e, Narrow):
            operand, t = self.expr(e.operand, env)
            return replace(e, operand=operand, t=t), self.narrowed(t, loc)
        if isinstance(e, PairEach):
            key, kt = self.expr(e.key, env)
            items, it = self.expr(e.items, env)
            return replace(e, key=key, items=items, t=it), self.pair_each(kt, it, loc)
        if isinstance(e, ShortCircuit):
            left, lt = self.expr(e.left, env)
            right, rt = self.expr(e.right, env)
            u.unify(lt, BOOL, left.loc, f"'{e.op}' needs bools")
            u.unify(rt, BOOL, right.loc, f"'{e.op}' needs bools")
            return replace(e, left=left, right=right), BOOL
        if isinstance(e, Force):
            value, _ = self.expr(e.value, env)
            body, bt = self.expr(e.body, env)
            return replace(e, value=value, body=body), bt
        if isinstance(e, MaybeInt):
            operand, t = self.expr(e.operand, env)
            return replace(e, operand=operand, t=t), t
        if isinstance(e, Undefined):  # any type: it never returns
            t = self.u.var()
            return replace(e, t=t), t
        if isinstance(e, Guard):
            checked, _ = self.expr(e.checked, env)
            body, bt = self.expr(e.body, env)
            return replace(e, checked=checked, body=body), bt
        return self.bag_expr(e, env)

    # --- Python operations (deferred constraints) ------------------------------------------------

    def join(self, a: Any, b: Any, loc: sl.Loc | None, first: bool = False) -> Any:
        """The type of a value that is an ``a`` or a ``b`` (branches of a conditional, list elements):
        equal types, or a type and ``None`` (an optional value)."""
        u = self.u
        if first:
            u.unify(a, b, loc)
            return a
        r = u.var()

        def step(force: bool) -> bool:
            x, y = find(a), find(b)
            if x is y:
                u.unify(r, x, loc)
                return True
            kx, ky = kind(x), kind(y)
            if kx is None and ky is None and not force:
                return False
            if kx == "none" and ky == "none":
                u.unify(r, NONE, loc)
            elif kx == "none" or ky == "none":
                other = y if kx == "none" else x
                if kind(other) is None and not force:
                    return False
                u.unify(r, other if isinstance(find(other), TOpt) else TOpt(other), loc)
            elif kx == "option" or ky == "option":
                opt, other = (x, y) if kx == "option" else (y, x)
                if kind(other) is None and not force:
                    return False
                u.unify(opt.elem, strip(other), loc, "the two branches have different types")
                u.unify(r, opt, loc)
            elif kx == "tuple" and ky == "tuple" and len(x.elems) == len(y.elems):
                u.unify(r, TTup([self.join(p, q, loc) for p, q in zip(x.elems, y.elems, strict=True)]), loc)
            elif kx == "list" and ky == "list":
                u.unify(r, TList(self.join(x.elem, y.elem, loc)), loc)
            elif (kx is None or ky is None) and not force:
                return False
            else:
                u.unify(x, y, loc, "the two branches have different types")
                u.unify(r, x, loc)
            return True

        self.defer(step, loc)
        return r

    def number_result(self, t: Any, loc: sl.Loc | None) -> Any:
        """The type of a number used as itself: a float stays a float, an int or a bool is an int."""
        r = self.u.var()

        def step(force: bool) -> bool:
            x = strip(t)
            if isinstance(x, TVar):
                if not force:
                    return False
                self.u.unify(x, default_of(x), loc)
                x = find(x)
            self.u.unify(r, FLOAT if isinstance(x, FloatType) else INT, loc)
            return True

        self.defer(step, loc)
        return r

    def arith(self, op: str, a: Any, b: Any, loc: sl.Loc | None) -> Any:
        u = self.u
        what = f"an operand of '{op}'"
        if op == "+":
            u.restrict(a, ADDABLE | {"option"}, what, loc, INT)
            u.restrict(b, ADDABLE | {"option"}, what, loc, INT)
        else:
            u.numeric(a, loc, what)
            u.numeric(b, loc, what)
        r = u.var()

        def step(force: bool) -> bool:
            x, y = strip(a), strip(b)
            kx, ky = kind(x), kind(y)
            if op == "+" and "str" in (kx, ky):
                u.unify(x, STR, loc, "'+' concatenates a str with a str only")
                u.unify(y, STR, loc, "'+' concatenates a str with a str only")
                u.unify(r, STR, loc)
                return True
            if op == "+" and "list" in (kx, ky):
                lst = TList(u.var())
                u.unify(x, lst, loc, "'+' concatenates a list with a list only")
                u.unify(y, lst, loc, "'+' concatenates a list with a list only")
                u.unify(r, lst, loc)
                return True
            if op == "/" or "float" in (kx, ky):
                if op == "+":
                    u.numeric(x, loc, what)
                    u.numeric(y, loc, what)
                u.unify(r, FLOAT, loc)
                return True
            if kx is not None and ky is not None:
                u.unify(r, INT, loc)
                return True
            if not force:
                return False
            for z in (x, y):
                if isinstance(find(z), TVar):
                    u.unify(z, default_of(z), loc)
            return step(False)

        self.defer(step, loc)
        return r

    def compare(self, op: str, a: Any, b: Any, loc: sl.Loc | None) -> None:
        u = self.u
        order = op not in ("==", "!=")
        if order:
            u.restrict(a, ORDERED | {"option"}, f"an operand of '{op}'", loc)
            u.restrict(b, ORDERED | {"option"}, f"an operand of '{op}'", loc)

        def step(force: bool) -> bool:
            x, y = (strip(a), strip(b)) if order else (find(a), find(b))
            kx, ky = kind(x), kind(y)
            why = f"'{op}' compares values of different types"
            if kx is None and ky is None:
                if not force:
                    return False
                u.unify(x, y, loc, why)
                if order:
                    u.numeric(x, loc, f"an operand of '{op}'")
                return True
            if kx is None or ky is None:
                known, other = (x, y) if kx is not None else (y, x)
                kk = kind(known)
                if order and kk in NUMERIC:  # (a Num operand waits for the other's type)
                    u.numeric(other, loc, f"an operand of '{op}'")
                    return True
                if not force:
                    return False
                if not order and kk in ("none", "option"):
                    return True
                u.unify(other, known, loc, why)
                return True
            if kx in NUMERIC | {"num"} and ky in NUMERIC | {"num"}:  # Num: an int or a float
                if not order and kx != ky and "bool" in (kx, ky):
                    raise TypeCheckError(f"'{op}' compares a bool with a number (Python compares True "
                                         "as 1; write the comparison on ints or on bools)", loc)
                return True
            if not order and ("none" in (kx, ky) or "option" in (kx, ky)):
                p, q = strip(x), strip(y)
                if (kind(p) in NUMERIC and kind(q) in NUMERIC) or "none" in (kind(p), kind(q)):
                    return True
                u.unify(p, q, loc, why)
                return True
            u.unify(x, y, loc, why)
            return True

        self.defer(step, loc)

    def member(self, item: Any, container: Any, loc: sl.Loc | None) -> None:
        u = self.u

        def step(force: bool) -> bool:
            c = find(container)
            if isinstance(c, StrType):
                u.unify(item, STR, loc, "'in' on a str tests a str")
                return True
            if isinstance(c, TList):
                x, e = find(item), find(c.elem)
                if isinstance(x, NoneType_) or isinstance(e, TOpt):
                    u.unify(strip(x) if not isinstance(x, NoneType_) else e, e if isinstance(x, NoneType_)
                            else e.elem, loc)
                    return True
                u.unify(x, e, loc, "'in' tests a value of the list's element type")
                return True
            if isinstance(c, TVar):
                if force:
                    raise Undecided("cannot tell what 'in' searches (a str or a list): annotate the input",
                                    loc)
                return False
            raise TypeCheckError(f"'in' searches a str or a list, not {show(c)}", loc)

        self.defer(step, loc)

    def elem_of(self, seq: Any, loc: sl.Loc | None, what: str) -> Any:
        """The element type of a list, or ``str`` for a string's characters."""
        u = self.u
        r = u.var()

        def step(force: bool) -> bool:
            s = find(seq)
            if isinstance(s, TList):
                u.unify(r, s.elem, loc)
                return True
            if isinstance(s, StrType):
                u.unify(r, STR, loc)
                return True
            if isinstance(s, TVar):
                if force:
                    raise Undecided(f"cannot tell what {what}: annotate the input", loc)
                u.restrict(s, frozenset({"list", "str"}), "a list or a str", loc)
                return False
            raise TypeCheckError(f"{what} a list or a str, not {show(s)}", loc)

        self.defer(step, loc)
        return r

    def shaped(self, t: Any, n: int, loc: sl.Loc | None) -> Any:
        """``a, b = t``: a tuple of ``n`` components, or a list or a string of length ``n``."""
        x = strip(t)
        if isinstance(x, TList):
            return TTup([x.elem] * n)
        if isinstance(x, StrType):
            return TTup([STR] * n)
        self.u.unify(x, TTup([self.u.var() for _ in range(n)]), loc, f"expected a tuple of {n} components")
        return x

    def index(self, t: Any, index: sl.Expr, it: Any, loc: sl.Loc | None) -> Any:
        u = self.u
        comp = u.var()
        if isinstance(index, sl.IntLit) and index.value >= 0:
            u.project(t, index.value, comp, loc)
            return comp
        literal = index.value if isinstance(index, sl.IntLit) else None
        if literal is None:
            u.restrict(it, frozenset({"int", "bool"}), "an index", index.loc, INT)

        def step(force: bool) -> bool:
            b = strip(t)
            if isinstance(b, TTup):
                if literal is None:
                    raise UnsupportedError("a tuple index must be a constant", index.loc or loc,
                                           construct="non-constant index")
                if not -len(b.elems) <= literal < 0:
                    raise TypeCheckError(f"tuple index {literal} out of range for {show(b)}", loc)
                u.unify(comp, b.elems[len(b.elems) + literal], loc)
                return True
            if isinstance(b, TList):
                u.unify(comp, b.elem, loc)
                return True
            if isinstance(b, StrType):
                u.unify(comp, STR, loc)
                return True
            if isinstance(b, TDict):
                raise UnsupportedError("indexing a dict (the result of countByValue, countByKey or "
                                       "collectAsMap) is not supported: return the dict", loc,
                                       construct="dict indexing")
            if isinstance(b, TVar):
                if force:
                    raise Undecided("cannot tell whether this is a tuple, a str or a list: annotate the "
                                    "input", loc)
                return False
            raise TypeCheckError(f"cannot index a value of type {show(b)}", loc)

        self.defer(step, loc)
        return comp

    def sliced(self, t: Any, loc: sl.Loc | None) -> Any:
        u = self.u
        r = u.var()
        u.restrict(t, frozenset({"str", "list", "tuple", "option"}), "a sequence", loc)

        def step(force: bool) -> bool:
            b = strip(t)
            if isinstance(b, StrType | TList | TTup):
                u.unify(r, b, loc)
                return True
            if force:
                raise Undecided("cannot tell whether this is a str or a list: annotate the input", loc)
            return False

        self.defer(step, loc)
        return r

    def narrowed(self, t: Any, loc: sl.Loc | None) -> Any:
        r = self.u.var()

        def step(force: bool) -> bool:
            x = find(t)
            if isinstance(x, TVar) and not force:
                return False
            self.u.unify(r, x.elem if isinstance(x, TOpt) else x, loc)
            return True

        self.defer(step, loc)
        return r

    def pair_each(self, kt: Any, items: Any, loc: sl.Loc | None) -> Any:
        u = self.u
        r = u.var()

        def step(force: bool) -> bool:
            s = find(items)
            if isinstance(s, TList):
                u.unify(r, TList(TTup([kt, s.elem])), loc)
                return True
            if isinstance(s, StrType):
                u.unify(r, TList(TTup([kt, STR])), loc)
                return True
            if isinstance(s, TTup):
                u.unify(r, TTup([TTup([kt, e]) for e in s.elems]), loc)
                return True
            if isinstance(s, TVar):
                if force:
                    raise Undecided("cannot tell what flatMapValues' function returns: annotate the input",
                                    loc)
                return False
            raise TypeCheckError(f"flatMapValues' function must return a list, a str or a tuple, not "
                                 f"{show(s)}", loc)

        self.defer(step, loc)
        return r

    def flat(self, ret: Any, loc: sl.Loc | None) -> Any:
        u = self.u
        r = u.var()

        def step(force: bool) -> bool:
            s = find(ret)
            if isinstance(s, TList):
                u.unify(r, s.elem, loc)
                return True
            if isinstance(s, StrType):
                u.unify(r, STR, loc)
                return True
            if isinstance(s, TTup):
                if not s.elems:
                    raise TypeCheckError("flatMap's function must return a non-empty tuple", loc)
                for comp in s.elems[1:]:
                    u.unify(s.elems[0], comp, loc, "flatMap's results must all have the same type")
                u.unify(r, s.elems[0], loc)
                return True
            if isinstance(s, TVar):
                if force:
                    raise Undecided("cannot tell what flatMap's function returns: annotate the input", loc)
                return False
            raise TypeCheckError(f"flatMap's function must return a list, a str or a tuple, not {show(s)}",
                                 loc)

        self.defer(step, loc)
        return r

    # --- calls -----------------------------------------------------------------------------------

    def call(self, e: sl.Call, env: dict[str, Any]) -> tuple[sl.Expr, Any]:
        u = self.u
        loc = e.loc
        pairs = [self.expr(a, env) for a in e.args]
        args = tuple(p[0] for p in pairs)
        ts = [p[1] for p in pairs]
        out = replace(e, args=args)
        name = e.func
        if name in self.def_nodes:
            sig = self.def_sig(name, ts, loc)
            return out, sig.ret
        if name == "abs":
            u.numeric(ts[0], loc, option=False)
            return out, ts[0]
        if name in ("min", "max") and len(ts) >= 2:
            for a, t in zip(args[1:], ts[1:], strict=True):
                u.unify(t, ts[0], a.loc, f"{name}() of values of different types")
            return out, ts[0]
        if name in ("min", "max", "sorted", "sum"):
            elem = self.elem_of(ts[0], loc, f"{name}() iterates over")
            if name == "sorted":
                u.unify(ts[0], TList(elem), loc, "sorted() of a str is not supported")
                return out, ts[0]
            if name == "sum":
                u.numeric(elem, loc, "an element of sum()", option=False)
                r = self.number_result(elem, loc)
                return MaybeInt(out, t=r, loc=loc), r
            return out, elem
        if name == "len":
            u.restrict(ts[0], frozenset({"str", "list", "tuple"}), "the argument of len()", loc)
            return out, INT
        if name == "float":
            u.restrict(ts[0], NUMERIC | {"str"}, "the argument of float()", loc, INT)
            return out, FLOAT
        if name == "str":
            # an optional value too: str(None) is 'None' (never unwrapped, so it cannot raise TypeError)
            u.restrict(ts[0], NUMERIC | {"str", "tuple", "none", "option"}, "the argument of str()", loc, INT)
            return out, STR
        if name == "round":
            u.numeric(ts[0], loc, "the argument of round()", option=False)
            if len(ts) == 2:
                u.restrict(ts[1], frozenset({"int"}), "round's ndigits", loc, INT)
                return out, self.number_result(ts[0], loc)
            return out, INT
        if name in ("math.sqrt", "math.floor", "math.ceil"):
            u.numeric(ts[0], loc, f"the argument of {name}()", option=False)
            return out, FLOAT if name == "math.sqrt" else INT
        if name.startswith("str."):
            for t in ts:
                u.unify(t, STR, loc, f"{name[4:]}() works on str values")
            if name == "str.split":
                return out, TList(STR)
            if name in ("str.startswith", "str.endswith"):
                return out, BOOL
            if name == "str.find":
                return out, INT
            return out, STR
        if name == "py.is_none":
            return out, BOOL
        if name.startswith("re."):  # frontend.python.regex: the text and constant strings
            for t in ts:
                u.unify(t, STR, loc, f"re.{name[3:]}() works on str values")
            return out, (STR if name == "re.sub" else TList(STR))
        if name.startswith("statistics."):  # sparklite.pystats: a list of ints or of floats
            elem = u.var()
            u.unify(ts[0], TList(elem), loc, f"{name}() takes a list")
            if not isinstance(find(elem), FloatType):  # ints unless known to be floats
                u.unify(elem, INT, loc, f"{name}() of values not known to be floats reads ints")
                return out, PYSTATS[name[len("statistics."):]]
            return out, FLOAT
        if name == "py.flatten":  # [y for x in xs for y in x]: x is a list
            elem = u.var()
            u.unify(ts[0], TList(TList(elem)), loc, "a nested comprehension's inner source must be a list")
            return out, TList(elem)
        if name == "py.format":  # f"{x:.2f}": a number, a bool or a str (format(None, spec) raises)
            u.restrict(ts[0], NUMERIC | {"str", "bool"}, "a formatted value", loc, INT)
            u.unify(ts[1], STR, loc, "a format spec is a str")
            return out, STR
        raise NameResolutionError(f"function '{name}' is not defined", loc)

    def _apply_sig(self, sig: Sig, args: list[Any], loc: sl.Loc | None, name: str) -> None:
        if len(sig.params) != len(args):
            raise TypeCheckError(f"'{name}' takes {len(sig.params)} argument(s), {len(args)} given", loc)
        for p, a in zip(sig.params, args, strict=True):
            self.u.unify(p, a, loc, f"argument of '{name}' has the wrong type")

    # --- functions -------------------------------------------------------------------------------

    def fn(self, f: Any, env: dict[str, Any], expected: list[Any] | None = None) -> tuple[Any, Sig]:
        """Infer a function value; ``expected`` are the types it will receive (bound first, so that its
        body is inferred knowing them)."""
        u = self.u
        if isinstance(f, sl.Lambda):
            params = []
            inner = dict(env)
            terms = []
            for i, p in enumerate(f.params):
                t: Any = u.var()
                if p.type is not None and not _is_term(p.type):
                    u.unify(t, to_term(p.type), p.loc)
                if expected is not None and len(expected) == len(f.params):
                    u.unify(t, expected[i], p.loc or f.loc, "the function receives values of another type")
                inner[p.name] = t
                terms.append(t)
                params.append(replace(p, type=t))
            body, bt = self.expr(f.body, inner)
            return replace(f, params=tuple(params), body=body), Sig(terms, bt)
        if isinstance(f, sl.FnRef):
            if f.name not in self.def_nodes:
                raise NameResolutionError(f"function '{f.name}' is not defined", f.loc)
            return f, self.def_sig(f.name, expected, f.loc)
        if isinstance(f, sl.PApp):
            if f.name not in self.def_nodes:
                raise NameResolutionError(f"function '{f.name}' is not defined", f.loc)
            pairs = [self.expr(a, env) for a in f.args]
            sig = self.param_def_sig(f.name, [p[1] for p in pairs], expected, f.loc)
            return replace(f, args=tuple(p[0] for p in pairs)), sig
        if isinstance(f, TruthFn):
            inner, sig = self.fn(f.fn, env, expected)
            u.truthy(sig.ret, f.loc)
            return replace(f, fn=inner, t=sig.ret, param_t=sig.params[0]), Sig(sig.params, BOOL)
        raise TypeCheckError("not a function", getattr(f, "loc", None))

    def fn_checked(self, f: Any, env: dict[str, Any], arity: int, what: str,
                   expected: list[Any] | None = None) -> tuple[Any, Sig]:
        new, sig = self.fn(f, env, expected)
        if len(sig.params) != arity:
            raise TypeCheckError(f"the function passed to {what} must take {arity} argument(s)", f.loc)
        if expected is not None:
            for p, t in zip(sig.params, expected, strict=True):
                self.u.unify(p, t, f.loc, f"the function passed to {what} does not accept its arguments")
        return new, sig

    def def_sig(self, name: str, args: list[Any] | None, loc: sl.Loc | None) -> Sig:
        """A named ``FunDef``'s signature, inferred at its first use (with that use's argument types)."""
        if name in self.sigs:
            sig = self.sigs[name]
            if args is not None:
                self._apply_sig(sig, args, loc, name)
            return sig
        d = self.def_nodes[name]
        if not isinstance(d, sl.FunDef):
            raise TypeCheckError(f"'{name}' returns a function: call it with its arguments", loc)
        terms, params, env = self._params(d.params)
        if args is not None:
            self._apply_sig(Sig(terms, None), args, loc, name)
        ret: Any = self.u.var()
        if d.ret is not None:
            self.u.unify(ret, to_term(d.ret), d.loc)
        sig = Sig(terms, ret)
        self.sigs[name] = sig
        body, bt = self.expr(d.body, env)
        self.u.unify(ret, bt, d.loc, f"'{d.name}' returns values of different types")
        self.typed_defs[name] = replace(d, params=tuple(params), ret=ret, body=body)
        return sig

    def param_def_sig(self, name: str, args: list[Any], expected: list[Any] | None,
                      loc: sl.Loc | None) -> Sig:
        """The function a parametric ``def`` returns, inferred at its first instantiation (monomorphic)."""
        d = self.def_nodes[name]
        if not isinstance(d, sl.ParamFunDef):
            raise TypeCheckError(f"'{name}' does not return a function", loc)
        if name in self.param_sigs:
            terms, sig = self.param_sigs[name]
            self._apply_sig(Sig(terms, None), args, loc, name)
            assert sig is not None
            if expected is not None:
                self._apply_sig(sig, expected, loc, name)
            return sig
        terms, params, env = self._params(d.params)
        self._apply_sig(Sig(terms, None), args, loc, name)
        self.param_sigs[name] = (terms, None)
        fn, sig = self.fn(d.fn, env, expected)
        self.param_sigs[name] = (terms, sig)
        self.typed_defs[name] = replace(d, params=tuple(params), fn=fn)
        return sig

    def _params(self, params: tuple[sl.Param, ...]) -> tuple[list[Any], list[sl.Param], dict[str, Any]]:
        terms, out, env = [], [], {}
        for prm in params:
            t: Any = self.u.var()
            if prm.type is not None:
                self.u.unify(t, to_term(prm.type), prm.loc)
            env[prm.name] = t
            terms.append(t)
            out.append(replace(prm, type=t))
        return terms, out, env

    # --- bags ------------------------------------------------------------------------------------

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

    def bag_expr(self, e: sl.Expr, env: dict[str, Any]) -> tuple[sl.Expr, Any]:  # noqa: C901
        u = self.u
        loc = e.loc
        name = type(e).__name__
        if isinstance(e, (sl.Map, sl.Filter, sl.FlatMap)):
            src, elem = self.bag_of(e.source, env, name)
            fn, sig = self.fn_checked(e.fn, env, 1, name, [elem])
            if isinstance(e, sl.Map):
                out: Any = sig.ret
            elif isinstance(e, sl.Filter):
                u.unify(sig.ret, BOOL, loc, "filter's function must return a bool")
                out = elem
            else:
                out = self.flat(sig.ret, loc)
            return replace(e, fn=fn, source=src), TBag(out)
        if isinstance(e, (sl.Cartesian, sl.Join, sl.OuterJoin, sl.Union, sl.Subtract, sl.Intersection)):
            left, lt = self.bag_of(e.left, env, name)
            right, rt = self.bag_of(e.right, env, name)
            if isinstance(e, sl.Cartesian):
                out = TTup([lt, rt])
            elif isinstance(e, (sl.Union, sl.Subtract, sl.Intersection)):
                u.unify(lt, rt, loc, f"{name.lower()} of RDDs with different element types")
                out = lt
            else:
                k1, v = self.pair(lt, e.left.loc, "join")
                k2, w = self.pair(rt, e.right.loc, "join")
                u.unify(k1, k2, loc, "join keys have different types")
                if isinstance(e, sl.OuterJoin):
                    if e.kind in ("right", "full"):
                        v = _optional(v)
                    if e.kind in ("left", "full"):
                        w = _optional(w)
                out = TTup([k1, TTup([v, w])])
            return replace(e, left=left, right=right), TBag(out)
        if isinstance(e, sl.Distinct):
            src, elem = self.bag_of(e.source, env, name)
            return replace(e, source=src), TBag(elem)
        if isinstance(e, sl.SortBy):
            src, elem = self.bag_of(e.source, env, e.surface)
            key, sig = self.fn_checked(e.key, env, 1, e.surface, [elem])
            u.restrict(sig.ret, ORDERED, f"{e.surface}'s sort key", loc)
            return replace(e, key=key, source=src), TBag(elem)
        if isinstance(e, (sl.Collect, sl.First, sl.CountByValue, sl.CollectAsMap)):
            src, elem = self.bag_of(e.source, env, name)
            if isinstance(e, sl.Collect):
                return replace(e, source=src), TList(elem)
            if isinstance(e, sl.First):
                return replace(e, source=src), elem
            if isinstance(e, sl.CountByValue):
                return replace(e, source=src), TDict(elem, INT)
            k, v = self.pair(elem, loc, "collectAsMap")
            return replace(e, source=src), TDict(k, v)
        if isinstance(e, (sl.Take, sl.TakeOrdered)):
            src, elem = self.bag_of(e.source, env, name)
            count, ct = self.expr(e.count, env)
            u.restrict(ct, frozenset({"int"}), "the number of elements to take", count.loc, INT)
            if isinstance(e, sl.TakeOrdered) and e.key is not None:
                key, sig = self.fn_checked(e.key, env, 1, "top" if e.top else "takeOrdered", [elem])
                u.restrict(sig.ret, ORDERED, "a sort key", loc)
                return replace(e, count=count, key=key, source=src), TList(elem)
            if isinstance(e, sl.TakeOrdered):
                u.restrict(elem, ORDERED, "a sorted element", loc)
            return replace(e, count=count, source=src), TList(elem)
        if isinstance(e, sl.SimpleAgg):
            src, elem = self.bag_of(e.source, env, e.kind)
            if e.kind == "sum":
                u.numeric(elem, loc, "an element of sum()", option=False)
                r = self.number_result(elem, loc)
                return MaybeInt(replace(e, source=src), t=r, loc=loc), r
            if e.kind in ("min", "max"):
                return replace(e, source=src), elem  # any ordered type: SparkLite's checker insists
            return replace(e, source=src), INT
        if isinstance(e, (sl.Fold, sl.Reduce, sl.Aggregate)):
            src, elem = self.bag_of(e.source, env, name)
            if isinstance(e, sl.Aggregate):
                zero, zt = self.expr(e.zero, env)
                seq, s = self.fn_checked(e.seq, env, 2, "aggregate", [zt, elem])
                comb, c = self.fn_checked(e.comb, env, 2, "aggregate", [zt, zt])
                for t in (s.ret, c.ret):
                    u.unify(zt, t, loc, "aggregate's zero and functions disagree on the accumulator type")
                return replace(e, zero=zero, seq=seq, comb=comb, source=src), zt
            op, sig = self.fn_checked(e.op, env, 2, name.lower(), [elem, elem])
            self.settle()
            if isinstance(find(elem), BoolType) and isinstance(find(sig.ret), IntType):
                # Python: reduce(add) over [True] is True, over [True, True] is 2 -- a bool or an int
                raise UnsupportedError(f"{name.lower()} with a numeric function over booleans returns a bool "
                                       "for one element and an int otherwise; map the booleans to ints first "
                                       "(e.g. .map(int)) or use sum()", loc,
                                       construct="numeric reduce over booleans")
            u.unify(elem, sig.ret, loc, f"{name.lower()}'s function must take and return the element type")
            if isinstance(e, sl.Fold):
                zero, zt = self.expr(e.zero, env)
                u.unify(zt, elem, loc, "fold's zero must have the element type")
                return replace(e, zero=zero, op=op, source=src), elem
            return replace(e, op=op, source=src), elem
        if isinstance(e, (sl.FoldByKey, sl.ReduceByKey, sl.AggregateByKey, sl.CombineByKey)):
            src, elem = self.bag_of(e.source, env, name)
            k, v = self.pair(elem, loc, name)
            if isinstance(e, (sl.FoldByKey, sl.ReduceByKey)):
                op, sig = self.fn_checked(e.op, env, 2, name, [v, v])
                u.unify(v, sig.ret, loc, f"{name}'s function must take and return the value type")
                if isinstance(e, sl.FoldByKey):
                    zero, zt = self.expr(e.zero, env)
                    u.unify(zt, v, loc, "foldByKey's zero must have the value type")
                    return replace(e, zero=zero, op=op, source=src), TBag(TTup([k, v]))
                return replace(e, op=op, source=src), TBag(TTup([k, v]))
            if isinstance(e, sl.AggregateByKey):
                zero, zt = self.expr(e.zero, env)
                seq, s = self.fn_checked(e.seq, env, 2, name, [zt, v])
                comb, c = self.fn_checked(e.comb, env, 2, name, [zt, zt])
                for t in (s.ret, c.ret):
                    u.unify(zt, t, loc, "aggregateByKey's zero and functions disagree on the accumulator")
                return replace(e, zero=zero, seq=seq, comb=comb, source=src), TBag(TTup([k, zt]))
            create, cs = self.fn_checked(e.create, env, 1, name, [v])
            acc = cs.ret
            mv, ms = self.fn_checked(e.merge_value, env, 2, name, [acc, v])
            mc, ns = self.fn_checked(e.merge_combiners, env, 2, name, [acc, acc])
            for t in (ms.ret, ns.ret):
                u.unify(acc, t, loc, "combineByKey's functions disagree on the combiner type")
            out = TBag(TTup([k, acc]))
            return replace(e, create=create, merge_value=mv, merge_combiners=mc, source=src), out
        if isinstance(e, sl.GroupByKeyAgg):
            src, elem = self.bag_of(e.source, env, "groupByKey")
            k, v = self.pair(elem, loc, "groupByKey")
            results: list[Any] = []
            for kind_ in e.kinds:
                if kind_ == "len":
                    results.append(INT)
                elif kind_ == "list":
                    results.append(TList(v))
                else:  # Python's min/max order strings too (by code point); sum adds numbers only
                    kinds = frozenset({"int", "float"} if kind_ == "sum" else {"int", "float", "str"})
                    u.restrict(v, kinds, f"{kind_} of a group", loc, INT)
                    results.append(v)
            out = TTup([k, results[0] if len(results) == 1 else TTup(results)])
            return replace(e, source=src), TBag(out)
        raise TypeCheckError(f"unexpected {name}", loc)

    # --- programs ------------------------------------------------------------------------------

    def program(self, p: sl.Program) -> tuple[sl.Program, dict[str, Any]]:
        self.def_nodes = {d.name: d for d in p.defs}
        env: dict[str, Any] = {}
        params = []
        types: dict[str, Any] = {}
        for prm in p.params:
            t: Any = self.u.var()
            if prm.type is not None:
                self.u.unify(t, to_term(prm.type), prm.loc)
            env[prm.name] = t
            types[prm.name] = t
            params.append(replace(prm, type=t))
        self.param_terms = types
        lets = []
        for let in p.lets:
            value, t = self.expr(let.value, env)
            env[let.name] = t
            lets.append(replace(let, value=value))
        body, _ = self.expr(p.body, env)
        for d in p.defs:  # defs no use reached (they are still typed, as SparkLite requires)
            if d.name not in self.typed_defs:
                if isinstance(d, sl.FunDef):
                    self.def_sig(d.name, None, d.loc)
                else:
                    terms, params_, penv = self._params(d.params)
                    fn, sig = self.fn(d.fn, penv)
                    self.typed_defs[d.name] = replace(d, params=tuple(params_), fn=fn)
        defs = tuple(self.typed_defs[d.name] for d in p.defs)
        return replace(p, params=tuple(params), defs=defs, lets=tuple(lets), body=body), types


def _optional(t: Any) -> Any:
    t = find(t)
    return t if isinstance(t, TOpt) else TOpt(t)
