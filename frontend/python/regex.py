"""Python's ``re`` in functions Spark runs: ``re.split``/``re.sub``/``re.findall`` with a literal pattern.

Why it can be modelled: ``re`` is the standard library, not user code, and an RDD task runs CPython's own
``re`` on each element; the reference interpreter calls that same ``re`` (``sparklite.builtins``), so its
results are exact, and proofs treat each call as an uninterpreted function of the text (two programs
applying the same pattern to the same text get the same result).

What is read (anything else is refused with a location, never approximated):
- ``re.split(P, s)``, ``re.sub(P, R, s)``, ``re.findall(P, s)`` and the same through
  ``re.compile(P[, FLAGS]).split(s)`` (``.sub(R, s)``, ``.findall(s)``);
- ``P`` a string constant that compiles; for ``split``/``findall`` with no capturing group (a group
  puts its matches, or ``None``, into ``split``'s result and makes ``findall`` return tuples: other types);
- ``FLAGS`` constants ``re.I``/``re.M``/``re.S``/``re.X``/``re.A``/``re.U`` joined with ``|``; they are
  written into the pattern as its inline prefix (``(?i)``...), which Python compiles to the same flags
  (checked here), so the kernel's builtin takes one pattern string. ``re.U`` is Python 3's default for
  ``str`` patterns;
- ``R`` a string constant without a backslash (a template with ``\\1`` or ``\\g<...>`` is parsed by
  ``re`` and may fail: not read); no ``count``/``maxsplit``/keyword arguments.
Because the pattern compiles and has no group, the builtins never raise (``sparklite.effects``).
"""

from __future__ import annotations

import ast as pyast
import re

from sparklite import ast as sl

_FLAG_LETTERS = {"I": "i", "IGNORECASE": "i", "M": "m", "MULTILINE": "m", "S": "s", "DOTALL": "s",
                 "X": "x", "VERBOSE": "x", "A": "a", "ASCII": "a", "U": "", "UNICODE": ""}
FUNCTIONS = {"split": 1, "sub": 2, "findall": 1}  # the arguments after the pattern (the text last)


class RegexUnsupported(Exception):
    """A use of ``re`` outside what is read; ``node`` locates it."""

    def __init__(self, construct: str, message: str, node: pyast.AST) -> None:
        super().__init__(message)
        self.construct = construct
        self.message = message
        self.node = node


def _flags(node: pyast.expr, modules: set[str]) -> list[str]:
    """The flag names of a constant flags expression (``re.UNICODE``, ``re.I | re.M``)."""
    if isinstance(node, pyast.BinOp) and isinstance(node.op, pyast.BitOr):
        return _flags(node.left, modules) + _flags(node.right, modules)
    if isinstance(node, pyast.Attribute) and isinstance(node.value, pyast.Name) \
            and node.value.id in modules and node.attr in _FLAG_LETTERS:
        return [node.attr]
    raise RegexUnsupported("re flags", "re flags are read as constants re.I, re.M, re.S, re.X, re.A, re.U "
                           "joined with '|'", node)


def _pattern(node: pyast.expr, flags: pyast.expr | None, modules: set[str], groups: bool) -> str:
    """The pattern with its flags written inline, checked to compile to the flags Python compiles the
    original with (``re.A | re.U`` is Python's own ValueError: refused)."""
    if not (isinstance(node, pyast.Constant) and isinstance(node.value, str)):
        raise RegexUnsupported("re pattern", "a regular expression is read only as a string constant "
                               "(a computed pattern may not compile)", node)
    names = _flags(flags, modules) if flags is not None else []
    letters = "".join(sorted({_FLAG_LETTERS[n] for n in names}))
    text = f"(?{letters}){node.value}" if letters else node.value
    try:
        original = re.compile(node.value, sum({getattr(re, n) for n in names}))
        compiled = re.compile(text)
    except (re.error, ValueError) as exc:
        raise RegexUnsupported("re pattern", f"the pattern {node.value!r} does not compile with its flags "
                               f"({exc}): Spark's task would fail", node) from None
    if compiled.flags != original.flags:  # pragma: no cover - the prefix is Python's own spelling
        raise RegexUnsupported("re flags", "these re flags are not read", flags or node)
    if compiled.groups and not groups:
        raise RegexUnsupported("re pattern with groups", f"the pattern {node.value!r} has a capturing group "
                               "(split and findall then return the groups, or None): use (?:...)", node)
    return text


def _no_extras(call: pyast.Call, positional: int) -> None:
    if call.keywords:
        raise RegexUnsupported("re keyword argument", "keyword arguments of re functions (count, maxsplit, "
                               "flags=) are not read", call.keywords[0].value)
    if len(call.args) != positional:
        raise RegexUnsupported("re arguments", f"this re call is read with {positional} argument(s) "
                               "(count/maxsplit are not)", call)


def is_regex_call(call: pyast.Call, modules: set[str]) -> bool:
    """``re.f(...)`` or ``re.compile(...).f(...)`` with ``re`` one of ``modules``."""
    func = call.func
    if not isinstance(func, pyast.Attribute):
        return False
    if isinstance(func.value, pyast.Name) and func.value.id in modules:
        return True
    inner = func.value
    return isinstance(inner, pyast.Call) and isinstance(inner.func, pyast.Attribute) \
        and isinstance(inner.func.value, pyast.Name) and inner.func.value.id in modules \
        and inner.func.attr == "compile"


def regex_call(call: pyast.Call, modules: set[str]) -> tuple[str, str, list[pyast.expr], str | None]:
    """The builtin name, the pattern (flags inline), the argument nodes after it (the text last) and the
    literal replacement of ``sub`` for a call ``is_regex_call`` accepted."""
    func = call.func
    assert isinstance(func, pyast.Attribute)
    name = func.attr
    if name not in FUNCTIONS:
        raise RegexUnsupported(f"re.{name}", f"re.{name} is not read (re.split, re.sub and re.findall are, "
                               "directly or on re.compile(...))", call)
    if isinstance(func.value, pyast.Call):  # re.compile(P[, FLAGS]).name(args)
        comp = func.value
        if comp.keywords or len(comp.args) not in (1, 2):
            raise RegexUnsupported("re.compile arguments",
                                   "re.compile is read as re.compile(PATTERN[, FLAGS])", comp)
        pattern = _pattern(comp.args[0], comp.args[1] if len(comp.args) == 2 else None, modules,
                           name == "sub")
        _no_extras(call, FUNCTIONS[name])
        rest = list(call.args)
    else:
        _no_extras(call, 1 + FUNCTIONS[name])
        pattern = _pattern(call.args[0], None, modules, name == "sub")
        rest = list(call.args[1:])
    repl = None
    if name == "sub":
        r = rest[0]
        if not (isinstance(r, pyast.Constant) and isinstance(r.value, str)) or "\\" in r.value:
            raise RegexUnsupported("re.sub replacement", "re.sub's replacement is read as a string constant "
                                   "without backslashes (templates and functions are not read)", r)
        repl = r.value
    return f"re.{name}", pattern, rest, repl


def regex_expr(builtin: str, pattern: str, text: sl.Expr, repl: str | None, loc: sl.Loc) -> sl.Expr:
    """The kernel call: the text first (as for string methods), then the pattern (and replacement)."""
    args: tuple[sl.Expr, ...] = (text, sl.StrLit(pattern, loc=loc))
    if repl is not None:
        args = (*args, sl.StrLit(repl, loc=loc))
    return sl.Call(builtin, args, loc=loc)
