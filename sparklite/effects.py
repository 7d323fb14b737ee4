"""Which SparkLite expressions may raise: the one notion of "may raise" every part of sparkeq shares.

Why one module: a simplification is sound only if it never drops, reorders or duplicates a
subexpression that can raise, and sparkeq once lost an action that raises because the frontend kept its
own, narrower notion (it forgot that ``R.max()`` raises on an empty RDD). The interpreter names its
errors through the tables here, the simplification pass (``sparklite.simplify``) and the frontend ask
``may_raise``, and the soundness fuzzer checks the contract: an expression for which ``may_raise`` is
false never gives an error outcome in the interpreter.

What raises under Spark (``shared/design/spark-semantics.md``):

- ``//`` and ``%`` with a zero divisor: ``ZeroDivisionError`` (in a task or on the driver); ``/`` too,
  and ``OverflowError`` when an int quotient is too large for a float;
- the builtins that may raise (``int(s)``, ``float(s)``, ``py.getitem``, ``py.unpack``...), as
  ``sparklite.builtins`` lists them;
- ``first()`` of an empty RDD: ``ValueError``;
- ``reduce``, ``min()`` and ``max()`` of an empty RDD: ``ValueError`` on the driver;
- ``countByValue()`` (so ``countByKey()``) and ``top(n)`` of an RDD with *no partition* (``sc.textFile``
  of an empty file, and what Spark builds on it): ``ValueError``, as they end with ``reduce`` over one
  value per partition (an empty RDD *with* partitions gives ``{}`` and ``[]``);
- anything that forces a bag whose functions may raise (an action over ``map(lambda x: 1 // x)``), and
  any call of a function whose body may raise.

The answer is conservative (may say "may raise" for an expression that never does) and syntactic: it
looks at every subexpression, including function bodies, whether or not they are reached.
"""

from __future__ import annotations

from collections.abc import Mapping

from sparklite import ast as A
from sparklite import builtins as B
from sparklite.types import BagType, Type

ZERO_DIVISION = "ZeroDivisionError"
EMPTY_ACTION = "ValueError"

RAISING_BINOPS: Mapping[str, str] = {"//": ZERO_DIVISION, "%": ZERO_DIVISION, "/": ZERO_DIVISION}
"""Binary operators that raise, with the exception, when their right operand is zero."""

EMPTY_RAISING_SIMPLE_AGGS: Mapping[str, str] = {"min": EMPTY_ACTION, "max": EMPTY_ACTION}
"""``SimpleAgg`` kinds that raise on an empty bag (``count`` and ``sum`` do not)."""


_TYPED = frozenset({"int", "str", "min", "max", "sum", "str.split", "py.unwrap"})
"""Builtins whose risk depends on their arguments' types (``sparklite.builtins.raises``)."""


def raises_here(node: A.Node, env: Mapping[str, Type] | None = None,
                defs: Mapping[str, A.Def] | None = None) -> str | None:
    """The exception ``node`` itself may raise (ignoring its subexpressions), or None.

    ``env`` gives the types of names in scope where they are known (typed lambda and def parameters):
    with it, a builtin's risk is the one its argument types allow (``str`` of a float never raises,
    ``str`` of an int may: ``sparklite.builtins.raises``); an argument whose type cannot be found
    counts as any type."""
    if isinstance(node, A.BinOp) and node.op in RAISING_BINOPS:
        if node.op != "/" and isinstance(node.right, A.IntLit) and node.right.value != 0:
            return None
        if isinstance(node.right, A.FloatLit) and node.right.value != 0:
            return None  # float // % / a nonzero float: no zero divisor, and floats overflow to inf
        return RAISING_BINOPS[node.op]
    if isinstance(node, A.Call) and node.func in B.BUILTINS and node.func not in A.BUILTINS:
        if node.func == "str.split" and len(node.args) == 2 and isinstance(node.args[1], A.StrLit) \
                and node.args[1].value:
            return None
        kinds = B.BUILTINS[node.func].raises
        if kinds and env is not None and node.func in _TYPED:
            kinds = B.raises(node.func, [_type_or_none(a, env, defs) for a in node.args])
        return min(kinds) if kinds else None
    if isinstance(node, A.Call) and node.func in ("min", "max") and len(node.args) == 1:
        return EMPTY_ACTION  # min/max of one list: empty raises
    if isinstance(node, A.First):
        return EMPTY_ACTION
    if isinstance(node, A.Reduce):
        return EMPTY_ACTION
    if isinstance(node, A.CountByValue) or (isinstance(node, A.TakeOrdered) and node.top):
        return EMPTY_ACTION  # over an RDD with no partition (see the module doc)
    if isinstance(node, A.SimpleAgg):
        return EMPTY_RAISING_SIMPLE_AGGS.get(node.kind)
    return None


def _type_or_none(e: A.Expr, env: Mapping[str, Type], defs: Mapping[str, A.Def] | None) -> Type | None:
    """The type of ``e`` from the types of the names in ``env`` (and the defs), or None when it cannot
    be found (a name of unknown type, an ill-typed or unfinished expression)."""
    from sparklite.typecheck import type_of

    try:
        return type_of(e, env, tuple((defs or {}).values()), in_function=True)
    except Exception:  # noqa: BLE001 - no type, no refinement: the table's answer stands
        return None


def _bind(env: Mapping[str, Type], params: tuple[A.Param, ...]) -> dict[str, Type]:
    """``env`` inside a function of ``params``: typed parameters known, untyped ones unknown (and
    hiding an outer name of the same spelling)."""
    inner = {k: v for k, v in env.items() if k not in {p.name for p in params}}
    inner.update({p.name: p.type for p in params if isinstance(p.type, Type)})
    return inner


def may_raise(node: A.Node, defs: Mapping[str, A.Def] | None = None,
              bags: Mapping[str, A.Expr] | None = None, env: Mapping[str, Type] | None = None) -> bool:
    """Whether evaluating ``node`` (and forcing any bag it builds) may raise.

    ``defs`` are the program's named functions: a call of one may raise if its body may. Without
    ``defs`` every call of a named function is assumed to raise. ``bags`` are the let-bound bags
    (``bag_lets``): a bag is lazy, so forcing one runs its definition's functions now. Other variables
    never raise (parameters, or let-bound values already evaluated). ``env``: the types of the
    program's names where known (the types of typed lambda and def parameters are always used).
    """
    top = dict(env or {})
    return _may_raise(node, defs, set(), bags or {}, top, top)


def bag_lets(program: A.Program) -> dict[str, A.Expr]:
    """The program's let-bound bags (by name), whose definitions run when an action forces them."""
    names = {p.name for p in program.params if isinstance(p.type, BagType)}
    out: dict[str, A.Expr] = {}
    for b in program.lets:
        if isinstance(b.value, A.BAG_OPS) or (isinstance(b.value, A.Var) and b.value.name in names):
            names.add(b.name)
            out[b.name] = b.value
    return out


def _may_raise(node: A.Node, defs: Mapping[str, A.Def] | None, seen: set[str],
               bags: Mapping[str, A.Expr], env: Mapping[str, Type], top: Mapping[str, Type]) -> bool:
    if isinstance(node, A.Lambda):
        return _may_raise(node.body, defs, seen, bags, _bind(env, node.params), top)
    if raises_here(node, env, defs) is not None:
        return True
    if isinstance(node, A.Var) and node.name in bags and node.name not in seen:
        seen.add(node.name)
        return _may_raise(bags[node.name], defs, seen, bags, top, top)
    name: str | None = None
    if isinstance(node, A.Call) and node.func not in A.BUILTINS and node.func not in B.BUILTINS:
        name = node.func
    elif isinstance(node, A.Call) and defs is not None and node.func in defs:
        name = node.func  # a def named like a builtin shadows it
    elif isinstance(node, (A.FnRef, A.PApp)):
        name = node.name
    if name is not None and name not in seen:
        if defs is None or name not in defs:
            return True
        seen.add(name)
        d = defs[name]
        if _may_raise(d.body if isinstance(d, A.FunDef) else d.fn, defs, seen, bags, _bind({}, d.params),
                      top):
            return True
    return any(_may_raise(c, defs, seen, bags, env, top) for c in A.children(node))


def driver_may_raise(node: A.Node, defs: Mapping[str, A.Def] | None = None,
                     bags: Mapping[str, A.Expr] | None = None) -> bool:
    """Whether *building* ``node`` on the driver may raise, before any action forces a bag.

    A bag is lazy: its functions run only when a job needs its elements. What Python does evaluate
    when it builds an RDD chain are the method arguments: a parametric helper's arguments
    (``filter(geq(1 // z))``) and the zero values of the by-key aggregations. A basic expression is
    evaluated whole (``may_raise``).
    """
    if isinstance(node, A.Lambda | A.FnRef | A.Var):
        return False  # a let-bound bag was built (and raised, if it does) where it was bound
    if isinstance(node, A.PApp):
        return any(may_raise(a, defs, bags) for a in node.args)
    if isinstance(node, A.SortBy):
        # PySpark's sortBy over more than one partition runs a count and a sampling job when it is
        # called: its source and its key run then, on the driver's request
        return may_raise(node, defs, bags)
    if isinstance(node, A.BAG_OPS):
        return any(driver_may_raise(c, defs, bags) for c in A.children(node))
    return may_raise(node, defs, bags)
