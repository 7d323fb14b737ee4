"""SparkLite types.

SparkLite has the primitive types ``Int``, ``Bool``, ``Str`` (Python ``str``) and ``Float`` (an IEEE
double with Python's semantics), ``None`` (the type of the literal ``None`` alone), optional values
``Option[T]`` (``T`` or ``None``, what an outer join produces), lists ``List[T]`` (what ``split`` and
``take`` produce), tuples of these (nested), and bags of them. ``Dict[K, V]`` is only the result of the
dictionary actions (``countByValue``, ``countByKey``, ``collectAsMap``). Program results may also be
tuples that contain bags (``(Bag[Int], Int)``): that is the only place a bag may sit inside a tuple.
Types are frozen dataclasses so they compare structurally and can be used as dictionary keys.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class IntType:
    def __str__(self) -> str:
        return "Int"


@dataclass(frozen=True)
class BoolType:
    def __str__(self) -> str:
        return "Bool"


@dataclass(frozen=True)
class StrType:
    def __str__(self) -> str:
        return "Str"


@dataclass(frozen=True)
class FloatType:
    def __str__(self) -> str:
        return "Float"


@dataclass(frozen=True)
class NumType:
    """An int or a float, as the value decides: what Python's ``statistics.mean``/``median``/``variance``
    return for ints (an int when the exact result is integral, else a float; ``sparklite.statistics``).
    Compared and printed as the value it is; no arithmetic (its result type would depend on the value)
    and no symbolic encoding (proofs through it are by congruence only)."""

    def __str__(self) -> str:
        return "Num"


@dataclass(frozen=True)
class NoneType_:
    """The type of the literal ``None`` before it meets the type it is optional for."""

    def __str__(self) -> str:
        return "None"


@dataclass(frozen=True)
class OptionType:
    """``T`` or ``None``; never nested (``Option[Option[T]]`` is ``Option[T]``, as in Python)."""

    elem: Type

    def __str__(self) -> str:
        return f"Option[{self.elem}]"


@dataclass(frozen=True)
class ListType:
    elem: Type

    def __str__(self) -> str:
        return f"List[{self.elem}]"


@dataclass(frozen=True)
class DictType:
    key: Type
    value: Type

    def __str__(self) -> str:
        return f"Dict[{self.key}, {self.value}]"


@dataclass(frozen=True)
class TupleType:
    elems: tuple[Type, ...]

    def __str__(self) -> str:
        return "(" + ", ".join(str(e) for e in self.elems) + ")"


@dataclass(frozen=True)
class BagType:
    elem: Type

    def __str__(self) -> str:
        return f"Bag[{self.elem}]"


Type = (IntType | BoolType | StrType | FloatType | NumType | NoneType_ | OptionType | ListType | DictType
        | TupleType | BagType)

INT = IntType()
BOOL = BoolType()
STR = StrType()
FLOAT = FloatType()
NONE = NoneType_()
NUM = NumType()

PRIMITIVES = (IntType, BoolType, StrType, FloatType, NumType, NoneType_)


def is_basic(t: Type) -> bool:
    """A basic type holds no bag: primitives, options, lists, dicts and (nested) tuples of them."""
    if isinstance(t, PRIMITIVES):
        return True
    if isinstance(t, OptionType | ListType):
        return is_basic(t.elem)
    if isinstance(t, DictType):
        return is_basic(t.key) and is_basic(t.value)
    if isinstance(t, TupleType):
        return all(is_basic(e) for e in t.elems)
    return False


def is_classic(t: Type) -> bool:
    """Int, Bool and tuples of them: the fragment of the CAV 2017 paper (linear arithmetic), where
    every method applies without the theories of strings and floating point."""
    if isinstance(t, IntType | BoolType):
        return True
    return isinstance(t, TupleType) and all(is_classic(e) for e in t.elems)


def optional(t: Type) -> Type:
    """``Option[t]`` (idempotent; ``Option`` of ``None`` stays ``None``)."""
    if isinstance(t, OptionType | NoneType_):
        return t
    return OptionType(t)


def join_types(a: Type, b: Type) -> Type | None:
    """The type of a value that is either an ``a`` or a ``b`` (branches of a conditional): equal types,
    or a type and ``None`` (giving an option); None when there is no such type."""
    if a == b:
        return a
    if isinstance(a, NoneType_):
        return optional(b)
    if isinstance(b, NoneType_):
        return optional(a)
    if isinstance(a, OptionType) and a.elem == b:
        return a
    if isinstance(b, OptionType) and b.elem == a:
        return b
    if isinstance(a, ListType) and isinstance(b, ListType):  # List[None] is the empty list's type
        if isinstance(a.elem, NoneType_):
            return b
        if isinstance(b.elem, NoneType_):
            return a
        elem = join_types(a.elem, b.elem)
        return None if elem is None else ListType(elem)
    if isinstance(a, TupleType) and isinstance(b, TupleType) and len(a.elems) == len(b.elems):
        elems = [join_types(x, y) for x, y in zip(a.elems, b.elems, strict=True)]
        if all(e is not None for e in elems):
            return TupleType(tuple(elems))  # type: ignore[arg-type]
    return None


def is_hashable(t: Type) -> bool:
    """Python can hash values of ``t`` (keys of by-key operations, ``distinct``): no lists or dicts."""
    if isinstance(t, ListType | DictType | BagType):
        return False
    if isinstance(t, OptionType):
        return is_hashable(t.elem)
    if isinstance(t, TupleType):
        return all(is_hashable(e) for e in t.elems)
    return True


def is_pair(t: Type) -> bool:
    """Keyed operations (join, *ByKey) need elements that are ``(key, value)`` pairs."""
    return isinstance(t, TupleType) and len(t.elems) == 2


def contains_bag(t: Type) -> bool:
    if isinstance(t, BagType):
        return True
    if isinstance(t, TupleType):
        return any(contains_bag(e) for e in t.elems)
    return False


def is_ordered(t: Type) -> bool:
    """Types Python orders: ints, bools (``False < True``), strings, floats, lists and tuples of those
    (lexicographically). Ints, bools and floats compare with each other; options do not (``None < 1``
    raises ``TypeError``)."""
    if isinstance(t, IntType | BoolType | StrType | FloatType | NumType):
        return True
    if isinstance(t, ListType):
        return is_ordered(t.elem)
    return isinstance(t, TupleType) and all(is_ordered(e) for e in t.elems)


def is_numeric(t: Type) -> bool:
    """Python numbers: ``bool`` is a subtype of ``int`` (``True + 1 == 2``); int and float mix."""
    return isinstance(t, IntType | BoolType | FloatType)
