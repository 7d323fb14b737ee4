"""String functions of Spark 4 beyond the first table: ``instr``, ``locate``, ``lpad``/``rpad``,
``initcap``, ``reverse``, ``translate``, ``replace`` and the regular-expression functions ``rlike``,
``regexp_replace``, ``regexp_extract``.

Why a module of its own: the function table (``sparklite.relational.functions``) is shared by several
lines of work; these specs join it through ``specs(spec, arity, stringish)``, which that module calls
with its ``FuncSpec`` and type helpers (passed in, so that this module does not import it back: no
import circle).

Every rule here was observed on Spark 4 (``docs/semantics-notes.md``, "String functions"):
- ``instr(s, sub)`` and ``locate(sub, s[, pos])`` count code points from 1 and give 0 when absent; an
  empty ``sub`` is found at 1 whatever ``pos`` (when ``pos >= 1``); ``locate`` with ``pos < 1`` gives 0,
  with a NULL ``pos`` 0 (not NULL), and evaluates ``pos`` first;
- ``lpad``/``rpad(s, n, pad)`` cut ``s`` to ``n`` when it is longer or ``pad`` is empty (``n < 0``:
  ``''``), else pad with ``pad`` repeated and cut;
- ``initcap`` lowercases, then title-cases the first character of the string and each one after a
  space (only ``' '``: not a tab), with full case mappings (``'ßa'`` is ``'Ssa'``);
- ``translate(s, from, to)``: each character of ``from`` maps to the one at its position in ``to`` or
  is deleted past ``to``'s end; the first occurrence in ``from`` wins;
- ``replace(s, search[, rep])``: every non-overlapping ``search`` left to right; an empty ``search``
  changes nothing;
- ``startswith``/``endswith``/``contains`` (``Column.startswith``...): an empty string is a prefix, a
  suffix and a part of every string;
- the regex functions take a literal pattern in the Java/Python common subset (``javaregex``).
All of them give NULL exactly when an argument is NULL (``locate``'s ``pos`` aside) and raise nothing
once their literal arguments are accepted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sparklite.relational import javaregex
from sparklite.relational.types import BOOLEAN, INT, STRING, IntegralType, NullType, SqlType, StringType

TypeResult = tuple[SqlType, bool, tuple[SqlType | None, ...]]
#: ``functions._arity(name, types, lo, hi)`` and ``functions._stringish(name, t)``
Arity = Callable[[str, Sequence[SqlType], int, int | None], None]
Stringish = Callable[[str, SqlType], SqlType | None]

#: The functions of this module: none raises an error of its own (effects.own_kinds).
NAMES = frozenset({"instr", "locate", "lpad", "rpad", "initcap", "reverse", "translate", "replace", "rlike",
                   "regexp_replace", "regexp_extract", "startswith", "endswith", "contains"})


def instr(s: str, sub: str) -> int:
    return s.find(sub) + 1


def locate(sub: str, s: str, pos: int) -> int:
    """``UTF8String.indexOf(sub, pos - 1) + 1``, 0 for ``pos < 1``; an empty ``sub`` is at 1."""
    if pos < 1:
        return 0
    if sub == "":
        return 1
    return s.find(sub, pos - 1) + 1


def pad(s: str, n: int, filler: str, left: bool) -> str:
    """``UTF8String.lpad``/``rpad``."""
    gap = n - len(s)
    if gap <= 0 or filler == "":
        return s[:max(n, 0)]
    fill = (filler * (gap // len(filler) + 1))[:gap]
    return fill + s if left else s + fill


def initcap(s: str) -> str:
    out = []
    prev = " "
    for c in s.lower():
        out.append(c.title() if prev == " " else c)
        prev = c
    return "".join(out)


def translate(s: str, matching: str, replace: str) -> str:
    table: dict[str, str] = {}
    for i, c in enumerate(matching):
        if c not in table:
            table[c] = replace[i] if i < len(replace) else ""
    return "".join(table.get(c, c) for c in s)


def replace(s: str, search: str, rep: str = "") -> str:
    return s if search == "" else s.replace(search, rep)


# -- type rules -------------------------------------------------------------------------------------


#: The longest ``lpad``/``rpad`` length modelled: the length must be a literal up to this (a length
#: read from a column may ask Spark for gigabytes, whose failure is not modelled).
MAX_PAD = 100_000


def _rule(arity: Arity, stringish: Stringish, name: str, lo: int, hi: int, result: SqlType,
          ints: Sequence[int] = (), nullable_from: int | None = None):
    """Arguments cast to string (``_stringish``), those at ``ints`` to int; nullable when an argument
    is (from ``nullable_from`` on only, when given)."""

    def rule(types: Sequence[SqlType], nullables: Sequence[bool], consts: Sequence[Any]) -> TypeResult:
        arity(name, types, lo, hi)
        if name in ("lpad", "rpad"):
            n = consts[1]
            if not isinstance(n, int) or isinstance(n, bool) or n > MAX_PAD:
                raise javaregex.NotModelled(f"{name}: the length must be an integer literal up to {MAX_PAD}")
        casts: list[SqlType | None] = []
        for i, t in enumerate(types):
            if i in ints:
                if not isinstance(t, IntegralType | NullType | StringType):
                    raise ValueError(f"{name}: argument {i + 1} must be an integer, got {t.simple}")
                casts.append(None if t == INT else INT)
            else:
                casts.append(stringish(name, t))
        considered = nullables if nullable_from is None else nullables[:nullable_from]
        return result, any(considered), tuple(casts)

    return rule


def _literal_string(name: str, what: str, consts: Sequence[Any], i: int) -> str:
    v = consts[i] if i < len(consts) else None
    if not isinstance(v, str):
        raise javaregex.NotModelled(f"{name}: the {what} must be a string literal (sparkeq reads only "
                                    "literal regular expressions)")
    return v


def _regex_rule(arity: Arity, stringish: Stringish, name: str):
    def rule(types: Sequence[SqlType], nullables: Sequence[bool], consts: Sequence[Any]) -> TypeResult:
        lo, hi = {"rlike": (2, 2), "regexp_replace": (3, 4), "regexp_extract": (3, 3)}[name]
        arity(name, types, lo, hi)
        regex = javaregex.translate(_literal_string(name, "pattern", consts, 1))
        casts: list[SqlType | None] = [stringish(name, types[0]), None]
        if name == "regexp_replace":
            javaregex.parse_replacement(_literal_string(name, "replacement", consts, 2), regex.groups)
            casts.append(None)
            if len(types) == 4:  # the position: Spark's default 1 is the only one modelled
                if consts[3] != 1 or isinstance(consts[3], bool) or not isinstance(types[3], IntegralType):
                    raise javaregex.NotModelled("regexp_replace: a position other than the literal 1")
                casts.append(None if types[3] == INT else INT)
        if name == "regexp_extract":
            idx = consts[2]
            if not isinstance(idx, int) or isinstance(idx, bool) or not isinstance(types[2], IntegralType):
                raise javaregex.NotModelled("regexp_extract: the group index must be an integer literal")
            if not 0 <= idx <= regex.groups:
                raise javaregex.NotModelled(
                    f"regexp_extract: group {idx} of a pattern with {regex.groups} group(s) (Spark raises "
                    "INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX on every row)")
            casts.append(None if types[2] == INT else INT)
        return (BOOLEAN if name == "rlike" else STRING), nullables[0], tuple(casts)

    return rule


# -- evaluation ------------------------------------------------------------------------------------


def _plain(fn: Callable[..., Any]) -> Callable[[Sequence[Any], Sequence[SqlType], SqlType], Any]:
    def evaluate(args: Sequence[Any], _types: Sequence[SqlType], _rt: SqlType) -> Any:
        return fn(*args)

    return evaluate


def _locate_eval(thunks: Sequence[Callable[[], Any]], _types: Sequence[SqlType], _rt: SqlType) -> Any:
    """Spark's ``StringLocate.eval``: ``pos`` first (NULL gives 0), then ``sub``, then ``s``."""
    pos = thunks[2]()
    if pos is None:
        return 0
    sub = thunks[0]()
    if sub is None:
        return None
    s = thunks[1]()
    if s is None:
        return None
    return locate(sub, s, pos)


def _pad_eval(left: bool):
    def evaluate(args: Sequence[Any], _types: Sequence[SqlType], _rt: SqlType) -> Any:
        return pad(args[0], args[1], args[2] if len(args) > 2 else " ", left)

    return evaluate


def _regex_eval(name: str):
    def evaluate(args: Sequence[Any], _types: Sequence[SqlType], _rt: SqlType) -> Any:
        regex = javaregex.translate(args[1])
        if name == "rlike":
            return javaregex.find(regex, args[0])
        if name == "regexp_extract":
            return javaregex.extract(regex, args[0], args[2])
        return javaregex.replace_all(regex, javaregex.parse_replacement(args[2], regex.groups), args[0])

    return evaluate


def specs(spec: Callable[..., Any], arity: Arity, stringish: Stringish) -> tuple[Any, ...]:
    """This module's entries of ``sparklite.relational.functions.FUNCTIONS``, made with that module's
    ``FuncSpec`` (``spec``) and its type helpers."""

    def rule(*args: Any, **kwargs: Any) -> Callable[..., TypeResult]:
        return _rule(arity, stringish, *args, **kwargs)

    def regex(name: str) -> Any:
        return spec(name, "null_stop", _regex_eval(name), _regex_rule(arity, stringish, name))

    return (
        spec("instr", "null_stop", _plain(instr), rule("instr", 2, 2, INT)),
        spec("locate", "lazy", _locate_eval, rule("locate", 3, 3, INT, ints=(2,), nullable_from=2)),
        spec("lpad", "null_stop", _pad_eval(True), rule("lpad", 2, 3, STRING, ints=(1,))),
        spec("rpad", "null_stop", _pad_eval(False), rule("rpad", 2, 3, STRING, ints=(1,))),
        spec("initcap", "null_stop", _plain(initcap), rule("initcap", 1, 1, STRING)),
        spec("reverse", "null_stop", _plain(lambda s: s[::-1]), rule("reverse", 1, 1, STRING)),
        spec("translate", "null_stop", _plain(translate), rule("translate", 3, 3, STRING)),
        spec("replace", "null_stop", _plain(replace), rule("replace", 2, 3, STRING)),
        spec("startswith", "null_stop", _plain(str.startswith), rule("startswith", 2, 2, BOOLEAN)),
        spec("endswith", "null_stop", _plain(str.endswith), rule("endswith", 2, 2, BOOLEAN)),
        spec("contains", "null_stop", _plain(lambda s, sub: sub in s), rule("contains", 2, 2, BOOLEAN)),
        regex("rlike"),
        regex("regexp_replace"),
        regex("regexp_extract"),
    )


__all__ = ["NAMES", "initcap", "instr", "locate", "pad", "replace", "specs", "translate"]
