"""The builtin functions of SparkLite: one table, read by every part of sparkeq.

Why a table: a builtin has a type rule (typecheck), a meaning (interpreter), the exceptions it may
raise (``sparklite.effects``, the one notion of "may raise"), and a Python spelling (codegen). Keeping
the four together means a new builtin cannot be half-added. The encoder keeps its own table of Z3
meanings (``encoder.builtins``), and treats a builtin it has no exact theory for as an uninterpreted
function, which is sound for proofs because both programs share the symbol.

Names: Python's functions keep their names (``len``, ``int``, ``float``, ``str``, ``round``, ``abs``,
``min``, ``max``, ``sum``, ``sorted``); ``math.sqrt``/``math.floor``/``math.ceil`` keep theirs; string
methods are ``str.<method>`` with the receiver as first argument (``str.split(s, ",")``); the rest are
the frontend's spelling of Python syntax: ``py.getitem(s, i)`` (``s[i]`` on strings and lists),
``py.slice(s, lo, hi)`` (``s[lo:hi]``, ``None`` for a missing bound), ``py.unpack(xs, n)`` (``a, b = xs``
as a tuple, ``ValueError`` on the wrong length), ``py.is_none(x)`` (``x is None``) and ``py.unwrap(x)``
(an optional value used as a value: ``TypeError`` if it is ``None``, as Python's next operation would).

Every implementation raises ``ProgramError(kind)`` for what the program itself raises, so that a bug in
sparkeq (an unexpected ``TypeError`` in this module, say) is never mistaken for a program's outcome.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sparklite import pystats as _pystats
from sparklite.types import (
    BOOL,
    FLOAT,
    INT,
    NONE,
    STR,
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
    is_numeric,
    is_ordered,
)

VALUE_ERROR = "ValueError"
INDEX_ERROR = "IndexError"
OVERFLOW_ERROR = "OverflowError"
TYPE_ERROR = "TypeError"
ZERO_DIVISION = "ZeroDivisionError"
NAME_ERROR = "NameError"


class ProgramError(Exception):
    """The program raised ``kind`` (a Python exception name) in a UDF or on the driver."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


class BuiltinTypeError(Exception):
    """A builtin applied to arguments of the wrong types (the type checker adds the location)."""


@dataclass(frozen=True)
class Builtin:
    """``arity`` is the admissible argument counts; ``raises`` the exceptions the builtin itself may
    raise for some arguments of admissible types (empty: never)."""

    name: str
    arity: tuple[int, ...]
    typing: Callable[[Sequence[Type]], Type]
    impl: Callable[..., Any]
    raises: frozenset[str]
    python: str  # how codegen spells a call: a format string over the arguments {0}, {1}, ...


def _guard(kinds: Sequence[str], fn: Callable[..., Any]) -> Callable[..., Any]:
    table = {"ValueError": ValueError, "IndexError": IndexError, "OverflowError": OverflowError,
             "TypeError": TypeError, "ZeroDivisionError": ZeroDivisionError, "NameError": NameError}
    excs = tuple(table[k] for k in kinds)

    def run(*args: Any) -> Any:
        try:
            return fn(*args)
        except excs as exc:
            raise ProgramError(type(exc).__name__) from None

    return run


def _want(cond: bool, message: str) -> None:
    if not cond:
        raise BuiltinTypeError(message)


# -- type rules ---------------------------------------------------------------------------------------


def _len(ts: Sequence[Type]) -> Type:
    _want(isinstance(ts[0], StrType | ListType | TupleType),
          f"len needs a Str, a list or a tuple, not {ts[0]}")
    return INT


def _to_int(ts: Sequence[Type]) -> Type:
    _want(isinstance(ts[0], StrType | FloatType) or is_numeric(ts[0]),
          f"int() needs a Str or a number, not {ts[0]}")
    return INT


def _to_float(ts: Sequence[Type]) -> Type:
    _want(isinstance(ts[0], StrType) or is_numeric(ts[0]), f"float() needs a Str or a number, not {ts[0]}")
    return FLOAT


def _to_str(ts: Sequence[Type]) -> Type:
    """``str(x)``; an optional ``x`` is fine (``str(None)`` is ``'None'``, as an outer join's missing
    side prints), a list is not supported."""
    _want(not isinstance(ts[0], ListType), f"str() of {ts[0]} is not supported")
    return STR


def _round(ts: Sequence[Type]) -> Type:
    _want(is_numeric(ts[0]), f"round needs a number, not {ts[0]}")
    if len(ts) == 2:
        _want(ts[1] == INT, f"round's ndigits must be an Int, not {ts[1]}")
        return FLOAT if ts[0] == FLOAT else INT
    return INT


def _abs(ts: Sequence[Type]) -> Type:
    _want(is_numeric(ts[0]), f"abs needs a number, not {ts[0]}")
    return FLOAT if ts[0] == FLOAT else INT


def numeric_result(ts: Sequence[Type]) -> Type:
    """Python's arithmetic result type: float if any operand is a float, else int (bools count as ints)."""
    return FLOAT if any(t == FLOAT for t in ts) else INT


def _minmax(name: str) -> Callable[[Sequence[Type]], Type]:
    def rule(ts: Sequence[Type]) -> Type:
        if len(ts) == 1:
            t = ts[0]
            _want(isinstance(t, ListType | StrType), f"{name} of one argument needs a list or a Str, not {t}")
            elem = t.elem if isinstance(t, ListType) else STR
            _want(is_ordered(elem), f"{name} needs ordered values, not {elem}")
            return elem
        if all(is_numeric(t) for t in ts) and len(set(ts)) > 1:
            _want(False, f"{name} of mixed numbers ({', '.join(map(str, ts))}) is not supported")
        _want(len(set(ts)) == 1 and is_ordered(ts[0]),
              f"{name} compares ordered values of one type, not {', '.join(map(str, ts))}")
        return ts[0]
    return rule


def _sum(ts: Sequence[Type]) -> Type:
    t = ts[0]
    _want(isinstance(t, ListType) and is_numeric(t.elem), f"sum needs a list of numbers, not {t}")
    assert isinstance(t, ListType)
    if len(ts) == 2:
        _want(is_numeric(ts[1]), f"sum's start must be a number, not {ts[1]}")
        # an empty list of floats would give the Int start itself: a Float-typed value would hold an
        # int (str() of which may raise), so the start must be a Float too, as '+' never mixes them
        _want(not (t.elem == FLOAT and ts[1] != FLOAT), f"sum of Floats needs a Float start, not {ts[1]}")
        return FLOAT if FLOAT in (t.elem, ts[1]) else INT
    return FLOAT if t.elem == FLOAT else INT


def _sorted(ts: Sequence[Type]) -> Type:
    t = ts[0]
    _want(isinstance(t, ListType) and is_ordered(t.elem), f"sorted needs a list of ordered values, not {t}")
    return t


def _float_fn(name: str, result: Type) -> Callable[[Sequence[Type]], Type]:
    def rule(ts: Sequence[Type]) -> Type:
        _want(is_numeric(ts[0]), f"{name} needs a number, not {ts[0]}")
        return result
    return rule


def _str_method(name: str, extra: tuple[Type, ...], result: Type) -> Callable[[Sequence[Type]], Type]:
    def rule(ts: Sequence[Type]) -> Type:
        _want(ts[0] == STR, f"{name} is a method of Str, not of {ts[0]}")
        for i, (got, want) in enumerate(zip(ts[1:], extra, strict=False)):
            _want(got == want, f"argument {i + 1} of {name} must be {want}, not {got}")
        return result
    return rule


def _format(ts: Sequence[Type]) -> Type:
    """``format(value, spec)``: what an f-string field with a spec (``f"{x:.2f}"``) or ``str.format``
    writes. The value is a number, a bool or a str (``None`` takes no spec: TypeError); the spec a str."""
    _want(ts[0] in (INT, FLOAT, BOOL, STR), f"format() of a {ts[0]} is not supported")
    _want(ts[1] == STR, "format()'s spec must be a str")
    return STR


def _split(ts: Sequence[Type]) -> Type:
    _want(ts[0] == STR, f"split is a method of Str, not of {ts[0]}")
    if len(ts) == 2:
        _want(ts[1] in (STR, NONE), f"split's separator must be a Str, not {ts[1]}")
    return ListType(STR)


def _getitem(ts: Sequence[Type]) -> Type:
    _want(ts[1] in (INT, BOOL), f"an index must be an Int, not {ts[1]}")
    if ts[0] == STR:
        return STR
    _want(isinstance(ts[0], ListType), f"cannot index a value of type {ts[0]} with a computed index")
    assert isinstance(ts[0], ListType)
    return ts[0].elem


def _slice(ts: Sequence[Type]) -> Type:
    _want(ts[0] == STR or isinstance(ts[0], ListType), f"cannot slice a value of type {ts[0]}")
    for t in ts[1:]:
        _want(t in (INT, NONE), f"slice bounds must be Int or None, not {t}")
    return ts[0]


def _unpack(ts: Sequence[Type]) -> Type:
    raise BuiltinTypeError("py.unpack needs a literal length")  # typed by the checker (see unpack_type)


def unpack_type(seq: Type, n: int) -> Type:
    """``a, b = seq`` for a list of length ``n``: a tuple of ``n`` elements."""
    if isinstance(seq, ListType):
        return TupleType((seq.elem,) * n)
    if seq == STR:
        return TupleType((STR,) * n)
    raise BuiltinTypeError(f"cannot unpack a value of type {seq}")


def _is_none(ts: Sequence[Type]) -> Type:
    return BOOL


def _unwrap(ts: Sequence[Type]) -> Type:
    t = ts[0]
    _want(isinstance(t, OptionType), f"py.unwrap needs an optional value, not {t}")
    assert isinstance(t, OptionType)
    return t.elem


def _regex(name: str, extra: int, result: Type) -> Callable[[Sequence[Type]], Type]:
    """``re.split(s, pattern)``, ``re.sub(s, pattern, repl)``, ``re.findall(s, pattern)``: the text
    first, then string constants the frontend checked (``frontend.python.regex``)."""
    def rule(ts: Sequence[Type]) -> Type:
        _want(all(t == STR for t in ts), f"{name} takes Strs (the text, the pattern), not "
              f"{', '.join(map(str, ts))}")
        _want(len(ts) == 2 + extra, f"{name} takes {2 + extra} arguments")
        return result
    return rule


def _flatten(ts: Sequence[Type]) -> Type:
    """``[y for x in xs for y in x]``: a list of lists (or of Strs: their characters) as one list."""
    t = ts[0]
    _want(isinstance(t, ListType) and isinstance(t.elem, ListType),
          f"py.flatten needs a list of lists, not {t}")
    assert isinstance(t, ListType)
    return t.elem


def _pystats_rule(name: str) -> Callable[[Sequence[Type]], Type]:
    inner = _pystats.typing(name)

    def rule(ts: Sequence[Type]) -> Type:
        try:
            return inner(ts)
        except _pystats.StatsTypeError as exc:
            raise BuiltinTypeError(str(exc)) from None
    return rule


# -- implementations ----------------------------------------------------------------------------------


def _py_round(x: Any, nd: int | None = None) -> Any:
    return round(x) if nd is None else round(x, nd)


def _py_getitem(s: Any, i: int) -> Any:
    return s[i]


def _py_slice(s: Any, lo: int | None, hi: int | None) -> Any:
    return s[lo:hi]


def _py_unpack(xs: Any, n: int) -> tuple:
    items = tuple(xs)
    if len(items) != n:
        raise ValueError("wrong number of values to unpack")
    return items


def _py_undefined(x: Any) -> Any:
    raise ProgramError(NAME_ERROR)


def _py_unwrap(x: Any) -> Any:
    if x is None:
        raise TypeError("None used as a value")
    return x


def _py_split(s: str, sep: str | None = None) -> list[str]:
    return s.split(sep)


def _py_sorted(xs: list) -> list:
    return sorted(xs)


def _int_of(x: Any) -> int:
    if isinstance(x, str):
        return int(x)
    return int(x)


_BUILTINS: dict[str, Builtin] = {}


def _add(name: str, arity: tuple[int, ...], typing: Callable[[Sequence[Type]], Type],
         impl: Callable[..., Any],
         raises: Sequence[str] = (), python: str | None = None) -> None:
    fn = _guard(raises, impl) if raises else impl
    _BUILTINS[name] = Builtin(name, arity, typing, fn, frozenset(raises), python or "")


_add("len", (1,), _len, len, python="len({0})")
_add("int", (1,), _to_int, _int_of, (VALUE_ERROR, OVERFLOW_ERROR), "int({0})")
_add("float", (1,), _to_float, float, (VALUE_ERROR, OVERFLOW_ERROR), "float({0})")
_add("str", (1,), _to_str, str, (VALUE_ERROR,), "str({0})")  # an int of more than 4300 digits
_add("round", (1, 2), _round, _py_round, (VALUE_ERROR, OVERFLOW_ERROR), "round({args})")
_add("abs", (1,), _abs, abs, python="abs({0})")
_add("min", (1, 2, 3, 4, 5, 6, 7, 8), _minmax("min"), min, (VALUE_ERROR,), "min({args})")
_add("max", (1, 2, 3, 4, 5, 6, 7, 8), _minmax("max"), max, (VALUE_ERROR,), "max({args})")
# sum(ints, 0.5) converts an int to a float on the way: OverflowError past 1e308 (``raises`` below:
# only that mix can raise)
_add("sum", (1, 2), _sum, sum, (OVERFLOW_ERROR,), python="sum({args})")
_add("sorted", (1,), _sorted, _py_sorted, python="sorted({0})")
_add("math.sqrt", (1,), _float_fn("math.sqrt", FLOAT), math.sqrt, (VALUE_ERROR, OVERFLOW_ERROR),
     "__import__('math').sqrt({0})")
_add("math.floor", (1,), _float_fn("math.floor", INT), math.floor, (VALUE_ERROR, OVERFLOW_ERROR),
     "__import__('math').floor({0})")
_add("math.ceil", (1,), _float_fn("math.ceil", INT), math.ceil, (VALUE_ERROR, OVERFLOW_ERROR),
     "__import__('math').ceil({0})")
_add("str.split", (1, 2), _split, _py_split, (VALUE_ERROR,), "{0}.split({rest})")
# Python's own format(): a spec that does not fit the value's type ('d' of a float, 'f' of a str), or
# an int of more than 4300 digits, raises ValueError; 'c' of an int outside range(0x110000) OverflowError
_add("py.format", (2,), _format, format, (VALUE_ERROR, OVERFLOW_ERROR), "format({0}, {1})")
_add("str.strip", (1,), _str_method("strip", (), STR), str.strip, python="{0}.strip()")
_add("str.lower", (1,), _str_method("lower", (), STR), str.lower, python="{0}.lower()")
_add("str.upper", (1,), _str_method("upper", (), STR), str.upper, python="{0}.upper()")
# s.encode('ascii', 'ignore').decode(): s without its non-ASCII characters (never raises: 'ignore')
_add("str.ascii_ignore", (1,), _str_method("ascii_ignore", (), STR),
     lambda s: s.encode("ascii", "ignore").decode(), python="{0}.encode('ascii', 'ignore').decode()")
# str(s.encode('utf-8')): the repr of s's UTF-8 bytes ("b'caf\\xc3\\xa9'"), as a course script names
# people (corpus: spark-sql.py); a lone surrogate cannot be encoded (UnicodeEncodeError, a ValueError)
_add("str.utf8_repr", (1,), _str_method("utf8_repr", (), STR), lambda s: str(s.encode("utf-8")),
     (VALUE_ERROR,), python="str({0}.encode('utf-8'))")
_add("str.startswith", (2,), _str_method("startswith", (STR,), BOOL), str.startswith,
     python="{0}.startswith({1})")
_add("str.endswith", (2,), _str_method("endswith", (STR,), BOOL), str.endswith, python="{0}.endswith({1})")
_add("str.replace", (3,), _str_method("replace", (STR, STR), STR), str.replace,
     python="{0}.replace({1}, {2})")
_add("str.find", (2,), _str_method("find", (STR,), INT), str.find, python="{0}.find({1})")  # -1 when absent
_add("py.getitem", (2,), _getitem, _py_getitem, (INDEX_ERROR,), "{0}[{1}]")
_add("py.slice", (3,), _slice, _py_slice, python="{0}[{1}:{2}]")
_add("py.unpack", (2,), _unpack, _py_unpack, (VALUE_ERROR,), "")
_add("py.is_none", (1,), _is_none, lambda x: x is None, python="({0} is None)")
_add("py.unwrap", (1,), _unwrap, _py_unwrap, (TYPE_ERROR,), "{0}")
# py.undefined(o): a free name defined nowhere, read where Spark evaluates it (frontend.python.nodes.
# Undefined): always NameError; its argument (a constant) only carries the type the context wants
_add("py.undefined", (1,), lambda ts: ts[0], _py_undefined, (NAME_ERROR,),
     "(_ for _ in ()).throw(NameError('name is not defined'))")

# Python's own re on a pattern the frontend compiled (no group, so split/findall give Strs): never raises
_add("re.split", (2,), _regex("re.split", 0, ListType(STR)), lambda s, p: re.split(p, s),
     python="__import__('re').split({1}, {0})")
_add("re.sub", (3,), _regex("re.sub", 1, STR), lambda s, p, r: re.sub(p, r, s),
     python="__import__('re').sub({1}, {2}, {0})")
_add("re.findall", (2,), _regex("re.findall", 0, ListType(STR)), lambda s, p: re.findall(p, s),
     python="__import__('re').findall({1}, {0})")
_add("py.flatten", (1,), _flatten, lambda xss: [x for xs in xss for x in xs],
     python="[__x for __xs in {0} for __x in __xs]")

# statistics.mean(xs)...: CPython's module (sparklite.pystats); StatisticsError is a ValueError
for _name in _pystats.FUNCTIONS:
    _add(f"statistics.{_name}", (1,), _pystats_rule(_name), _pystats.implementation(_name),
         (VALUE_ERROR, OVERFLOW_ERROR), f"__import__('statistics').{_name}({{0}})")

BUILTINS: dict[str, Builtin] = _BUILTINS
"""Every builtin by name (read-only by convention)."""


def lookup(name: str) -> Builtin | None:
    return _BUILTINS.get(name)


def holds_int(t: Type) -> bool:
    """Whether a value of type ``t`` may contain an ``int`` (``str``/``repr`` of an int of more than
    4300 digits raise ``ValueError``: Python's ``int_max_str_digits``; a tuple's ``str`` is the repr of
    its items). Bools are not ints here: ``str(True)`` is ``'True'``."""
    if isinstance(t, IntType):
        return True
    if isinstance(t, OptionType | ListType):
        return holds_int(t.elem)
    if isinstance(t, TupleType):
        return any(holds_int(e) for e in t.elems)
    if isinstance(t, DictType):
        return holds_int(t.key) or holds_int(t.value)
    return not isinstance(t, BoolType | StrType | FloatType | NoneType_)


def raises(name: str, arg_types: Sequence[Type | None] | None = None) -> frozenset[str]:
    """What a call of builtin ``name`` may raise: the table's ``raises``, or, with the argument types
    (``None`` for an argument of unknown type), a sharper answer for the builtins whose risk depends on
    them: ``int`` of an int never raises; ``min``/``max`` of several values never do; ``sum`` raises
only with a float start over ints; ``str`` of a value
    holding no int (a float, a bool, a str, None, tuples of those) never does (a Float-typed value is
    a float, or the int 0 of an empty ``sum``: SparkLite never mixes Int and Float, see ``_sum``). The
    one type-directed notion of "may raise": ``sparklite.effects.raises_here`` asks it."""
    b = _BUILTINS[name]
    if arg_types is not None and all(t is not None for t in arg_types):
        if name == "int" and all(t in (INT, BOOL) for t in arg_types):
            return frozenset()
        if name == "str" and len(arg_types) == 1 and not holds_int(arg_types[0]):  # type: ignore[arg-type]
            return frozenset()
        if name in ("min", "max") and len(arg_types) > 1:
            return frozenset()
        if name == "sum" and (len(arg_types) == 1 or arg_types[1] in (INT, BOOL)):
            return frozenset()  # ints add exactly, floats overflow to inf: only an int->float start raises
        if name == "str.split" and (len(arg_types) == 1 or arg_types[1] == NONE):
            return frozenset()
        if name == "py.unwrap" and arg_types and not isinstance(arg_types[0], OptionType | NoneType_):
            return frozenset()
    return b.raises
