"""Name scopes for the SparkLite type checker.

SparkLite has one namespace for everything a name can denote (inputs, lets, functions, parametric
functions, function parameters) and forbids shadowing and redefinition, so a scope is just an immutable
mapping from names to what they denote plus one fact about *where* we are: inside a function body
(``function`` names it for messages) only basic values may be used, and no bag operator or aggregation.
Scopes are extended by copying; programs are small and copying keeps every function's defining scope
intact for the checker, which resolves unannotated functions lazily at their first use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

from sparklite.ast import Loc
from sparklite.errors import NameResolutionError
from sparklite.types import Type

if TYPE_CHECKING:
    from collections.abc import Mapping

BUILTIN_FUNCTIONS = ("min", "max", "abs")


@dataclass(frozen=True)
class VarEntry:
    """A name bound to a value: ``origin`` says which kind of binding it is (used in messages)."""

    type: Type
    origin: str  # "input", "let", or "parameter of <function>"
    loc: Loc | None = None


@dataclass(frozen=True)
class FunEntry:
    """A named function (``def``); ``parametric`` for ``def F(params) = lambda ...``."""

    name: str
    parametric: bool
    loc: Loc | None = None


Entry = VarEntry | FunEntry


@dataclass(frozen=True)
class Scope:
    names: Mapping[str, Entry] = field(default_factory=lambda: MappingProxyType({}))
    function: str | None = None  # the function whose body is being checked, e.g. "map's function"

    @property
    def in_function(self) -> bool:
        return self.function is not None

    def lookup(self, name: str) -> Entry | None:
        return self.names.get(name)

    def bind(self, name: str, entry: Entry, loc: Loc | None) -> Scope:
        """A scope that also binds ``name``; redefinition and shadowing are errors at ``loc``."""
        if name in BUILTIN_FUNCTIONS:
            raise NameResolutionError(f"'{name}' is a builtin function and cannot be redefined", loc)
        old = self.names.get(name)
        if old is not None:
            raise NameResolutionError(f"'{name}' is already defined ({_describe(old)}); SparkLite does not "
                                      "allow redefinition or shadowing, so rename it", loc)
        names = dict(self.names)
        names[name] = entry
        return Scope(MappingProxyType(names), self.function)

    def inside(self, function: str) -> Scope:
        """The same names, as seen from the body of ``function``."""
        return Scope(self.names, function)


def _describe(entry: Entry) -> str:
    if isinstance(entry, FunEntry):
        kind = "parametric function" if entry.parametric else "function"
    else:
        kind = "input" if entry.origin == "input" else entry.origin
    where = f" at line {entry.loc.line}" if entry.loc is not None else ""
    return f"{kind}{where}"
