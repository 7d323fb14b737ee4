"""Random cross-kind pairs for the soundness fuzzer (issue 23): an RDD pipeline and its DataFrame
translation, written step by step from one random plan, with or without one mutation on the DataFrame
side.

Both sides read ``t: (a INT, b INT)`` and ``u: (k INT, s STRING)`` (all NOT NULL; the RDD parameters
``RDD[tuple[int, int]]`` and ``RDD[tuple[int, str]]``). An element is always a flat tuple; its DataFrame
columns are named ``c0, c1, ...`` after every step, so each step has one spelling per API. The
translation is meant to be faithful (Python's ``%`` and ``//`` by a positive literal as ``pmod`` and an
exact ``div``); a mutation is meant to change the meaning (a constant, an operator, ``%`` for ``pmod``,
``div`` for floor division, ``max`` for ``sum``, a dropped ``distinct``), but the fuzzer never trusts
either label: the interpreters judge every verdict.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

HEAD = """from typing import Annotated

from pyspark import RDD
from pyspark.sql import DataFrame
from pyspark.sql import functions as F

T = Annotated[DataFrame, "a INT NOT NULL, b INT NOT NULL"]
U = Annotated[DataFrame, "k INT NOT NULL, s STRING NOT NULL"]

"""

CMP = ("<", "<=", ">", ">=", "==", "!=")


@dataclass
class _Side:
    rdd: str
    df: str
    types: list[str]  # "int" or "str" per element position


@dataclass
class Pair:
    source: str
    mutated: bool
    steps: list[str] = field(default_factory=list)


def _sel(exprs: list[str]) -> str:
    return ".select(" + ", ".join(f"({e}).alias('c{i}')" for i, e in enumerate(exprs)) + ")"


def _start(name: str) -> _Side:
    if name == "t":
        return _Side("t", "t" + _sel(["F.col('a')", "F.col('b')"]), ["int", "int"])
    return _Side("u", "u" + _sel(["F.col('k')", "F.col('s')"]), ["int", "str"])


class _Gen:
    def __init__(self, rng: random.Random, mutate: bool) -> None:
        self.rng = rng
        self.mutate_left = mutate
        self.steps: list[str] = []

    def _mutation(self) -> bool:
        """Spend the pair's one mutation here, with some probability."""
        if self.mutate_left and self.rng.random() < 0.35:
            self.mutate_left = False
            return True
        return False

    def filter(self, s: _Side) -> _Side:
        i = self.rng.randrange(len(s.types))
        op = self.rng.choice(CMP)
        if s.types[i] == "int":
            c = self.rng.randint(-2, 3)
            dc, dop = c, op
            if self._mutation():
                if self.rng.random() < 0.5:
                    dc = c + self.rng.choice((-1, 1))
                else:
                    dop = self.rng.choice([o for o in CMP if o != op])
            self.steps.append(f"filter r[{i}] {op} {c}")
            return _Side(f"{s.rdd}.filter(lambda r: r[{i}] {op} {c})",
                         f"{s.df}.filter(F.col('c{i}') {dop} {dc})", s.types)
        w = self.rng.choice(("a", "b", ""))
        op = self.rng.choice(("==", "!="))
        dw = w if not self._mutation() else self.rng.choice([x for x in ("a", "b", "") if x != w])
        self.steps.append(f"filter r[{i}] {op} {w!r}")
        return _Side(f"{s.rdd}.filter(lambda r: r[{i}] {op} {w!r})",
                     f"{s.df}.filter(F.col('c{i}') {op} {dw!r})", s.types)

    def _int_expr(self, s: _Side) -> tuple[str, str, str]:
        ints = [i for i, t in enumerate(s.types) if t == "int"]
        strs = [i for i, t in enumerate(s.types) if t == "str"]
        i = self.rng.choice(ints)
        kind = self.rng.choice(("add", "mul", "sub", "mod", "floordiv", "len") if strs else
                               ("add", "mul", "sub", "mod", "floordiv"))
        c = self.rng.randint(1, 4)
        if kind == "add":
            j = self.rng.choice(ints)
            return f"r[{i}] + r[{j}]", f"F.col('c{i}') + F.col('c{j}')", kind
        if kind == "mul":
            return f"r[{i}] * {c}", f"F.col('c{i}') * {c}", kind
        if kind == "sub":
            return f"r[{i}] - {c}", f"F.col('c{i}') - {c}", kind
        if kind == "mod":
            k = self.rng.randint(2, 5)
            if self._mutation():
                return f"r[{i}] % {k}", f"F.col('c{i}') % {k}", "mod (mutated to Spark's %)"
            return f"r[{i}] % {k}", f"F.pmod(F.col('c{i}'), F.lit({k}))", kind
        if kind == "floordiv":
            k = self.rng.randint(2, 5)
            if self._mutation():
                return f"r[{i}] // {k}", f"F.expr('c{i} div {k}')", "floordiv (mutated to div)"
            return f"r[{i}] // {k}", f"F.expr('(c{i} - pmod(c{i}, {k})) div {k}')", kind
        j = self.rng.choice(strs)
        return f"len(r[{j}])", f"F.length('c{j}')", kind

    def map(self, s: _Side) -> _Side:
        """A new element: a key (an existing column) and a computed int (or the key and a column)."""
        k = self.rng.randrange(len(s.types))
        r_e, d_e, kind = self._int_expr(s)
        self.steps.append(f"map (r[{k}], {kind})")
        return _Side(f"{s.rdd}.map(lambda r: (r[{k}], {r_e}))", s.df + _sel([f"F.col('c{k}')", d_e]),
                     [s.types[k], "int"])

    def by_key(self, s: _Side) -> _Side:
        agg = self.rng.choice(("sum", "min", "max", "len"))
        dagg = agg
        if self._mutation():
            dagg = self.rng.choice([a for a in ("sum", "min", "max", "len") if a != agg])
        rdd = {"sum": ".reduceByKey(lambda x, y: x + y)", "min": ".reduceByKey(lambda x, y: min(x, y))",
               "max": ".reduceByKey(lambda x, y: max(x, y))", "len": ".groupByKey().mapValues(len)"}[agg]
        df = {"sum": "F.sum('c1')", "min": "F.min('c1')", "max": "F.max('c1')", "len": "F.count('*')"}[dagg]
        self.steps.append(f"by key {agg}")
        return _Side(s.rdd + rdd, f"{s.df}.groupBy('c0').agg(({df}).alias('c1'))", [s.types[0], "int"])

    def distinct(self, s: _Side) -> _Side:
        self.steps.append("distinct")
        if self._mutation():
            return _Side(f"{s.rdd}.distinct()", s.df, s.types)
        return _Side(f"{s.rdd}.distinct()", f"{s.df}.distinct()", s.types)

    def join(self, s: _Side) -> _Side:
        """(key, value) joined with u's (k, s): a flat (key, value, s)."""
        other = _start("u")
        self.steps.append("join u")
        rdd = f"{s.rdd}.join(u).map(lambda r: (r[0], r[1][0], r[1][1]))"
        right = "u.select(F.col('k').alias('j0'), F.col('s').alias('j1'))"
        df = (f"{s.df}.join({right}, F.col('c0') == F.col('j0'))"
              + _sel(["F.col('c0')", "F.col('c1')", "F.col('j1')"]))
        del other
        return _Side(rdd, df, [s.types[0], s.types[1], "str"])


def random_pair(rng: random.Random, mutate: bool) -> Pair:
    """A random plan, its RDD function ``r`` and DataFrame function ``d`` in one source."""
    g = _Gen(rng, mutate)
    s = _start(rng.choice("tu"))
    for _ in range(rng.randint(1, 4)):
        options = ["filter", "map", "distinct"]
        if len(s.types) == 2 and s.types[1] == "int":
            options.append("by_key")
        if len(s.types) == 2 and s.types[0] == "int":
            options.append("join")
        step = rng.choice(options)
        s = getattr(g, step)(s)
        if not any(t == "int" for t in s.types):
            break
    if g.mutate_left:  # the mutation not spent yet: a last filter takes it
        g.mutate_left = False
        g.steps.append("mutated: a filter on the DataFrame side only")
        s = _Side(s.rdd, f"{s.df}.filter(F.col('c0') != 1)" if s.types[0] == "int" else
                  f"{s.df}.filter(F.col('c0') != 'a')", s.types)
        mutated = True
    else:
        mutated = mutate
    count = rng.random() < 0.2
    rdd = s.rdd + (".count()" if count else "")
    df = s.df + (".count()" if count else "")
    source = (HEAD + "def r(t: RDD[tuple[int, int]], u: RDD[tuple[int, str]]):\n"
              f"    return {rdd}\n\n\n"
              "def d(t: T, u: U):\n"
              f"    return {df}\n")
    return Pair(source, mutated, g.steps)
