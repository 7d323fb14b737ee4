"""Timestamps in SQL text: ``TIMESTAMP '...'`` literals and the timestamp functions sqlglot rewrites.

A mixin of ``translator._Translator``. Why a module of its own: sqlglot's Spark reader rewrites what the
user wrote (``to_timestamp(s, 'yyyy/MM/dd')`` becomes ``StrToTime(s, '%Y/%mstrict/%dstrict')``,
``date_trunc('HOUR', t)`` becomes ``TimestampTrunc(t, HOUR)``, a default format is added to
``unix_timestamp(s)``), so the arguments are taken back from the source text here, and the function
table (``sparklite.relational.timestamps``) types them as Spark does. Spark names the columns with its
defaults written out (``unix_timestamp(s, yyyy-MM-dd HH:mm:ss)``, ``months_between(a, b, true)``).
"""

from __future__ import annotations

import re

from sqlglot import exp

from frontend.sql.scopes import _E, _start
from sparklite.ast import Loc
from sparklite.relational.build import AnalysisError
from sparklite.relational.timestamps import OutsideModel, format_default, parse_timestamp
from sparklite.relational.types import TIMESTAMP, TIMESTAMP_NTZ

#: the timestamp functions whose arguments are read back from the source text
TIMESTAMP_CALLS = frozenset({"hour", "minute", "second", "to_timestamp", "unix_timestamp", "from_unixtime",
                             "date_format", "date_trunc", "months_between"})
_DEFAULT_FORMAT = "yyyy-MM-dd HH:mm:ss"
#: the arguments Spark adds (and shows in the column's name) when the user leaves them out
_DEFAULTS = {"unix_timestamp": (None, exp.Literal.string(_DEFAULT_FORMAT)),
             "from_unixtime": (None, exp.Literal.string(_DEFAULT_FORMAT)),
             "months_between": (None, None, exp.Boolean(this=True))}


def _source_args(text: str, open_at: int) -> list[tuple[int, str]] | None:
    """The top-level arguments (start offset, text) of the call whose ``(`` is at ``open_at``."""
    depth, quote, start, out = 0, "", open_at + 1, []
    i = open_at
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 2
                continue
            if c == quote:
                quote = ""
        elif c in "'\"`":
            quote = c
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                piece = text[start:i]
                if piece.strip():
                    out.append((start + len(piece) - len(piece.lstrip()), piece.strip()))
                return out
        elif c == "," and depth == 1:
            piece = text[start:i]
            out.append((start + len(piece) - len(piece.lstrip()), piece.strip()))
            start = i + 1
        i += 1
    return None


def _string_literal(arg: str) -> str | None:
    """The value of a single-quoted SQL string literal written as ``arg`` (None if it is not one)."""
    m = re.fullmatch(r"'((?:[^'\\]|\\.|'')*)'", arg, re.S)
    if m is None:
        return None
    return re.sub(r"\\(.)|''", lambda g: g.group(1) if g.group(1) is not None else "'", m.group(1))


class TimestampsMixin:
    """Timestamp literals and the arguments of timestamp functions."""

    def timestamp_call_args(self, node: exp.Func, called: str,
                            arg_nodes: list[exp.Expression]) -> list[exp.Expression]:
        """The arguments the user wrote (string literals from the source text, in source order, with
        Spark's defaults added), for the calls of ``TIMESTAMP_CALLS``."""
        if called not in TIMESTAMP_CALLS or isinstance(node, exp.Anonymous):
            return arg_nodes
        end = node.meta.get("end") if node.meta else None
        text: str = self.src.text  # type: ignore[attr-defined]
        m = re.compile(r"\s*\(").match(text, end + 1) if end is not None else None
        source = _source_args(text, m.end() - 1) if m else None
        if source is None:
            raise self.unsupported(f"this call of {called}", node)  # type: ignore[attr-defined]
        written: dict[int, exp.Expression] = {}
        for a in node.iter_expressions():
            while not (a.meta and "start" in a.meta) and isinstance(a, exp.TimeStrToTime | exp.TsOrDsToDate |
                                                                   exp.TsOrDsToTimestamp):
                a = a.this  # a conversion sqlglot assumes: Spark's own type rule decides
            s = _start(a)
            if s is not None and not isinstance(a, exp.Var):
                written[s] = a
        out: list[exp.Expression] = []
        for at, arg_text in source:
            value = _string_literal(arg_text)
            if value is not None:
                out.append(exp.Literal.string(value))
                continue
            if arg_text.lower() in ("true", "false"):  # sqlglot keeps no position on a boolean
                out.append(exp.Boolean(this=arg_text.lower() == "true"))
                continue
            match = [n for s, n in written.items() if at <= s < at + len(arg_text)]
            if len(match) != 1:
                raise self.unsupported(f"the arguments of this {called} call",
                                       node)  # type: ignore[attr-defined]
            out.append(match[0])
        for i, default in enumerate(_DEFAULTS.get(called, ())):
            if default is not None and len(out) == i:
                out.append(default.copy())
        return out

    def to_timestamp_call(self, node: exp.Cast, loc: Loc) -> exp.Func | None:
        """``to_timestamp(s)``, which sqlglot reads as a cast: the call, for its name and its type rule."""
        if not (node.meta and "start" in node.meta):
            return None
        name = self.src.text[node.meta["start"]:node.meta["end"] + 1].lower()  # type: ignore[attr-defined]
        if name != "to_timestamp":
            return None
        return exp.Anonymous(this="to_timestamp", expressions=[node.this])

    def timestamp_literal(self, node: exp.Cast, loc: Loc) -> _E | None:
        """``TIMESTAMP '...'`` / ``TIMESTAMP_NTZ '...'`` (a typed literal), or None for another cast."""
        inner = node.this
        kind = node.to.this
        T = exp.DataType.Type
        kinds = (T.TIMESTAMP, T.TIMESTAMPTZ, T.TIMESTAMPLTZ, T.TIMESTAMPNTZ)
        if not (isinstance(inner, exp.Literal) and inner.is_string and kind in kinds):
            return None
        s = inner.meta.get("start") if inner.meta else None
        before = self.src.text[:s] if s is not None else ""  # type: ignore[attr-defined]
        m = re.search(r"(?i)\b(timestamp(?:_ntz|_ltz)?)\s*$", before)
        if m is None:
            return None
        t = TIMESTAMP_NTZ if m.group(1).lower() == "timestamp_ntz" else TIMESTAMP
        try:
            value = parse_timestamp(inner.this)
        except OutsideModel:
            raise self.unsupported(f"the timestamp literal {inner.this!r}", node,
                                    # type: ignore[attr-defined]
                                   "a time zone, a time alone or a year of other than four digits "
                                   "is not modelled") from None
        except Exception:  # noqa: BLE001 - Spark's INVALID_TYPED_LITERAL
            raise AnalysisError(f"invalid {t.simple.upper()} literal {inner.this!r} (INVALID_TYPED_LITERAL)",
                                loc) from None
        from sparklite.relational import ast as R

        return _E(R.Lit(value, t, loc=loc), f"{t.simple.upper()} '{format_default(value)}'")


__all__ = ["TIMESTAMP_CALLS", "TimestampsMixin"]
