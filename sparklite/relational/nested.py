"""Arrays (and the functions that make, read and take them apart) in Spark 4's meaning: ``split``,
``size``, ``array_contains``, ``element_at``, ``a[i]`` (``get_item``), ``array``, ``sort_array``,
``array_distinct``, ``flatten``.

Why a module of its own: the function table (``sparklite.relational.functions``) is shared by several
lines of work; these specs join it through ``specs(spec, arity)``, called by that module with its
``FuncSpec`` and arity check (passed in: no import circle). An array value is a Python tuple
(hashable, so arrays group, compare and join as Spark lets them), its elements Python values or None.

Every rule here was observed on Spark 4.x with ANSI on (``docs/semantics-notes.md``, "Arrays"):
- ``split(s, pattern, limit)`` is Java's ``String.split(pattern, limit)`` with ``limit`` 0 read as -1
  (trailing empty strings are kept: ``split('a,,', ',')`` is ``['a', '', '']``) and an empty pattern
  splitting into characters; ``split('', p)`` is ``['']``; the pattern is a Java regex
  (``split('x.y', '.')`` is four empty strings). Type ``array<string>`` without NULL elements; the
  name shows the limit, ``split(s, ,, -1)``;
- ``size(NULL)`` is NULL (ANSI wins over ``spark.sql.legacy.sizeOfNull``);
- ``a[i]`` counts from 0 and raises ``INVALID_ARRAY_INDEX`` outside the array (negative too);
  ``element_at(a, i)`` counts from 1, from the end for a negative ``i``, raises
  ``INVALID_ARRAY_INDEX_IN_ELEMENT_AT`` outside and ``INVALID_INDEX_OF_ZERO`` at 0; a NULL array or
  index gives NULL;
- ``array_contains(a, v)`` is NULL for a NULL ``a`` or ``v``, TRUE when an element equals ``v``, else
  NULL if an element is NULL, else FALSE;
- ``sort_array(a, asc)`` puts NULLs first ascending, last descending; ``array_distinct`` keeps first
  occurrences in order; ``flatten`` is NULL when the array or one of its arrays is;
- ``array(x, ...)`` is never NULL; its elements may be NULL when an argument is nullable.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sparklite.relational import javaregex
from sparklite.relational.sqlerror import SqlError
from sparklite.relational.types import (
    BOOLEAN,
    INT,
    STRING,
    ArrayType,
    BooleanType,
    IntegralType,
    NullType,
    SqlType,
    StringType,
    wider,
)
from sparklite.relational.values import RelError

TypeResult = tuple[SqlType, bool, tuple[SqlType | None, ...]]
Arity = Callable[[str, Sequence[SqlType], int, int | None], None]

INVALID_ARRAY_INDEX = RelError("ArrayIndexOutOfBoundsException", "INVALID_ARRAY_INDEX")
INVALID_ARRAY_INDEX_IN_ELEMENT_AT = RelError("ArrayIndexOutOfBoundsException",
                                             "INVALID_ARRAY_INDEX_IN_ELEMENT_AT")
INVALID_INDEX_OF_ZERO = RelError("SparkRuntimeException", "INVALID_INDEX_OF_ZERO")

#: The functions of this module that raise nothing (``effects.own_kinds``); the others raise ``RAISES``.
NEVER_RAISE = frozenset({"split", "size", "array_contains", "array", "sort_array", "array_distinct",
                         "flatten"})
RAISES: dict[str, frozenset[str]] = {
    "get_item": frozenset({"INVALID_ARRAY_INDEX"}),
    "element_at": frozenset({"INVALID_ARRAY_INDEX_IN_ELEMENT_AT", "INVALID_INDEX_OF_ZERO"}),
}
NAMES = NEVER_RAISE | frozenset(RAISES)


# -- values ----------------------------------------------------------------------------------------


def split(s: str, pattern: str, limit: int) -> tuple[str, ...]:
    """``UTF8String.split``: an empty pattern splits into characters (at most ``limit`` pieces, the last
    holding the rest), else Java's ``String.split(pattern, limit == 0 ? -1 : limit)``."""
    if s and pattern == "":
        n = len(s) if limit <= 0 or limit > len(s) else limit
        return (*s[:n - 1], s[n - 1:])
    return java_split(javaregex.translate(pattern), s, -1 if limit == 0 else limit)


def java_split(regex: javaregex.JavaRegex, s: str, limit: int) -> tuple[str, ...]:
    """``Pattern.split(input, limit)`` for ``limit != 0``: a zero-width match at the start makes no
    leading empty piece; with ``limit > 0`` at most ``limit`` pieces."""
    pieces: list[str] = []
    index = 0
    limited = limit > 0
    for m in javaregex.java_matches(regex, s):
        if not limited or len(pieces) < limit - 1:
            if index == 0 and m.start() == 0 and m.end() == 0:
                continue
            pieces.append(s[index:m.start()])
            index = m.end()
        elif len(pieces) == limit - 1:
            pieces.append(s[index:])
            index = m.end()
            break
    if index == 0:
        return (s,)
    if not limited or len(pieces) < limit:
        pieces.append(s[index:])
    return tuple(pieces)


Compare = Callable[[Any, Any], int]  # ``functions.compare``: Spark's order of two non-NULL values


def contains(arr: tuple, v: Any, _compare: Compare) -> bool | None:
    saw_null = False
    for x in arr:
        if x is None:
            saw_null = True
        elif _compare(x, v) == 0:
            return True
    return None if saw_null else False


def element_at(arr: tuple, i: int) -> Any:
    if i == 0:
        raise SqlError(INVALID_INDEX_OF_ZERO)
    if abs(i) > len(arr):
        raise SqlError(INVALID_ARRAY_INDEX_IN_ELEMENT_AT)
    return arr[i - 1] if i > 0 else arr[i]


def get_item(arr: tuple, i: int) -> Any:
    if not 0 <= i < len(arr):
        raise SqlError(INVALID_ARRAY_INDEX)
    return arr[i]


def sort_array(arr: tuple, ascending: bool, _compare: Compare) -> tuple:
    import functools

    nulls = [x for x in arr if x is None]
    key = functools.cmp_to_key(_compare)
    rest = sorted((x for x in arr if x is not None), key=key, reverse=not ascending)
    return tuple(nulls + rest) if ascending else tuple(rest + nulls)


def array_distinct(arr: tuple, _compare: Compare) -> tuple:
    out: list[Any] = []
    for x in arr:
        if not any((x is None and y is None) or (x is not None and y is not None and _compare(x, y) == 0)
                   for y in out):
            out.append(x)
    return tuple(out)


def flatten(arr: tuple) -> tuple | None:
    if any(x is None for x in arr):
        return None
    return tuple(y for x in arr for y in x)


CAVEAT_COLLECT_ORDER = "nondeterministic: the order of collect_list/collect_set's elements"


def collect(name: str, values: Sequence[Any], key: Callable[[Any], Any]) -> tuple[tuple, bool]:
    """``collect_list`` (the non-NULL values, here in partition order) or ``collect_set`` (the distinct
    ones under grouping equality ``key``, -0.0 kept as 0.0), and whether that order is Spark's for sure:
    only when at most one distinct value was collected, since Spark's order follows task completion and
    a hash set."""
    if name == "collect_set":
        seen: dict[Any, Any] = {}
        for v in values:
            # Spark normalizes a float it puts in the set: a group holding only -0.0 collects [0.0]
            # (seen on Spark 4, docs/semantics-notes.md "Arrays")
            seen.setdefault(key(v), v + 0.0 if isinstance(v, float) else v)
        out = tuple(seen.values())
    else:
        out = tuple(values)
    return out, len({key(v) for v in out}) <= 1


def from_spark(v: Any) -> Any:
    """A value PySpark's ``collect()`` returned, as the interpreter holds it: an array (a list) or a
    struct (a ``Row``) as a tuple, a map (a dict) as a tuple of (key, value) pairs; others as they are."""
    if isinstance(v, list | tuple):
        return tuple(from_spark(x) for x in v)
    if isinstance(v, dict):
        return tuple((from_spark(k), from_spark(x)) for k, x in v.items())
    return v


# -- type rules ------------------------------------------------------------------------------------


def _array_arg(name: str, t: SqlType) -> ArrayType:
    if not isinstance(t, ArrayType):
        raise ValueError(f"{name}: argument 1 must be an array, got {t.simple}")
    return t


def _int_arg(name: str, t: SqlType) -> SqlType | None:
    if not isinstance(t, IntegralType | NullType):
        raise ValueError(f"{name}: the index must be an integer, got {t.simple}")
    return None if t == INT else INT


def _split_rule(arity: Arity):
    def rule(types: Sequence[SqlType], nullables: Sequence[bool], consts: Sequence[Any]) -> TypeResult:
        arity("split", types, 3, 3)
        if not isinstance(types[0], StringType | NullType):
            raise ValueError(f"split: argument 1 must be a string, got {types[0].simple}")
        pattern, limit = consts[1], consts[2]
        if not isinstance(pattern, str):
            raise javaregex.NotModelled("split: the pattern must be a string literal (sparkeq reads only "
                                        "literal regular expressions)")
        javaregex.translate(pattern)  # NotModelled outside the common subset
        if not isinstance(limit, int) or isinstance(limit, bool) or not isinstance(types[2], IntegralType):
            raise javaregex.NotModelled("split: the limit must be an integer literal")
        casts = (None if isinstance(types[0], StringType) else STRING, None, None if types[2] == INT else INT)
        return ArrayType(STRING, False), any(nullables), casts

    return rule


def _unary_array_rule(arity: Arity, name: str, result: Callable[[ArrayType], SqlType]):
    def rule(types: Sequence[SqlType], nullables: Sequence[bool], _c: Sequence[Any]) -> TypeResult:
        arity(name, types, 1, 1)
        return result(_array_arg(name, types[0])), nullables[0], (None,)

    return rule


def _index_rule(arity: Arity, name: str):
    def rule(types: Sequence[SqlType], nullables: Sequence[bool], _c: Sequence[Any]) -> TypeResult:
        arity(name, types, 2, 2)
        a = _array_arg(name, types[0])
        return a.element, True, (None, _int_arg(name, types[1]))

    return rule


def _contains_rule(arity: Arity):
    def rule(types: Sequence[SqlType], nullables: Sequence[bool], _c: Sequence[Any]) -> TypeResult:
        arity("array_contains", types, 2, 2)
        a = _array_arg("array_contains", types[0])
        if isinstance(types[1], NullType):
            return BOOLEAN, True, (None, a.element)
        if types[1] != a.element:
            raise javaregex.NotModelled(f"array_contains of an {a.simple} and a {types[1].simple} "
                                        "(Spark's coercion of the two is not modelled)")
        return BOOLEAN, nullables[0] or nullables[1] or a.contains_null, (None, None)

    return rule


def _array_rule(arity: Arity):
    def rule(types: Sequence[SqlType], nullables: Sequence[bool], _c: Sequence[Any]) -> TypeResult:
        arity("array", types, 1, None)
        t: SqlType | None = types[0]
        for x in types[1:]:
            t = wider(t, x) if t is not None else None
        if t is None or isinstance(t, NullType):
            raise javaregex.NotModelled("array(...) of arguments without one common type (or only NULLs)")
        return ArrayType(t, any(nullables)), False, tuple(None if x == t else t for x in types)

    return rule


def _sort_rule(arity: Arity):
    def rule(types: Sequence[SqlType], nullables: Sequence[bool], consts: Sequence[Any]) -> TypeResult:
        arity("sort_array", types, 2, 2)
        a = _array_arg("sort_array", types[0])
        if not isinstance(types[1], BooleanType) or not isinstance(consts[1], bool):
            raise ValueError("sort_array: the order must be a boolean literal")
        return a, nullables[0], (None, None)

    return rule


def _flatten_rule(arity: Arity):
    def rule(types: Sequence[SqlType], nullables: Sequence[bool], _c: Sequence[Any]) -> TypeResult:
        arity("flatten", types, 1, 1)
        a = _array_arg("flatten", types[0])
        inner = _array_arg("flatten", a.element)
        return inner, nullables[0] or a.contains_null, (None,)

    return rule


# -- the specs -------------------------------------------------------------------------------------


def specs(spec: Callable[..., Any], arity: Arity, compare: Compare) -> tuple[Any, ...]:
    """The specs, made with ``functions.FuncSpec``, its arity check and its ``compare`` (handed in:
    this module does not import the function table)."""
    def plain(fn: Callable[..., Any]) -> Callable[[Sequence[Any], Sequence[SqlType], SqlType], Any]:
        return lambda args, _types, _rt: fn(*args)

    def comparing(fn: Callable[..., Any]) -> Callable[[Sequence[Any], Sequence[SqlType], SqlType], Any]:
        return lambda args, _types, _rt: fn(*args, compare)

    return (
        spec("split", "null_stop", plain(split), _split_rule(arity)),
        spec("size", "null_stop", plain(len), _unary_array_rule(arity, "size", lambda a: INT)),
        spec("array_contains", "null_stop", comparing(contains), _contains_rule(arity)),
        spec("element_at", "null_stop", plain(element_at), _index_rule(arity, "element_at")),
        spec("get_item", "null_stop", plain(get_item), _index_rule(arity, "get_item")),
        spec("array", "all", lambda args, _t, _rt: tuple(args), _array_rule(arity)),
        spec("sort_array", "null_stop", comparing(sort_array), _sort_rule(arity)),
        spec("array_distinct", "null_stop", comparing(array_distinct),
             _unary_array_rule(arity, "array_distinct", lambda a: a)),
        spec("flatten", "null_stop", plain(flatten), _flatten_rule(arity)),
    )


__all__ = ["CAVEAT_COLLECT_ORDER", "INVALID_ARRAY_INDEX", "INVALID_ARRAY_INDEX_IN_ELEMENT_AT",
           "INVALID_INDEX_OF_ZERO", "NAMES", "collect",
           "NEVER_RAISE", "RAISES", "from_spark", "java_split", "specs", "split"]
