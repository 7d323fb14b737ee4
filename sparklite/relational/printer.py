"""A readable, SQL-flavoured rendering of relational kernel programs, for messages and test reports.

``show(program)`` prints the parameters with their schemas, then the body as an indented operator
tree, one operator per line, children below their parent (a plan, as Spark's ``explain`` prints one):

    program(T: a INT NOT NULL, s STRING)
    collect
      Sort [a#0 ASC NULLS FIRST]
        Filter (a#0 > 1)
          Project [(a#0 + 1) AS a, s#1 AS s]
            Table T

Why this form rather than DataFrame or SQL source: kernel columns are positions, and a name alone is
ambiguous after joins and ``select('k', 'k')``; ``name#index`` shows both what the user called a column
and which one it is. Expressions print in Spark SQL syntax with explicit parentheses, literals with
their type where SQL would type them otherwise (``1L`` bigint, ``1.5D`` double, ``1.50BD`` decimal,
``CAST(NULL AS INT)``), and every coercion the builder inserted is visible as a ``CAST``. Not meant to be
parsed back (codegen is the executable form).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from sparklite.relational import ast as R
from sparklite.relational.types import (
    BIGINT,
    INT,
    BooleanType,
    DateType,
    DecimalType,
    DoubleType,
    IntegralType,
    NullType,
    SqlType,
    StringType,
    TimestampType,
)

__all__ = ["show", "show_expr", "show_rel", "show_lit", "show_compound"]

_INDENT = "  "


def show(program: R.RelProgram) -> str:
    """The whole program: a header line with the parameters' schemas, then the body's plan."""
    params = "; ".join(f"{p.name}: {p.schema}" for p in program.params)
    lines = [f"{program.name}({params})"]
    body = program.body
    if isinstance(body, R.Action):
        lines.append(f"{body.kind}" + (f"({body.count})" if body.kind == "take" else ""))
        lines += _rel_lines(body.source, 1)
    else:
        lines += _rel_lines(body, 0)
    return "\n".join(lines)


def show_rel(rel: R.Rel) -> str:
    return "\n".join(_rel_lines(rel, 0))


def _rel_lines(rel: R.Rel, depth: int) -> list[str]:
    pad = _INDENT * depth
    if isinstance(rel, R.Table):
        return [f"{pad}Table {rel.name}"]
    if isinstance(rel, R.Project):
        items = ", ".join(f"{show_expr(e)} AS {f.name}" for e, f in zip(rel.exprs, rel.schema.fields,
                                                                          strict=True))
        head = f"Project [{items}]"
        kids = [rel.source]
    elif isinstance(rel, R.Filter):
        head = f"Filter {show_expr(rel.pred)}"
        kids = [rel.source]
    elif isinstance(rel, R.Join):
        cond = "" if rel.cond is None else f" ON {show_expr(rel.cond)}"
        head = f"Join {rel.kind.upper()}{cond}"
        kids = [rel.left, rel.right]
    elif isinstance(rel, R.Aggregate):
        names = rel.schema.names
        keys = ", ".join(f"{show_expr(k)} AS {n}" for k, n in zip(rel.keys, names, strict=False))
        aggs = ", ".join(f"{_show_agg(a)} AS {n}"
                         for a, n in zip(rel.aggs, names[len(rel.keys):], strict=True))
        head = f"Aggregate keys [{keys}] aggs [{aggs}]"
        kids = [rel.source]
    elif isinstance(rel, R.Distinct):
        head, kids = "Distinct", [rel.source]
    elif isinstance(rel, R.DropDuplicates):
        cols = ", ".join(f"{rel.schema.fields[i].name}#{i}" for i in rel.columns)
        head, kids = f"DropDuplicates [{cols}]", [rel.source]
    elif isinstance(rel, R.SetOp):
        word = {"union": "UNION", "intersect": "INTERSECT", "except": "EXCEPT"}[rel.kind]
        head, kids = f"{word}{' ALL' if rel.all else ' DISTINCT'}", [rel.left, rel.right]
    elif isinstance(rel, R.Sort):
        keys = ", ".join(_show_sort_key(k) for k in rel.keys)
        head, kids = f"Sort [{keys}]", [rel.source]
    elif isinstance(rel, R.Limit):
        head, kids = f"Limit {rel.count}", [rel.source]
    elif isinstance(rel, R.Window):
        calls = ", ".join(f"{_show_window_call(c)} AS {n}"
                          for c, n in zip(rel.calls, rel.schema.names[len(rel.source.schema):], strict=True))
        head, kids = f"Window [{calls}]", [rel.source]
    elif isinstance(rel, R.Generate):
        fn = ("posexplode" if rel.position else "explode") + ("_outer" if rel.outer else "")
        new = rel.schema.names[len(rel.source.schema):]
        head, kids = f"Generate {fn}({show_expr(rel.generator)}) AS ({', '.join(new)})", [rel.source]
    elif isinstance(rel, R.Opaque):
        args = ", ".join(f"{k}={v!r}" for k, v in rel.args)
        head, kids = f"Opaque {rel.op}({args})", list(rel.sources)
    elif isinstance(rel, R.Values):
        rows = ", ".join("(" + ", ".join(show_expr(c) for c in row) + ")" for row in rel.rows)
        return [f"{pad}Values [{', '.join(rel.schema.names)}] {rows}"]
    else:
        head, kids = f"<{type(rel).__name__}>", []
    out = [pad + head]
    for kid in kids:
        out += _rel_lines(kid, depth + 1)
    return out


def _show_sort_key(k: R.SortKey) -> str:
    direction = "ASC" if k.ascending else "DESC"
    return f"{show_expr(k.expr)} {direction} NULLS {'FIRST' if k.nulls_first else 'LAST'}"


def _show_window_call(c: R.WindowCall) -> str:
    from sparklite.relational.windows import spec_text

    args = [show_expr(x) for x in c.args]
    if c.name in ("lag", "lead", "ntile", "nth_value"):
        args.insert(1 if args else 0, str(c.offset))
    name = "count" if c.name == "count_star" else c.name
    shown = "*" if c.name == "count_star" else ", ".join(args)
    spec = spec_text([show_expr(p) for p in c.partition], [_show_sort_key(k) for k in c.order], c.frame)
    return f"{name}({shown}){' IGNORE NULLS' if c.ignore_nulls else ''} OVER ({spec})"


def _show_agg(a: R.AggCall) -> str:
    args = ", ".join(show_expr(x) for x in a.args)
    if a.name == "count_star":
        return "count(*)"
    if a.name == "count_distinct":
        return f"count(DISTINCT {args})"
    if a.name == "sum_distinct":
        return f"sum(DISTINCT {args})"
    return f"{a.name}({args})"


def _type(t: SqlType) -> str:
    return t.simple.upper()


def show_lit(value: object, t: SqlType) -> str:
    """A literal as Spark SQL would type it as ``t``."""
    if value is None:
        return "NULL" if isinstance(t, NullType) else f"CAST(NULL AS {_type(t)})"
    if isinstance(t, BooleanType):
        return "TRUE" if value else "FALSE"
    if isinstance(t, IntegralType):
        if t == INT:
            return str(value)
        if t == BIGINT:
            return f"{value}L"
        return f"CAST({value} AS {_type(t)})"
    if isinstance(t, DoubleType):
        x = float(value)  # type: ignore[arg-type]
        if math.isnan(x) or math.isinf(x):
            return f"CAST('{x!r}' AS DOUBLE)".replace("nan", "NaN").replace("inf", "Infinity")
        return f"{x!r}D"
    if isinstance(t, DecimalType):
        return f"{value}BD" if t.scale or "E" not in str(value) else f"CAST({value} AS {_type(t)})"
    if isinstance(t, StringType):
        return "'" + str(value).replace("\\", "\\\\").replace("'", "\\'") + "'"
    if isinstance(t, TimestampType):
        from sparklite.relational.timestamps import format_default

        return f"{t.simple.upper()} '{format_default(value)}'"
    if isinstance(t, DateType):
        return f"DATE '{value}'"
    return repr(value)


def show_expr(e: R.Expr) -> str:
    """An expression in Spark SQL syntax, columns as ``name#index``."""
    s = show_expr
    if isinstance(e, R.Col):
        return f"{e.name}#{e.index}"
    if isinstance(e, R.Lit):
        return show_lit(e.value, e.type)
    if isinstance(e, R.Arith):
        if e.try_:
            fn = {"+": "try_add", "-": "try_subtract", "*": "try_multiply", "/": "try_divide", "%": "try_mod",
                  "div": "try_div", "pmod": "try_pmod"}[e.op]
            return f"{fn}({s(e.left)}, {s(e.right)})"
        if e.op == "pmod":
            return f"pmod({s(e.left)}, {s(e.right)})"
        return f"({s(e.left)} {e.op} {s(e.right)})"
    compound = show_compound(e, s)
    if compound is not None:
        return compound
    if isinstance(e, R.Func):
        return f"{e.name}({', '.join(s(a) for a in e.args)})"
    return f"<{type(e).__name__}>"


def show_compound(e: R.Expr, s: Callable[[R.Expr], str]) -> str | None:
    """Unary minus, comparisons, logic, ``IS NULL``, ``CASE``, ``IN`` and casts in Spark SQL syntax, the
    operands written by ``s`` (``show_expr``, or codegen's SQL for inline table cells); None for
    other nodes."""
    if isinstance(e, R.Neg):
        return f"(- {s(e.operand)})"
    if isinstance(e, R.Cmp):
        return f"({s(e.left)} {e.op} {s(e.right)})"
    if isinstance(e, R.And):
        return f"({s(e.left)} AND {s(e.right)})"
    if isinstance(e, R.Or):
        return f"({s(e.left)} OR {s(e.right)})"
    if isinstance(e, R.Not):
        return f"(NOT {s(e.operand)})"
    if isinstance(e, R.IsNull):
        return f"({s(e.operand)} IS {'NOT ' if e.negated else ''}NULL)"
    if isinstance(e, R.Case):
        parts = ["CASE"] + [f"WHEN {s(c)} THEN {s(v)}" for c, v in e.branches]
        if e.orelse is not None:
            parts.append(f"ELSE {s(e.orelse)}")
        return " ".join(parts + ["END"])
    if isinstance(e, R.In):
        return f"({s(e.operand)} IN ({', '.join(s(v) for v in e.values)}))"
    if isinstance(e, R.Cast):
        return f"{'TRY_CAST' if e.try_ else 'CAST'}({s(e.operand)} AS {_type(e.type)})"
    return None
