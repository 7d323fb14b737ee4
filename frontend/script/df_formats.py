"""Format specs in a DataFrame script's printed text: ``f"{n:>8,}"``, ``"{:.1f}".format(n)``.

A spec is read where the value's Python type is known and the spec cannot fail on one value of it and not
another: a **count** (``n = df.count()``: always an ``int``) becomes ``Part("action", conversion="spec:"
+ spec)``, rendered by the search as Python's ``format(n, spec)`` and equal on both sides when the specs are
the same and the counts are proved equal; a **constant** is formatted here, by Python. The spec must
itself be a constant, and one that formats every int alike: the types ``c`` (raises past 0x10FFFF) and
``n`` (the locale's) are refused, as is a spec Python rejects for ints (an ``InputError``: Python raises
``ValueError``). Anything else with a spec (a ``first()`` row, a field of a collected row, which may be
NULL) is refused located.
"""

from __future__ import annotations

from typing import Any

from frontend.dataframe.values import ActionV, PyV
from frontend.script.df_meta import _action_of, _Kept
from frontend.script.df_program import Part
from sparklite.ast import Loc
from sparklite.errors import InputError, UnsupportedError

SPEC_PREFIX = "spec:"


def spec_of(conversion: str) -> str | None:
    """The format spec a part carries (``Part.conversion == "spec:..."``), or None."""
    return conversion[len(SPEC_PREFIX):] if conversion.startswith(SPEC_PREFIX) else None


def formatted(value: Any, spec: str, action_index: Any, loc: Loc) -> Part:
    """The part for ``format(value, spec)``; ``action_index(value)`` registers a count's job."""
    if isinstance(value, PyV) and isinstance(value.value, str | int | float | bool):
        try:
            return Part("lit", format(value.value, spec))
        except (ValueError, TypeError) as exc:
            raise InputError(f"format({value.value!r}, {spec!r}): {exc} (Python raises here)", loc) from None
    if isinstance(value, ActionV | _Kept) and _action_of(value).kind == "count":
        if spec[-1:] in ("c", "n"):
            raise UnsupportedError(f"the format spec {spec!r} is not modelled for a count (type 'c' raises "
                                   "for large values, 'n' follows the locale)", loc, construct="format")
        try:
            format(0, spec)
        except ValueError as exc:
            raise InputError(f"format(count, {spec!r}): {exc} (Python raises ValueError)", loc) from None
        return Part("action", action=action_index(value), conversion=SPEC_PREFIX + spec)
    raise UnsupportedError("a format spec ({x:.2f}) is modelled for a count (df.count()) and for constants; "
                           "not for this value", loc, construct="format")
