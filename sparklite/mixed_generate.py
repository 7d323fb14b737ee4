"""Random mixed RDD/DataFrame programs and their source data, for the differential test against Spark.

Why its own generator: the two kernels' generators draw programs over their own inputs; what is new
here is the crossing, so the stages are drawn *around* the bridges, aimed at the conversions Spark
performs there: ints past INT's range (``* 1000000000``), ``None`` produced by a conditional (a NULL in
a column declared NOT NULL, a first element whose column is still ``None`` for inference), a schema
declaring another type than the Python values have (an ``int`` into DOUBLE or STRING, a ``str`` into
INT), a schema one field short, an empty RDD (``filter`` dropping everything) under inference, and the
way back (``df.rdd`` Rows, NULLs as ``None``) into another RDD stage and another ``toDF``.

RDD stages are SparkLite text (``sparklite.parser``), relational stages come from
``sparklite.relational.generate.random_program`` over the DataFrame the bridge made (``foldable=False``:
no constant expressions Spark folds at planning time), without ``limit`` (which may stop the scan of
the RDD early) or ``dropDuplicates`` (which keeps any row).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from sparklite import mixed as M
from sparklite.parser import parse
from sparklite.relational import ast as R
from sparklite.relational.generate import random_program
from sparklite.relational.types import (
    BIGINT,
    BOOLEAN,
    DOUBLE,
    INT,
    STRING,
    BooleanType,
    DoubleType,
    Field,
    IntegralType,
    Schema,
    SqlType,
    StringType,
)

STRS = ("a", "b", "", "ab")
_SL = {"int": "Int", "str": "Str", "float": "Float", "bool": "Bool"}


@dataclass(frozen=True)
class Col:
    """One position of an RDD element: its Python kind and whether it may be None."""

    kind: str  # int | str | float | bool | other
    optional: bool = False

    @property
    def sl(self) -> str:
        base = _SL[self.kind]
        return f"Option[{base}]" if self.optional else base


def _kind_of(t: SqlType) -> str:
    if isinstance(t, IntegralType) and t.bits in (32, 64):
        return "int"
    if isinstance(t, StringType):
        return "str"
    if isinstance(t, DoubleType):
        return "float"
    if isinstance(t, BooleanType):
        return "bool"
    return "other"


class _Gen:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.count = 0

    # -- RDD stages (SparkLite text) ---------------------------------------------------------------

    def _int_expr(self, cols: list[Col]) -> tuple[str, Col]:
        rng = self.rng
        ints = [i for i, c in enumerate(cols) if c.kind == "int" and not c.optional]
        strs = [i for i, c in enumerate(cols) if c.kind == "str" and not c.optional]
        options = ["add", "mul", "mul", "big", "floordiv", "mod", "none", "cmp"] if ints else []
        options += ["len"] if strs else []
        if not options:
            return "1", Col("int")
        kind = rng.choice(options)
        if kind == "len":
            return f"len(r[{rng.choice(strs)}])", Col("int")
        i = rng.choice(ints)
        c = rng.randint(-2, 3)
        if kind == "add":
            return f"r[{i}] + r[{rng.choice(ints)}]", Col("int")
        if kind == "mul":
            return f"r[{i}] * {c}", Col("int")
        if kind == "big":
            return f"r[{i}] * {rng.choice((1000000000, 3000000000, 5000000000000000000))}", Col("int")
        if kind == "floordiv":
            return f"r[{i}] // {rng.choice((0, 2, 3, -2))}", Col("int")
        if kind == "mod":
            return f"r[{i}] % {rng.choice((2, 3, -2))}", Col("int")
        if kind == "cmp":
            return f"r[{i}] > {c}", Col("bool")
        return f"if r[{i}] > {c} then None else r[{i}]", Col("int", True)

    def _map(self, cols: list[Col]) -> tuple[str, list[Col]]:
        rng = self.rng
        exprs, out = [], []
        for _ in range(rng.randint(1, 3)):
            if rng.random() < 0.45:
                i = rng.randrange(len(cols))
                exprs.append(f"r[{i}]")
                out.append(cols[i])
            elif rng.random() < 0.15 and any(c.kind == "str" and not c.optional for c in cols):
                j = rng.choice([i for i, c in enumerate(cols) if c.kind == "str" and not c.optional])
                exprs.append(f'r[{j}] + "x"')
                out.append(Col("str"))
            else:
                e, c = self._int_expr(cols)
                exprs.append(e)
                out.append(c)
        return f"map(lambda (r) -> ({', '.join(exprs)},))", out

    def rdd_stage(self, cols: list[Col]) -> tuple[M.RddStage, list[Col]]:
        rng = self.rng
        expr, cur = "R", list(cols)
        for _ in range(rng.randint(1, 2)):
            ints = [i for i, c in enumerate(cur) if c.kind == "int" and not c.optional]
            keys = [i for i, c in enumerate(cur) if c.kind in ("int", "str") and not c.optional]
            step = rng.choice(["map", "map", "filter", "distinct", "by_key"])
            if step == "filter" and ints:
                expr = f"filter(lambda (r) -> r[{rng.choice(ints)}] > {rng.randint(-2, 4)})({expr})"
            elif step == "distinct" and all(c.kind != "float" for c in cur):
                expr = f"distinct({expr})"
            elif step == "by_key" and ints and keys:
                k, v = rng.choice(keys), rng.choice(ints)
                expr = (f"reduceByKey(lambda (a, b) -> a + b)(map(lambda (r) -> (r[{k}], r[{v}]))({expr}))")
                cur = [cur[k], Col("int")]
            else:
                fn, cur = self._map(cur)
                expr = f"{fn}({expr})"
        self.count += 1
        text = f"program S{self.count}(R: Bag[({', '.join(c.sl for c in cols)},)]) = {expr}"
        return M.RddStage(parse(text)), cur

    # -- bridges -----------------------------------------------------------------------------------

    def _declared(self, c: Col) -> SqlType:
        rng = self.rng
        wrong = rng.random() < 0.08
        if c.kind == "int":
            return rng.choice((DOUBLE, STRING)) if wrong else rng.choice((INT, INT, BIGINT))
        if c.kind == "str":
            return INT if wrong else STRING
        if c.kind == "float":
            return INT if wrong else DOUBLE
        return rng.choice((STRING, INT)) if wrong else BOOLEAN

    def to_df(self, cols: list[Col]) -> M.ToDF:
        rng = self.rng
        api = "createDataFrame" if rng.random() < 0.3 else "toDF"
        if rng.random() < 0.5:
            fields = [Field(f"c{i}", self._declared(c), c.optional or rng.random() < 0.6)
                      for i, c in enumerate(cols)]
            if c_short := (rng.random() < 0.04 and len(fields) > 1):
                fields = fields[:-1]
            del c_short
            return M.ToDF(schema=Schema(tuple(fields)), api=api)  # type: ignore[arg-type]
        n = rng.randint(0, len(cols)) if api == "toDF" else len(cols)
        return M.ToDF(names=tuple(f"n{i}" for i in range(n)), api=api)  # type: ignore[arg-type]

    # -- relational stages -------------------------------------------------------------------------

    def rel_stage(self, schema: Schema) -> M.RelStage | None:
        for _ in range(20):
            program = random_program(self.rng, {"T": schema}, self.rng.randint(1, 2), foldable=False)
            body = program.body.source if isinstance(program.body, R.Action) else program.body
            if _forbidden(body):
                continue
            return M.RelStage(R.RelProgram(program.name, program.params, body))
        return None


def _forbidden(rel: Any) -> bool:
    """``limit`` and ``dropDuplicates`` anywhere, or more than three shuffles (slow on Spark)."""
    shuffles = 0
    stack = [rel]
    while stack:
        x = stack.pop()
        if isinstance(x, R.Limit | R.DropDuplicates):
            return True
        if isinstance(x, R.Join | R.Aggregate | R.Distinct | R.SetOp | R.Sort):
            shuffles += 1
        for name in ("source", "left", "right"):
            child = getattr(x, name, None)
            if isinstance(child, R.RNode) and not isinstance(child, R.Table):
                stack.append(child)
    return shuffles > 3


def _value(rng: random.Random, c: Col) -> Any:
    if c.optional and rng.random() < 0.25:
        return None
    if c.kind == "int":
        return rng.randint(-3, 5) if rng.random() < 0.9 else rng.choice((2**31 - 1, 2**31, -(2**31) - 1))
    return rng.choice(STRS)


def random_case(rng: random.Random, name: str = "job") -> tuple[M.MixedProgram, list[tuple[Any, ...]]]:
    """A random mixed program and source data for it (a list of tuples)."""
    g = _Gen(rng)
    cols = [Col(rng.choice(("int", "int", "str")), rng.random() < 0.15) for _ in range(rng.randint(1, 3))]
    data = [tuple(_value(rng, c) for c in cols) for _ in range(rng.randint(0, 5))]
    stages: list[M.Stage] = []
    cur = cols
    for crossing in range(rng.choice((1, 1, 2))):
        if rng.random() < 0.7 or crossing > 0:
            stage, cur = g.rdd_stage(cur)
            stages.append(stage)
        to_df = g.to_df(cur)
        stages.append(to_df)
        schema = to_df.schema
        if schema is None:  # inferred: the relational stage needs the schema; guess it from the types
            if any(c.optional for c in cur):
                break  # the inferred type of an optional column depends on the data: stop at the DataFrame
            names = list(to_df.names) + [f"_{i + 1}" for i in range(len(to_df.names), len(cur))]
            types = {"int": BIGINT, "str": STRING, "float": DOUBLE, "bool": BOOLEAN}
            schema = Schema(tuple(Field(n, types[c.kind], True) for n, c in zip(names, cur, strict=True)))
        if len(schema.fields) != len(cur):
            break  # a schema one field short: the job raises, nothing after it matters
        if rng.random() < 0.7:
            rel = g.rel_stage(schema)
            if rel is not None:
                stages.append(rel)
                schema = rel.program.body.schema  # type: ignore[union-attr]
        if rng.random() < 0.6:
            break
        stages.append(M.ToRdd(rng.choice(("rdd", "collect"))))
        cur = [Col(_kind_of(f.type), f.nullable) for f in schema.fields]
        if any(c.kind == "other" for c in cur):
            break
    action = "count" if rng.random() < 0.2 else "collect"
    return M.MixedProgram(name, tuple(stages), action), data  # type: ignore[arg-type]
