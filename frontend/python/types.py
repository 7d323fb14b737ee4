"""Types: Python annotations, inference over the translated program, and resolution of placeholders.

Annotations give types directly (``RDD[tuple[str, float]]``, ``Optional[int]``, ``list[str]``,
``typing.Tuple[int, int]``, string annotations). Everything else is inferred from use, by unification
plus *deferred constraints* for the Python operations whose result type depends on their operands'
types (``a + b`` is an ``int``, a ``float``, a ``str`` or a list; ``x[i]`` projects a tuple or indexes a
string or a list; ``flatMap``'s function returns a list, a string or a tuple). Information flows
forward: a function passed to a bag operator is inferred with its parameters already bound to the
element type, a named ``def`` at its first use with the types of its arguments (named helpers are
monomorphic; each occurrence of a lambda gets fresh type variables). A deferred constraint is decided
as soon as its operands' types are known; whatever is still undecided at the end gets the default of
the fragment before strings and floats: a value used as a number is an ``int``. When an input
parameter's type is still open the user gets an ``AnnotationNeededError`` naming it, never a guess.

Resolution then replaces every placeholder of ``frontend.python.nodes`` by plain SparkLite chosen for the
operands' types (``float(n) + f`` for an int ``n`` and a float ``f``, ``py.getitem(s, 0)`` for a string
``s``, ``s != ""`` for the truth of a string), and decides the placeholders that depend on what may
raise with ``sparklite.effects``.
"""

from __future__ import annotations

import ast as pyast
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from frontend.python.nodes import (
    OTHER,
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
    first_effect,
    forced,
    free_vars,
    fresh,
    is_simple,
    loc_of,
    subst,
    transform,
)
from frontend.python.nodes import may_raise as pre_may_raise
from sparklite import ast as sl
from sparklite import effects
from sparklite.builtins import BUILTINS as BUILTIN_TABLE
from sparklite.errors import AnnotationNeededError, NameResolutionError, TypeCheckError, UnsupportedError
from sparklite.types import (
    BOOL,
    FLOAT,
    INT,
    NONE,
    STR,
    BagType,
    BoolType,
    DictType,
    FloatType,
    IntType,
    ListType,
    NoneType_,
    OptionType,
    StrType,
    TupleType,
    Type,
    is_basic,
)

# ---------------------------------------------------------------------------------------------------
# Annotations
# ---------------------------------------------------------------------------------------------------

_RDD_NAMES = {"RDD"}
_TUPLE_NAMES = {"tuple", "Tuple"}
_LIST_NAMES = {"list", "List"}
_OPTIONAL_NAMES = {"Optional"}
_UNION_NAMES = {"Union"}


def annotation_type(node: pyast.expr, filename: str) -> Type:
    """The SparkLite type of a Python annotation (``RDD[int]``, ``tuple[str, float]``, ``Optional[int]``,
    ``int | None``, ``list[str]``, ``"RDD[int]"``)."""
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
    if isinstance(node, pyast.Constant) and node.value is None:
        return NONE
    name = _dotted_tail(node)
    simple = {"int": INT, "bool": BOOL, "str": STR, "float": FLOAT}
    if name in simple and not isinstance(node, pyast.Subscript):
        return simple[name]
    if isinstance(node, pyast.BinOp) and isinstance(node.op, pyast.BitOr):
        return _union([annotation_type(node.left, filename), annotation_type(node.right, filename)], loc)
    if isinstance(node, pyast.Subscript):
        base = _dotted_tail(node.value)
        args = node.slice.elts if isinstance(node.slice, pyast.Tuple) else [node.slice]
        if base in _RDD_NAMES and len(args) == 1:
            elem = annotation_type(args[0], filename)
            if not is_basic(elem):
                raise UnsupportedError("RDD elements must be basic values (int, bool, str, float, None, "
                                       "Optional, list, tuples of them)", loc, construct="annotation")
            return BagType(elem)
        if base in _TUPLE_NAMES and args and not any(isinstance(a, pyast.Constant) and a.value is Ellipsis
                                                     for a in args):
            elems = tuple(annotation_type(a, filename) for a in args)
            if not all(is_basic(e) for e in elems):
                raise UnsupportedError("tuples may hold only basic values", loc, construct="annotation")
            return TupleType(elems)
        if base in _LIST_NAMES and len(args) == 1:
            elem = annotation_type(args[0], filename)
            if not is_basic(elem):
                raise UnsupportedError("lists may hold only basic values", loc, construct="annotation")
            return ListType(elem)
        if base in _OPTIONAL_NAMES and len(args) == 1:
            return _union([annotation_type(args[0], filename), NONE], loc)
        if base in _UNION_NAMES and args:
            return _union([annotation_type(a, filename) for a in args], loc)
    text = pyast.unparse(node) if hasattr(pyast, "unparse") else "?"
    raise UnsupportedError(f"unsupported annotation '{text}' (use int, bool, str, float, tuple[...], "
                           "list[...], Optional[...] or RDD[...])", loc, construct="annotation")


def _union(types: list[Type], loc: sl.Loc) -> Type:
    """``T | None`` (``Optional[T]``); any other union has no SparkLite type."""
    others = [t for t in types if not isinstance(t, NoneType_)]
    if len(others) == 1 and len(types) == 2 and not isinstance(others[0], OptionType):
        return OptionType(others[0])
    raise UnsupportedError("the only unions supported are Optional[T] (T | None)", loc,
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
    if isinstance(t, (TList, ListType)):
        return f"list[{python_annotation(t.elem)}]"
    if isinstance(t, (TOpt, OptionType)):
        return f"Optional[{python_annotation(t.elem)}]"
    if isinstance(t, BoolType):
        return "bool"
    if isinstance(t, StrType):
        return "str"
    if isinstance(t, FloatType):
        return "float"
    if isinstance(t, TVar) and t.projs:
        n = max(max(t.projs) + 1, 2)
        return "tuple[" + ", ".join(python_annotation(t.projs.get(i)) if i in t.projs else "int"
                                    for i in range(n)) + "]"
    if isinstance(t, TVar) and t.kinds is not None and "int" not in t.kinds:
        if "str" in t.kinds:
            return "str"
        if "float" in t.kinds:
            return "float"
    return "int"


# ---------------------------------------------------------------------------------------------------
# Type terms and unification
# ---------------------------------------------------------------------------------------------------

_ids = itertools.count()

NUMERIC = frozenset({"int", "bool", "float"})
ADDABLE = NUMERIC | {"str", "list"}
ORDERED = NUMERIC | {"str", "list", "tuple"}
TRUTHY = NUMERIC | {"str", "list", "none"}
INDEXABLE = frozenset({"tuple", "list", "str"})


@dataclass(eq=False)
class TVar:
    """A type variable. ``kinds`` restricts what it may become (``None``: anything; ``"option"`` in it
    means an optional value of one of the other kinds, unwrapped where used); ``default`` is what it
    becomes if nothing else decides; ``projs`` records literal indexing ``x[i]`` (a tuple with at least
    those components, or a list or string); ``what`` says how it is used, for messages."""

    ref: Any = None
    kinds: frozenset[str] | None = None
    default: Any = None
    what: str = ""
    projs: dict[int, Any] = field(default_factory=dict)
    id: int = field(default_factory=lambda: next(_ids))


@dataclass(eq=False)
class TTup:
    elems: list[Any]


@dataclass(eq=False)
class TBag:
    elem: Any


@dataclass(eq=False)
class TList:
    elem: Any


@dataclass(eq=False)
class TOpt:
    elem: Any


@dataclass(eq=False)
class TDict:
    key: Any
    value: Any


def find(t: Any) -> Any:
    while isinstance(t, TVar) and t.ref is not None:
        t = t.ref
    return t


def strip(t: Any) -> Any:
    """The type of the value an optional value holds (the type itself for others)."""
    t = find(t)
    return find(t.elem) if isinstance(t, TOpt) else t


def kind(t: Any) -> str | None:
    t = find(t)
    table = {IntType: "int", BoolType: "bool", FloatType: "float", StrType: "str", NoneType_: "none",
             TTup: "tuple", TList: "list", TOpt: "option", TDict: "dict", TBag: "bag"}
    return table.get(type(t))


def show(t: Any) -> str:
    t = find(t)
    if isinstance(t, TVar):
        return "tuple" if t.projs else "?"
    if isinstance(t, TTup):
        return "(" + ", ".join(show(e) for e in t.elems) + ")"
    if isinstance(t, TBag):
        return f"Bag[{show(t.elem)}]"
    if isinstance(t, TList):
        return f"List[{show(t.elem)}]"
    if isinstance(t, TOpt):
        return f"Option[{show(t.elem)}]"
    if isinstance(t, TDict):
        return f"Dict[{show(t.key)}, {show(t.value)}]"
    return str(t)


def to_term(t: Type) -> Any:
    if isinstance(t, TupleType):
        return TTup([to_term(e) for e in t.elems])
    if isinstance(t, BagType):
        return TBag(to_term(t.elem))
    if isinstance(t, ListType):
        return TList(to_term(t.elem))
    if isinstance(t, OptionType):
        return TOpt(to_term(t.elem))
    if isinstance(t, DictType):
        return TDict(to_term(t.key), to_term(t.value))
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
        elif type(a) is type(b) and isinstance(a, (IntType, BoolType, StrType, FloatType, NoneType_)):
            return
        elif isinstance(a, TTup) and isinstance(b, TTup):
            if len(a.elems) != len(b.elems):
                raise self.fail(why, a, b, loc)
            for x, y in zip(a.elems, b.elems, strict=True):
                self.unify(x, y, loc, why)
        elif isinstance(a, TBag | TList | TOpt) and type(a) is type(b):
            self.unify(a.elem, b.elem, loc, why)
        elif isinstance(a, TDict) and isinstance(b, TDict):
            self.unify(a.key, b.key, loc, why)
            self.unify(a.value, b.value, loc, why)
        else:
            raise self.fail(why, a, b, loc)

    def occurs(self, v: TVar, t: Any) -> bool:
        t = find(t)
        if t is v:
            return True
        if isinstance(t, TTup):
            return any(self.occurs(v, e) for e in t.elems)
        if isinstance(t, TBag | TList | TOpt):
            return self.occurs(v, t.elem)
        if isinstance(t, TDict):
            return self.occurs(v, t.key) or self.occurs(v, t.value)
        if isinstance(t, TVar):
            return any(self.occurs(v, p) for p in t.projs.values())
        return False

    def bind(self, v: TVar, t: Any, loc: sl.Loc | None, why: str) -> None:
        if self.occurs(v, t):
            raise TypeCheckError(f"{why}: a value would have to contain itself", loc)
        v.ref = t
        if isinstance(t, TVar):
            if v.kinds is not None:
                self.restrict(t, v.kinds, v.what, loc, v.default)
            elif t.default is None:
                t.default = v.default
            for i, p in v.projs.items():
                self.project(t, i, p, loc)
            return
        if v.kinds is not None:
            self.restrict(t, v.kinds, v.what, loc)
        for i, p in v.projs.items():
            self.project(t, i, p, loc)

    def restrict(self, t: Any, kinds: frozenset[str], what: str, loc: sl.Loc | None,
                 default: Any = None) -> None:
        """``t`` must be of one of ``kinds`` (``"option"`` in ``kinds``: or an optional value of one)."""
        t = find(t)
        if isinstance(t, TVar):
            new = kinds if t.kinds is None else t.kinds & kinds
            if not new - {"option"}:
                raise TypeCheckError(f"a value is used both as {t.what or 'something else'} and as {what}",
                                     loc)
            if t.projs and not new & (INDEXABLE | {"option"}):
                raise TypeCheckError(f"a value that is indexed is used as {what}", loc)
            t.kinds = frozenset(new)
            t.what = t.what or what
            if t.default is None:
                t.default = default
            return
        k = kind(t)
        if k == "option" and "option" in kinds:
            self.restrict(t.elem, kinds - {"option"}, what, loc, default)
            return
        if k not in kinds:
            raise TypeCheckError(f"a value of type {show(t)} is used as {what}", loc)

    def project(self, t: Any, index: int, comp: Any, loc: sl.Loc | None) -> None:
        """``t[index]`` has type ``comp`` (a tuple's component, a list's element, a string's character)."""
        t = find(t)
        if isinstance(t, TVar):
            if t.kinds is not None and not t.kinds & (INDEXABLE | {"option"}):
                raise TypeCheckError(f"indexing a value that is used as {t.what}: [{index}]", loc)
            if index in t.projs:
                self.unify(t.projs[index], comp, loc)
            else:
                t.projs[index] = comp
            return
        if isinstance(t, TOpt):
            self.project(t.elem, index, comp, loc)
            return
        if isinstance(t, TList):
            self.unify(t.elem, comp, loc)
            return
        if isinstance(t, StrType):
            self.unify(comp, STR, loc)
            return
        if isinstance(t, TDict):
            raise UnsupportedError("indexing a dict (the result of countByValue, countByKey or collectAsMap) "
                                   "is not supported: return the dict", loc, construct="dict indexing")
        if not isinstance(t, TTup):
            raise TypeCheckError(f"cannot index a value of type {show(t)} with [{index}]", loc)
        if index >= len(t.elems):
            raise TypeCheckError(f"tuple index {index} out of range for {show(t)}", loc)
        self.unify(t.elems[index], comp, loc)

    def numeric(self, t: Any, loc: sl.Loc | None, what: str = "a number", option: bool = True) -> None:
        """``t`` is used as a number: an int, a bool or a float (an int unless something says otherwise)."""
        kinds = NUMERIC | {"option"} if option else NUMERIC
        self.restrict(t, kinds, what, loc, INT)

    def truthy(self, t: Any, loc: sl.Loc | None) -> None:
        t = find(t)
        if isinstance(t, TTup) or (isinstance(t, TVar) and t.projs and t.kinds is None):
            raise TypeCheckError("a tuple is used as a condition (its truth value is not supported)", loc)
        self.restrict(t, TRUTHY | {"option"}, "a condition", loc)


def default_of(t: Any) -> Any:
    """What an undecided variable becomes: its default, or Int."""
    t = find(t)
    if isinstance(t, TVar) and t.default is not None:
        return t.default
    return INT


# ---------------------------------------------------------------------------------------------------
# Deferred constraints
# ---------------------------------------------------------------------------------------------------


class Undecided(Exception):
    """A constraint that cannot be decided even by defaults (its operand's type is unknown)."""

    def __init__(self, message: str, loc: sl.Loc | None) -> None:
        super().__init__(message)
        self.loc = loc


@dataclass
class Constraint:
    """``step(force)`` decides the constraint when it can and returns True; with ``force`` it must
    decide, using defaults (or raise ``Undecided``)."""

    step: Callable[[bool], bool]
    loc: sl.Loc | None


@dataclass
class Sig:
    params: list[Any]
    ret: Any


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
                if order and kk in NUMERIC:
                    u.numeric(other, loc, f"an operand of '{op}'")
                    return True
                if not force:
                    return False
                if not order and kk in ("none", "option"):
                    return True
                u.unify(other, known, loc, why)
                return True
            if kx in NUMERIC and ky in NUMERIC:
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
            u.restrict(ts[0], NUMERIC | {"str", "tuple", "none"}, "the argument of str()", loc, INT)
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
            return out, STR
        if name == "py.is_none":
            return out, BOOL
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
                else:
                    u.restrict(v, frozenset({"int", "float"}), f"{kind_} of a group", loc, INT)
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


# ---------------------------------------------------------------------------------------------------
# Resolution: from terms back to SparkLite types, placeholders to plain SparkLite
# ---------------------------------------------------------------------------------------------------


def _open(t: Any) -> bool:
    """Whether the type still has an unknown part (a variable with a default counts as its default)."""
    t = find(t)
    if isinstance(t, TVar):
        return t.default is None
    if isinstance(t, TTup):
        return any(_open(e) for e in t.elems)
    if isinstance(t, TBag | TList | TOpt):
        return _open(t.elem)
    if isinstance(t, TDict):
        return _open(t.key) or _open(t.value)
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
    if isinstance(t, (IntType, BoolType, StrType, FloatType, NoneType_)):
        return t
    if isinstance(t, TVar) and t.projs:
        n = max(t.projs) + 1
        return TupleType(tuple(to_type(t.projs[i]) if i in t.projs else INT for i in range(n)))
    if isinstance(t, TVar) and t.default is not None:
        return to_type(t.default)
    return INT


_BUILTIN_NAMES = frozenset(BUILTIN_TABLE) | frozenset(sl.BUILTINS)


def _is_term(x: Any) -> bool:
    return isinstance(x, (TVar, TTup, TBag, TList, TOpt, TDict))


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
        inf.solve()
    except Undecided as exc:
        _annotation_needed(p, inf.param_terms)
        raise TypeCheckError(str(exc), exc.loc) from None
    _annotation_needed(p, param_terms)
    reserved = frozenset({q.name for q in p.params} | {lt.name for lt in p.lets} | {d.name for d in p.defs})
    bags = effects.bag_lets(p)
    return resolve(typed, reserved, bags)


def _annotation_needed(p: sl.Program, param_terms: dict[str, Any]) -> None:
    """An ``AnnotationNeededError`` for the first input whose type is still open, if any."""
    for prm in p.params:
        t = param_terms.get(prm.name)
        if t is not None and _open(t):
            raise AnnotationNeededError(
                f"parameter {prm.name} needs an annotation, e.g. {prm.name}: {python_annotation(t)}", prm.loc)


__all__ = ["annotation_type", "infer_program", "resolve", "python_annotation", "OTHER"]
