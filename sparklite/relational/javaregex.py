"""Java regular expressions (``java.util.regex``, what Spark's ``rlike``/``regexp_replace``/``regexp_extract``
compile) as Python ``re`` patterns, on the subset where the two mean the same.

Why a translator rather than handing the pattern to ``re``: the two dialects agree on most spellings and
differ in meaning on common ones (all checked on Spark 4, ``docs/semantics-notes.md``, "Regular
expressions"):
- ``.`` in Java matches no line terminator (``\\n``, ``\\r``, ``\\u0085``, ``\\u2028``, ``\\u2029``); in
  Python it only skips ``\\n``;
- ``$`` in Java matches at the end and before a final line terminator (any of those, or ``\\r\\n``);
  Python's only before a final ``\\n``;
- ``\\d``, ``\\w``, ``\\s`` are ASCII in Java (``re.ASCII`` here), and ``(?i)`` folds ASCII only (also
  ``re.ASCII``);
- ``\\b``, ``\\v``, ``\\h``, ``\\p{..}``, nested classes ``[a[b]]``, ``&&``, possessive quantifiers,
  named groups, back references and the replacement syntax (``$1`` against ``\\1``) differ or do not
  exist in one of them: they are refused, not guessed.

Only the constructs this module lists are accepted; anything else raises ``NotModelled`` naming it,
which the builder turns into a located "not supported" refusal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TERMINATORS = "\n\r\u0085\u2028\u2029"
_DOT = "[^\\n\\r\\u0085\\u2028\\u2029]"
# Java's ``$`` (no MULTILINE): at the end, or before a final line terminator, but not between the
# ``\r`` and ``\n`` of a final ``\r\n``
_DOLLAR = "(?=(?:\\r\\n|[\\n\\r\\u0085\\u2028\\u2029])?\\Z)(?!(?<=\\r)\\n)"
_CLASS_ESCAPES = frozenset("dDwWsS")
_CHAR_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}
_QUANTIFIER = re.compile(r"\{([0-9]+)(?:(,)([0-9]*))?\}")


class NotModelled(Exception):
    """A construct whose Spark meaning sparkeq does not model (a pattern outside the common subset, a
    non-literal pattern): a refusal, not a Spark error."""


@dataclass(frozen=True)
class JavaRegex:
    """A translated pattern: the Python pattern (compiled with ``re.ASCII``) and its capturing groups."""

    source: str
    python: str
    groups: int

    def compiled(self) -> re.Pattern[str]:
        return _compile(self.python)


_CACHE: dict[str, re.Pattern[str]] = {}


def _compile(python: str) -> re.Pattern[str]:
    p = _CACHE.get(python)
    if p is None:
        p = _CACHE[python] = re.compile(python, re.ASCII)
    return p


def _is_punct(c: str) -> bool:
    """Java lets a backslash quote any character that is not an ASCII letter or digit."""
    return c.isascii() and not c.isalnum()


class _Reader:
    def __init__(self, pattern: str) -> None:
        self.p = pattern
        self.i = 0
        self.groups = 0

    def fail(self, what: str) -> NotModelled:
        return NotModelled(f"the regular expression {self.p!r}: {what} (Java and Python regexes differ or "
                           "sparkeq does not model it)")

    def translate(self) -> str:
        out = []
        if self.p.startswith("(?i)"):
            out.append("(?i)")
            self.i = 4
        depth = 0
        can_repeat = False  # whether the last item is an atom a quantifier may follow
        while self.i < len(self.p):
            c = self.p[self.i]
            self.i += 1
            if c == "\\":
                out.append(self.escape())
                can_repeat = True
            elif c == "[":
                out.append(self.char_class())
                can_repeat = True
            elif c == ".":
                out.append(_DOT)
                can_repeat = True
            elif c == "^":
                out.append("\\A")
                can_repeat = False
            elif c == "$":
                out.append(_DOLLAR)
                can_repeat = False
            elif c == "(":
                if self.p.startswith("?:", self.i):
                    self.i += 2
                    out.append("(?:")
                elif self.p.startswith("?", self.i):
                    raise self.fail("a '(?' group other than '(?:' and a leading '(?i)'")
                else:
                    self.groups += 1
                    out.append("(")
                depth += 1
                can_repeat = False
            elif c == ")":
                if depth == 0:
                    raise self.fail("an unbalanced ')'")
                depth -= 1
                out.append(")")
                can_repeat = True
            elif c == "|":
                out.append("|")
                can_repeat = False
            elif c in "*+?{":
                if not can_repeat:
                    raise self.fail(f"a quantifier {c!r} with nothing to repeat")
                out.append(self.quantifier(c))
                can_repeat = False
            elif c in "]}":
                raise self.fail(f"a bare {c!r}")
            else:
                out.append(re.escape(c))
                can_repeat = True
        if depth:
            raise self.fail("an unclosed '('")
        return "".join(out)

    def quantifier(self, c: str) -> str:
        if c == "{":
            m = _QUANTIFIER.match(self.p, self.i - 1)
            if m is None:
                raise self.fail("a '{' that is not a repetition {n}, {n,} or {n,m}")
            lo, comma, hi = m.group(1), m.group(2), m.group(3)
            if hi and int(hi) < int(lo):
                raise self.fail("a repetition {n,m} with m < n")
            self.i = m.end()
            q = "{" + str(int(lo)) + ("," if comma else "") + (str(int(hi)) if hi else "") + "}"
        else:
            q = c
        if self.p.startswith("?", self.i):
            self.i += 1
            q += "?"
        elif self.p.startswith("+", self.i):
            raise self.fail("a possessive quantifier")
        if self.i < len(self.p) and self.p[self.i] in "*+?{":
            raise self.fail("a quantifier after a quantifier")
        return q

    def escape(self) -> str:
        if self.i >= len(self.p):
            raise self.fail("a trailing backslash")
        c = self.p[self.i]
        self.i += 1
        if c in _CLASS_ESCAPES:
            return "\\" + c
        if c in _CHAR_ESCAPES:
            return re.escape(_CHAR_ESCAPES[c])
        if _is_punct(c):
            return re.escape(c)
        raise self.fail(f"the escape \\{c}")

    def class_char(self) -> tuple[str, str | None]:
        """One member of a class: (its Python spelling, the literal character or None for \\d-like)."""
        c = self.p[self.i]
        self.i += 1
        if c == "\\":
            if self.i >= len(self.p):
                raise self.fail("a trailing backslash")
            e = self.p[self.i]
            self.i += 1
            if e in _CLASS_ESCAPES:
                return "\\" + e, None
            if e in _CHAR_ESCAPES:
                return re.escape(_CHAR_ESCAPES[e]), _CHAR_ESCAPES[e]
            if _is_punct(e):
                return re.escape(e), e
            raise self.fail(f"the escape \\{e} in a character class")
        if c == "[":
            raise self.fail("a '[' inside a character class (Java nests classes)")
        if c == "&" and self.p.startswith("&", self.i):
            raise self.fail("'&&' in a character class (Java intersects classes)")
        return re.escape(c), c

    def char_class(self) -> str:
        out = ["["]
        if self.p.startswith("^", self.i):
            self.i += 1
            out.append("^")
        if self.p.startswith("]", self.i):
            raise self.fail("a ']' first in a character class")
        first = True
        while True:
            if self.i >= len(self.p):
                raise self.fail("an unclosed '['")
            if self.p[self.i] == "]":
                self.i += 1
                break
            if self.p[self.i] == "-" and (first or self.p.startswith("]", self.i + 1)):
                self.i += 1
                out.append("\\-")
                first = False
                continue
            spelled, lo = self.class_char()
            first = False
            if self.p.startswith("-", self.i) and not self.p.startswith("-]", self.i):
                self.i += 1
                if self.i >= len(self.p):
                    raise self.fail("an unclosed '['")
                hi_spelled, hi = self.class_char()
                if lo is None or hi is None or ord(lo) > ord(hi):
                    raise self.fail("a range in a character class that is not char-char in order")
                out.append(f"{spelled}-{hi_spelled}")
            else:
                out.append(spelled)
        out.append("]")
        return "".join(out)


def translate(pattern: str) -> JavaRegex:
    """``pattern`` as Java reads it, in Python's syntax; ``NotModelled`` outside the common subset."""
    reader = _Reader(pattern)
    python = reader.translate()
    try:
        _compile(python)
    except re.error as exc:  # pragma: no cover - the reader only emits valid patterns
        raise reader.fail(f"not a pattern Python compiles ({exc})") from None
    return JavaRegex(pattern, python, reader.groups)


def parse_replacement(text: str, groups: int) -> tuple[str | int, ...]:
    """Java's ``Matcher.appendReplacement`` syntax: ``$n`` a group (digits read while the number stays a
    group), ``\\x`` the character ``x``; literal text otherwise. A reference to a missing group, a
    trailing backslash, ``${name}`` or a ``$`` before anything else make Spark raise
    ``INVALID_REGEXP_REPLACE`` on every row it replaces in: refused."""
    parts: list[str | int] = []
    buf: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\":
            if i + 1 >= len(text):
                raise NotModelled(f"the replacement {text!r} ends with a backslash (Spark raises "
                                  "INVALID_REGEXP_REPLACE)")
            buf.append(text[i + 1])
            i += 2
        elif c == "$":
            if i + 1 >= len(text) or not text[i + 1].isascii() or not text[i + 1].isdigit():
                raise NotModelled(f"the replacement {text!r}: '$' not followed by a group number "
                                  "(Spark raises INVALID_REGEXP_REPLACE)")
            n = int(text[i + 1])
            if n > groups:
                raise NotModelled(f"the replacement {text!r} names group {n}, the pattern has {groups} "
                                  "(Spark raises INVALID_REGEXP_REPLACE)")
            i += 2
            while (i < len(text) and text[i].isascii() and text[i].isdigit()
                   and n * 10 + int(text[i]) <= groups):
                n = n * 10 + int(text[i])
                i += 1
            if buf:
                parts.append("".join(buf))
                buf = []
            parts.append(n)
        else:
            buf.append(c)
            i += 1
    if buf:
        parts.append("".join(buf))
    return tuple(parts)


def java_matches(regex: JavaRegex, s: str) -> list[re.Match[str]]:
    """The matches ``Matcher.find()`` meets in turn: after an empty match at ``p`` the next search
    starts at ``p + 1`` (Java), not at ``p`` asking for a non-empty match (Python's ``re.sub``/
    ``finditer``: ``regexp_replace('aaa', 'a*?', '-')`` is ``-a-a-a-`` on Spark, ``-------`` with
    ``re.sub``). ``search(s, pos)`` keeps ``\\A`` at the string's start and lets lookbehinds read
    before ``pos``, as Java's matcher does between two ``find()`` calls. Positions are code points
    where Java counts UTF-16 units: the two differ only for an empty match just before a character
    outside the BMP (not modelled)."""
    pattern = regex.compiled()
    out: list[re.Match[str]] = []
    pos = 0
    while pos <= len(s):
        m = pattern.search(s, pos)
        if m is None:
            break
        out.append(m)
        pos = m.end() + 1 if m.end() == m.start() else m.end()
    return out


def replace_all(regex: JavaRegex, replacement: tuple[str | int, ...], s: str) -> str:
    """``Matcher.replaceAll`` (what ``regexp_replace`` from position 1 does), over ``java_matches``."""
    out: list[str] = []
    last = 0
    for m in java_matches(regex, s):
        out.append(s[last:m.start()])
        out.extend(p if isinstance(p, str) else (m.group(p) or "") for p in replacement)
        last = m.end()
    out.append(s[last:])
    return "".join(out)


def find(regex: JavaRegex, s: str) -> bool:
    """``Matcher.find()``: a match anywhere (``rlike``)."""
    return regex.compiled().search(s) is not None


def extract(regex: JavaRegex, s: str, group: int) -> str:
    """``regexp_extract``: group ``group`` of the first match; '' without a match or when that group
    did not take part in it."""
    m = regex.compiled().search(s)
    if m is None:
        return ""
    return m.group(group) or ""


__all__ = ["JavaRegex", "NotModelled", "extract", "find", "java_matches", "parse_replacement", "replace_all",
           "translate"]
