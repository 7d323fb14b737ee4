"""Exception types for bad input. Every one carries a location, so the CLI can print one line
``file:line:col: message`` and exit 3 without a traceback.

All user-facing input problems (unparsable ``.sl`` text, unsupported PySpark constructs, type errors,
unknown names) derive from ``InputError``; anything else escaping to the CLI is a bug in sparkeq.
"""

from __future__ import annotations

from sparklite.ast import Loc


class InputError(Exception):
    """A problem with the user's input, located at ``loc`` (None only when no position exists)."""

    def __init__(self, message: str, loc: Loc | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.loc = loc

    def __str__(self) -> str:
        return f"{self.loc}: {self.message}" if self.loc is not None else self.message


class SyntaxError_(InputError):
    """The ``.sl`` text does not parse."""


class NameResolutionError(InputError):
    """A name is used that is not defined (variable, function, parametric function)."""


class TypeCheckError(InputError):
    """The program is ill-typed (e.g. ``map``'s function applied to the wrong element type)."""


class UnsupportedError(InputError):
    """The input uses a construct outside the fragment sparkeq can translate faithfully."""

    def __init__(self, message: str, loc: Loc | None = None, construct: str | None = None) -> None:
        super().__init__(message, loc)
        self.construct = construct


class AnnotationNeededError(InputError):
    """An input parameter's element type is neither annotated nor inferable."""
