"""Frontend-private helper nodes and small AST utilities.

Most Python operations mean different things at different types (``a + b`` adds ints, adds floats,
concatenates strings; ``x[0]`` projects a tuple or indexes a string; ``if x:`` tests a bool, an int
against 0, a string against ""), and the frontend learns the types only after translating the whole
program. The translator therefore emits *placeholder* nodes that record the Python operation, type
inference (``frontend.python.types``) constrains their operands, and the final resolution pass replaces each
placeholder by plain SparkLite chosen for the operands' types. Placeholders never escape
``translate_source``.

Decisions that depend on what may raise (keeping Python's short circuit, evaluating an unused or
out-of-order local first, rejecting a construct whose reordering would change which exception is seen)
depend on the types too (``a + b`` raises ``OverflowError`` for a huge int mixed with a float,
``TypeError`` for ``None``), so they are placeholders as well (``ShortCircuit``, ``Force``, ``Guard``,
``Beta``), decided on the resolved SparkLite with ``sparklite.effects``, the interpreter's notion.
"""

from __future__ import annotations

import ast as pyast
from dataclasses import dataclass, fields, replace
from typing import Any

from sparklite import ast as sl
from sparklite import effects
from sparklite.builtins import BUILTINS as _LIBRARY


@dataclass(frozen=True)
class AsInt(sl.Node):
    """Python's use of a value as a number (unary ``-``, ``abs``, ``**``): an ``int`` or a ``float`` as
    is, a ``bool`` as 0/1 (``True + 1 == 2``), an optional value unwrapped (``-None`` raises
    ``TypeError``)."""

    operand: sl.Expr
    t: Any = None


@dataclass(frozen=True)
class AsBool(sl.Node):
    """Python's truth test (``if x``, ``filter``, ``not x``): a ``bool`` as is, an ``int``/``float`` as
    ``x != 0``, a ``str`` as ``x != ""``, a list as ``len(x) != 0``, an optional value as ``x is not
    None`` and then the truth of the value."""

    operand: sl.Expr
    t: Any = None


@dataclass(frozen=True)
class ListLit(sl.Node):
    """A list display returned by a function. A ``flatMap`` function that always returns displays of
    one size gets a tuple (only its elements matter, and tuples are what the proof methods know);
    everywhere else it becomes a ``ListExpr``."""

    elems: tuple[sl.Expr, ...]


@dataclass(frozen=True)
class TruthFn(sl.Node):
    """A named function used as a ``filter`` predicate: Spark keeps elements whose result is truthy."""

    fn: sl.Fn
    t: Any = None
    param_t: Any = None


@dataclass(frozen=True)
class PyArith(sl.Node):
    """Python's ``+ - * / // %``: ints (bools as 0/1), floats (an int operand converted with
    ``float(...)``, as Python converts it), ``str``/list concatenation for ``+``; an optional operand
    is unwrapped (``None + 1`` raises ``TypeError``)."""

    op: str
    left: sl.Expr
    right: sl.Expr
    lt: Any = None
    rt: Any = None


@dataclass(frozen=True)
class PyCompare(sl.Node):
    """Python's ``== != < <= > >=``: bools are ordered as 0/1 against numbers, an optional value is
    unwrapped for an order comparison (``None < 1`` raises ``TypeError``)."""

    op: str
    left: sl.Expr
    right: sl.Expr
    lt: Any = None
    rt: Any = None


@dataclass(frozen=True)
class PyIndex(sl.Node):
    """``base[index]``: a tuple projection (literal index, negative ones counted from the end), or
    ``py.getitem`` on a string or a list."""

    base: sl.Expr
    index: sl.Expr
    t: Any = None


@dataclass(frozen=True)
class PySlice(sl.Node):
    """``base[lo:hi]`` on a string or a list (``py.slice``; a missing bound is ``None``)."""

    base: sl.Expr
    lo: sl.Expr
    hi: sl.Expr
    t: Any = None


@dataclass(frozen=True)
class PyInt(sl.Node):
    """``int(x)``: a bool as 0/1, an int as is, a float truncated and a string parsed (``int(...)``)."""

    operand: sl.Expr
    t: Any = None


@dataclass(frozen=True)
class PyPow(sl.Node):
    """``base ** exponent`` for a constant exponent 0..8 on ints: expanded to products. On floats
    Python calls C's ``pow`` (one rounding, ``OverflowError`` on overflow), which products are not."""

    base: sl.Expr
    exponent: int
    t: Any = None


@dataclass(frozen=True)
class Narrow(sl.Node):
    """A value tested ``is not None`` on this path: an optional value is unwrapped (it cannot be
    ``None`` here), any other value is itself."""

    operand: sl.Expr
    t: Any = None


@dataclass(frozen=True)
class PairEach(sl.Node):
    """``[(key, y) for y in items]`` for ``flatMapValues``: over a list or a string, or over a tuple
    (component by component)."""

    key: sl.Expr
    items: sl.Expr
    t: Any = None


@dataclass(frozen=True)
class ShortCircuit(sl.Node):
    """``left and right`` / ``left or right`` on booleans: ``BinOp`` when ``right`` cannot raise, else
    an ``Ite`` that keeps Python's short circuit whatever SparkLite's ``and`` does with errors."""

    op: str
    left: sl.Expr
    right: sl.Expr


@dataclass(frozen=True)
class Force(sl.Node):
    """``body`` after evaluating ``value`` (a local assignment Python evaluates here). Substituting the
    value into its uses is exact when it cannot raise, or when it is the first thing that may raise
    that ``body`` evaluates; otherwise ``if value == value then body else body`` evaluates it first."""

    value: sl.Expr
    body: sl.Expr


@dataclass(frozen=True)
class Guard(sl.Node):
    """``body``, provided ``checked`` cannot raise; otherwise the translation is rejected with the
    located ``UnsupportedError`` (``construct``, ``message``): a construct whose reordering is exact only
    for values that cannot raise."""

    body: sl.Expr
    checked: sl.Expr
    construct: str = ""
    message: str = ""


@dataclass(frozen=True)
class Beta(sl.Node):
    """``fn(args)`` for a lambda: its body with the arguments substituted when they are cheap values
    that cannot raise (variables, literals, tuple projections), else a call-by-value ``Apply``."""

    fn: sl.Lambda
    args: tuple[sl.Expr, ...]


@dataclass(frozen=True)
class Shaped(sl.Node):
    """``a, b = operand``: a tuple of exactly ``arity`` components (resolves to ``operand``), or a list
    or string unpacked with ``py.unpack`` (``ValueError`` on a wrong length)."""

    operand: sl.Expr
    arity: int
    t: Any = None


@dataclass(frozen=True)
class MaybeInt(sl.Node):
    """A ``sum`` of floats (``R.sum()``, ``sum(xs)``): typed ``Float``, but the *int* 0 when the RDD or
    list is empty, as Python computes it. An int operand converted to a float next to it would be
    wrong then (``R.sum() + 1`` is the int 1 in Python), so such conversions are rejected; the marker
    stays in the tree until every conversion was checked."""

    operand: sl.Expr
    t: Any = None


@dataclass(frozen=True)
class Undefined(sl.Node):
    """A free name defined nowhere (``C`` in ``lambda C1, C2: C1[1] + C[1]``), read inside a function
    Spark runs: Python raises ``NameError`` only when the expression is evaluated, and Spark evaluates
    some functions only for some partitionings (``aggregateByKey``'s combine function, docs/semantics-
    notes.md), so the read is an outcome, not a refusal. ``t`` is the type the context gives it; the
    resolver makes it ``py.undefined`` (``sparklite.builtins``), which always raises ``NameError``."""

    name: str
    t: Any = None


PLACEHOLDERS = (AsInt, MaybeInt, Undefined, AsBool, ListLit, TruthFn, PyArith, PyCompare, PyIndex, PySlice,
                PyInt, PyPow, Narrow, PairEach, ShortCircuit, Force, Guard, Beta, Shaped)


def loc_of(node: pyast.AST, filename: str) -> sl.Loc:
    """Python's columns are 0-based, SparkLite's 1-based."""
    return sl.Loc(filename, getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1)


def with_loc(node: sl.Node, loc: sl.Loc | None) -> sl.Node:
    return replace(node, loc=loc)


# ---------------------------------------------------------------------------------------------------
# Names and substitution
# ---------------------------------------------------------------------------------------------------


def all_names(node: sl.Node) -> set[str]:
    """Every variable or parameter name mentioned in ``node`` (bound or free): used to pick fresh names."""
    out: set[str] = set()
    for n in sl.walk(node):
        if isinstance(n, sl.Var):
            out.add(n.name)
        elif isinstance(n, sl.Param):
            out.add(n.name)
    return out


def free_vars(node: sl.Node, bound: frozenset[str] = frozenset()) -> set[str]:
    if isinstance(node, sl.Var):
        return set() if node.name in bound else {node.name}
    if isinstance(node, sl.Lambda):
        inner = bound | {p.name for p in node.params}
        return free_vars(node.body, inner)
    out: set[str] = set()
    for child in sl.children(node):
        out |= free_vars(child, bound)
    return out


def fresh(base: str, taken: set[str]) -> str:
    if base not in taken:
        return base
    i = 1
    while f"{base}_{i}" in taken:
        i += 1
    return f"{base}_{i}"


def subst(node: sl.Node, mapping: dict[str, sl.Expr]) -> Any:
    """Capture-avoiding substitution of variables (inner lambdas rename clashing parameters)."""
    if not mapping:
        return node
    if isinstance(node, sl.Var):
        return mapping.get(node.name, node)
    if isinstance(node, sl.Lambda):
        inner = {k: v for k, v in mapping.items() if k not in {p.name for p in node.params}}
        if not inner:
            return node
        incoming: set[str] = set()
        for v in inner.values():
            incoming |= free_vars(v)
        params = []
        renames: dict[str, sl.Expr] = {}
        taken = incoming | all_names(node) | set(inner)
        for p in node.params:
            if p.name in incoming:
                new = fresh(p.name, taken)
                taken.add(new)
                renames[p.name] = sl.Var(new, loc=p.loc)
                params.append(replace(p, name=new))
            else:
                params.append(p)
        body = subst(node.body, renames) if renames else node.body
        return replace(node, params=tuple(params), body=subst(body, inner))
    changes = {}
    for f in fields(node):
        if f.name == "loc":
            continue
        value = getattr(node, f.name)
        if isinstance(value, sl.Node):
            changes[f.name] = subst(value, mapping)
        elif isinstance(value, tuple) and any(isinstance(v, sl.Node) for v in value):
            changes[f.name] = tuple(subst(v, mapping) if isinstance(v, sl.Node) else v for v in value)
    return replace(node, **changes) if changes else node


# ---------------------------------------------------------------------------------------------------
# What may raise
# ---------------------------------------------------------------------------------------------------

# Placeholders that may raise for some operand types (decided only once the types are known).
_RAISING_PLACEHOLDERS = (AsInt, PyArith, PyCompare, PyIndex, PySlice, PyInt, PyPow, Shaped)


def _pessimize(node: Any) -> Any:
    """``node`` with every placeholder that may raise for some types marked as raising (wrapped in a
    builtin call that ``sparklite.effects`` knows may raise)."""
    def mark(n: sl.Node) -> sl.Node:
        if isinstance(n, _RAISING_PLACEHOLDERS):
            return sl.Call("py.unwrap", (n,), loc=n.loc)  # type: ignore[arg-type]
        return n

    return transform(node, mark)


def may_raise(node: sl.Node, bags: dict[str, sl.Expr] | None = None) -> bool:
    """Whether ``node``, not yet resolved, may raise for some types of its operands: ``sparklite.effects``
    (the interpreter's notion; a call of a named function may raise) with every placeholder that may
    raise at some type counted as raising. Only for decisions that are exact either way (binding a
    let, keeping a tuple whole); decisions that lose precision use ``Force``/``Guard`` instead."""
    pess_bags = {k: _pessimize(v) for k, v in (bags or {}).items()}
    return effects.may_raise(_pessimize(node), bags=pess_bags)


def driver_may_raise(node: sl.Node, bags: dict[str, sl.Expr] | None = None) -> bool:
    """``sparklite.effects.driver_may_raise`` over unresolved nodes, pessimistically like ``may_raise``."""
    pess_bags = {k: _pessimize(v) for k, v in (bags or {}).items()}
    return effects.driver_may_raise(_pessimize(node), bags=pess_bags)


TARGET, OTHER = "target", "other"


def first_effect(target: sl.Expr, node: sl.Node) -> str | None:
    """In SparkLite's (and Python's) evaluation order of the resolved expression ``node``: ``TARGET``
    when ``target`` is evaluated before anything else that may raise, on every path; ``OTHER`` when
    something else that may raise may come first (or ``target`` is not evaluated on some path); None
    when nothing that may raise is evaluated at all."""
    if node == target:
        return TARGET
    if isinstance(node, sl.Lambda | sl.FnRef):
        return None  # a function value: its body runs later, when it is called
    if isinstance(node, sl.PApp):
        return _sequence(target, node.args)
    if isinstance(node, sl.Ite):
        return _sequence(target, (node.cond,)) or _either(first_effect(target, node.then),
                                                            first_effect(target, node.orelse))
    if isinstance(node, sl.BinOp) and node.op in ("and", "or"):
        return _sequence(target, (node.left,)) or _either(first_effect(target, node.right), None)
    if isinstance(node, sl.ListComp):
        first = _sequence(target, (node.source,))
        if first:
            return first
        per_element = first_effect(target, node.cond.body) if node.cond is not None else None
        if per_element is None:
            per_element = first_effect(target, node.fn.body)
        return _either(per_element, None)  # the source may be empty
    if isinstance(node, sl.Apply):
        first = _sequence(target, node.args)
        if first:
            return first
        if isinstance(node.fn, sl.Lambda):
            return first_effect(target, node.fn.body)
        return OTHER if effects.may_raise(node.fn) else None
    first = _sequence(target, tuple(sl.children(node)))
    if first:
        return first
    if effects.raises_here(node) is not None:
        return OTHER
    if isinstance(node, sl.Call) and node.func not in sl.BUILTINS and node.func not in _LIBRARY:
        return OTHER  # a named function: its body may raise
    return None


def _sequence(target: sl.Expr, nodes: tuple[sl.Node, ...]) -> str | None:
    for n in nodes:
        r = first_effect(target, n)
        if r is not None:
            return r
    return None


def _either(a: str | None, b: str | None) -> str | None:
    """Two paths: the same first effect on both, else the target is not reliably first."""
    return a if a == b else OTHER


def forced(value: sl.Expr, body: sl.Expr, loc: sl.Loc | None) -> sl.Expr:
    """``body`` after evaluating ``value`` for its errors only: ``if value == value then body else body``."""
    return sl.Ite(sl.BinOp("==", value, value, loc=value.loc), body, body, loc=loc)


def is_simple(e: sl.Expr) -> bool:
    """Resolved expressions that are cheap and cannot raise, so they may be duplicated or dropped by
    substitution: variables, literals, tuple projections of those."""
    if isinstance(e, sl.Var | sl.IntLit | sl.BoolLit | sl.StrLit | sl.FloatLit | sl.NoneLit):
        return True
    if isinstance(e, sl.Proj):
        return is_simple(e.tuple)
    return False


transform = sl.transform  # the one generic rewrite (``sparklite.ast.transform``)
