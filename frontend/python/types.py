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

This module holds the annotations, the type terms with their unifier and the deferred constraints;
``inference`` the inference over a program, ``resolve`` the resolution and ``infer_program``, the entry.
"""

from __future__ import annotations

import ast as pyast
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from frontend.python.nodes import (
    loc_of,
)
from sparklite import ast as sl
from sparklite.errors import TypeCheckError, UnsupportedError
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
    NumType,
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
ORDERED = NUMERIC | {"str", "list", "tuple", "num"}  # num: an int or a float (NumType)
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
    table = {IntType: "int", BoolType: "bool", FloatType: "float", NumType: "num", StrType: "str",
             NoneType_: "none",
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
        elif type(a) is type(b) and isinstance(a, (IntType, BoolType, StrType, FloatType, NumType,
                                                    NoneType_)):
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


def _is_term(x: Any) -> bool:
    return isinstance(x, (TVar, TTup, TBag, TList, TOpt, TDict))


__all__ = ["annotation_type", "python_annotation"]
