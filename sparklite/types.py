"""SparkLite types.

SparkLite has two primitive types (``Int``, ``Bool``), tuples of basic types (nested), and bags of
basic types. Program results may also be tuples that contain bags (``(Bag[Int], Int)``): that is the
only place a bag may sit inside a tuple. Types are frozen dataclasses so they compare structurally and
can be used as dictionary keys.
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
class TupleType:
    elems: tuple[Type, ...]

    def __str__(self) -> str:
        return "(" + ", ".join(str(e) for e in self.elems) + ")"


@dataclass(frozen=True)
class BagType:
    elem: Type

    def __str__(self) -> str:
        return f"Bag[{self.elem}]"


Type = IntType | BoolType | TupleType | BagType

INT = IntType()
BOOL = BoolType()


def is_basic(t: Type) -> bool:
    """A basic type holds no bag: primitives and (nested) tuples of primitives."""
    if isinstance(t, (IntType, BoolType)):
        return True
    if isinstance(t, TupleType):
        return all(is_basic(e) for e in t.elems)
    return False


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
    """Types Python orders: ints, bools (``False < True``) and tuples of those (lexicographically)."""
    if isinstance(t, IntType | BoolType):
        return True
    return isinstance(t, TupleType) and all(is_ordered(e) for e in t.elems)
