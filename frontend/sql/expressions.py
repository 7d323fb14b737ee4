"""Scalar expressions: column names, literals, operators, CASE, casts and functions.

A mixin of ``translator._Translator`` with the table from sqlglot's node types to their handlers.
"""

from __future__ import annotations

import datetime
import decimal
import difflib
import math
import re
from collections.abc import Callable, Sequence

from sqlglot import exp
from sqlglot.tokens import TokenType

from frontend.sql import nested
from frontend.sql.scopes import (
    _E,
    _NUMERIC_SUFFIX,
    _called_name,
    _Col,
    _construct_name,
    _Ctx,
    _decimal_str,
    _end,
    _func_args,
    _is_aggregate,
    _java_double,
    _numeric,
    _OuterReference,
    _raise,
    _Scope,
    _start,
    _type_sql,
    _unparen,
)
from sparklite.ast import Loc
from sparklite.errors import NameResolutionError
from sparklite.relational import ast as R
from sparklite.relational import build, mathfuncs, strings
from sparklite.relational.build import AnalysisError
from sparklite.relational.types import (
    BIGINT,
    BOOLEAN,
    DATE,
    DOUBLE,
    INT,
    SMALLINT,
    STRING,
    TIMESTAMP,
    TIMESTAMP_NTZ,
    TINYINT,
    DecimalType,
    IntegralType,
    NullType,
    SqlType,
)


class ExpressionsMixin:
    """Names and scalar expressions of ``translator._Translator``."""

    # ---- names ----------------------------------------------------------------------------------

    @staticmethod
    def lookup(scope: _Scope, qualifier: str, name: str) -> list[_Col]:
        low = name.lower()
        if qualifier:
            q = qualifier.lower()
            cols = [c for tq, cs in scope.tables if tq == q for c in cs if c.name.lower() == low]
        else:
            cols = [c for c in scope.star if c.name.lower() == low]
        seen: dict[int, _Col] = {}
        for c in cols:
            seen.setdefault(c.index, c)
        return list(seen.values())

    def column(self, node: exp.Column, ctx: _Ctx) -> _E:
        if node.args.get("db") is not None or node.args.get("catalog") is not None:
            raise self.unsupported("a three-part column name (or a struct field)", node)
        name, qual = node.name, node.table
        loc = self.loc(node)
        shown = f"{qual}.{name}" if qual else name
        hits = self.lookup(ctx.scope, qual, name)
        if len(hits) > 1:
            cands = ", ".join(f"{c.qualifier}.{c.name}" if c.qualifier else c.name for c in hits)
            raise AnalysisError(
                f"reference {shown!r} is ambiguous, could be: {cands} (AMBIGUOUS_REFERENCE)", loc
            )
        if hits:
            return _E(ctx.scope.col(hits[0], ctx.offset, loc), name)
        for depth, outer in enumerate(ctx.outers):
            outer_hits = self.lookup(outer, qual, name)
            if not outer_hits:
                continue
            if len(outer_hits) > 1:
                raise AnalysisError(f"reference {shown!r} is ambiguous (AMBIGUOUS_REFERENCE)", loc)
            if depth > 0:
                raise self.unsupported(
                    "a reference to a query more than one level out",
                    node,
                    f"{shown} belongs to an enclosing query's enclosing query",
                )
            if not ctx.outer_ok:
                raise _OuterReference(shown)
            return _E(outer.col(outer_hits[0], 0, loc), name)
        cands = [f"{c.qualifier}.{c.name}" if c.qualifier and qual else c.name for c in ctx.scope.star]
        if qual:
            cands = [f"{q}.{c.name}" for q, cs in ctx.scope.tables for c in cs]
        close = difflib.get_close_matches(shown, cands, n=5, cutoff=0.0)
        raise NameResolutionError(
            f"column {shown!r} cannot be resolved in {ctx.clause} (UNRESOLVED_COLUMN); "
            f"did you mean one of: {', '.join(close) or 'none'}",
            loc,
        )

    # ---- expressions ----------------------------------------------------------------------------

    def expr(self, node: exp.Expression, ctx: _Ctx) -> _E:
        if isinstance(node, exp.Paren):
            return self.expr(node.this, ctx)
        if ctx.hook is not None:
            r = ctx.hook(node, ctx)
            if r is not None:
                return r
        loc = self.loc(node)
        handler = _HANDLERS.get(type(node))
        if handler is not None:
            return handler(self, node, ctx, loc)
        if isinstance(node, exp.Window):
            raise self.unsupported("window functions", node, f"{self.sql(node)}")
        if _is_aggregate(self.src, node):
            if ctx.in_aggregate:
                raise AnalysisError(
                    f"aggregate function {self.sql(node)} inside another aggregate "
                    "(NESTED_AGGREGATE_FUNCTION)",
                    loc,
                )
            raise AnalysisError(f"aggregate function {self.sql(node)} is not allowed in {ctx.clause}", loc)
        if isinstance(node, exp.Func):
            return self.function(node, ctx, loc)
        raise self.unsupported(_construct_name(node), node, self.sql(node))

    def args(self, nodes: Sequence[exp.Expression], ctx: _Ctx) -> list[_E]:
        return [self.expr(n, ctx) for n in nodes]

    # literals

    def literal_cast(self, node: exp.Expression) -> bool:
        """Whether a (TRY_)CAST node is sqlglot's reading of a typed literal (``1L``, ``1.5D``, ``1BD``)."""
        if not isinstance(node, exp.TryCast) or node.args.get("safe"):
            return False
        lit = node.this
        if not isinstance(lit, exp.Literal):
            return False
        if lit.is_string:
            return not (lit.meta and "start" in lit.meta) and node.to.this == exp.DataType.Type.DECIMAL
        raw = self.raw(lit)
        return raw is not None and _NUMERIC_SUFFIX.match(raw) is not None and not raw.lower().startswith("0x")

    def raw(self, node: exp.Expression) -> str | None:
        if node.meta and "start" in node.meta:
            return self.src.text[node.meta["start"] : node.meta["end"] + 1]
        return None

    def number(self, raw: str, negative: bool, node: exp.Expression, loc: Loc) -> _E:
        """A numeric literal typed as Spark's parser types it: ``1`` int (bigint past 32 bits, decimal
        past 64), ``1L`` bigint, ``1S`` smallint, ``1Y`` tinyint, ``1.5`` decimal(2,1), ``1.5D``/``1e0``
        double, ``1BD`` decimal; ``-`` directly before a number is part of the literal."""
        text = raw.strip()
        sign = "-" if negative else ""
        m = _NUMERIC_SUFFIX.match(text)
        suffix = m.group(2).lower() if m and not re.fullmatch(r"\d+(\.\d*)?[eE][+-]?\d+", text) else ""
        body = m.group(1) if suffix else text
        try:
            if suffix in ("l", "s", "y"):
                if not re.fullmatch(r"\d+", body):
                    raise AnalysisError(f"invalid numeric literal {raw}", loc)
                t = {"l": BIGINT, "s": SMALLINT, "y": TINYINT}[suffix]
                v = int(sign + body)
                assert isinstance(t, IntegralType)
                if not t.min <= v <= t.max:
                    raise AnalysisError(
                        f"numeric literal {sign}{raw} is outside the range of {t.simple} "
                        "(INVALID_NUMERIC_LITERAL_RANGE)",
                        loc,
                    )
                return _E(R.Lit(v, t, loc=loc), str(v))
            if suffix == "f":
                raise self.unsupported(
                    "FLOAT literals", node, "32-bit floats have no kernel type; write 1.5D"
                )
            if suffix == "d" or (not suffix and re.search(r"[eE]", body)):
                f = float(sign + body)
                if math.isinf(f):
                    raise AnalysisError(f"double literal {sign}{raw} is outside the range of double", loc)
                return _E(R.Lit(f, DOUBLE, loc=loc), _java_double(f))
            if suffix == "bd" or "." in body:
                d = decimal.Decimal(sign + body)
                if d.is_zero():  # Java's BigDecimal has no -0: Spark reads -0.0 as 0.0 (CAST to STRING '0.0')
                    d = d.copy_abs()
                if d.as_tuple().exponent > 0:  # type: ignore[operator]
                    d = d.quantize(decimal.Decimal(1))
                return _E(R.Lit(d, build.decimal_type_of(d), loc=loc), _decimal_str(d))
            v = int(sign + body)
        except (ValueError, decimal.InvalidOperation):
            raise AnalysisError(f"invalid numeric literal {raw}", loc) from None
        if INT.min <= v <= INT.max:
            return _E(R.Lit(v, INT, loc=loc), str(v))
        if BIGINT.min <= v <= BIGINT.max:
            return _E(R.Lit(v, BIGINT, loc=loc), str(v))
        d = decimal.Decimal(v)
        return _E(R.Lit(d, build.decimal_type_of(d), loc=loc), str(v))

    def literal(self, node: exp.Literal, ctx: _Ctx, loc: Loc, negative: bool = False) -> _E:
        if node.is_string:
            return _E(build.lit(node.this, loc), node.this)
        raw = self.raw(node) or node.this
        return self.plus(node, self.number(raw, negative, node, loc))

    def plus(self, node: exp.Expression, e: _E) -> _E:
        """sqlglot drops a unary ``+``; Spark keeps it (``(+ a)``): read it back from the source."""
        s = _start(node)
        if s is None:
            return e
        before = self.src.text[:s].rstrip()
        if not before.endswith("+"):
            return e
        prev = before[:-1].rstrip()
        if (
            prev == ""
            or prev[-1] in "(,=<>*/%+-|"
            or re.search(
                r"(?i)\b(select|where|and|or|not|then|else|when|by|on|having|case|in|between|distinct)$", prev
            )
        ):
            return _E(e.expr, f"(+ {e.name})")
        return e

    # handlers (dispatched by node type)

    def h_literal(self, node: exp.Literal, ctx: _Ctx, loc: Loc) -> _E:
        return self.literal(node, ctx, loc)

    def h_boolean(self, node: exp.Boolean, ctx: _Ctx, loc: Loc) -> _E:
        return _E(build.lit(bool(node.this), loc), "true" if node.this else "false")

    def h_null(self, node: exp.Null, ctx: _Ctx, loc: Loc) -> _E:
        return _E(build.lit(None, loc), "NULL")

    def h_column(self, node: exp.Column, ctx: _Ctx, loc: Loc) -> _E:
        if isinstance(node.this, exp.Star):
            raise self.unsupported("* inside an expression", node)
        return self.plus(node, self.column(node, ctx))

    def h_concat_literals(self, node: exp.Concat, ctx: _Ctx, loc: Loc) -> _E:
        if (
            not (node.meta and "start" in node.meta)
            and not isinstance(node, exp.DPipe)
            and all(isinstance(a, exp.Literal) and a.is_string for a in node.expressions)
        ):
            value = self.adjacent_strings(node.expressions)
            return _E(build.lit(value, loc), value)
        return self.function(node, ctx, loc)

    def adjacent_strings(self, parts: Sequence[exp.Expression]) -> str:
        """String literals written one after the other are one string (``'a' 'b'`` is ``'ab'``), but
        sqlglot also splits a doubled quote, which Spark's lexer reads as an escaped quote: ``'it''s'``
        is ``it's``. Two of sqlglot's string tokens with nothing between them and the same quote were
        one token of Spark's, joined by the quote."""
        values = [str(p.this) for p in parts]
        first = parts[0].meta.get("start") if parts[0].meta else None
        index = next((i for i, t in enumerate(self.raw_tokens) if t.start == first), None)
        toks = self.raw_tokens[index : index + len(parts)] if index is not None else []
        if len(toks) != len(parts) or any(t.token_type != TokenType.STRING for t in toks):
            return "".join(values)
        text = self.src.text
        out = values[0]
        for prev, tok, value in zip(toks, toks[1:], values[1:], strict=False):
            quote = text[tok.start]
            out += (quote if prev.end + 1 == tok.start and text[prev.end] == quote else "") + value
        return out

    def h_trim(self, node: exp.Trim, ctx: _Ctx, loc: Loc) -> _E:
        """``TRIM([BOTH|LEADING|TRAILING] [chars] FROM s)``, ``trim(chars_first, s)``-style calls and
        ``ltrim``/``rtrim`` (sqlglot gives the source as ``this`` and the characters as ``expression``).
        Spark names them ``trim(s)``/``ltrim(s)``/``rtrim(s)``, or ``TRIM(BOTH chars FROM s)``."""
        src = self.expr(node.this, ctx)
        position = str(node.args.get("position") or "BOTH").upper()
        called = {"BOTH": "trim", "LEADING": "ltrim", "TRAILING": "rtrim"}.get(position)
        if called is None:
            raise self.unsupported(f"TRIM({position} ...)", node)
        chars_node = node.args.get("expression")
        if chars_node is None:
            return _E(self.func(called, [src.expr], node, loc), f"{called}({src.name})")
        chars = self.expr(chars_node, ctx)
        return _E(self.func(called, [src.expr, chars.expr], node, loc),
                  f"TRIM({position} {chars.name} FROM {src.name})")

    def h_dpipe(self, node: exp.DPipe, ctx: _Ctx, loc: Loc) -> _E:
        a, b = self.expr(node.this, ctx), self.expr(node.expression, ctx)
        return _E(self.func("concat", [a.expr, b.expr], node, loc), f"concat({a.name}, {b.name})")

    def h_neg(self, node: exp.Neg, ctx: _Ctx, loc: Loc) -> _E:
        inner = node.this
        if isinstance(inner, exp.Literal) and not inner.is_string:
            return self.literal(inner, ctx, loc, negative=True)
        if isinstance(inner, exp.TryCast) and self.literal_cast(inner):
            return self.typed_literal(inner, ctx, loc, negative=True)
        e = self.expr(inner, ctx)
        return _E(build.neg(e.expr, loc=loc), f"(- {e.name})")

    def typed_literal(self, node: exp.TryCast, ctx: _Ctx, loc: Loc, negative: bool = False) -> _E:
        lit = node.this
        if lit.is_string:  # 1BD: sqlglot keeps the digits only
            return self.number(lit.this + "BD", negative, node, loc)
        raw = self.raw(lit)
        assert raw is not None
        return self.number(raw, negative, node, loc)

    def h_binary(self, node: exp.Binary, ctx: _Ctx, loc: Loc) -> _E:
        if isinstance(node, exp.Add | exp.Sub):
            dated = self.interval_arith(node, ctx, loc)  # type: ignore[attr-defined]
            if dated is not None:
                return dated
        a, b = self.expr(node.this, ctx), self.expr(node.expression, ctx)
        if isinstance(node, exp.Add | exp.Sub | exp.Mul | exp.Div | exp.IntDiv | exp.Mod):
            op = {exp.Add: "+", exp.Sub: "-", exp.Mul: "*", exp.Div: "/", exp.IntDiv: "div", exp.Mod: "%"}[
                type(node)
            ]
            e = build.arith(op, a.expr, b.expr, loc=loc)  # type: ignore[arg-type]
            if isinstance(node, exp.Mod) and node.meta and "start" in node.meta:
                return _E(e, f"{_called_name(self.src, node)}({a.name}, {b.name})")
            return _E(e, f"({a.name} {op} {b.name})")
        if isinstance(node, exp.EQ | exp.NEQ | exp.GT | exp.GTE | exp.LT | exp.LTE | exp.NullSafeEQ):
            if isinstance(node, exp.NEQ):
                eq = build.compare("=", a.expr, b.expr, loc=loc)
                return _E(build.not_(eq, loc=loc), f"(NOT ({a.name} = {b.name}))")
            op = {exp.EQ: "=", exp.GT: ">", exp.GTE: ">=", exp.LT: "<", exp.LTE: "<=", exp.NullSafeEQ: "<=>"}[
                type(node)
            ]
            return self.compare(op, a, b, loc)  # type: ignore[arg-type]
        if isinstance(node, exp.And):
            return _E(build.and_(a.expr, b.expr, loc=loc), f"({a.name} AND {b.name})")
        if isinstance(node, exp.Or):
            return _E(build.or_(a.expr, b.expr, loc=loc), f"({a.name} OR {b.name})")
        raise self.unsupported(_construct_name(node), node)

    def h_safe(self, node: exp.Expression, ctx: _Ctx, loc: Loc) -> _E:
        """``try_add``/``try_subtract``/``try_multiply``/``try_divide``: NULL instead of an error."""
        a, b = self.expr(node.this, ctx), self.expr(node.expression, ctx)
        op = {exp.SafeAdd: "+", exp.SafeSubtract: "-", exp.SafeMultiply: "*", exp.SafeDivide: "/"}[type(node)]
        return _E(
            build.arith(op, a.expr, b.expr, try_=True, loc=loc),  # type: ignore[arg-type]
            f"{_called_name(self.src, node)}({a.name}, {b.name})",
        )

    def h_not(self, node: exp.Not, ctx: _Ctx, loc: Loc) -> _E:
        inner = _unparen(node.this)
        if isinstance(inner, exp.Is) and node.this is inner and self.is_not_null_syntax(inner):
            e = self.expr(inner.this, ctx)
            if not isinstance(inner.expression, exp.Null):
                raise self.unsupported("IS [NOT] TRUE/FALSE", node)
            return _E(build.is_null(e.expr, negated=True, loc=loc), f"({e.name} IS NOT NULL)")
        e = self.expr(node.this, ctx)
        return _E(build.not_(e.expr, loc=loc), f"(NOT {e.name})")

    def is_not_null_syntax(self, node: exp.Is) -> bool:
        end = _end(node.this)
        if end is None:
            return False
        return re.match(r"(?is)[\s)]*is\s+not\b", self.src.text[end + 1 :]) is not None

    def h_is(self, node: exp.Is, ctx: _Ctx, loc: Loc) -> _E:
        if not isinstance(node.expression, exp.Null):
            raise self.unsupported("IS [NOT] TRUE/FALSE/DISTINCT FROM", node)
        e = self.expr(node.this, ctx)
        return _E(build.is_null(e.expr, loc=loc), f"({e.name} IS NULL)")

    def h_between(self, node: exp.Between, ctx: _Ctx, loc: Loc) -> _E:
        if node.args.get("symmetric"):
            raise self.unsupported("BETWEEN SYMMETRIC", node)
        x, lo, hi = (
            self.expr(node.this, ctx),
            self.expr(node.args["low"], ctx),
            self.expr(node.args["high"], ctx),
        )
        e = build.and_(self.compare(">=", x, lo, loc).expr, self.compare("<=", x, hi, loc).expr, loc=loc)
        return _E(e, f"between({x.name}, {lo.name}, {hi.name})")

    def compare(self, op: R.CmpOp, a: _E, b: _E, loc: Loc) -> _E:
        """A comparison, after Spark's analyser rule for an integral expression ordered against a
        decimal literal (``b < 2.5`` is ``b < 3``, named so; beyond bigint, the literal TRUE or FALSE)."""
        rewritten = build.compare_decimal_literal(op, a.expr, b.expr, loc=loc)
        if rewritten is None:
            return _E(build.compare(op, a.expr, b.expr, loc=loc), f"({a.name} {op} {b.name})")
        if isinstance(rewritten, R.Lit):
            return _E(rewritten, "true" if rewritten.value else "false")
        assert isinstance(rewritten, R.Cmp)
        bound = rewritten.right if isinstance(b.expr, R.Lit) else rewritten.left
        assert isinstance(bound, R.Lit)
        if isinstance(b.expr, R.Lit) and isinstance(b.expr.type, DecimalType):
            return _E(rewritten, f"({a.name} {op} {bound.value})")
        return _E(rewritten, f"({bound.value} {op} {b.name})")

    def h_in(self, node: exp.In, ctx: _Ctx, loc: Loc) -> _E:
        if node.args.get("query") is not None:
            joined = self.h_exists_column(node, ctx)  # type: ignore[attr-defined]  # subqueries.in_column
            if joined is not None:
                return joined
            raise self.unsupported("an IN subquery that is not a top-level AND-ed WHERE condition", node)
        if node.args.get("unnest") is not None or node.args.get("field") is not None:
            raise self.unsupported("IN UNNEST", node)
        x = self.expr(node.this, ctx)
        vs = self.args(node.expressions, ctx)
        return _E(
            build.in_(x.expr, [v.expr for v in vs], loc=loc),
            f"({x.name} IN ({', '.join(v.name for v in vs)}))",
        )

    def h_exists(self, node: exp.Exists, ctx: _Ctx, loc: Loc) -> _E:
        joined = self.h_exists_column(node, ctx)  # type: ignore[attr-defined]
        if joined is not None:
            return joined
        raise self.unsupported("an EXISTS subquery that is not a top-level AND-ed WHERE condition", node)

    def h_case(self, node: exp.Case, ctx: _Ctx, loc: Loc) -> _E:
        operand = self.expr(node.this, ctx) if node.this is not None else None
        branches = []
        names = []
        for if_ in node.args.get("ifs") or []:
            c = self.expr(if_.this, ctx)
            if operand is not None:  # CASE x WHEN v: x = v
                c = _E(
                    build.compare("=", operand.expr, c.expr, loc=self.loc(if_)),
                    f"({operand.name} = {c.name})",
                )
            v = self.expr(if_.args["true"], ctx)
            branches.append((c.expr, v.expr))
            names.append(f"WHEN {c.name} THEN {v.name}")
        default = node.args.get("default")
        d = self.expr(default, ctx) if default is not None else None
        name = "CASE " + " ".join(names) + (f" ELSE {d.name}" if d is not None else "") + " END"
        return _E(build.case(branches, d.expr if d is not None else None, loc=loc), name)

    def h_if(self, node: exp.If, ctx: _Ctx, loc: Loc) -> _E:
        c, t = self.expr(node.this, ctx), self.expr(node.args["true"], ctx)
        f_node = node.args.get("false")
        if f_node is None:
            raise AnalysisError("if() takes three arguments", loc)
        f = self.expr(f_node, ctx)
        return _E(build.case([(c.expr, t.expr)], f.expr, loc=loc), f"(IF({c.name}, {t.name}, {f.name}))")

    def h_cast(self, node: exp.Cast, ctx: _Ctx, loc: Loc) -> _E:
        if self.literal_cast(node):
            return self.typed_literal(node, ctx, loc)  # type: ignore[arg-type]
        stamped = self.timestamp_literal(node, loc)  # type: ignore[attr-defined]
        if stamped is not None:
            return stamped
        call = self.to_timestamp_call(node, loc)  # type: ignore[attr-defined]
        if call is not None:
            return self.function(call, ctx, loc)
        to = node.to
        inner = node.this
        if (
            isinstance(inner, exp.Literal)
            and inner.is_string
            and to.this == exp.DataType.Type.DATE
            and self.typed_date_syntax(inner)
        ):
            try:
                d = datetime.date.fromisoformat(inner.this.strip())
            except ValueError:
                raise AnalysisError(
                    f"invalid DATE literal {inner.this!r} (INVALID_TYPED_LITERAL)", loc
                ) from None
            return _E(build.lit(d, loc), f"DATE '{d.isoformat()}'")
        t = self.sql_type(to, node)
        e = self.expr(inner, ctx)
        try_ = isinstance(node, exp.TryCast) and bool(node.args.get("safe"))
        return _E(
            build.cast(e.expr, t, try_=try_, loc=loc),
            f"{'TRY_CAST' if try_ else 'CAST'}({e.name} AS {_type_sql(t)})",
        )

    def typed_date_syntax(self, lit: exp.Literal) -> bool:
        s = lit.meta.get("start") if lit.meta else None
        return s is not None and re.search(r"(?i)\bdate\s*$", self.src.text[:s]) is not None

    def sql_type(self, dt: exp.DataType, node: exp.Expression) -> SqlType:
        T = exp.DataType.Type
        kind = dt.this
        simple = {
            T.INT: INT,
            T.BIGINT: BIGINT,
            T.SMALLINT: SMALLINT,
            T.TINYINT: TINYINT,
            T.DOUBLE: DOUBLE,
            T.TEXT: STRING,
            T.VARCHAR: STRING,
            T.CHAR: STRING,
            T.NVARCHAR: STRING,
            T.NCHAR: STRING,
            T.BOOLEAN: BOOLEAN,
            T.DATE: DATE,
            T.TIMESTAMP: TIMESTAMP, T.TIMESTAMPTZ: TIMESTAMP, T.TIMESTAMPLTZ: TIMESTAMP,
            T.TIMESTAMPNTZ: TIMESTAMP_NTZ,
        }
        if kind in simple:
            return simple[kind]
        if kind == T.DECIMAL:
            params = [p.this if isinstance(p, exp.DataTypeParam) else p for p in dt.expressions]
            nums = [int(p.this) for p in params if isinstance(p, exp.Literal)]
            p, s = (nums + [10, 0])[:2] if nums else (10, 0)
            if len(nums) == 1:
                s = 0
            if not 1 <= p <= 38 or not 0 <= s <= p:
                raise AnalysisError(f"invalid decimal type DECIMAL({p},{s})", self.loc(node))
            return DecimalType(p, s)
        if kind == T.FLOAT:
            raise self.unsupported("the FLOAT type", node, "32-bit floats have no kernel type; use DOUBLE")
        return _raise(self.unsupported(f"the type {dt.sql(dialect='spark')}", node))

    def function(self, node: exp.Func, ctx: _Ctx, loc: Loc) -> _E:
        """Other functions: a few are operators in Spark (``pmod``, ``positive``, ``nullif``...); the
        rest go to ``build.func`` under Spark's name for them (``ifnull``/``nvl`` are ``coalesce``)."""
        called = _called_name(self.src, node)
        if isinstance(node, exp.Anonymous) and called in getattr(self, "registered", {}):  # a registered UDF
            udf_args = self.args(list(node.expressions), ctx)
            return _E(self.registered[called]([a.expr for a in udf_args], loc),  # type: ignore[attr-defined]
                      f"{called}({', '.join(a.name for a in udf_args)})")
        if isinstance(node, exp.Anonymous):
            arg_nodes = list(node.expressions)
        else:
            arg_nodes = _func_args(node)
            if called in nested.DEFAULT_FUNCS:  # arrays: only the written arguments (frontend/sql/nested.py)
                arg_nodes = [a for a in arg_nodes if _start(a) is not None]
            if _KERNEL.get(called, called) in _EXTENDED:
                # sqlglot adds arguments the user did not write (initcap's delimiter, regexp_extract's
                # group): only the written ones, in source order; Spark's defaults come from _DEFAULT_ARG
                arg_nodes = [a for a in arg_nodes if not (isinstance(a, exp.Literal) and _start(a) is None)]
                second = _start(arg_nodes[1]) if called == "position" and len(arg_nodes) >= 2 else None
                if second is not None and re.search(r"\bin\s*$", self.src.text[:second], re.I):
                    called = "locate"  # Spark names position(b IN s) locate(b, s, 1); position(b, s) position
                if called in ("locate", "position") and any(_start(a) is None for a in arg_nodes):
                    # sqlglot keeps str before substr, and a NULL has no position to sort by
                    arg_nodes[:2] = arg_nodes[1::-1]
        arg_nodes = self.date_call_args(node, called, arg_nodes)  # type: ignore[attr-defined]
        arg_nodes = self.timestamp_call_args(node, called, arg_nodes)  # type: ignore[attr-defined]
        args = self.args(arg_nodes, ctx)
        names = ", ".join(a.name for a in args)
        exprs = [a.expr for a in args]
        pretty = f"{called}({names})"

        def need(n: int) -> None:
            if len(args) != n:
                raise AnalysisError(
                    f"{called}() takes {n} argument(s), not {len(args)} (WRONG_NUM_ARGS)", loc
                )

        if called in ("pmod", "mod", "try_mod", "div"):
            need(2)
            op = {"pmod": "pmod", "mod": "%", "try_mod": "%", "div": "div"}[called]
            return _E(
                build.arith(op, exprs[0], exprs[1], try_=called == "try_mod", loc=loc),  # type: ignore[arg-type]
                pretty if called != "div" else f"({args[0].name} div {args[1].name})",
            )
        if called == "positive":
            need(1)
            if not (isinstance(exprs[0].type, NullType) or _numeric(exprs[0].type)):
                raise AnalysisError(f"positive() needs a number, not {exprs[0].type.simple}", loc)
            return _E(exprs[0], f"(+ {names})")
        if called in ("negative", "ifnull", "nvl", "nullif") and self.has_function(called):
            # the function table has them: the same kernel as F.negative, F.ifnull... in DataFrame code
            return _E(build.func(called, exprs, loc=loc), pretty)
        if called == "negative":
            need(1)
            return _E(build.neg(exprs[0], loc=loc), pretty)
        if called in ("ifnull", "nvl"):
            need(2)
            return _E(self.func("coalesce", exprs, node, loc), pretty)
        if called == "nullif":
            need(2)
            eq = build.compare("=", exprs[0], exprs[1], loc=loc)
            return _E(build.case([(eq, R.Lit(None, exprs[0].type, loc=loc))], exprs[0], loc=loc), pretty)
        if called == "nvl2":
            need(3)
            return _E(
                build.case([(build.is_null(exprs[0], negated=True, loc=loc), exprs[1])], exprs[2], loc=loc),
                pretty,
            )
        if called in ("isnull", "isnotnull"):
            need(1)
            neg = called == "isnotnull"
            return _E(
                build.is_null(exprs[0], negated=neg, loc=loc), f"({names} IS {'NOT ' if neg else ''}NULL)"
            )
        if called in ("substr", "substring") and len(args) == 2:
            exprs.append(build.lit(INT.max, loc))  # Spark's default length
            pretty = f"{called}({names}, {INT.max})"
        if called in nested.DEFAULT_FUNCS:
            exprs, names = nested.default_args(called, exprs, names, loc)
            return _E(self.func(called, exprs, node, loc), f"{called}({names})")
        extended = _extended_call(called, exprs, names, loc)
        if extended is not None:
            kernel, exprs, pretty = extended
            return _E(self.func(kernel, exprs, node, loc), pretty)
        if called in ("round", "bround") and len(args) == 1:
            pretty = f"{called}({names}, 0)"  # Spark names round(b) as round(b, 0)
        if called in ("floor", "ceil", "signum") and len(args) == 1:
            pretty = f"{called.upper()}({names})"  # Spark's names: FLOOR(v), CEIL(v), SIGNUM(v)
        canonical = {
            "char_length": "length",
            "character_length": "length",
            "ucase": "upper",
            "lcase": "lower",
            "substr": "substring",
        }.get(called, called)
        return _E(self.func(canonical, exprs, node, loc), pretty)

    @staticmethod
    def has_function(name: str) -> bool:
        from sparklite.relational import functions

        return name in getattr(functions, "FUNCTIONS", {})

    def func(self, name: str, args: Sequence[R.Expr], node: exp.Expression, loc: Loc) -> R.Expr:
        """``build.func``, after checking the function table knows ``name`` (an unknown function or a
        UDF is unsupported, not an analysis error)."""
        from sparklite.relational import functions

        table = getattr(functions, "FUNCTIONS", None)
        if table is not None and name not in table:
            raise self.unsupported(
                f"function {name}", node, f"supported: {', '.join(sorted(table))} and the SQL operators"
            )
        return build.func(name, args, loc=loc)

    def h_like(self, node: exp.Like, ctx: _Ctx, loc: Loc) -> _E:
        if node.args.get("escape") is not None:
            raise self.unsupported("LIKE ... ESCAPE", node)
        a, b = self.expr(node.this, ctx), self.expr(node.expression, ctx)
        e = _E(self.func("like", [a.expr, b.expr], node, loc), f"{a.name} LIKE {b.name}")
        if node.args.get("negate"):
            return _E(build.not_(e.expr, loc=loc), f"(NOT {e.name})")
        return e

    def h_subquery(self, node: exp.Subquery, ctx: _Ctx, loc: Loc) -> _E:
        for sid, index in ctx.scalars:
            if sid == id(node):
                f = ctx.scope.rel.schema.fields[index]
                name = self.scalar_names.get(id(node), "scalarsubquery()")  # type: ignore[attr-defined]
                return _E(R.Col(index + ctx.offset, f.name, f.type, f.nullable, loc=loc), name)
        raise self.unsupported(
            f"a scalar subquery in {ctx.clause}",
            node,
            "only in WHERE, in HAVING, and in the SELECT list of a query without aggregation",
        )






# Spark's defaults and names for the functions of sparklite.relational.strings/mathfuncs: the argument
# its constructor adds (shown in the column name) and the name it prints
_DEFAULT_ARG = {("regexp_replace", 3): 1, ("regexp_extract", 2): 1, ("locate", 2): 1, ("position", 2): 1,
                ("lpad", 2): " ", ("rpad", 2): " ", ("replace", 2): ""}
_SHOWN = {"rlike": "RLIKE", "regexp": "RLIKE", "regexplike": "RLIKE", "regexp_like": "REGEXP_LIKE",
          "sqrt": "SQRT", "exp": "EXP",
          "log10": "LOG10", "log2": "LOG2", "power": "POWER", "log": "LOG"}
_EXTENDED = strings.NAMES | mathfuncs.NAMES
_KERNEL = {"regexp": "rlike", "regexplike": "rlike", "regexp_like": "rlike", "position": "locate"}


def _extended_call(called: str, exprs: list[R.Expr], names: str, loc: Loc
                   ) -> tuple[str, list[R.Expr], str] | None:
    """(kernel name, arguments, Spark's column name) of a call of those functions, else None."""
    kernel = _KERNEL.get(called, called)
    if kernel not in _EXTENDED:
        return None
    exprs = list(exprs)
    default = _DEFAULT_ARG.get((called, len(exprs)))
    if default is not None:
        exprs.append(build.lit(default, loc))
        names = f"{names}, {default}"
    if called == "log" and len(exprs) == 1:  # Spark's log(x) is Logarithm(E(), x): ln(x) / ln(e), ln(e) = 1
        return "ln", exprs, f"LOG(E(), {names})"
    return kernel, exprs, f"{_SHOWN.get(called, called)}({names})"


_HANDLERS: dict[type, Callable[[ExpressionsMixin, exp.Expression, _Ctx, Loc], _E]] = {  # type: ignore[dict-item]
    exp.Literal: ExpressionsMixin.h_literal,
    exp.Bracket: nested.h_bracket,
    exp.Boolean: ExpressionsMixin.h_boolean,
    exp.Null: ExpressionsMixin.h_null,
    exp.Column: ExpressionsMixin.h_column,
    exp.Neg: ExpressionsMixin.h_neg,
    exp.Trim: ExpressionsMixin.h_trim,
    exp.Add: ExpressionsMixin.h_binary,
    exp.Sub: ExpressionsMixin.h_binary,
    exp.Mul: ExpressionsMixin.h_binary,
    exp.Div: ExpressionsMixin.h_binary,
    exp.IntDiv: ExpressionsMixin.h_binary,
    exp.Mod: ExpressionsMixin.h_binary,
    exp.EQ: ExpressionsMixin.h_binary,
    exp.NEQ: ExpressionsMixin.h_binary,
    exp.GT: ExpressionsMixin.h_binary,
    exp.GTE: ExpressionsMixin.h_binary,
    exp.LT: ExpressionsMixin.h_binary,
    exp.LTE: ExpressionsMixin.h_binary,
    exp.NullSafeEQ: ExpressionsMixin.h_binary,
    exp.And: ExpressionsMixin.h_binary,
    exp.Or: ExpressionsMixin.h_binary,
    exp.SafeAdd: ExpressionsMixin.h_safe,
    exp.SafeSubtract: ExpressionsMixin.h_safe,
    exp.SafeMultiply: ExpressionsMixin.h_safe,
    exp.SafeDivide: ExpressionsMixin.h_safe,
    exp.Not: ExpressionsMixin.h_not,
    exp.Is: ExpressionsMixin.h_is,
    exp.Between: ExpressionsMixin.h_between,
    exp.In: ExpressionsMixin.h_in,
    exp.Exists: ExpressionsMixin.h_exists,
    exp.Case: ExpressionsMixin.h_case,
    exp.If: ExpressionsMixin.h_if,
    exp.Cast: ExpressionsMixin.h_cast,
    exp.TryCast: ExpressionsMixin.h_cast,
    exp.Concat: ExpressionsMixin.h_concat_literals,
    exp.DPipe: ExpressionsMixin.h_dpipe,
    exp.Like: ExpressionsMixin.h_like,
    exp.Subquery: ExpressionsMixin.h_subquery,
    exp.Extract: lambda self, node, ctx, loc: self.h_extract(node, ctx, loc),  # frontend.sql.dates
    exp.Interval: lambda self, node, ctx, loc: self.h_interval(node, ctx, loc),
}
