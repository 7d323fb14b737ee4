"""``pyspark.sql.functions`` of arrays (``split``, ``size``, ``explode``...), ``Column.getItem`` and
``col[i]``, and how a select or ``withColumn`` holding a generator (``explode``...) becomes a kernel
``Generate`` under a projection, as Spark's analyser plans it.

Why a module of its own: the function registry (``frontend.dataframe.functions``) is shared by
several lines of work; these handlers join it through ``HANDLERS`` and the projection methods call
``split_generator`` with a few lines. Spark's names are kept: ``split(s, ,, -1)`` (the default limit
shown), ``sort_array(a, true)``, ``a[0]``, and ``col``/``pos`` for a generator's columns.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import MappingProxyType

from frontend.dataframe.columns import Alias, AttrRef, Call, CExpr, Lit
from frontend.dataframe.values import ColV, PyV, SeqV, Value, as_col, as_int, as_str
from sparklite.ast import Loc
from sparklite.errors import InputError, UnsupportedError

Handler = Callable[[list[Value], dict[str, Value], Loc], Value]

#: generator functions: (with positions, outer)
GENERATORS = MappingProxyType({
    "explode": (False, False), "explode_outer": (False, True),
    "posexplode": (True, False), "posexplode_outer": (True, True),
})


def _bind(fname: str, params: Sequence[str], args: list[Value], kwargs: dict[str, Value], loc: Loc,
          defaults: dict[str, Value] | None = None) -> dict[str, Value]:
    """Python's binding of a small fixed signature (``sig`` of ``functions`` is not imported here:
    that module imports this one)."""
    if len(args) > len(params):
        raise InputError(f"{fname}() takes at most {len(params)} positional arguments but {len(args)} were "
                         "given (Python raises TypeError)", loc)
    bound = dict(zip(params, args, strict=False))
    for k, v in kwargs.items():
        if k not in params or k in bound:
            raise InputError(f"{fname}() got an unexpected or repeated keyword argument '{k}' "
                             "(Python raises TypeError)", loc)
        bound[k] = v
    for p in params:
        if p not in bound:
            if defaults is None or p not in defaults:
                raise InputError(f"{fname}() missing required argument '{p}' (Python raises TypeError)", loc)
            bound[p] = defaults[p]
    return bound


def _f_split(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
    """``F.split(str, pattern, limit=-1)``: the pattern is a Java regex (a Python str)."""
    b = _bind("split", ("str", "pattern", "limit"), args, kwargs, loc, {"limit": PyV(-1)})
    pattern = b["pattern"]
    pat = (pattern.expr if isinstance(pattern, ColV)
           else Lit(as_str(pattern, loc, "split()'s pattern"), loc=loc))
    limit = b["limit"]
    lim = limit.expr if isinstance(limit, ColV) else Lit(as_int(limit, loc, "split()'s limit"), loc=loc)
    return ColV(Call("split", (as_col(b["str"], loc), pat, lim), loc=loc))


def _one(fname: str) -> Handler:
    def h(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
        b = _bind(fname, ("col",), args, kwargs, loc)
        return ColV(Call(fname, (as_col(b["col"], loc),), loc=loc))

    return h


def _f_array_contains(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
    """``F.array_contains(col, value)``: a Python value is a literal (not a column name)."""
    b = _bind("array_contains", ("col", "value"), args, kwargs, loc)
    v = b["value"]
    return ColV(Call("array_contains", (as_col(b["col"], loc), v.expr if isinstance(v, ColV) else
                                        Lit(v.value if isinstance(v, PyV) else None, loc=loc)), loc=loc))


def _f_element_at(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
    b = _bind("element_at", ("col", "extraction"), args, kwargs, loc)
    x = b["extraction"]
    idx = x.expr if isinstance(x, ColV) else Lit(as_int(x, loc, "element_at()'s index"), loc=loc)
    return ColV(Call("element_at", (as_col(b["col"], loc), idx), loc=loc))


def _f_array(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
    """``F.array(*cols)`` (or one list of them): names are columns."""
    if kwargs:
        raise InputError("array() takes no keyword arguments (Python raises TypeError)", loc)
    items = list(args[0].items) if len(args) == 1 and isinstance(args[0], SeqV) else args
    if not items:
        raise UnsupportedError("array() without elements (an array<void>) is not supported", loc,
                               construct="array")
    return ColV(Call("array", tuple(as_col(a, loc) for a in items), loc=loc))


def _f_sort_array(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
    b = _bind("sort_array", ("col", "asc"), args, kwargs, loc, {"asc": PyV(True)})
    asc = b["asc"]
    if not (isinstance(asc, PyV) and isinstance(asc.value, bool)):
        raise UnsupportedError("sort_array's asc must be True or False", loc, construct="sort_array")
    return ColV(Call("sort_array", (as_col(b["col"], loc), Lit(asc.value, loc=loc)), loc=loc))


def _generator(fname: str) -> Handler:
    def h(args: list[Value], kwargs: dict[str, Value], loc: Loc) -> Value:
        b = _bind(fname, ("col",), args, kwargs, loc)
        return ColV(Call(fname, (as_col(b["col"], loc),), loc=loc))

    return h


HANDLERS: MappingProxyType[str, Handler] = MappingProxyType({
    "split": _f_split,
    "size": _one("size"),
    "array_contains": _f_array_contains,
    "element_at": _f_element_at,
    "array": _f_array,
    "sort_array": _f_sort_array,
    "array_distinct": _one("array_distinct"),
    "flatten": _one("flatten"),
    **{name: _generator(name) for name in GENERATORS},
})


def get_item(col: CExpr, key: Value, loc: Loc) -> ColV:
    """``col[i]`` / ``col.getItem(i)`` of an array (0-based; Spark's name ``a[0]``)."""
    if isinstance(key, ColV):
        return ColV(Call("get_item", (col, key.expr), loc=loc))
    if isinstance(key, PyV) and isinstance(key.value, int) and not isinstance(key.value, bool):
        return ColV(Call("get_item", (col, Lit(key.value, loc=loc)), loc=loc))
    raise UnsupportedError("getItem/[] with a non-integer key (a map key or a struct field) is not supported",
                           loc, construct="getItem")


# ---------------------------------------------------------------------------------------------------
# Generators in a select
# ---------------------------------------------------------------------------------------------------


def generator_of(c: CExpr) -> tuple[Call, tuple[str, ...]] | None:
    """The generator call a select item is (possibly aliased), with the alias names; None otherwise."""
    names: tuple[str, ...] = ()
    if isinstance(c, Alias):
        names, c = (c.name,), c.operand
    if isinstance(c, Call) and c.name in GENERATORS:
        return c, names
    return None


def contains_generator(c: CExpr) -> bool:
    stack: list[object] = [c]
    while stack:
        x = stack.pop()
        if isinstance(x, Call) and x.name in GENERATORS:
            return True
        if isinstance(x, CExpr):
            stack.extend(v for v in vars(x).values() if isinstance(v, CExpr | tuple))
        elif isinstance(x, tuple):
            stack.extend(x)
    return False


def refs_for(new_ids: Sequence[int], names: Sequence[str], loc: Loc | None) -> list[CExpr]:
    return [AttrRef(i, n, loc=loc) for i, n in zip(new_ids, names, strict=True)]


def check_generators(items: Sequence[CExpr], loc: Loc) -> int | None:
    """The position of the one generator among ``items``, None without one; Spark's analysis errors
    for two generators or one nested in an expression."""
    found = [i for i, c in enumerate(items) if generator_of(c) is not None]
    if len(found) > 1:
        from sparklite.relational.build import AnalysisError

        raise AnalysisError("[UNSUPPORTED_GENERATOR.MULTI_GENERATOR] only one generator allowed per select "
                            "clause", loc)
    for i, c in enumerate(items):
        if i not in found and contains_generator(c):
            from sparklite.relational.build import AnalysisError

            raise AnalysisError("[UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS] a generator (explode...) "
                                "nested in an expression", c.loc or loc)
    return found[0] if found else None


__all__ = ["GENERATORS", "HANDLERS", "check_generators", "generator_of", "get_item", "refs_for"]
