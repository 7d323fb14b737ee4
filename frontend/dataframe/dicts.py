"""``dict(...)`` and ``collections.OrderedDict(...)`` in driver code, as CPython builds them.

Why: real jobs build rows from dictionaries, ``Row(**OrderedDict(sorted(d.items())))`` (the corpus's
chap03/dataframe_creation_from_collection.py), and a dict of constants is a constant: its items are
known, in insertion order, a repeated key keeping its first position and its last value (CPython's
rule). The result is a ``DictV``; an ``OrderedDict`` is marked ``ordered`` because its ``repr`` is not a
dict's (``OrderedDict({'a': 1})`` on Python 3.12, ``OrderedDict([('a', 1)])`` before), so printing one
is refused rather than written as a dict (``frontend.script.df_meta.python_literal``).
"""

from __future__ import annotations

from typing import Any

from frontend.dataframe.values import DictV, PyV, SeqV, Value, describe, py_value
from sparklite.ast import Loc
from sparklite.errors import InputError, UnsupportedError


def make_dict(args: list[Value], kwargs: dict[str, Value], loc: Loc, ordered: bool) -> DictV:
    """``dict(mapping_or_pairs, **kwargs)`` / ``OrderedDict(...)`` of constants."""
    what = "OrderedDict()" if ordered else "dict()"
    if len(args) > 1:
        raise InputError(f"{what} takes at most one positional argument (Python raises TypeError)", loc)
    pairs: list[tuple[Value, Value]] = []
    if args:
        src = args[0]
        if isinstance(src, DictV):
            pairs += list(src.items)
        elif isinstance(src, SeqV):
            for item in src.items:
                if not isinstance(item, SeqV) or len(item.items) != 2:
                    raise UnsupportedError(
                        f"{what} of a sequence whose items are not pairs (Python raises here unless each "
                        "is a 2-item iterable)", loc, construct="dict",
                    )
                pairs.append((item.items[0], item.items[1]))
        else:
            raise UnsupportedError(f"{what} of {describe(src)} is not supported", loc, construct="dict")
    pairs += [(PyV(k), v) for k, v in kwargs.items()]
    order: list[Any] = []
    keys: dict[Any, Value] = {}
    values: dict[Any, Value] = {}
    for k, v in pairs:
        key = _hashable(k, loc)
        if key not in keys:
            order.append(key)
            keys[key] = k
        values[key] = v
    return DictV(tuple((keys[k], values[k]) for k in order), ordered=ordered)


def _hashable(k: Value, loc: Loc) -> Any:
    if isinstance(k, PyV) or (isinstance(k, SeqV) and not k.is_list):
        value = py_value(k, loc, "a dict key")
        try:
            hash(value)
        except TypeError:
            raise InputError(f"an unhashable dict key {value!r} (Python raises TypeError)", loc) from None
        return value
    raise UnsupportedError(f"a dict key that is {describe(k)} is not supported", loc, construct="dict")
